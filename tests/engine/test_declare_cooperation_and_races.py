"""Third spec audit: `declare` (§4.5, CS-PREP-1), cooperation (CS-COOP-1..3), race edge cases
(CS-RACE-1) and náročnost of actions (R-NAR)."""

from __future__ import annotations

import pytest
from drdtest import doc, exhaustions, final, run, step, violation
from pydantic import ValidationError

THREE = """
a: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2, levels: {bojovnik: 2}}
b: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 3, levels: {bojovnik: 2}}
x: {sudba: 6, ohrozeni: 1}
"""


# --------------------------------------------------------------------------- declare (§4.5, CS-PREP-1)

def test_CS_PREP_1_declare_effect_lands_without_a_roll_and_nobody_decides():
    r = run(doc(THREE, """
        - id: d
          declare: {actor: a, label: příprava, targets: [x], effect: {ohrozeni: 1}, self_effect: {vyhody: 1}}
          choices: {x: exhaust}
        """))
    s = step(r, "d")
    assert s["rolls"] == {} and s["exhaustions"] == []
    assert final(r, "x")["ohrozeni"] == 2 and final(r, "a")["vyhody"] == 1
    assert s["actions"]["a"]["affected"] == ["x"]


def test_CS_PREP_1_declare_can_make_a_later_action_no_longer_demanding_or_impossible():
    cond = "a: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {bojovnik: 2}, conditions: [{name: v bahně, demanding: [skok]}]}\n" \
           "x: {sudba: 6, ohrozeni: 1}"
    r = run(doc(cond, """
        - declare: {actor: a, label: prkno, self_effect: {remove_condition: v bahně}}
        - test: {actor: a, label: skok, roll: 9}
        """))
    assert final(r, "a")["telo"] == 6
    violation(doc(cond, """
        - declare: {actor: a, label: past, targets: [x], effect: {condition: {name: v pasti, forbids: [útěk]}}}
        - test: {actor: x, label: útěk, roll: 9}
        """))


def test_CS_PREP_1_declare_cannot_be_countered():
    with pytest.raises(ValidationError, match="counters"):
        run(doc(THREE, """
        - declare: {actor: a, self_effect: {vyhody: 1}, counters: [{actor: x, roll: 10}]}
        """))


def test_CS_PREP_1_declare_from_delayed_needs_a_declared_delay():
    violation(doc(THREE, "", rounds="""
        - steps:
            - declare: {actor: a, from: delayed, self_effect: {vyhody: 1}}
        """))
    r = run(doc(THREE, "", rounds="""
        - delay: [a]
          steps:
            - declare: {actor: a, from: delayed, self_effect: {vyhody: 1}}
        """))
    assert final(r, "a")["vyhody"] == 1


# --------------------------------------------------------------------------- cooperation (CS-COOP)

def test_CS_COOP_1_a_successful_helping_test_gives_the_helped_a_vyhoda():
    y = doc(THREE, """
        - test: {actor: b, label: pomoc, pool: telo, bonus_from: bojovnik, roll: %s, targets: [a], effect: {vyhody: 1}}
        """)
    assert final(run(y % 10), "a")["vyhody"] == 1
    assert final(run(y % 7), "a")["vyhody"] == 0
    # the helped is not threatened: it faces no decision, and its `exhaust` decides nothing
    r = run(doc(THREE, """
        - test: {actor: b, label: pomoc, pool: telo, roll: 7, targets: [a], effect: {vyhody: 1}}
          choices: {a: exhaust}
        """))
    assert exhaustions(r) == []


def test_CS_COOP_2_together_one_exhaustion_softened_lands_once_on_the_one_who_exhausted():
    r = run(doc(THREE, """
        - test: {actors: [a, b], mode: any, pool: telo, rolls: {a: 6, b: 7}, self_effect: {vyhody: 1},
                 softened: {ohrozeni: 1}, failure: {ohrozeni: 2}}
          choices: {a: exhaust, b: exhaust}
        """))
    assert [e["by"] for e in exhaustions(r)] == ["a"]
    assert final(r, "a")["ohrozeni"] == 2 + 1 + 1         # exhaustion +1, softened +1
    assert final(r, "b")["ohrozeni"] == 3
    assert final(r, "a")["vyhody"] == 1 and final(r, "b")["vyhody"] == 1


def test_CS_COOP_3_two_delayed_counters_react_together():
    r = run(doc(THREE, "", rounds="""
        - initiative: [x, a, b]
          delay: [a, b]
          steps:
            - contest:
                action: {actor: x, targets: [a], roll: 8, effect: {ohrozeni: 1}}
                counters:
                  - {actor: a, from: delayed, kind: protect, pool: telo, roll: 6}
                  - {actor: b, from: delayed, kind: harm, pool: telo, roll: 10, effect: {ohrozeni: 1}}
        """))
    s = step(r)
    assert s["actions"]["b"]["success"] is True and s["actions"]["x"]["success"] is False
    assert final(r, "a")["ohrozeni"] == 2 and final(r, "x")["ohrozeni"] == 2


# --------------------------------------------------------------------------- race (CS-RACE-1)

RACERS = """
a: {pools: {telo: 9, duse: 6, vliv: 6}, ohrozeni: 2}
b: {pools: {telo: 9, duse: 6, vliv: 6}, ohrozeni: 3}
c: {pools: {telo: 9, duse: 6, vliv: 6}, ohrozeni: 1}
"""


def test_CS_RACE_1_three_racers_a_loser_exhausts_against_each_faster_one():
    r = run(doc(RACERS, """
        - race:
            actors: [a, b, c]
            rolls: {a: 12, b: 10, c: 9}
            effect: {condition: pozadu}
          choices: {c: {a: exhaust, b: exhaust}}
        """))
    ex = exhaustions(r, "c")
    assert [(e["vs"], e["cost"], e["ohrozeni"]) for e in ex] == [("a", 1, [1, 2]), ("b", 2, [2, 3])]
    assert final(r, "c")["conditions"] == [] and final(r, "b")["conditions"] == ["pozadu"]


def test_CS_RACE_1_a_race_without_obstacle_has_no_comparison_with_9():
    r = run(doc(RACERS, """
        - race:
            actors: [a, b]
            rolls: {a: 5, b: 4}
            effect: {condition: pozadu}
        """))
    assert final(r, "b")["conditions"] == ["pozadu"] and final(r, "a")["jizvy"] == []
    assert exhaustions(r) == []


def test_R_NAR_a_racer_pays_the_narocnost_of_the_race():
    cond = RACERS.replace("ohrozeni: 3}", "ohrozeni: 3, conditions: [{name: zraněn, demanding: [běh]}]}")
    r = run(doc(cond, """
        - race:
            actors: [a, b]
            label: běh
            pool: telo
            rolls: {a: 10, b: 11}
        """))
    assert final(r, "b")["telo"] == 8 and final(r, "a")["telo"] == 9
    r = run(doc(cond, """
        - race: {actors: [a, b], label: běh, pool: telo, rolls: {a: 10, b: 11}, demanding: false}
        """))
    assert final(r, "b")["telo"] == 9
    violation(doc(cond.replace("demanding: [běh]", "forbids: [běh]"), """
        - race: {actors: [a, b], label: běh, pool: telo, rolls: {a: 10, b: 11}}
        """), "R-NAR")


# --------------------------------------------------------------------------- náročnost (R-NAR)

def test_R_NAR_a_condition_on_means_makes_an_action_demanding_and_a_creature_pays_sudba():
    people = """
a: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {bojovnik: 2}}
x: {sudba: 6, ohrozeni: 1, conditions: [{name: oslepen, demanding: [shooting], forbids: [magic]}]}
"""
    r = run(doc(people, """
        - contest:
            action: {actor: x, means: shooting, targets: [a], roll: 10, effect: {ohrozeni: 1}}
        """))
    assert final(r, "x")["sudba"] == 5
    violation(doc(people, "- test: {actor: x, means: magic, roll: 10}"))


def test_R_NAR_demanding_counter_pays_before_rolling():
    people = """
a: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {bojovnik: 2}, conditions: [{name: ve zbroji, demanding: [úhyb]}]}
x: {sudba: 6, ohrozeni: 1}
"""
    r = run(doc(people, """
        - contest:
            action: {actor: x, targets: [a], roll: 8, effect: {ohrozeni: 1}}
            counters: [{actor: a, kind: protect, label: úhyb, pool: telo, roll: 10}]
        """))
    assert final(r, "a")["telo"] == 5
    r = run(doc(people, """
        - contest:
            action: {actor: x, targets: [a], roll: 8, effect: {ohrozeni: 1}}
            counters: [{actor: a, kind: protect, label: úhyb, pool: telo, roll: 10, demanding: false}]
        """))
    assert final(r, "a")["telo"] == 6


def test_R_NAR_velmi_narocna_and_the_narocnost_cost_param():
    y = doc("a: {pools: {telo: 6, duse: 6, vliv: 6}}", "- test: {actor: a, pool: telo, roll: 9, demanding: %s}")
    assert final(run(y % 2), "a")["telo"] == 4
    assert final(run(y % "true", params={"narocnost_cost": 2}), "a")["telo"] == 4


def test_R_NAR_demanding_without_the_points_is_refused_unless_a_jizva_pays():
    poor = "a: {pools: {telo: 0, duse: 6, vliv: 6}}"
    violation(doc(poor, "- test: {actor: a, pool: telo, roll: 9, demanding: true}"))
    r = run(doc(poor, "- test: {actor: a, pool: telo, roll: 9, demanding: true, gain: {jizva: {name: Odřeniny, gain: 1}}}"))
    assert final(r, "a")["jizvy"] == ["Odřeniny"] and final(r, "a")["telo"] == 0


def test_R_NAR_condition_with_rounds_stops_making_it_demanding():
    people = "a: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {bojovnik: 2}}\nx: {sudba: 6}"
    r = run(doc(people, "", rounds="""
        - steps:
            - declare: {actor: x, targets: [a], effect: {condition: {name: oslněn, demanding: [útok], rounds: 1}}}
            - test: {actor: a, label: útok, pool: telo, roll: 9}
        - steps:
            - test: {actor: a, label: útok, pool: telo, roll: 9}
        - steps:
            - test: {actor: a, label: útok, pool: telo, roll: 9}
        """))
    assert final(r, "a")["telo"] == 4
