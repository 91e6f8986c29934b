"""Rodová zbraň (R-ABIL-FREE, R-MAN-2): one free obrana per round, only on an action with the chosen
weapon type (the required key `weapon`)."""

from __future__ import annotations

import pytest

from drd_cli.errors import DrdError
from drd_cli.testing import resolve_text, step

SCENARIO = """
format: drd/1
participants:
  dorin: {{pools: {{telo: 5, duse: 5, vliv: 5}}, equipment: [{items}], abilities: [{ability}]}}
  skret: {{sudba: 6}}
rounds:
  - spent: [dorin]
    steps:
      - id: s
        contest:
          action: {{actor: skret, targets: [dorin], pool: {pool}, means: {means}, roll: 7}}
          counters: [{{actor: dorin, pool: {pool}, means: {means}, from: obrana, manoeuvres: [obrana], roll: 10}}]
"""


def paid(*, ability: str = "{id: rodova-zbran, weapon: sekera}", items: str = "rodová sekera", means: str = "melee",
         pool: str = "telo") -> str:
    r = resolve_text(SCENARIO.format(ability=ability, items=items, means=means, pool=pool))
    return step(r, "s")["manoeuvres"][0]["paid"]


def test_R_ABIL_FREE_rodova_zbran_with_its_weapon_key_is_accepted_and_frees_obrana_in_melee():
    assert paid() == "free"


@pytest.mark.parametrize("means", ["melee", "throwing"])
def test_R_ABIL_FREE_a_sekera_is_swung_or_thrown(means):
    assert paid(means=means) == "free"


def test_R_ABIL_FREE_a_verbal_duel_gets_no_free_obrana():
    assert paid(means="dealing", pool="vliv") == "vliv"


def test_R_ABIL_FREE_an_action_of_another_weapon_type_gets_no_free_obrana():
    assert paid(means="shooting") == "telo"                      # a sekera is not shot
    assert paid(items="meč") == "telo"                           # he fights with a meč, not his sekera
    assert paid(items="meč, rodová sekera") == "free"            # he holds it


def test_R_ABIL_FREE_without_weapons_listed_the_chosen_one_is_taken_as_used():
    assert paid(items="lano") == "free"


def test_R_ABIL_FREE_the_refusal_names_the_failed_condition():
    r = resolve_text(SCENARIO.format(ability="{id: rodova-zbran, weapon: sekera}", items="rodová sekera",
                                     means="dealing", pool="vliv"))
    text = str(r["steps"][0])
    assert "sekera" in text and "dealing" in text and "melee / throwing" in text


@pytest.mark.parametrize("ability,needle", [("rodova-zbran", "weapon"),
                                            ("{id: rodova-zbran, weapon: hrábě}", "hrábě")])
def test_R_ABIL_FREE_the_weapon_key_is_required_and_checked(ability, needle):
    with pytest.raises(DrdError) as exc:
        resolve_text(SCENARIO.format(ability=ability, items="lano", means="melee", pool="telo"))
    assert exc.value.exit_code == 2 and needle in exc.value.format()
