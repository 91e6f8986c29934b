"""CS-FOR-2 / CS-SEQ-1 / SCENARIO-FORMAT §5 with several counter-actors (second spec audit).

Open point (b) of the audit: a counter's actor answers `exhaust: [p, q]` and q also counters.
CS-FOR-2: "when one action hits several losers, one participant may exhaust for several of them:
the cost is their own Ohrožení × the number protected; Ohrožení rises by 1 for the whole
exhaustion". q is one of those losers, so the one exhaustion covers q too; q's own pair then
leaves it nothing to decide (its own answer is ignored, and logged).
"""

from drdtest import doc, exhaustions, final, run, step

P = """
p: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2}
q: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 1}
z: {sudba: 9, ohrozeni: 3}
"""


def _contest(p_roll: int, q_roll: int, choices: str, z_extra: str = "") -> str:
    return doc(P, f"""
        - contest:
            action: {{actor: z, pool: telo, targets: [p, q], manoeuvres: [rozsahle], roll: 10,
                     effect: {{condition: chycen}}{z_extra}}}
            counters: [{{actor: p, pool: telo, roll: {p_roll}}}, {{actor: q, pool: telo, roll: {q_roll}}}]
          choices: {choices}
        """)


def test_CS_FOR_2_exhaust_for_self_and_a_counter_actor_whose_pair_comes_later_is_one_exhaustion():
    # p's pair (8) comes before q's (7): p pays 2 × 2 = 4 Tělo once, Ohrožení 2→3; q keeps everything.
    r = run(_contest(8, 7, "{p: {z: {exhaust: [p, q]}}}"))
    [e] = exhaustions(r)
    assert (e["by"], e["vs"], e["cost"], e["ohrozeni"], sorted(e["protected"])) == ("p", "z", 4, [2, 3], ["p", "q"])
    assert final(r, "p")["telo"] == 5 and final(r, "p")["ohrozeni"] == 3
    assert final(r, "q")["conditions"] == [] and final(r, "q")["ohrozeni"] == 1 and final(r, "q")["telo"] == 9
    assert step(r)["actions"]["z"]["affected"] == []
    assert step(r)["actions"]["z"]["success"] is True


def test_CS_FOR_2_exhaust_for_self_and_a_counter_actor_whose_pair_came_first_is_one_exhaustion():
    # q's pair (8) comes first: the exhaustion for both is paid there, not twice.
    r = run(_contest(7, 8, "{p: {z: {exhaust: [p, q]}}}"))
    [e] = exhaustions(r)
    assert (e["by"], e["cost"], e["ohrozeni"], sorted(e["protected"])) == ("p", 4, [2, 3], ["p", "q"])
    assert final(r, "p")["conditions"] == [] and final(r, "q")["conditions"] == []


def test_SCENARIO_FORMAT_5_the_covered_counter_actors_own_exhaust_decides_nothing():
    # q also answered `exhaust`: it was already covered, so it pays nothing (and its answer does not
    # turn into denying z's gain, §5); the log says it had nothing left to decide.
    r = run(_contest(8, 7, "{p: {z: {exhaust: [p, q]}}, q: exhaust}", z_extra=", self_effect: {vyhody: 1}"))
    assert [(e["by"], e["cost"]) for e in exhaustions(r)] == [("p", 4)]
    assert final(r, "q")["telo"] == 9 and final(r, "q")["ohrozeni"] == 1
    assert final(r, "z")["vyhody"] == 1
    assert [x["rule"] for x in step(r)["log"]].count("docs/scenario-format.md §6") == 1
    assert any(x["rule"] == "docs/scenario-format.md §6" and x["text"].startswith("q") for x in step(r)["log"])

