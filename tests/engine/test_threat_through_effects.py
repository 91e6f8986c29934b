"""R-THR / CS-IND-1 for a participant named only in an effect's `to:` (second spec audit, open point a).

Reading (docs/rules.md): R-THR lists how an action threatens someone — a target, a member of its
area, `threatens`, a follow-up's `affects`. Naming someone in an effect's `to:` sends the
consequence there but is not on that list, so alone it gives no right to react from defence and
nobody may exhaust for that participant. Listed in `threatens` as well, the participant is
threatened: it may counter from obrana and, losing its pair, exhaust against the part of the effect
sent to it (it is then spared that part).
"""

from drdtest import doc, exhaustions, final, run, step, violation

P = """
a: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2}
x: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 1}
z: {sudba: 9, ohrozeni: 3}
"""

EFFECT = "[{ohrozeni: 1}, {to: [x], jizva: Zranění}]"


def _y(counter: str, choices: str = "{}", threatens: str = "") -> str:
    return doc(P, f"""
        - declare: {{actor: x, from: initiative}}
        - contest:
            action: {{actor: z, pool: telo, targets: [a], roll: 10{threatens}, effect: {EFFECT}}}
            counters: [{counter}]
          choices: {choices}
        """)


def test_R_THR_named_only_in_to_is_not_threatened_and_cannot_react_from_obrana():
    violation(_y("{actor: x, from: obrana, pool: telo, roll: 8}"), "CS-IND-1")


def test_CS_FOR_1_nobody_may_exhaust_for_one_named_only_in_to():
    violation(_y("{actor: a, pool: telo, roll: 8}", "{a: {z: {exhaust: [x]}}}"), "CS-FOR-1")


def test_R_THR_named_only_in_to_gets_that_part_when_the_action_lands():
    r = run(_y("{actor: a, pool: telo, roll: 8}"))
    assert final(r, "x")["jizvy"] == ["Zranění"] and final(r, "x")["ohrozeni"] == 1
    assert final(r, "a")["ohrozeni"] == 3 and final(r, "a")["jizvy"] == []


def test_CS_IND_1_threatened_and_named_in_to_may_exhaust_against_its_part_after_losing_from_obrana():
    r = run(_y("{actor: x, from: obrana, pool: telo, roll: 8}", "{x: exhaust}", threatens=", threatens: [x]"))
    [e] = exhaustions(r)
    assert (e["by"], e["vs"], e["cost"], e["ohrozeni"], e["protected"]) == ("x", "z", 1, [1, 2], ["x"])
    # Tělo 9 − 1 (obrana) − 1 (exhaustion); no Jizva; a did not react and 10 ≥ 9 hits it (CS-MULTI-3)
    assert final(r, "x")["telo"] == 7 and final(r, "x")["jizvy"] == []
    assert final(r, "a")["ohrozeni"] == 3
    assert step(r, "1.2")["actions"]["z"]["affected"] == ["a"]


def test_CS_IND_1_threatened_and_named_in_to_accepting_takes_its_part():
    r = run(_y("{actor: x, from: obrana, pool: telo, roll: 8}", "{x: accept}", threatens=", threatens: [x]"))
    assert exhaustions(r) == []
    assert final(r, "x")["jizvy"] == ["Zranění"]
