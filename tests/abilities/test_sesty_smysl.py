"""Šestý smysl in a `hide` step (CS-HIDE-4, R-ABIL-ACT): the step's `activate` entry pays 1 Duše and the
awake holder counts as suspecting the hidden, so situation 1 becomes 2 (docs/scenario-format.md §5.7)."""

from __future__ import annotations

import pytest

from drd_cli.errors import DrdError
from drd_cli.testing import resolve_text

SCENARIO = """
format: drd/1
participants:
  zlodej: {{name: Zloděj, side: lapkové, pools: {{telo: 5, duse: 5, vliv: 4}}, levels: {{kejklir: 2}}}}
  bodlinka: {{name: Bodlinka, side: družina, pools: {{telo: 4, duse: {duse}, vliv: 4}}, conditions: [{conditions}],
             abilities: [{abilities}]}}
  hrac: {{name: Hráč, side: družina, pools: {{telo: 4, duse: 5, vliv: 4}}}}
rounds:
  - initiative: [zlodej, bodlinka]
    steps:
      - id: plizeni
        hide:
          hidden: zlodej
          deceived: [bodlinka, hrac]
          situation: {situation}
          action: {{label: plížení, pool: telo}}
          {activate}
          rolls: {{zlodej: 10, bodlinka: 11}}
"""


def run(*, activate: str = "activate: {bodlinka: [sesty-smysl]}", abilities: str = "sesty-smysl", duse: int = 5,
        conditions: str = "", situation: str = "auto", disable: tuple = ()) -> dict:
    return resolve_text(SCENARIO.format(activate=activate, abilities=abilities, duse=duse, conditions=conditions,
                                        situation=situation), disable=disable)


def refusal(**kw) -> str:
    with pytest.raises(DrdError) as exc:
        run(**kw)
    assert exc.value.exit_code == 1
    return exc.value.format()


def test_CS_HIDE_4_sesty_smysl_activated_in_the_hide_step_turns_situation_1_into_2_for_1_duse():
    r = run()
    s = r["steps"][0]
    assert s["hide"]["situation"] == "chance" and s["hide"]["revealed_by"] == ["bodlinka"]
    assert s["activations"] == [{"by": "bodlinka", "ability": "sesty-smysl", "cost": 1, "pool": "duse"}]
    assert r["final"]["bodlinka"]["duse"] == 4


def test_CS_HIDE_4_declined_with_an_empty_list_it_costs_nothing_and_situation_stays_1():
    r = run(activate="activate: {bodlinka: []}")
    assert r["steps"][0]["hide"]["situation"] == "unaware" and r["final"]["bodlinka"]["duse"] == 5
    assert "activations" not in r["steps"][0]


def test_CS_HIDE_4_without_activate_a_holder_who_can_pay_activates_it_as_before():
    r = run(activate="")
    assert r["steps"][0]["hide"]["situation"] == "chance" and r["final"]["bodlinka"]["duse"] == 4


def test_R_ABIL_ACT_the_czech_key_aktivace_is_the_same_entry():
    assert run(activate="aktivace: {bodlinka: [sesty-smysl]}")["final"]["bodlinka"]["duse"] == 4


@pytest.mark.parametrize("kw,needle", [
    ({"activate": "activate: {hrac: [sesty-smysl]}"}, "nemá Šestý smysl"),
    ({"activate": "activate: {zlodej: [sesty-smysl]}"}, "klamaný"),
    ({"activate": "activate: {bodlinka: [styky]}"}, "jen Šestý smysl"),
    ({"duse": 0}, "1 Duši"),
    ({"conditions": "spí"}, "spí"),
    ({"situation": "unaware"}, "situation: auto"),
    ({"disable": ("sesty-smysl",)}, "vypnut"),
])
def test_R_ABIL_ACT_a_refused_activation_names_the_failed_condition(kw, needle):
    assert needle in refusal(**kw)
