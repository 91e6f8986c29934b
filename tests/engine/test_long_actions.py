"""Third spec audit: long actions (CS-DUR-1..3, SCENARIO-FORMAT §4.1 `long`, §5, §7 `long`)."""

from __future__ import annotations

from drdtest import doc, exhaustions, final, run, step

PEOPLE = """
hero: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2, levels: {bojovnik: 2}}
p: {sudba: 9, ohrozeni: 1}
q: {sudba: 9, ohrozeni: 1}
"""


def long_of(result: dict, sid: str | None = None) -> dict:
    return step(result, sid)["actions"]["hero"]["long"]


def test_CS_DUR_1_an_uninterrupted_long_action_is_one_test_and_completes():
    r = run(doc(PEOPLE, """
        - id: strom
          test: {actor: hero, pool: telo, label: kácení, roll: 10, long: strom}
        """))
    assert long_of(r) == {"id": "strom", "status": "completed", "retry": False, "barred": []}


def test_CS_DUR_2_long_id_continues_across_rounds_and_barred_is_kept():
    """Round 1: p exhausts against the performer → continuing, p may try again. Round 2: p loses
    again and accepts → completed, p barred. Round 3: q (never barred) is not warned about."""
    r = run(doc(PEOPLE, steps="", rounds="""
        - steps:
            - id: a
              contest:
                action: {actor: hero, pool: telo, roll: 10, long: strom}
                counters: [{actor: p, roll: 7, effect: {ohrozeni: 1}}]
              choices: {p: exhaust}
        - steps:
            - id: b
              contest:
                action: {actor: hero, pool: telo, roll: 11, long: strom}
                counters: [{actor: p, roll: 8, effect: {ohrozeni: 1}}]
              choices: {p: accept}
        """))
    assert long_of(r, "a") == {"id": "strom", "status": "continuing", "retry": False, "barred": []}
    assert long_of(r, "b") == {"id": "strom", "status": "completed", "retry": False, "barred": ["p"]}
    # p's exhaustion in round 1: its own Ohrožení (1) from Sudba, then Ohrožení 2
    assert [(e["by"], e["vs"], e["cost"], e["ohrozeni"]) for e in exhaustions(r)] == [("p", "hero", 1, [1, 2])]
    assert final(r, "p")["sudba"] == 8
    # no warning in round 2: p exhausted (not accepted) in round 1, so it may try again
    assert not any("Pozor" in e["text"] for e in step(r, "b")["log"])


def test_CS_DUR_2_performer_loses_and_exhausts_interrupted_but_may_retry():
    r = run(doc(PEOPLE, steps="", rounds="""
        - steps:
            - id: a
              contest:
                action: {actor: hero, pool: telo, roll: 7, long: strom, self_effect: {vyhody: 1}}
                counters: [{actor: p, roll: 10, effect: {ohrozeni: 1}}]
              choices: {hero: exhaust}
        - steps:
            - id: b
              test: {actor: hero, pool: telo, roll: 10, long: strom}
        """))
    a = step(r, "a")["actions"]["hero"]
    assert a["success"] is False                       # interrupted even though it exhausted
    assert a["long"] == {"id": "strom", "status": "interrupted", "retry": True, "barred": []}
    # exhausting softened the consequence: the counter's Ohrožení +1 did not land; cost 2 → Ohrožení 3
    ex = exhaustions(r, "hero")
    assert [(e["vs"], e["cost"], e["ohrozeni"]) for e in ex] == [("p", 2, [2, 3])]
    assert final(r, "hero")["ohrozeni"] == 3 and final(r, "hero")["vyhody"] == 0
    assert long_of(r, "b")["status"] == "completed"


def test_CS_DUR_2_performer_loses_and_accepts_no_retry_and_the_counter_lands():
    r = run(doc(PEOPLE, """
        - contest:
            action: {actor: hero, pool: telo, roll: 7, long: strom}
            counters: [{actor: p, roll: 10, effect: {ohrozeni: 1}}]
        """))
    assert long_of(r) == {"id": "strom", "status": "interrupted", "retry": False, "barred": []}
    assert final(r, "hero")["ohrozeni"] == 3


def test_CS_DUR_2_a_losing_interrupter_without_an_answer_accepts_or_exhausts_by_the_command_line():
    y = doc(PEOPLE, """
        - contest:
            action: {actor: hero, pool: telo, roll: 10, long: strom}
            counters: [{actor: p, roll: 7}]
        """)
    assert long_of(run(y))["barred"] == ["p"]
    r = run(y, choose="exhaust")
    assert long_of(r) == {"id": "strom", "status": "continuing", "retry": False, "barred": []}
    assert [(e["by"], e["cost"]) for e in exhaustions(r)] == [("p", 1)]


def test_SCENARIO_FORMAT_5_interrupter_faces_the_decision_even_against_an_action_with_no_effect_on_it():
    """An interrupter that loses always faces accept/exhaust, though the long action does not
    target it (nothing would land on it otherwise)."""
    r = run(doc(PEOPLE, """
        - contest:
            action: {actor: hero, pool: telo, roll: 10, long: strom, self_effect: {vyhody: 1}}
            counters: [{actor: p, roll: 7}]
          choices: {p: exhaust}
        """))
    assert long_of(r)["status"] == "continuing"
    # `exhaust` keeps the action unfinished; it does not deny the performer's gain
    assert final(r, "hero")["vyhody"] == 1
    assert [(e["by"], e["denied"]) for e in exhaustions(r)] == [("p", None)]


def test_CS_DUR_2_an_interrupter_that_is_also_a_target_exhausts_once():
    r = run(doc(PEOPLE, """
        - contest:
            action: {actor: hero, pool: telo, roll: 10, long: pouta, targets: [p], effect: {condition: spoután}}
            counters: [{actor: p, roll: 7}]
          choices: {p: exhaust}
        """))
    assert long_of(r)["status"] == "continuing"
    assert len(exhaustions(r, "p")) == 1
    assert "spoután" not in final(r, "p")["conditions"]


def test_CS_DUR_2_obstacle_of_a_long_action_decides_completed_or_continuing():
    base = """
        - contest:
            action: {actor: hero, pool: telo, roll: 8, long: most, obstacle: {ohrozeni: 1}}
            counters: [{actor: p, roll: 6}]
          choices: {hero: %s}
        """
    r = run(doc(PEOPLE, base % "accept"))
    assert long_of(r)["status"] == "continuing"          # took the obstacle's consequence
    assert final(r, "hero")["ohrozeni"] == 3
    r = run(doc(PEOPLE, base % "exhaust"))
    assert long_of(r)["status"] == "completed"


def test_CS_DUR_2_tie_goes_by_the_tie_param():
    y = doc(PEOPLE, """
        - contest:
            action: {actor: hero, pool: telo, roll: 9, long: strom}
            counters: [{actor: p, roll: 9}]
        """)
    assert long_of(run(y))["status"] == "completed"
    assert long_of(run(y, params={"tie": "counter"}))["status"] == "interrupted"


def test_CS_DUR_2_a_loser_after_the_action_was_already_interrupted_decides_nothing():
    """Reading (docs/rules.md): q's higher pair is resolved first (R-ORDER) and interrupts the action;
    p then loses a pair against an action that no longer goes on, so it has nothing to accept or
    exhaust against and is not barred (its answer is logged as ignored, §5)."""
    r = run(doc(PEOPLE, """
        - contest:
            action: {actor: hero, pool: telo, roll: 9, long: strom}
            counters: [{actor: p, roll: 7}, {actor: q, roll: 11}]
          choices: {p: accept}
        """))
    info = long_of(r)
    assert info == {"id": "strom", "status": "interrupted", "retry": False, "barred": []}
    assert any(e["rule"] == "docs/scenario-format.md §6" and "nepoužije se" in e["text"] for e in step(r)["log"])
