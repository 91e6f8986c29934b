"""R-CONT, R-ORDER, CS-MULTI-3..5, CS-DUR-2, CS-RANGE-1/2, R-RND-1, R-MAN-3: contests."""

import re

from drd_cli.dice import ScriptedDice

from drdtest import doc, exhaustions, final, run, step, violation

FIVE = """
hero: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2}
p: {sudba: 9, ohrozeni: 1}
q: {sudba: 9, ohrozeni: 1}
r: {sudba: 9, ohrozeni: 1}
s: {sudba: 9, ohrozeni: 1}
"""


def _pair_log(result: dict) -> list[tuple[str, str]]:
    """(winner, loser) of each pair, in the order the engine resolved them."""
    out = []
    for e in step(result)["log"]:
        if e["rule"] == "R-CONT":
            m = re.match(r"(\S+) vyhrává, (\S+) prohrává:", e["text"])
            if m:
                out.append((m.group(1), m.group(2)))
    return out


def test_R_ORDER_pairs_from_the_highest_roll_then_lower_roll_then_listing():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, roll: 10}
            counters:
              - {actor: p, roll: 8}
              - {actor: q, roll: 12}
              - {actor: r, roll: 9}
              - {actor: s, roll: 8}
        """)
    r = run(y)
    assert _pair_log(r) == [("q", "hero"), ("hero", "r"), ("hero", "p"), ("hero", "s")]
    assert step(r)["order"] == ["q", "hero", "r", "p", "s"]
    # the same order, structured (SCENARIO-FORMAT §7 extension `pairs`)
    pairs = step(r)["pairs"]
    assert [(x["counter"], x["winner"], x["totals"]) for x in pairs] == [
        ("q", "q", [10, 12]), ("r", "hero", [10, 9]), ("p", "hero", [10, 8]), ("s", "hero", [10, 8])]
    assert all(x["actor"] == "hero" and x["rule"] == "R-CONT" and not x["tie"] and not x["reroll"] for x in pairs)


def test_R_CONT_pairs_record_a_reroll_and_its_totals():
    # tie: reroll; 3+3=6 vs 5+4=9 → p wins on the reroll.
    pair = step(_tie("reroll", ScriptedDice([3, 3, 5, 4])))["pairs"]
    assert pair == [{"actor": "hero", "counter": "p", "winner": "p", "totals": [6, 9], "tie": False,
                     "reroll": True, "rule": "R-CONT",
                     "rerolls": [{"actor": {"total": 6, "dice": [3, 3], "bonus": 0, "source": "entered",
                                            "modifiers": []},
                                  "counter": {"total": 9, "dice": [5, 4], "bonus": 0, "source": "entered",
                                              "modifiers": []}}]}]
    assert step(_tie("counter"))["pairs"][0]["winner"] == "p"
    assert step(_tie("actor"))["pairs"][0] == {"actor": "hero", "counter": "p", "winner": "hero",
                                                "totals": [10, 10], "tie": True, "reroll": False, "rule": "R-CONT"}


def test_R_CONT_contest_without_counters_has_no_pairs():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p], roll: 10, effect: {ohrozeni: 1}}
        """)
    assert step(run(y))["pairs"] == []


def test_R_ORDER_effects_of_an_earlier_pair_change_a_later_exhaustion():
    # q (12) beats hero first and raises its Ohrožení by 2 (hero accepts); p (11) then beats hero,
    # who exhausts: the cost is the new Ohrožení 4, not 2.
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, roll: 10}
            counters:
              - {actor: p, roll: 11, effect: {condition: chycen}}
              - {actor: q, roll: 12, effect: {ohrozeni: 2}}
          choices: {hero: {q: accept, p: exhaust}}
        """)
    r = run(y)
    [e] = exhaustions(r)
    assert (e["vs"], e["cost"], e["ohrozeni"]) == ("p", 4, [4, 5])


def _tie(tie: str, dice=None):
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, bonus_from: none, targets: [p], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: p, roll: 10, effect: {ohrozeni: 1}}]
        """)
    return run(y, params={"tie": tie}, dice=dice)


def test_R_CONT_tie_params():
    r = _tie("actor")
    assert step(r)["actions"]["hero"]["success"] is True and final(r, "p")["ohrozeni"] == 2
    r = _tie("counter")
    assert step(r)["actions"]["p"]["success"] is True and final(r, "hero")["ohrozeni"] == 3
    assert step(r)["actions"]["hero"]["success"] is False
    # reroll: both roll 2k6 again plus their bonus (here 0 for both): 3+3=6 vs 5+4=9 → p wins.
    r = _tie("reroll", ScriptedDice([3, 3, 5, 4]))
    assert step(r)["actions"]["p"]["success"] is True
    # a reroll that ties again rolls once more: 4+4 vs 4+4, then 6+6 vs 1+1 → hero wins.
    r = _tie("reroll", ScriptedDice([4, 4, 4, 4, 6, 6, 1, 1]))
    assert step(r)["actions"]["hero"]["success"] is True


def test_R_CONT_higher_roll_wins_the_pair():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p], roll: 9, effect: {ohrozeni: 1}}
            counters: [{actor: p, roll: 10, effect: {ohrozeni: 3}}]
        """)
    r = run(y)
    assert final(r, "hero")["ohrozeni"] == 5 and final(r, "p")["ohrozeni"] == 1
    assert step(r)["actions"]["p"]["affected"] == ["hero"]


def test_CS_MULTI_3_non_reacting_target_meets_the_winners_roll_against_9():
    steps = """
        - contest:
            action: {{actor: hero, pool: telo, targets: [p, q], manoeuvres: [rozsahle], roll: {roll},
                     effect: {{ohrozeni: 1}}, softened: {{vyhody: -1}}}}
            counters: [{{actor: p, roll: 5}}]
          choices: {choices}
        """
    r = run(doc(FIVE, steps.format(roll=9, choices="{}")))
    assert sorted(step(r)["actions"]["hero"]["affected"]) == ["p", "q"]
    r = run(doc(FIVE, steps.format(roll=8, choices="{}")))
    assert step(r)["actions"]["hero"]["affected"] == ["p"] and final(r, "q")["ohrozeni"] == 1
    assert step(r)["actions"]["hero"]["success"] is True          # it reached p
    # below 9 the actor exhausts once to reach q; softened lands instead of the effect
    r = run(doc(FIVE.replace("ohrozeni: 1}", "ohrozeni: 1, vyhody: 1}"),
                steps.format(roll=8, choices="{hero: {test: exhaust}}")))
    [e] = exhaustions(r)
    assert (e["by"], e["vs"], e["cost"], e["protected"]) == ("hero", "test", 2, ["hero"])
    assert final(r, "q")["ohrozeni"] == 1 and final(r, "q")["vyhody"] == 0


def test_CS_MULTI_3_obstacle_below_9():
    steps = """
        - contest:
            action: {{actor: hero, pool: telo, roll: 8, obstacle: {{jizva: Pád}}, self_effect: {{vyhody: 1}}}}
            counters: [{{actor: p, roll: 6}}]
          choices: {{hero: {{test: {answer}}}}}
        """
    r = run(doc(FIVE, steps.format(answer="accept")))
    assert final(r, "hero")["jizvy"] == ["Pád"]
    assert step(r)["actions"]["hero"]["success"] is False
    r = run(doc(FIVE, steps.format(answer="exhaust")))
    assert final(r, "hero")["jizvy"] == [] and exhaustions(r)[0]["vs"] == "test"
    assert step(r)["actions"]["hero"]["success"] is True and final(r, "hero")["vyhody"] == 1


def test_CS_MULTI_3_obstacle_has_no_armour_discount():
    y = doc(FIVE.replace("ohrozeni: 2}", "ohrozeni: 2, armour: 2}"), """
        - contest:
            action: {actor: hero, pool: telo, roll: 8, obstacle: {jizva: Pád}}
            counters: [{actor: p, roll: 6}]
          choices: {hero: {test: exhaust}}
        """)
    assert exhaustions(run(y))[0]["cost"] == 2


def test_CS_MULTI_4_harm_win_stops_the_action_for_all_targets():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p, q, r], manoeuvres: [rozsahle], roll: 10,
                     effect: {ohrozeni: 1}, self_effect: {vyhody: 1}}
            counters:
              - {actor: p, kind: harm, roll: 11, effect: {ohrozeni: 1}}
              - {actor: q, roll: 4}
        """)
    r = run(y)
    s = step(r)
    assert s["actions"]["hero"] == {"success": False, "affected": []}
    assert [final(r, x)["ohrozeni"] for x in "pqr"] == [1, 1, 1]
    assert final(r, "hero")["ohrozeni"] == 3 and final(r, "hero")["vyhody"] == 0


def test_CS_MULTI_4_protect_win_shields_only_the_protected():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p, q], manoeuvres: [rozsahle], roll: 10,
                     effect: {ohrozeni: 1}}
            counters:
              - {actor: p, kind: protect, roll: 11}
              - {actor: q, roll: 4}
        """)
    r = run(y)
    assert step(r)["actions"]["hero"] == {"success": True, "affected": ["q"]}
    assert step(r)["actions"]["p"]["success"] is True
    assert (final(r, "p")["ohrozeni"], final(r, "q")["ohrozeni"]) == (1, 2)


def test_CS_MULTI_4_non_reacting_target_cannot_exhaust_for_itself():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p, q], manoeuvres: [rozsahle], roll: 10,
                     effect: {ohrozeni: 1}}
            counters: [{actor: p, roll: 4}]
          choices: {q: exhaust}
        """)
    violation(y, "CS-MULTI-4")


def test_CS_MULTI_4_someone_in_the_contest_may_exhaust_for_a_non_reacting_target():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p, q], manoeuvres: [rozsahle], roll: 10,
                     effect: {ohrozeni: 1}}
            counters: [{actor: p, roll: 4}]
          choices: {p: {hero: {exhaust: [p, q]}}}
        """)
    r = run(y)
    [e] = exhaustions(r)
    assert (e["by"], sorted(e["protected"]), e["cost"], e["ohrozeni"]) == ("p", ["p", "q"], 2, [1, 2])
    assert final(r, "q")["ohrozeni"] == 1
    assert step(r)["actions"]["hero"]["affected"] == []


def test_protected_non_reacting_target_whose_protector_lost_meets_9():
    steps = """
        - contest:
            action: {{actor: hero, pool: telo, targets: [q], roll: {roll}, effect: {{ohrozeni: 1}}}}
            counters: [{{actor: p, kind: protect, protects: [q], roll: 7}}]
        """
    r = run(doc(FIVE, steps.format(roll=10)))
    assert step(r)["actions"]["hero"]["affected"] == ["q"] and final(r, "q")["ohrozeni"] == 2
    r = run(doc(FIVE, steps.format(roll=8)))
    assert step(r)["actions"]["hero"]["affected"] == [] and final(r, "q")["ohrozeni"] == 1
    assert step(r)["actions"]["hero"]["success"] is False


def test_CS_MULTI_5_deny_the_winners_self_effect():
    # The actor wins; the loser accepts the hit but exhausts to deny the actor's gain. The hit lands
    # first (Ohrožení 1→2), so the denial costs 2 (engine order within a pair: effect, then denial).
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p], roll: 10, effect: {ohrozeni: 1},
                     self_effect: {ohrozeni: -1}}
            counters: [{actor: p, roll: 7}]
          choices: {p: deny}
        """)
    r = run(y)
    [e] = exhaustions(r)
    assert (e["by"], e["denied"], e["protected"], e["cost"], e["ohrozeni"]) == ("p", "hero", [], 2, [2, 3])
    assert final(r, "hero")["ohrozeni"] == 2          # gain denied
    assert final(r, "p")["ohrozeni"] == 3             # hit (+1) and the denial (+1)
    assert step(r)["actions"]["hero"]["success"] is True


def test_CS_MULTI_5_exhaust_and_deny_are_two_exhaustions_in_that_order():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p], roll: 10, effect: {ohrozeni: 1},
                     self_effect: {vyhody: 1}, manoeuvres: [mocne]}
            counters: [{actor: p, roll: 7}]
          choices: {p: {hero: {exhaust: [p], deny: true}}}
        """)
    r = run(y)
    a, b = exhaustions(r)
    assert (a["protected"], a["denied"], a["cost"], a["ohrozeni"]) == (["p"], None, 2, [1, 2])
    assert (b["protected"], b["denied"], b["cost"], b["ohrozeni"]) == ([], "hero", 3, [2, 3])
    assert final(r, "hero")["vyhody"] == 0 and final(r, "p")["sudba"] == 9 - 5


def test_CS_MULTI_5_winning_counter_gets_its_gain_and_exhaust_against_it_means_deny():
    steps = """
        - contest:
            action: {{actor: hero, pool: telo, targets: [p], roll: 8, effect: {{ohrozeni: 1}}}}
            counters: [{{actor: p, kind: protect, roll: 11, self_effect: {{ohrozeni: -1}}}}]
          choices: {{hero: {answer}}}
        """
    r = run(doc(FIVE, steps.format(answer="accept")))
    assert final(r, "p")["ohrozeni"] == 0 and exhaustions(r) == []
    r = run(doc(FIVE, steps.format(answer="exhaust")))
    [e] = exhaustions(r)
    assert (e["by"], e["denied"], e["cost"]) == ("hero", "p", 2)
    assert final(r, "p")["ohrozeni"] == 1


def test_CS_MULTI_5_a_loser_whose_action_was_already_stopped_may_still_deny():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p], roll: 10, effect: {ohrozeni: 1}}
            counters:
              - {actor: q, roll: 12, effect: {ohrozeni: 1}, self_effect: {vyhody: 2}}
              - {actor: p, roll: 7}
          choices: {hero: {q: deny}}
        """)
    r = run(y)
    assert final(r, "q")["vyhody"] == 0 and exhaustions(r)[0]["denied"] == "q"
    assert final(r, "p")["ohrozeni"] == 1               # the stopped action lands on nobody


def test_CS_DUR_2_long_action_statuses():
    base = """
        - id: s
          contest:
            action: {{actor: hero, pool: telo, roll: {a}, long: strom}}
            counters: [{{actor: p, roll: {c}, effect: {{ohrozeni: 1}}}}]
          choices: {choices}
        """

    def long(a, c, choices="{}"):
        return step(run(doc(FIVE, base.format(a=a, c=c, choices=choices))))["actions"]["hero"]["long"]

    assert long(10, 7) == {"id": "strom", "status": "completed", "retry": False, "barred": ["p"]}
    assert long(10, 7, "{p: exhaust}") == {"id": "strom", "status": "continuing", "retry": False, "barred": []}
    assert long(7, 10) == {"id": "strom", "status": "interrupted", "retry": False, "barred": []}
    assert long(7, 10, "{hero: exhaust}") == {"id": "strom", "status": "interrupted", "retry": True,
                                              "barred": []}


def test_CS_DUR_2_exhausting_interrupter_pays_and_a_barred_one_is_only_warned():
    y = doc(FIVE, rounds="""
        - steps:
            - id: a
              contest:
                action: {actor: hero, pool: telo, roll: 10, long: strom}
                counters: [{actor: p, roll: 7}, {actor: q, roll: 6}]
              choices: {q: exhaust}
        - steps:
            - id: b
              contest:
                action: {actor: hero, pool: telo, roll: 10, long: strom}
                counters: [{actor: p, roll: 8}]
        """, steps="")
    r = run(y)
    assert [(e["by"], e["cost"]) for e in exhaustions(r)] == [("q", 1)]
    assert step(r, "a")["actions"]["hero"]["long"]["barred"] == ["p"]
    assert any(e["rule"] == "CS-DUR-2" and "Pozor" in e["text"] for e in step(r, "b")["log"])


def test_CS_RANGE_1_2_targets():
    two = """
        - contest:
            action: {actor: hero, pool: telo, targets: [p, q], roll: 10, effect: {ohrozeni: 1}}
        """
    violation(doc(FIVE, two), "CS-RANGE-1")
    r = run(doc(FIVE, two.replace("roll: 10", "roll: 10, manoeuvres: [rozsahle]")))
    assert sorted(step(r)["actions"]["hero"]["affected"]) == ["p", "q"]
    assert final(r, "hero")["telo"] == 8                  # rozsáhle paid from the action's pool


def test_CS_RANGE_2_area_hits_everyone_in_the_zone_allies_included():
    parts = """
        hero: {pools: {telo: 9, duse: 9, vliv: 9}, zone: most}
        friend: {pools: {telo: 9, duse: 9, vliv: 9}, zone: most}
        ork: {sudba: 9, zone: most}
        far: {sudba: 9, zone: les}
        """
    area = """
        - contest:
            action: {{actor: hero, pool: telo, area: true, zone: most, {extra} roll: 10, effect: {{ohrozeni: 1}}}}
        """
    r = run(doc(parts, area.format(extra="manoeuvres: [rozsahle],")))
    assert sorted(step(r)["actions"]["hero"]["affected"]) == ["friend", "ork"]
    assert final(r, "far")["ohrozeni"] == 0 and final(r, "hero")["ohrozeni"] == 0
    r = run(doc(parts, area.format(extra="area_via: environment,")))
    assert final(r, "hero")["telo"] == 9                  # no rozsáhle to pay
    violation(doc(parts, area.format(extra="")), "CS-RANGE-2")
    violation(doc(parts, area.format(extra="manoeuvres: [rozsahle], targets: [ork],")), "CS-RANGE-2")


def test_CS_RANGE_2_area_skips_participants_out_of_the_conflict():
    parts = """
        hero: {pools: {telo: 9, duse: 9, vliv: 9}, zone: most}
        ork: {sudba: 9, zone: most}
        gone: {sudba: 9, zone: most, conditions: [mimo konflikt]}
        """
    r = run(doc(parts, """
        - contest:
            action: {actor: hero, pool: telo, area: true, area_via: skill, zone: most, roll: 10,
                     effect: {ohrozeni: 1}}
        """))
    assert step(r)["actions"]["hero"]["affected"] == ["ork"]


def test_R_RND_1_initiative_twice_exit_1():
    y = doc(FIVE, """
        - test: {actor: hero, pool: telo, roll: 10}
        - test: {actor: hero, pool: telo, roll: 10}
        """)
    violation(y, "R-RND-1")
    # the next round gives a new initiative action
    r = run(doc(FIVE, steps="", rounds="""
        - steps: [{test: {actor: hero, pool: telo, roll: 10}}]
        - steps: [{test: {actor: hero, pool: telo, roll: 10}}]
        """))
    assert len(r["steps"]) == 2
    # initiative already spent before the file's first step
    violation(doc(FIVE, steps="", rounds="""
        - spent: [hero]
          steps: [{test: {actor: hero, pool: telo, roll: 10}}]
        """), "R-RND-1")


def test_R_RND_1_counter_with_unused_initiative_need_not_be_threatened():
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: q, roll: 12, effect: {ohrozeni: 1}}]
        """)
    r = run(y)
    assert step(r)["actions"]["q"]["success"] is True and step(r)["manoeuvres"] == []


def test_R_MAN_3_obrana_only_when_threatened():
    two_steps = """
        - test: {{actor: {who}, roll: 10}}
        - contest:
            action: {{actor: hero, pool: telo, targets: [p], roll: 10, effect: {{ohrozeni: 1}}}}
            counters: [{{actor: {who}, roll: 12}}]
        """
    # q spent its initiative and is not threatened: it may not react from obrana.
    violation(doc(FIVE, two_steps.format(who="q")), "CS-IND-1")
    # p is the target: obrana is implied, paid (1 Sudba) and counts as used.
    r = run(doc(FIVE, two_steps.format(who="p")))
    assert step(r)["manoeuvres"] == [{"by": "p", "name": "obrana", "paid": "sudba", "cost": 1, "via": None}]
    assert final(r, "p")["sudba"] == 8
    # ... and allows no other manoeuvre.
    violation(doc(FIVE, """
        - test: {actor: p, roll: 10}
        - contest:
            action: {actor: hero, pool: telo, targets: [p], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: p, roll: 12, manoeuvres: [presne]}]
        """), "R-MAN-3")


def test_R_MAN_3_threatens_lets_an_indirectly_threatened_participant_react_from_obrana():
    r = run(doc(FIVE, """
        - test: {actor: q, roll: 10}
        - contest:
            action: {actor: hero, pool: telo, targets: [p], threatens: [q], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: q, from: obrana, roll: 12}]
        """))
    assert step(r)["actions"]["q"]["success"] is True


def test_R_MAN_3_main_action_from_obrana_is_exit_1():
    violation(doc(FIVE, "- test: {actor: hero, roll: 10, from: obrana}"), "R-MAN-3")


def test_R_CONT_one_participant_acts_once_in_a_contest():
    violation(doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p], roll: 10}
            counters: [{actor: p, roll: 5}, {actor: p, roll: 6}]
        """), "R-CONT")


def test_CS_OPT_AID_counter_protecting_several_needs_the_optional_rule():
    steps = """
        - contest:
            action: {actor: hero, pool: telo, targets: [p, q], manoeuvres: [rozsahle], roll: 10,
                     effect: {ohrozeni: 1}}
            counters: [{actor: p, kind: protect, protects: [p, q], roll: 12}]
        """
    violation(doc(FIVE, steps), "CS-OPT-AID")
    r = run(doc(FIVE, steps), enable=["rozsahla-protiakce"])
    assert step(r)["actions"]["hero"]["affected"] == []


# --------------------------------------------------------------------------- audit fixes

def test_R_CONT_reroll_of_a_given_total_adds_the_participants_bonus():
    """R-CONT `tie: reroll` with R-ROLL-1: a creature whose first roll the file gave as a total rerolls
    2k6 + its charakteristika (here 3), not a bare 2k6; the reroll is in the pair's `rerolls`."""
    y = doc("""
        hero: {pools: {telo: 9, duse: 9, vliv: 9}, levels: {bojovnik: 2}}
        ogre: {sudba: 9, charakteristika: 3}
        """, """
        - contest:
            action: {actor: ogre, pool: telo, targets: [hero], roll: 8, effect: {ohrozeni: 1}}
            counters: [{actor: hero, bonus_from: bojovnik, roll: 8, effect: {ohrozeni: 1}}]
        """)
    # Reroll: ogre 1+1+3 = 5, hero 1+2+2 = 5 (tie again); then ogre 1+1+3 = 5 vs hero 1+1+2 = 4.
    r = run(y, params={"tie": "reroll"}, dice=ScriptedDice([1, 1, 1, 2, 1, 1, 1, 1]))
    pair = step(r)["pairs"][0]
    assert pair["totals"] == [5, 4] and pair["winner"] == "ogre" and pair["reroll"] is True
    assert [(x["actor"]["total"], x["actor"]["bonus"], x["counter"]["total"], x["counter"]["bonus"])
            for x in pair["rerolls"]] == [(5, 3, 5, 2), (5, 3, 4, 2)]
    assert [x["actor"]["dice"] for x in pair["rerolls"]] == [[1, 1], [1, 1]]
    assert final(r, "hero")["ohrozeni"] == 1                 # the ogre won: its effect landed
    # The first rolls stay as the file gave them.
    assert step(r)["rolls"]["ogre"] == {"total": 8, "dice": None, "bonus": None, "source": "given",
                                         "modifiers": []}


def test_R_CONT_reroll_adds_presne_like_a_seeded_roll():
    """R-ROLL-3: přesně (+1 per use) is part of the bonus of the reroll too."""
    y = doc(FIVE, """
        - contest:
            action: {actor: p, pool: telo, targets: [q], manoeuvres: [presne], roll: 8, effect: {ohrozeni: 1}}
            counters: [{actor: q, roll: 8}]
        """)
    r = run(y, params={"tie": "reroll"}, dice=ScriptedDice([2, 2, 2, 2]))
    pair = step(r)["pairs"][0]
    assert pair["totals"] == [5, 4] and pair["winner"] == "p"


def test_R_CONT_reroll_of_a_hero_without_bonus_from_is_refused_like_a_seeded_roll():
    """R-ROLL-1: a hero rolling dice must say which profession adds; a reroll is such a roll."""
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p], roll: 8}
            counters: [{actor: p, roll: 8}]
        """)
    from drdtest import invalid

    err = invalid(y, params={"tie": "reroll"}, dice=ScriptedDice([1, 1, 1, 1]))
    assert "bonus_from" in err.format()


HELP = """
        - test: {actor: p, pool: telo, roll: 10}
        - contest:
            action: {actor: hero, pool: duse, targets: [p], roll: 10, effect: %s}
            counters: [{actor: p, from: obrana, kind: harm, roll: 12, effect: {ohrozeni: 1}}]
        """


def test_R_THR_a_target_the_action_only_helps_cannot_counter_from_obrana():
    """R-THR: an action whose effect only helps (Výhody, lower Ohrožení, a condition removed) does not
    threaten its target, so a target that spent its initiative has no right to react from defence."""
    for eff in ("{vyhody: 1}", "{ohrozeni: -1}", "{remove_condition: chycen, note: rozváže ho}"):
        v = violation(doc(FIVE, HELP % eff), "R-THR")
        assert "z obrany" in v.format()
    # An effect that harms (or one that helps and harms at once) threatens: obrana is allowed.
    for eff in ("{ohrozeni: 1}", "{vyhody: 1, condition: chycen}", "[{vyhody: 1, to: actor}, {ohrozeni: 1}]"):
        r = run(doc(FIVE, HELP % eff))
        assert step(r)["actions"]["p"]["success"] is True


def test_R_THR_an_action_without_effect_still_threatens_its_target():
    r = run(doc(FIVE, """
        - test: {actor: p, pool: telo, roll: 10}
        - contest:
            action: {actor: hero, pool: duse, targets: [p], roll: 10}
            counters: [{actor: p, from: obrana, roll: 12}]
        """))
    assert step(r)["actions"]["p"]["success"] is True


def test_R_THR_a_helped_target_may_counter_with_its_initiative_and_the_help_lands_without_exhausting():
    """R-RND-1: with its initiative action unused a participant may counter anything; losing, the
    help lands on it with no decision (it cannot exhaust against help: CS-FOR-1 names only threatened)."""
    r = run(doc(FIVE, """
        - contest:
            action: {actor: hero, pool: duse, targets: [p], roll: 12, effect: {vyhody: 1}}
            counters: [{actor: p, roll: 8}]
        """), choose="exhaust")
    assert step(r)["exhaustions"] == [] and final(r, "p")["vyhody"] == 1
    assert step(r)["actions"]["hero"]["affected"] == ["p"]
    violation(doc(FIVE, """
        - contest:
            action: {actor: hero, pool: duse, targets: [p], roll: 12, effect: {vyhody: 1}}
            counters: [{actor: q, roll: 8}]
          choices: {q: {exhaust: [p]}}
        """), "CS-FOR-1")


def test_R_THR_protecting_a_target_the_action_only_helps_is_refused():
    violation(doc(FIVE, """
        - contest:
            action: {actor: hero, pool: duse, targets: [p], roll: 10, effect: {ohrozeni: -1}}
            counters: [{actor: q, kind: protect, protects: [p], roll: 12}]
        """), "CS-MULTI-4")


AREA_AID = """
        - contest:
            action: {actor: hero, pool: telo, area: true, area_via: skill, zone: most, roll: 10,
                     effect: {ohrozeni: 1}}
            counters: [{actor: p, kind: protect, area: true, area_via: skill, zone: most, roll: 12}]
        """
AREA_PARTS = """
        hero: {pools: {telo: 9, duse: 9, vliv: 9}, zone: breh}
        p: {sudba: 9, ohrozeni: 1, zone: most}
        q: {sudba: 9, ohrozeni: 1, zone: most}
        r: {sudba: 9, ohrozeni: 1, zone: les}
        """


def test_CS_OPT_AID_a_plosna_protecting_counter_needs_only_rozsahla_protiakce():
    """CS-OPT-AID: a helping counter may be rozsáhlá *or plošná*; with only rozsahla-protiakce on, a
    plošná wall shielding the action's targets is resolved by the core (not refused as CS-OPT-AREA)."""
    r = run(doc(AREA_PARTS, AREA_AID), enable=["rozsahla-protiakce"])
    s = step(r)
    assert s["actions"]["p"]["success"] is True and s["actions"]["hero"]["affected"] == []
    assert final(r, "p")["ohrozeni"] == 1 and final(r, "q")["ohrozeni"] == 1
    # without either optional rule it is refused, naming CS-OPT-AID
    violation(doc(AREA_PARTS, AREA_AID), "CS-OPT-AID")
    # a plošná counter that harms is plošná by nature: CS-OPT-AREA (plosna-protiakce)
    violation(doc(AREA_PARTS, AREA_AID.replace("kind: protect", "kind: harm")), "CS-OPT-AREA",
              enable=["rozsahla-protiakce"])


def test_CS_OPT_AID_a_plosna_protecting_counter_may_not_pull_new_participants_in():
    """CS-OPT-AID: it "pulls no new participants in"; reaching r (not in the contest) needs CS-OPT-AREA."""
    y = doc(AREA_PARTS, AREA_AID.replace("zone: most, roll: 12", "targets: [q, r], roll: 12"))
    v = violation(y, "CS-OPT-AID", enable=["rozsahla-protiakce"])
    assert "plosna-protiakce" in v.format()


def test_CS_FOR_1_exhausting_for_exactly_one_other_is_logged_as_CS_FOR_1():
    """CS-FOR-1 is exhausting for another; CS-FOR-2 is exhausting for several."""
    y = doc(FIVE, """
        - contest:
            action: {actor: hero, pool: telo, targets: [p, q], manoeuvres: [rozsahle], roll: 12,
                     effect: {ohrozeni: 1}}
            counters: [{actor: p, roll: 8}]
          choices: {p: {exhaust: %s}}
        """)
    one = run(y % "[q]")
    rules = [e["rule"] for e in step(one)["log"] if "vyčerpává" in e["text"]]
    assert rules == ["CS-FOR-1"]
    assert final(one, "q")["ohrozeni"] == 1 and final(one, "p")["ohrozeni"] == 3   # p pays 1, is hit (+1)
    two = run(y % "[p, q]")
    rules = [e["rule"] for e in step(two)["log"] if "vyčerpává" in e["text"]]
    assert rules == ["CS-FOR-2"] and exhaustions(two)[0]["cost"] == 2
