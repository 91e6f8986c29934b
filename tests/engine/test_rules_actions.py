"""R-ROLL-1..3, R-NAR, R-MAN-1/2, §1.5 effects (lstivě, conditions, equipment, mimo konflikt)."""

import pytest

from drd_cli.dice import ScriptedDice, SeededDice

from drdtest import doc, exhaustions, final, invalid, run, step, violation

HERO = """
hero: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2, levels: {lovec: 2},
       equipment: [{name: luk, free: presne, per: round, needs: [šípy]}, šípy, {name: štít, free: obrana}]}
ork: {sudba: 9, ohrozeni: 1, charakteristika: {level: 3, covers: [boj zblízka]}}
"""


def test_R_ROLL_2_dice_sources():
    r = run(doc(HERO, "- test: {actor: hero, roll: 10}"))
    assert step(r)["rolls"]["hero"] == {"total": 10, "dice": None, "bonus": None, "source": "given",
                                         "modifiers": []}
    r = run(doc(HERO, "- test: {actor: hero, bonus_from: lovec, dice: [4, 3]}"))
    assert step(r)["rolls"]["hero"] == {"total": 9, "dice": [4, 3], "bonus": 2, "source": "given",
                                         "modifiers": []}
    r = run(doc(HERO, "- test: {actor: hero, bonus_from: lovec}"), dice=SeededDice(5))
    roll = step(r)["rolls"]["hero"]
    assert roll["source"] == "seeded" and len(roll["dice"]) == 2 and roll["total"] == sum(roll["dice"]) + 2
    r = run(doc(HERO, "- test: {actor: hero, bonus_from: none}"), dice=ScriptedDice([6, 5]))
    assert step(r)["rolls"]["hero"] == {"total": 11, "dice": [6, 5], "bonus": 0, "source": "entered", "modifiers": []}


def test_R_ROLL_2_same_seed_same_dice():
    y = doc(HERO, "- test: {actor: hero, bonus_from: lovec}")
    assert run(y, dice=SeededDice(42)) == run(y, dice=SeededDice(42))


def test_R_ROLL_2_a_die_shows_1_to_6_and_the_count_must_match():
    invalid(doc(HERO, "- test: {actor: hero, bonus_from: lovec, dice: [7, 3]}"))
    invalid(doc(HERO, "- test: {actor: hero, bonus_from: lovec, dice: [3]}"))


def test_R_ROLL_1_hero_rolling_dice_must_name_bonus_from():
    e = invalid(doc(HERO, "- test: {actor: hero, dice: [4, 3]}"))
    assert e.problems[0].rule == "R-ROLL-1"
    invalid(doc(HERO, "- test: {actor: hero, bonus_from: carodej, dice: [4, 3]}"))


def test_R_ROLL_1_creature_charakteristika_only_when_covered():
    r = run(doc(HERO, "- test: {actor: ork, label: boj zblízka, dice: [4, 3]}"))
    assert step(r)["rolls"]["ork"]["total"] == 10
    r = run(doc(HERO, "- test: {actor: ork, label: plavání, dice: [4, 3]}"))
    assert step(r)["rolls"]["ork"]["total"] == 7
    r = run(doc(HERO, "- test: {actor: ork, label: plavání, bonus_from: charakteristika, dice: [4, 3]}"))
    assert step(r)["rolls"]["ork"]["total"] == 10


def test_R_ROLL_3_presne_both_params():
    y = doc(HERO, "- test: {actor: hero, bonus_from: lovec, dice: DICE, manoeuvres: [{name: presne, pay: pool}]}")
    r = run(y.replace("DICE", "[3, 3]"))
    assert step(r)["rolls"]["hero"]["total"] == 3 + 3 + 2 + 1
    # SCENARIO-FORMAT §7: `bonus` is the profession level; přesně is a modifier of its own
    assert step(r)["rolls"]["hero"]["bonus"] == 2
    assert step(r)["rolls"]["hero"]["modifiers"] == [{"source": "presne", "amount": 1}]
    r = run(y.replace("DICE", "[1, 5, 6]"), params={"presne": "keep-best-2-of-3"})
    assert step(r)["rolls"]["hero"] == {"total": 13, "dice": [1, 5, 6], "bonus": 2, "source": "given",
                                         "modifiers": []}
    invalid(y.replace("DICE", "[5, 6]"), params={"presne": "keep-best-2-of-3"})
    # a given total already includes přesně
    r = run(doc(HERO, "- test: {actor: hero, roll: 9, manoeuvres: [presne]}"))
    assert step(r)["rolls"]["hero"]["total"] == 9


def test_R_MAN_2_paid_from_pool_or_vyhoda():
    r = run(doc(HERO.replace("ohrozeni: 2,", "ohrozeni: 2, vyhody: 1,"),
                "- test: {actor: hero, pool: duse, roll: 9, manoeuvres: [mocne, {name: lstive, pay: vyhoda}]}"))
    assert [(m["name"], m["paid"], m["cost"]) for m in step(r)["manoeuvres"]] == [("mocne", "duse", 1),
                                                                                    ("lstive", "vyhoda", 1)]
    assert final(r, "hero")["duse"] == 5 and final(r, "hero")["vyhody"] == 0
    violation(doc(HERO, "- test: {actor: hero, roll: 9, manoeuvres: [{name: mocne, pay: vyhoda}]}"), "R-MAN-2")


def test_R_MAN_2_cannot_pay_manoeuvres_is_exit_1():
    y = doc("hero: {pools: {telo: 1, duse: 0, vliv: 0}}",
            "- test: {actor: hero, pool: telo, roll: 9, manoeuvres: [mocne, lstive]}")
    # The message follows the language (tests run in Czech): 2 Tělo asked, 1 held, 1 missing.
    text = violation(y, "R-MAN-2").format()
    assert "2 Tělo" in text and "má 1, chybí 1" in text
    from drd_cli import i18n

    with i18n.using("en"):
        assert "has 1, missing 1" in violation(y, "R-MAN-2").format()


def test_R_MAN_2_free_via_item_once_per_round():
    y = doc(HERO, steps="", rounds="""
        - steps:
            - test: {actor: hero, roll: 9, manoeuvres: [presne]}
            - declare: {actor: hero, manoeuvres: [presne]}
        - steps:
            - test: {actor: hero, roll: 9, manoeuvres: [presne]}
        """)
    r = run(y)
    m = [s["manoeuvres"] for s in r["steps"]]
    assert m[0] == [{"by": "hero", "name": "presne", "paid": "free", "cost": 0, "via": "luk"}]
    assert m[1] == [{"by": "hero", "name": "presne", "paid": "telo", "cost": 1, "via": None}]
    assert m[2][0]["via"] == "luk"
    assert final(r, "hero")["telo"] == 5
    # `pay: free` when the free use is spent is exit 1
    violation(doc(HERO, """
        - test: {actor: hero, roll: 9, manoeuvres: [presne]}
        - declare: {actor: hero, manoeuvres: [{name: presne, pay: free}]}
        """), "R-MAN-2")


def test_R_MAN_2_free_obrana_via_shield_counts_as_used():
    r = run(doc(HERO, """
        - test: {actor: hero, roll: 9}
        - contest:
            action: {actor: ork, targets: [hero], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: hero, roll: 12}]
        """))
    assert step(r)["manoeuvres"] == [{"by": "hero", "name": "obrana", "paid": "free", "cost": 0, "via": "štít"}]
    assert final(r, "hero")["telo"] == 6


def test_R_MAN_2_free_use_is_still_counted_against_max_manoeuvres():
    violation(doc(HERO, "- test: {actor: hero, roll: 9, manoeuvres: [presne, mocne]}"), "R-MAN-2",
              params={"max_manoeuvres": 1})
    run(doc(HERO, "- test: {actor: hero, roll: 9, manoeuvres: [presne]}"), params={"max_manoeuvres": 1})


def test_equipment_loss_removes_free_manoeuvre_and_armour():
    y = doc("""
        hero: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 3,
               equipment: [{name: luk, free: presne, needs: [šípy]}, šípy, {name: zbroj, armour: 2}]}
        ork: {sudba: 9}
        """, steps="", rounds="""
        - steps:
            - declare: {actor: ork, targets: [hero], effect: {lose: [šípy, zbroj]}}
        - steps:
            - test: {actor: hero, roll: 9, manoeuvres: [presne]}
            - contest:
                action: {actor: ork, targets: [hero], roll: 10, effect: {ohrozeni: 1}}
                counters: [{actor: hero, roll: 5}]
              choices: {hero: exhaust}
        """)
    r = run(y)
    assert step(r, "2.1")["manoeuvres"][0]["paid"] == "telo"      # luk without šípy gives nothing
    assert exhaustions(r)[0]["cost"] == 3                             # no armour left
    assert final(r, "hero")["equipment"] == ["luk"]


def test_R_NAR_demanding_costs_before_the_roll():
    r = run(doc(HERO, "- test: {actor: hero, pool: duse, roll: 9, demanding: true}"))
    assert final(r, "hero")["duse"] == 5
    r = run(doc(HERO, "- test: {actor: hero, pool: duse, roll: 9, demanding: 2}"))
    assert final(r, "hero")["duse"] == 4
    r = run(doc(HERO, "- test: {actor: hero, pool: duse, roll: 9, demanding: 2}"), params={"narocnost_cost": 2})
    assert final(r, "hero")["duse"] == 2
    r = run(doc(HERO, "- test: {actor: ork, roll: 9, demanding: true}"))
    assert final(r, "ork")["sudba"] == 8
    violation(doc("hero: {pools: {telo: 0, duse: 0, vliv: 0}}", "- test: {actor: hero, roll: 9, demanding: true}"),
              "R-MAN-2")


def test_R_NAR_conditions_make_actions_demanding_or_impossible():
    parts = """
        hero: {pools: {telo: 6, duse: 6, vliv: 6},
               conditions: [{name: ve zbroji, demanding: [šplh], forbids: [plavání]}]}
        """
    r = run(doc(parts, "- test: {actor: hero, label: šplh, roll: 9}"))
    assert final(r, "hero")["telo"] == 5
    r = run(doc(parts, "- test: {actor: hero, label: šplh, roll: 9, demanding: false}"))
    assert final(r, "hero")["telo"] == 6
    r = run(doc(parts, "- test: {actor: hero, label: běh, roll: 9}"))
    assert final(r, "hero")["telo"] == 6
    e = violation(doc(parts, "- test: {actor: hero, label: plavání, roll: 9}"), "R-NAR")
    assert "ve zbroji" in e.format()


def test_R_NAR_condition_removed_no_longer_demanding():
    parts = "hero: {pools: {telo: 6, duse: 6, vliv: 6}, conditions: [{name: ve zbroji, demanding: [šplh]}]}"
    r = run(doc(parts, """
        - declare: {actor: hero, self_effect: {remove_condition: ve zbroji}}
        - test: {actor: hero, label: šplh, roll: 9}
        """))
    assert final(r, "hero")["telo"] == 6 and final(r, "hero")["conditions"] == []


def test_disable_label_refuses_the_action():
    violation(doc(HERO, """
        - declare: {actor: hero, targets: [ork], effect: {disable: [pohled]}}
        - test: {actor: ork, label: pohled, roll: 9}
        """), "CS-PREP-2")


def test_lstive_doubles_numeric_changes_including_self_effect():
    r = run(doc(HERO, """
        - contest:
            action: {actor: hero, pool: vliv, targets: [ork], roll: 10, manoeuvres: [lstive],
                     effect: {ohrozeni: 1, vyhody: 1, jizva: Zesměšněn}, self_effect: {ohrozeni: -1, vyhody: 1}}
        """))
    assert (final(r, "ork")["ohrozeni"], final(r, "ork")["vyhody"], final(r, "ork")["jizvy"]) == (3, 2, ["Zesměšněn"])
    assert (final(r, "hero")["ohrozeni"], final(r, "hero")["vyhody"]) == (0, 2)


def test_ohrozeni_and_vyhody_never_go_below_zero():
    r = run(doc(HERO, """
        - declare: {actor: hero, targets: [ork], effect: {ohrozeni: -5, vyhody: -3}, self_effect: {ohrozeni: -9}}
        """))
    assert (final(r, "ork")["ohrozeni"], final(r, "ork")["vyhody"], final(r, "hero")["ohrozeni"]) == (0, 0, 0)


def test_conditions_with_rounds_expire():
    rounds = """
        - steps: [{declare: {actor: hero, targets: [ork], effect: {condition: {name: oslněn, rounds: 1,
                                                                          forbids: [střelba]}}}}]
        %s
        - steps: [{test: {actor: ork, label: střelba, roll: 9}}]
        """
    # rounds: 1 lasts through the next round (2) and is gone in round 3
    r = run(doc(HERO, steps="", rounds=rounds % "- steps: []"))
    assert final(r, "ork")["conditions"] == []
    # ... but still forbids in round 2
    violation(doc(HERO, steps="", rounds=rounds % ""), "R-NAR")


def test_condition_with_rounds_shows_what_is_left_in_final():
    r = run(doc(HERO, "- declare: {actor: hero, targets: [ork], effect: {condition: {name: oslněn, rounds: 2}}}"))
    assert final(r, "ork")["conditions"] == [{"name": "oslněn", "rounds": 2}]


def test_condition_without_rounds_lasts_and_replaces_a_same_named_one():
    r = run(doc(HERO, steps="", rounds="""
        - steps: [{declare: {actor: hero, targets: [ork], effect: {condition: {name: x, rounds: 1}}}}]
        - steps: [{declare: {actor: hero, targets: [ork], effect: {condition: x}}}]
        - steps: []
        - steps: []
        """))
    assert final(r, "ork")["conditions"] == ["x"]


def test_mimo_konflikt_takes_its_holder_out_of_vyzvy_for_all():
    y = doc("""
        a: {pools: {telo: 6, duse: 6, vliv: 6}}
        b: {pools: {telo: 6, duse: 6, vliv: 6}}
        """, """
        - declare: {actor: a, self_effect: {condition: mimo konflikt}}
        - challenge: {name: požár, affects: all, effect: {ohrozeni: 1}}
        """)
    r = run(y)
    assert final(r, "a")["ohrozeni"] == 0 and final(r, "b")["ohrozeni"] == 1
    assert step(r)["affected"] == ["b"]


def test_effect_to_payer_and_actor():
    r = run(doc(HERO, """
        - contest:
            action: {actor: ork, targets: [hero], roll: 10, effect: {ohrozeni: 1},
                     softened: [{vyhody: 1, to: actor}, {note: odřen, jizva: Odřenina, to: payer}]}
            counters: [{actor: hero, roll: 7}]
          choices: {hero: exhaust}
        """))
    assert final(r, "ork")["vyhody"] == 1 and final(r, "hero")["jizvy"] == ["Odřenina"]


def test_step_ids_default_to_round_dot_index():
    r = run(doc(HERO, steps="", rounds="""
        - steps: [{test: {actor: hero, roll: 9}}, {id: named, test: {actor: ork, roll: 9}}]
        - steps: [{declare: {actor: hero}}]
        """))
    assert [s["id"] for s in r["steps"]] == ["1.1", "named", "2.1"]


@pytest.mark.parametrize("ident", ["test", "all", "payer"])
def test_reserved_participant_ids_are_refused(ident):
    invalid(doc(f"{ident}: {{sudba: 1}}", "- declare: {actor: " + ident + "}"))


def test_unknown_participant_in_a_step_is_invalid_with_a_suggestion():
    e = invalid(doc(HERO, "- test: {actor: hera, roll: 9}"))
    assert "hero" in e.format()
