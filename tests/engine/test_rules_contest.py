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
            m = re.match(r"(\S+) vyhrává nad (\S+):", e["text"])
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
                     "reroll": True, "rule": "R-CONT"}]
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
            action: {actor: hero, pool: telo, targets: [p], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: p, roll: 10, effect: {ohrozeni: 1}}]
        """)
    return run(y, params={"tie": tie}, dice=dice)


def test_R_CONT_tie_params():
    r = _tie("actor")
    assert step(r)["actions"]["hero"]["success"] is True and final(r, "p")["ohrozeni"] == 2
    r = _tie("counter")
    assert step(r)["actions"]["p"]["success"] is True and final(r, "hero")["ohrozeni"] == 3
    assert step(r)["actions"]["hero"]["success"] is False
    # reroll: both roll 2k6 again (given totals carry no bonus): 3+3=6 vs 5+4=9 → p wins.
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
