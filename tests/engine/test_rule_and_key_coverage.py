"""Rules and format keys the conformance audit found without a direct test (docs/spec-audit.md)."""

import pytest
from drdtest import doc, exhaustions, final, run, step, violation

from drd_cli.errors import ScenarioError
from drd_cli.testing import resolve_text


def _invalid(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        resolve_text(text)
    assert info.value.exit_code == 2
    return info.value


# --------------------------------------------------------------------------- R-NAR values

@pytest.mark.parametrize("value", [3, -1])
def test_R_NAR_demanding_is_true_1_2_or_false(value):
    err = _invalid(doc("a: {pools: {telo: 6, duse: 6, vliv: 6}}", f"- test: {{actor: a, roll: 9, demanding: {value}}}"))
    assert "demanding" in err.format()


def test_R_NAR_demanding_0_and_false_cost_nothing():
    hero = "a: {pools: {telo: 6, duse: 6, vliv: 6}, conditions: [{name: ve zbroji, demanding: [šplh]}]}"
    for value in ("0", "false"):
        r = run(doc(hero, f"- test: {{actor: a, label: šplh, roll: 9, demanding: {value}}}"))
        assert final(r, "a")["telo"] == 6


# --------------------------------------------------------------------------- R-RND-2 initiative

def test_R_RND_2_initiative_rolls_name_participants():
    text = doc("a: {sudba: 3}", "", rounds="""
        - initiative: {rolls: {a: 11, b: 7}}
          steps: []
        """)
    err = _invalid(text)
    assert "neznámý účastník 'b'" in err.format()
    ok = run(doc("a: {sudba: 3}", "", rounds="- initiative: {rolls: {a: 11}}\n  steps: []"))
    assert ok["steps"] == []


# --------------------------------------------------------------------------- R-ROLL-1 bonus

def test_R_ROLL_1_creature_bonus_from_none_and_charakteristika_and_covers_by_means():
    ogre = "o: {sudba: 5, charakteristika: {level: 3, covers: [boj zblízka, melee]}}"
    assert step(run(doc(ogre, "- test: {actor: o, dice: [3, 3], means: melee}")))["rolls"]["o"]["total"] == 9
    assert step(run(doc(ogre, "- test: {actor: o, dice: [3, 3], means: magic}")))["rolls"]["o"]["total"] == 6
    assert step(run(doc(ogre, "- test: {actor: o, dice: [3, 3], means: magic, bonus_from: charakteristika}"))
                )["rolls"]["o"]["total"] == 9
    assert step(run(doc(ogre, "- test: {actor: o, dice: [3, 3], means: melee, bonus_from: none}"))
                )["rolls"]["o"]["total"] == 6
    # a plain number covers everything
    assert step(run(doc("o: {sudba: 5, charakteristika: 2}", "- test: {actor: o, dice: [3, 3]}"))
                )["rolls"]["o"]["total"] == 8


def test_R_ROLL_1_a_profession_the_hero_lacks_is_an_error():
    err = _invalid(doc("a: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {lovec: 2}}",
                       "- test: {actor: a, dice: [3, 3], bonus_from: carodej}"))
    assert "carodej" in err.format() and "R-ROLL-1" in err.format()


# --------------------------------------------------------------------------- §1.5 conditions

def test_conditions_at_the_start_with_rounds_count_from_round_1():
    """A start condition `{name, rounds: N}` lasts through rounds 1..N: the reading that makes a
    `final` entry `{name, rounds: k}` (k rounds still to go) start the next file unchanged."""
    text = doc("a: {pools: {telo: 6, duse: 6, vliv: 6}, conditions: [{name: oslněn, forbids: [střelba], rounds: 1}]}",
               "", rounds="""
        - steps: [{test: {actor: a, label: střelba, roll: 9}}]
        """)
    violation(text, "R-NAR")
    r = run(doc("a: {pools: {telo: 6, duse: 6, vliv: 6}, conditions: [{name: oslněn, forbids: [střelba], rounds: 1}]}",
                "", rounds="""
        - steps: []
        - steps: [{test: {actor: a, label: střelba, roll: 9}}]
        """))
    assert final(r, "a")["conditions"] == []


def test_condition_from_an_effect_with_rounds_lasts_the_next_N_rounds():
    r = run(doc("a: {pools: {telo: 6, duse: 6, vliv: 6}}", "", rounds="""
        - steps: [{declare: {actor: a, self_effect: {condition: {name: krytý, rounds: 1}}}}]
        - steps: []
        """))
    assert final(r, "a")["conditions"] == [{"name": "krytý", "rounds": 0}]
    r = run(doc("a: {pools: {telo: 6, duse: 6, vliv: 6}}", "", rounds="""
        - steps: [{declare: {actor: a, self_effect: {condition: {name: krytý, rounds: 1}}}}]
        - steps: []
        - steps: []
        """))
    assert final(r, "a")["conditions"] == []


# --------------------------------------------------------------------------- §1.5 count / CS-RANGE-4

def _sek(count: int) -> str:
    return doc(f"""
        b: {{pools: {{telo: 6, duse: 6, vliv: 6}}, levels: {{bojovnik: 2}}, abilities: [kruhovy-sek]}}
        s: {{sudba: 8, zone: kruh, count: {count}}}
        t: {{sudba: 8, zone: kruh}}
        """, """
        - test: {actor: b, pool: telo, means: melee, area: true, zone: kruh, manoeuvres: [rozsahle], roll: 10,
                 effect: {ohrozeni: 1}}
        """)


def test_count_stands_for_that_many_beings_in_group_size():
    """§1.5 `count` + CS-RANGE-4: Kruhový sek works on at most a hrstka (≤ 12), counting `count`."""
    small = run(_sek(11))                        # 11 + 1 = 12: a hrstka, rozsáhle is free
    assert step(small)["manoeuvres"][0]["paid"] == "free" and final(small, "b")["telo"] == 6
    big = run(_sek(12))                          # 12 + 1 = 13: more than a hrstka, paid
    assert step(big)["manoeuvres"][0]["paid"] == "telo" and final(big, "b")["telo"] == 5
    # one participant, one pool and one Ohrožení however many it stands for
    assert final(big, "s")["ohrozeni"] == 1 and final(big, "s")["sudba"] == 8


# --------------------------------------------------------------------------- R-EXH-4 Jizva pool

def test_R_EXH_4_jizva_gain_goes_to_the_pool_being_paid_and_covers_a_shortfall():
    duel = """
        - contest:
            action: {actor: o, pool: duse, targets: [a], roll: 12, effect: {condition: vyděšen}}
            counters: [{actor: a, kind: harm, pool: duse, roll: 5}]
          choices: {a: {jizva: {name: Noční můry, pool: duse, gain: 3}}}
        """
    r = run(doc("a: {pools: {telo: 6, duse: 1, vliv: 6}, ohrozeni: 3}\no: {sudba: 5}", duel))
    [e] = exhaustions(r)
    assert (e["pool"], e["cost"]) == ("duse", 3)
    assert (final(r, "a")["duse"], final(r, "a")["telo"]) == (1, 6)
    assert final(r, "a")["conditions"] == [] and final(r, "a")["jizvy"] == ["Noční můry"]


# --------------------------------------------------------------------------- R-CHAL target

def test_R_CHAL_a_vyzvas_own_target_replaces_9():
    steps = """
        - challenge: {name: proud, affects: [a], effect: {ohrozeni: 1}, react: {a: delayed}, rolls: {a: 10}%s}
        """
    hero = "a: {pools: {telo: 6, duse: 6, vliv: 6}}"
    assert step(run(doc(hero, steps % "")))["actions"]["a"]["success"] is True
    r = run(doc(hero, steps % ", target: 11"))
    assert step(r)["actions"]["a"]["success"] is False and final(r, "a")["ohrozeni"] == 1
