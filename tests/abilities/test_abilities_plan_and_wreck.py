"""Skvělý taktik's battle plan (R-ABIL-FREE, R-MAN-2/3) and Hlava nehlava's wrecked weapon (R-ABIL-GAIN,
R-EXH-4), end to end: what the result, the final state and the Czech transcript say."""

from __future__ import annotations

import pytest

from drd_cli.errors import DrdError
from drd_cli.render.terminal import render_text
from drd_cli.testing import resolve_text, step

TAKTIK = """\
format: drd/1
participants:
  radan: {name: Radan, side: d, pools: {telo: 3, duse: 3, vliv: 3}, conditions: CONDITIONS, abilities: ABILITIES}
  vudce: {name: Vůdce, side: s, sudba: 6, ohrozeni: 1}
  skret: {name: Skřet, side: s, sudba: 4, ohrozeni: 1}
rounds:
  - initiative: [radan, vudce, skret]
    spent: [radan]
    steps:
      - id: a
        contest:
          action: {actor: vudce, targets: [radan], pool: telo, means: melee, roll: 8, effect: {ohrozeni: 1}}
          counters: [{actor: radan, from: obrana, manoeuvres: [obrana], roll: 10}]
      - id: b
        contest:
          action: {actor: skret, targets: [radan], pool: telo, means: melee, roll: 7, effect: EFFECT}
          counters: [{actor: radan, from: obrana, manoeuvres: [obrana], roll: 6}]
        choices: {radan: accept}
  - initiative: [vudce, radan, skret]
    spent: [radan]
    steps:
      - id: c
        contest:
          action: {actor: vudce, targets: [radan], pool: telo, means: melee, roll: 8, effect: {ohrozeni: 1}}
          counters: [{actor: radan, from: obrana, manoeuvres: [obrana], roll: 10}]
"""


def taktik(conditions: str = "[bitevní plán]", abilities: str = "[skvely-taktik]", effect: str = "{ohrozeni: 1}",
           **kw) -> dict:
    text = TAKTIK.replace("CONDITIONS", conditions).replace("ABILITIES", abilities).replace("EFFECT", effect)
    return resolve_text(text, **kw)


def obrana(result: dict, sid: str) -> dict:
    [m] = [m for m in step(result, sid)["manoeuvres"] if m["by"] == "radan"]
    assert m["name"] == "obrana"
    return m


def test_with_a_battle_plan_every_obrana_is_free_and_recorded_as_used():
    r = taktik()
    for sid in "abc":
        assert obrana(r, sid) == {"by": "radan", "name": "obrana", "paid": "free", "cost": 0, "via": "skvely-taktik"}
    assert r["final"]["radan"]["telo"] == 3          # two in round 1 (not once per round), one in round 2
    text = render_text(r)
    assert "obrana zdarma (Skvělý taktik)" in text and "manévr obrana zdarma (Skvělý taktik; započítává se)" in text


def test_without_the_plan_or_the_ability_obrana_is_paid():
    r = taktik(conditions="[]")
    assert [obrana(r, sid)["paid"] for sid in "abc"] == ["telo"] * 3 and r["final"]["radan"]["telo"] == 0
    assert "neplatí žádný bitevní plán" in render_text(r)
    assert taktik(abilities="[]")["final"]["radan"]["telo"] == 0
    assert taktik(disable=("skvely-taktik",))["final"]["radan"]["telo"] == 0


def test_after_the_plan_ends_obrana_is_paid_again():
    # An opponent's action that wins removes the condition: the next obrana is paid.
    r = taktik(effect="{ohrozeni: 1, remove_condition: bitevní plán}")
    assert [obrana(r, sid)["paid"] for sid in "abc"] == ["free", "free", "telo"]
    assert r["final"]["radan"]["telo"] == 2 and r["final"]["radan"]["conditions"] == []
    # A plan for one round only (`rounds: 1`) holds in round 1 and is gone in round 2.
    r = taktik(conditions="[{name: bitevní plán, rounds: 1}]")
    assert [obrana(r, sid)["paid"] for sid in "abc"] == ["free", "free", "telo"]


def test_the_readings_once_per_round_and_none():
    r = taktik(params={"skvely_taktik": "obrana-round"})
    assert [obrana(r, sid)["paid"] for sid in "abc"] == ["free", "telo", "free"]
    assert r["rules"]["params"]["skvely_taktik"] == "obrana-round"
    r = taktik(params={"skvely_taktik": "none"})
    assert [obrana(r, sid)["paid"] for sid in "abc"] == ["telo"] * 3


def test_a_free_obrana_still_counts_and_allows_no_other_manoeuvre():
    """R-MAN-2: free, it still counts against `max_manoeuvres`; R-MAN-3: from obrana nothing else."""
    with pytest.raises(DrdError) as err:
        taktik(params={"max_manoeuvres": "0"})
    assert err.value.exit_code == 1 and err.value.problems[0].rule == "R-MAN-2"
    with pytest.raises(DrdError) as err:
        resolve_text(TAKTIK.replace("CONDITIONS", "[bitevní plán]").replace("ABILITIES", "[skvely-taktik]")
                     .replace("EFFECT", "{ohrozeni: 1}").replace("manoeuvres: [obrana], roll: 10}]",
                                                                   "manoeuvres: [obrana, presne], roll: 10}]", 1))
    assert err.value.exit_code == 1 and err.value.problems[0].rule == "R-MAN-3"


def test_a_vyzva_undergone_with_obrana_is_free_under_the_plan():
    """R-CHAL: undergoing a výzva without initiative needs obrana — the plan frees that one too."""
    text = """\
format: drd/1
participants:
  radan: {name: Radan, pools: {telo: 3, duse: 3, vliv: 3}, conditions: CONDITIONS, abilities: [skvely-taktik]}
rounds:
  - initiative: [radan]
    spent: [radan]
    steps:
      - id: v
        challenge: {name: padající trám, affects: [radan], react: {radan: obrana}, pool: telo,
                    effect: {ohrozeni: 1}, rolls: {radan: 10}}
"""
    assert resolve_text(text.replace("CONDITIONS", "[bitevní plán]"))["final"]["radan"]["telo"] == 3
    assert resolve_text(text.replace("CONDITIONS", "[]"))["final"]["radan"]["telo"] == 2


def test_the_ambush_still_gives_its_vyhoda():
    r = resolve_text(TAKTIK.replace("CONDITIONS", "[]").replace("ABILITIES", "[skvely-taktik], events: [přepaden]")
                     .replace("EFFECT", "{ohrozeni: 1}"))
    assert r["gains"] == [{"who": "radan", "event": "přepaden", "vyhody": 1, "source": "skvely-taktik"}]


# --------------------------------------------------------------------------- Hlava nehlava

HLAVA = """\
format: drd/1
participants:
  hrut: {name: Hrút, side: d, pools: {telo: 3, duse: 3, vliv: 3}, equipment: EQUIPMENT,
         events: EVENTS, abilities: ABILITIES}
  zlobr: {name: Zlobr, side: z, sudba: 8}
rounds:
  - steps:
      - declare: {actor: zlobr, note: rozhlíží se}
"""
WRECK = "zničená improvizovaná zbraň"


def hlava(equipment: str = "[stolička, meč]", events: str = f"[{WRECK}]", abilities: str = "[hlava-nehlava]",
          **kw) -> dict:
    return resolve_text(HLAVA.replace("EQUIPMENT", equipment).replace("EVENTS", events).replace("ABILITIES", abilities),
                        **kw)


def test_the_wrecked_weapon_leaves_the_equipment_and_gives_its_point():
    r = hlava()
    assert r["final"]["hrut"]["telo"] == 4 and r["final"]["hrut"]["equipment"] == ["meč"]
    assert r["gains"] == [{"who": "hrut", "event": WRECK, "pool": "telo", "amount": 1, "source": "hlava-nehlava",
                           "sacrifice": {"name": "stolička", "gain": 1}}]
    text = render_text(r)
    assert "Hrút obětuje stolička a získává 1 Tělo (Hlava nehlava)" in text
    # Without the ability nothing is gained and nothing is lost.
    off = hlava(disable=("hlava-nehlava",))
    assert off["final"]["hrut"]["telo"] == 3 and off["final"]["hrut"]["equipment"] == ["stolička", "meč"]


def test_a_weapon_cannot_be_wrecked_twice():
    with pytest.raises(DrdError) as err:
        hlava(events=f"[{WRECK}, {WRECK}]")
    problem = err.value.problems[0]
    assert err.value.exit_code == 1 and problem.rule == "R-ABIL-GAIN"
    assert problem.path == ("participants", "hrut", "events", 1) and "improvizovanou zbraň" in problem.message
    with pytest.raises(DrdError) as err:     # named, and gone after the first
        hlava(events=f"[{WRECK}, {WRECK}]", abilities="[{id: hlava-nehlava, weapon: stolička}]")
    assert err.value.exit_code == 1 and "stolička" in err.value.problems[0].message
    # Two improvised weapons, each wrecked once: both gone, two points.
    r = hlava(equipment="[stolička, {name: džbán, enables: [hlava-nehlava]}]", events=f"[{WRECK}]",
              abilities="[{id: hlava-nehlava, weapon: džbán}]")
    assert r["final"]["hrut"]["equipment"] == ["stolička"] and r["final"]["hrut"]["telo"] == 4


def test_only_an_improvised_weapon_he_holds():
    for equipment, abilities, words in (("[meč]", "[hlava-nehlava]", "improvizovanou zbraň"),
                                        ("[stolička, meč]", "[{id: hlava-nehlava, weapon: meč}]", "není improvizovaná"),
                                        ("[stolička, džbán]", "[hlava-nehlava]", "weapon: …"),
                                        ("[stolička]", "[{id: hlava-nehlava, weapon: lavice}]", "lavice")):
        with pytest.raises(DrdError) as err:
            hlava(equipment=equipment, abilities=abilities)
        assert err.value.exit_code == 1 and err.value.problems[0].rule == "R-ABIL-GAIN", equipment
        assert words in err.value.problems[0].message, (equipment, err.value.problems[0].message)


def test_a_condition_held_at_the_start_states_its_event():
    # R-ABIL-GAIN: "the scenario states the trigger" — as an event, or as the condition itself.
    from drd_cli.testing import resolve_text

    base = """\
format: drd/1
participants:
  radan: {name: Radan, pools: {telo: 4, duse: 4, vliv: 3}, STATE abilities: [skvely-taktik]}
rounds:
  - steps:
      - id: s
        test: {actor: radan, pool: telo, roll: 10}
"""
    as_condition = resolve_text(base.replace("STATE", "conditions: [Přepaden],"))
    as_event = resolve_text(base.replace("STATE", "events: [přepaden],"))
    both = resolve_text(base.replace("STATE", "conditions: [přepaden], events: [prepaden],"))
    neither = resolve_text(base.replace("STATE", ""))
    assert as_condition["final"]["radan"]["vyhody"] == as_event["final"]["radan"]["vyhody"] == 1
    assert both["final"]["radan"]["vyhody"] == 1 and neither["final"]["radan"]["vyhody"] == 0
    assert as_condition["gains"] == [{"who": "radan", "event": "Přepaden", "vyhody": 1, "source": "skvely-taktik"}]
