"""R-EXH-1..4, CS-FOR-1/2, CS-SEQ-1, CS-MULTI-2: what exhausting costs and who may do it."""

from drdtest import doc, exhaustions, final, run, step, violation

HERO = "{pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2}"


def _duel(hero: str = HERO, ork: str = "{sudba: 8, ohrozeni: 1}", action_extra: str = "", choices: str = "{}",
          counter_extra: str = "", hero_roll: int = 7, ork_roll: int = 10) -> str:
    return doc(f"""
        hero: {hero}
        ork: {ork}
        """, f"""
        - id: s
          contest:
            action: {{actor: ork, pool: telo, targets: [hero], roll: {ork_roll}, effect: {{ohrozeni: 1}}{action_extra}}}
            counters: [{{actor: hero, pool: telo, roll: {hero_roll}{counter_extra}}}]
          choices: {choices}
        """)


def test_R_EXH_1_cost_is_current_ohrozeni_then_plus_one():
    r = run(_duel(choices="{hero: exhaust}"))
    [e] = exhaustions(r)
    assert (e["by"], e["vs"], e["cost"], e["ohrozeni"]) == ("hero", "ork", 2, [2, 3])
    assert final(r, "hero")["telo"] == 4
    assert final(r, "hero")["ohrozeni"] == 3          # the winner's +1 Ohrožení was averted
    assert step(r)["actions"]["ork"]["affected"] == []


def test_R_EXH_1_zero_ohrozeni_costs_nothing_but_still_raises_ohrozeni():
    r = run(_duel(hero="{pools: {telo: 0, duse: 0, vliv: 0}, ohrozeni: 0}", choices="{hero: exhaust}"))
    [e] = exhaustions(r)
    assert e["cost"] == 0 and e["ohrozeni"] == [0, 1]


def test_R_EXH_1_hero_pays_from_the_winning_actions_pool():
    # A social winning action (vliv) is paid from Vliv even though the loser countered with Tělo.
    y = doc("""
        hero: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2}
        ork: {sudba: 8, ohrozeni: 1}
        """, """
        - contest:
            action: {actor: ork, pool: vliv, targets: [hero], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: hero, pool: telo, roll: 7}]
          choices: {hero: exhaust}
        """)
    r = run(y)
    assert exhaustions(r)[0]["pool"] == "vliv"
    assert (final(r, "hero")["vliv"], final(r, "hero")["telo"]) == (4, 6)


def test_R_EXH_1_threat_pool_overrides_the_action_pool():
    y = doc("""
        hero: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2}
        mag: {sudba: 8}
        """, """
        - contest:
            action: {actor: mag, pool: duse, threat_pool: telo, targets: [hero], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: hero, pool: duse, roll: 7}]
          choices: {hero: exhaust}
        """)
    r = run(y)
    assert exhaustions(r)[0]["pool"] == "telo"
    assert final(r, "hero")["telo"] == 4


def test_R_EXH_1_creature_pays_sudba():
    y = doc("""
        hero: {pools: {telo: 6, duse: 6, vliv: 6}}
        ork: {sudba: 8, ohrozeni: 3}
        """, """
        - contest:
            action: {actor: hero, pool: duse, targets: [ork], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: ork, roll: 7}]
          choices: {ork: exhaust}
        """)
    r = run(y)
    [e] = exhaustions(r)
    assert (e["pool"], e["cost"], e["ohrozeni"]) == ("sudba", 3, [3, 4])
    assert final(r, "ork")["sudba"] == 5


def test_R_EXH_2_exhausting_never_makes_the_loser_win():
    r = run(_duel(choices="{hero: exhaust}", counter_extra=", self_effect: {vyhody: 1}"))
    s = step(r)
    assert s["actions"]["hero"]["success"] is False
    assert s["actions"]["ork"]["success"] is True
    assert final(r, "hero")["vyhody"] == 0


def test_R_EXH_2_softened_replaces_the_effect_for_whom_exhausted():
    r = run(_duel(choices="{hero: exhaust}", action_extra=", softened: {vyhody: -1, note: x}",
                  hero="{pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2, vyhody: 2}"))
    assert final(r, "hero")["vyhody"] == 1
    assert final(r, "hero")["ohrozeni"] == 3     # only the exhaustion's +1, not the effect's


def test_R_ACC_accepting_costs_nothing_and_the_effect_lands():
    r = run(_duel(choices="{hero: accept}"))
    assert exhaustions(r) == []
    assert (final(r, "hero")["telo"], final(r, "hero")["ohrozeni"]) == (6, 3)
    assert step(r)["actions"]["ork"]["affected"] == ["hero"]


def test_R_EXH_3_armour_and_mocne():
    # Ohrožení 4, armour 1 (an item) + 1 (plain): 4 - 2 = 2; mocně twice on the winner: +2 → 4.
    hero = ("{pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 4, armour: 1, "
            "equipment: [{name: kroužková košile, armour: 1}]}")
    r = run(_duel(hero=hero, choices="{hero: exhaust}"))
    assert exhaustions(r)[0]["cost"] == 2
    r = run(_duel(hero=hero, choices="{hero: exhaust}", action_extra=", manoeuvres: [mocne, mocně]"))
    assert exhaustions(r)[0]["cost"] == 4
    assert final(r, "ork")["sudba"] == 6          # the two mocně cost the ork 2 Sudba


def test_R_EXH_3_armour_never_makes_the_cost_negative():
    hero = "{pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 1, armour: 3}"
    r = run(_duel(hero=hero, choices="{hero: exhaust}"))
    [e] = exhaustions(r)
    assert e["cost"] == 0 and e["ohrozeni"] == [1, 2]


def test_R_EXH_3_armour_only_against_bodily_actions():
    y = doc("""
        hero: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3, armour: 2}
        mag: {sudba: 8}
        """, """
        - contest:
            action: {actor: mag, pool: duse, targets: [hero], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: hero, pool: duse, roll: 7}]
          choices: {hero: exhaust}
        """)
    assert exhaustions(run(y))[0]["cost"] == 3


def test_R_EXH_3_armour_does_not_apply_to_tests():
    y = doc("hero: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3, armour: 2}", """
        - test: {actor: hero, pool: telo, roll: 6}
          choices: {hero: exhaust}
        """)
    assert exhaustions(run(y))[0]["cost"] == 3


def test_R_EXH_3_armour_applies_to_a_bodily_vyzva():
    y = doc("hero: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3, armour: 2}", """
        - challenge: {name: kamení, affects: [hero], pool: telo, effect: {ohrozeni: 1}, react: {hero: delayed},
                      rolls: {hero: 5}}
          choices: {hero: exhaust}
        """)
    assert exhaustions(run(y))[0]["cost"] == 1


def test_R_EXH_3_lost_armour_gives_no_discount():
    hero = "{pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3, equipment: [{name: zbroj, armour: 2}]}"
    y = doc(f"""
        hero: {hero}
        ork: {{sudba: 8}}
        """, """
        - declare: {actor: ork, effect: {lose: zbroj}, targets: [hero]}
        - contest:
            action: {actor: ork, pool: telo, targets: [hero], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: hero, pool: telo, roll: 7}]
          choices: {hero: exhaust}
        """)
    r = run(y)
    assert exhaustions(r)[0]["cost"] == 3
    assert final(r, "hero")["equipment"] == []


def test_R_EXH_4_jizva_and_sacrifice_and_unaffordable_exit_1():
    hero = "{pools: {telo: 1, duse: 9, vliv: 9}, ohrozeni: 4, equipment: [meč]}"
    # Unaffordable: 4 Tělo, has 1.
    e = violation(_duel(hero=hero, choices="{hero: exhaust}"), "R-EXH-4")
    assert "chybí 3" in e.format()
    # The numbers travel with the problem too (drd play words the shortage from them, not the text).
    assert e.problems[0].data == {"cost": 4, "pool": "telo", "have": 1, "missing": 3}
    # A Jizva worth 3 covers it: 1 + 3 - 4 = 0.
    r = run(_duel(hero=hero, choices="{hero: {exhaust: true, jizva: {name: Pád, pool: telo, gain: 3}}}"))
    [x] = exhaustions(r)
    assert x["gained"]["jizva"] == {"name": "Pád", "gain": 3} and x["cost"] == 4
    assert final(r, "hero")["telo"] == 0 and "Pád" in final(r, "hero")["jizvy"]
    # A sacrificed item yields 1 (sacrifice_gain): 1 + 1 < 4, still unaffordable.
    violation(_duel(hero=hero, choices="{hero: {sacrifice: meč}}"), "R-EXH-4")
    # With sacrifice_gain 3 it suffices, and the item is gone.
    r = run(_duel(hero=hero, choices="{hero: {sacrifice: meč}}"), params={"sacrifice_gain": 3})
    assert final(r, "hero")["equipment"] == [] and final(r, "hero")["telo"] == 0
    assert exhaustions(r)[0]["gained"]["sacrifice"] == {"name": "meč", "gain": 3}


def test_R_EXH_4_jizva_taken_even_when_the_payer_could_pay():
    hero = "{pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2}"
    r = run(_duel(hero=hero, choices="{hero: {jizva: {name: Šrám, gain: 2}}}"))
    assert final(r, "hero")["telo"] == 9                     # +2 from the Jizva, -2 for the exhaustion
    assert final(r, "hero")["jizvy"] == ["Šrám"]


def test_R_EXH_4_sacrificing_an_item_not_held_is_exit_1():
    violation(_duel(choices="{hero: {sacrifice: štít}}"), "R-EXH-4")


def test_R_EXH_4_policy_exhaust_never_forces_an_unaffordable_payment():
    hero = "{pools: {telo: 1, duse: 9, vliv: 9}, ohrozeni: 4}"
    r = run(_duel(hero=hero), choose="exhaust")
    assert exhaustions(r) == []
    assert final(r, "hero")["ohrozeni"] == 5 and final(r, "hero")["telo"] == 1


def test_choose_exhaust_policy_answers_missing_choices():
    r = run(_duel(), choose="exhaust")
    assert [e["by"] for e in exhaustions(r)] == ["hero"]
    r = run(_duel(choices="{hero: accept}"), choose="exhaust")
    assert exhaustions(r) == []


def test_CS_FOR_1_only_a_participant_of_the_contest_may_exhaust():
    y = doc("""
        hero: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2}
        friend: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 1}
        ork: {sudba: 8}
        """, """
        - contest:
            action: {actor: ork, pool: telo, targets: [hero], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: hero, pool: telo, roll: 7}]
          choices: {friend: {ork: {exhaust: [hero]}}}
        """)
    violation(y, "CS-FOR-1")


def test_CS_FOR_2_exhausting_for_self_and_another_costs_ohrozeni_times_count():
    # The book: Ohrožení 3, protecting self and one other → 6, Ohrožení 3→4; the other keeps its Ohrožení.
    y = doc("""
        hanus: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3}
        jinoch: {pools: {telo: 3, duse: 3, vliv: 3}, ohrozeni: 1}
        zlobr: {sudba: 9}
        """, """
        - contest:
            action: {actor: zlobr, pool: telo, targets: [hanus, jinoch], manoeuvres: [rozsahle], roll: 12,
                     effect: {condition: chycen}}
            counters: [{actor: hanus, pool: telo, roll: 8}]
          choices: {hanus: {zlobr: {exhaust: [hanus, jinoch]}}}
        """)
    r = run(y)
    [e] = exhaustions(r)
    assert (e["cost"], e["ohrozeni"], sorted(e["protected"])) == (6, [3, 4], ["hanus", "jinoch"])
    assert final(r, "jinoch")["ohrozeni"] == 1 and final(r, "jinoch")["conditions"] == []
    assert final(r, "hanus")["conditions"] == []
    assert step(r)["actions"]["zlobr"]["affected"] == []


def test_CS_FOR_2_armour_is_per_protected_participant():
    y = doc("""
        hanus: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3, armour: 1}
        jinoch: {pools: {telo: 3, duse: 3, vliv: 3}, ohrozeni: 1, armour: 2}
        zlobr: {sudba: 9}
        """, """
        - contest:
            action: {actor: zlobr, pool: telo, targets: [hanus, jinoch], manoeuvres: [rozsahle], roll: 12,
                     effect: {ohrozeni: 1}}
            counters: [{actor: hanus, pool: telo, roll: 8}]
          choices: {hanus: {zlobr: {exhaust: [hanus, jinoch]}}}
        """)
    assert exhaustions(run(y))[0]["cost"] == (3 - 1) + (3 - 2)


def test_CS_FOR_2_protecting_someone_not_threatened_is_exit_1():
    y = doc("""
        hanus: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3}
        jinoch: {pools: {telo: 3, duse: 3, vliv: 3}}
        zlobr: {sudba: 9}
        """, """
        - contest:
            action: {actor: zlobr, pool: telo, targets: [hanus], roll: 12, effect: {ohrozeni: 1}}
            counters: [{actor: hanus, pool: telo, roll: 8}]
          choices: {hanus: {zlobr: {exhaust: [hanus, jinoch]}}}
        """)
    violation(y, "CS-FOR-1")


def test_CS_SEQ_1_exhausting_against_several_actions_in_roll_order():
    # The book: Ohrožení 3; against the 13 pay 3 → 4; against the 11 pay 4 → 5.
    y = doc("""
        hanus: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3}
        a: {sudba: 9}
        b: {sudba: 9}
        c: {sudba: 9}
        """, """
        - contest:
            action: {actor: hanus, pool: telo, roll: 10, self_effect: {vyhody: 1}}
            counters:
              - {actor: b, roll: 11, effect: {condition: odříznut}}
              - {actor: a, roll: 13, effect: {condition: chycen}}
              - {actor: c, roll: 7, effect: {ohrozeni: 1}}
          choices: {hanus: exhaust}
        """)
    r = run(y)
    ex = exhaustions(r)
    assert [(e["vs"], e["cost"], e["ohrozeni"]) for e in ex] == [("a", 3, [3, 4]), ("b", 4, [4, 5])]
    assert final(r, "hanus")["telo"] == 2 and final(r, "hanus")["conditions"] == []
    assert step(r)["actions"]["hanus"]["success"] is False        # stopped: no self_effect
    assert final(r, "hanus")["vyhody"] == 0


def test_CS_SEQ_1_exhausting_only_against_the_first():
    y = doc("""
        hanus: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3}
        a: {sudba: 9}
        b: {sudba: 9}
        """, """
        - contest:
            action: {actor: hanus, pool: telo, roll: 10}
            counters:
              - {actor: a, roll: 13, effect: {condition: chycen}}
              - {actor: b, roll: 11, effect: {condition: odříznut}}
          choices: {hanus: {a: exhaust, b: accept}}
        """)
    r = run(y)
    assert [e["vs"] for e in exhaustions(r)] == ["a"]
    assert final(r, "hanus")["conditions"] == ["odříznut"]


def test_CS_MULTI_2_test_against_several_targets_exhausts_once():
    y = doc("""
        jasen: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2, levels: {carodej: 2}}
        t1: {sudba: 3}
        t2: {sudba: 3}
        t3: {sudba: 3}
        """, """
        - test: {actor: jasen, pool: duse, targets: [t1, t2, t3], manoeuvres: [rozsahle], roll: 7,
                 effect: {condition: uspán}}
          choices: {jasen: exhaust}
        """)
    r = run(y)
    [e] = exhaustions(r)
    assert (e["cost"], e["ohrozeni"], e["vs"]) == (2, [2, 3], "test")
    assert final(r, "jasen")["duse"] == 9 - 1 - 2            # rozsáhle 1 + exhaustion 2
    assert sorted(step(r)["actions"]["jasen"]["affected"]) == ["t1", "t2", "t3"]
    assert all(final(r, t)["conditions"] == ["uspán"] for t in ("t1", "t2", "t3"))
