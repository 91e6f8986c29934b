"""Issue #12, item 2: engine readings the contract now states (SCENARIO-FORMAT §4.3, §5, §7,
RULES CS-MULTI-5), each pinned by the reproducer that showed the engine doing otherwise."""

from __future__ import annotations

import pytest
from drdtest import final, invalid, run, step
from hypothesis import given, settings
from hypothesis import strategies as st

OBSTACLE = """
format: drd/1
title: obstacle
participants:
  a: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 1}
  b: {pools: {telo: 9, duse: 9, vliv: 9}}
rounds:
  - initiative: [a, b]
    steps:
      - id: s
        contest:
          action: {actor: a, pool: telo, targets: [b], roll: ROLL, effect: {ohrozeni: 1},
                   obstacle: {jizva: Pád}, self_effect: {vyhody: 1}}
          counters:
            - {actor: b, kind: harm, pool: telo, roll: 6, effect: {ohrozeni: 1}}
        choices: {a: {test: ANSWER}}
"""


@pytest.mark.parametrize("roll,answer,outcome", [(8, "accept", "failed"), (8, "exhaust", "exhausted"),
                                                 (10, "accept", "met")])
def test_4_3_an_action_that_reached_its_target_is_a_success_whatever_its_obstacle(roll, answer, outcome):
    r = run(OBSTACLE.replace("ROLL", str(roll)).replace("ANSWER", answer))
    a = step(r, "s")["actions"]["a"]
    assert a["success"] is True and a["affected"] == ["b"]
    assert a["obstacle"] == outcome
    assert final(r, "a")["vyhody"] == 1                       # its self_effect lands
    assert final(r, "b")["ohrozeni"] == 1
    assert ("Pád" in final(r, "a")["jizvy"]) is (outcome == "failed")


def test_4_3_a_stopped_action_reports_no_obstacle_and_no_success():
    r = run(OBSTACLE.replace("ROLL", "5").replace("ANSWER", "accept"))
    a = step(r, "s")["actions"]["a"]
    assert a["success"] is False and "obstacle" not in a
    assert final(r, "a")["jizvy"] == [] and final(r, "a")["vyhody"] == 0


def test_4_3_without_targets_the_obstacle_is_the_purpose():
    text = OBSTACLE.replace("targets: [b], ", "").replace("effect: {ohrozeni: 1},\n", "\n", 1)
    text = text.replace("ROLL", "8").replace("ANSWER", "accept")
    r = run(text)
    a = step(r, "s")["actions"]["a"]
    assert a["obstacle"] == "failed" and a["success"] is False
    assert final(r, "a")["vyhody"] == 0


COVERED_PAYER = """
format: drd/1
title: exhausting for a non-reacting target, payer already covered
participants:
  a: {sudba: 6, ohrozeni: 1}
  b: {pools: {telo: 5, duse: 5, vliv: 5}}
  c: {pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1}
  d: {pools: {telo: 5, duse: 5, vliv: 5}}
rounds:
  - initiative: [a, b, c, d]
    steps:
      - id: s1
        contest:
          action: {actor: a, pool: telo, targets: [b, c, d], manoeuvres: [rozsahle], roll: 7,
                   effect: {jizva: Rána}}
          counters:
            - {actor: b, kind: harm, pool: telo, roll: 6, effect: {ohrozeni: 1}}
            - {actor: c, kind: harm, pool: telo, roll: 5, effect: {ohrozeni: 1}}
        choices: {a: {test: exhaust}, b: {a: {exhaust: [b, c]}}, c: {a: {exhaust: [DFOR]}}}
"""


@pytest.mark.parametrize("named", ["d", "c, d"])
def test_CS_FOR_1_a_covered_loser_exhausting_for_a_non_reacting_target_pays_at_its_pair(named):
    r = run(COVERED_PAYER.replace("DFOR", named))
    paid = [(e["by"], e["vs"], e["protected"], e["cost"]) for e in step(r, "s1")["exhaustions"]]
    assert paid == [("b", "a", ["b", "c"], 0), ("c", "a", ["d"], 1)]
    # Nobody is left for the comparison with 9: a has no test to face.
    assert final(r, "a")["sudba"] == 5 and final(r, "a")["ohrozeni"] == 1
    assert [final(r, p)["jizvy"] for p in "bcd"] == [[], [], []]
    assert step(r, "s1")["actions"]["a"]["success"] is True


DENY_TWICE = """
format: drd/1
title: deny twice
participants:
  a: {pools: {telo: 9, duse: 9, vliv: 9}}
  b: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 1}
  c: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2}
rounds:
  - initiative: [a, b, c]
    steps:
      - id: s
        contest:
          action: {actor: a, pool: telo, targets: [b, c], manoeuvres: [rozsahle], roll: 10,
                   effect: {ohrozeni: 1}, self_effect: {vyhody: 1}}
          counters:
            - {actor: b, kind: protect, pool: telo, roll: RB}
            - {actor: c, kind: protect, pool: telo, roll: RC}
        choices: {b: {a: {deny: true}}, c: {a: deny}}
"""


@pytest.mark.parametrize("rb,rc,first,later", [(6, 7, "c", "b"), (7, 6, "b", "c")])
def test_CS_MULTI_5_a_gain_is_denied_once_the_first_in_pair_order_pays(rb, rc, first, later):
    r = run(DENY_TWICE.replace("RB", str(rb)).replace("RC", str(rc)))
    s = step(r, "s")
    assert [(e["by"], e["denied"]) for e in s["exhaustions"]] == [(first, "a")]
    assert final(r, "a")["vyhody"] == 0
    # The later denier is hit (Ohrožení +1) but pays nothing for its denial.
    start = {"b": 1, "c": 2}
    assert final(r, later)["ohrozeni"] == start[later] + 1 and final(r, later)["telo"] == 9
    assert final(r, first)["ohrozeni"] == start[first] + 2
    ignored = [e for e in s["log"] if e["rule"] == "CS-MULTI-5" and "už je upřen" in e["text"]]
    assert len(ignored) == 1 and ignored[0]["text"].startswith(later)


SOFTENED_TO_PAYER = """
format: drd/1
title: softened to payer
participants: {a: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 1}, b: {pools: {telo: 9, duse: 9, vliv: 9}}}
rounds:
  - initiative: [a, b]
    steps:
      - id: s
        contest: {action: {actor: a, pool: telo, targets: [b], roll: 8, effect: {ohrozeni: 1},
                           softened: {jizva: Odřenina, to: TO}}}
        choices: {a: {test: exhaust}}
"""


@pytest.mark.parametrize("to,gets", [("payer", "a"), ("actor", "a"), ("[b]", "b")])
def test_4_1_softened_with_to_lands_where_it_sends_when_the_actor_bought_its_success(to, gets):
    r = run(SOFTENED_TO_PAYER.replace("TO", to))
    assert final(r, gets)["jizvy"] == ["Odřenina"]
    other = "b" if gets == "a" else "a"
    assert final(r, other)["jizvy"] == []
    assert final(r, "b")["ohrozeni"] == 0                    # softened replaces the effect
    assert step(r, "s")["actions"]["a"]["affected"] == [gets]


def test_4_1_softened_to_payer_in_a_test_and_in_a_contest_agree():
    contest = run(SOFTENED_TO_PAYER.replace("TO", "payer"))
    test = run(SOFTENED_TO_PAYER.replace("TO", "payer").replace(
        "contest: {action: {actor: a,", "test: {actor: a,").replace(
        "softened: {jizva: Odřenina, to: payer}}}", "softened: {jizva: Odřenina, to: payer}}"))
    assert contest["final"] == test["final"]


BARE = """
format: drd/1
title: bare
participants: {a: {pools: {telo: 9, duse: 9, vliv: 9}}, p: {pools: {telo: 9, duse: 9, vliv: 9}},
               q: {pools: {telo: 9, duse: 9, vliv: 9}}, h: {pools: {telo: 9, duse: 9, vliv: 9}}}
rounds:
  - initiative: [a, p, q, h]
    steps:
      - id: s
        contest:
          action: {actor: a, pool: telo, targets: [p, q], manoeuvres: [rozsahle], roll: 9, effect: {ohrozeni: 1}}
          counters:
            - {actor: h, kind: harm, pool: telo, roll: 10, effect: {ohrozeni: 1}}
            - {actor: p, kind: protect, pool: telo, roll: 8}
            - {actor: q, kind: protect, pool: telo, roll: 7}
        choices: {p: ANSWER}
"""


@pytest.mark.parametrize("answer", ["{exhaust: [p]}", "{exhaust: [p, q]}", "exhaust"])
def test_5_a_bare_answer_for_a_winner_its_author_has_no_decision_about_is_ignored(answer):
    r = run(BARE.replace("ANSWER", answer))
    s = step(r, "s")
    assert s["exhaustions"] == []
    assert s["actions"]["a"]["success"] is False and final(r, "a")["ohrozeni"] == 1
    assert [final(r, x)["ohrozeni"] for x in "pq"] == [0, 0]
    assert any(e["rule"] == "docs/scenario-format.md §6" and e["text"].startswith(("p:", "p (proti:")) for e in s["log"])


def test_5_a_bare_answer_naming_the_loser_still_exhausts_for_it():
    r = run(BARE.replace("ANSWER", "{exhaust: [a]}"))
    [e] = step(r, "s")["exhaustions"]
    assert (e["by"], e["vs"], e["protected"]) == ("p", "h", ["a"])
    assert final(r, "a")["ohrozeni"] == 0


def test_5_the_same_answer_written_against_that_winner_is_impossible():
    from drdtest import violation

    violation(BARE.replace("ANSWER", "{h: {exhaust: [p]}}"), "CS-FOR-1")


LONG = """
format: drd/1
title: long barred
participants:
  a: {pools: {telo: 9, duse: 9, vliv: 9}}
  b: {pools: {telo: 9, duse: 9, vliv: 9}}
  c: {pools: {telo: 9, duse: 9, vliv: 9}}
rounds:
  - initiative: [a, b, c]
    steps:
      - id: s
        contest:
          action: {actor: a, pool: telo, targets: [b, c], manoeuvres: [rozsahle], roll: 10, long: strom,
                   effect: {ohrozeni: 1}}
          counters:
            - {actor: b, kind: harm, pool: telo, roll: RB, effect: {ohrozeni: 1}}
            - {actor: c, kind: harm, pool: telo, roll: RC, effect: {ohrozeni: 1}}
        choices: {b: {a: {exhaust: FOR}}}
"""


@pytest.mark.parametrize("rb,rc", [(6, 7), (7, 6)])
@pytest.mark.parametrize("covered,barred", [("[b, c]", []), ("[b]", ["c"])])
def test_7_an_interrupter_someone_else_exhausted_for_is_not_barred(rb, rc, covered, barred):
    r = run(LONG.replace("RB", str(rb)).replace("RC", str(rc)).replace("FOR", covered))
    long = step(r, "s")["actions"]["a"]["long"]
    assert long["barred"] == barred
    assert long["status"] == "continuing"
    assert final(r, "c")["ohrozeni"] == (1 if barred else 0)


# ----------------------------------------------------------------------------- item 4: roll and dice

ROLL_AND_DICE = """
format: drd/1
title: dice
rules: {params: {presne: PRESNE}}
participants:
  a: {sudba: 9}
  b: {pools: {telo: 9, duse: 9, vliv: 9}, levels: {bojovnik: 2}}
rounds:
  - steps:
      - id: s
        contest:
          action: {actor: b, pool: telo, bonus_from: bojovnik, targets: [a], roll: TOTAL, dice: DICE,
                   manoeuvres: [presne]}
          counters: [{actor: a, kind: harm, roll: 5}]
"""


@given(st.lists(st.integers(1, 6), min_size=2, max_size=2), st.integers(2, 20))
@settings(max_examples=60, deadline=None)
def test_4_1_a_total_with_dice_must_equal_dice_plus_bonus_plus_presne(dice, total):
    text = ROLL_AND_DICE.replace("PRESNE", "plus-one").replace("TOTAL", str(total)).replace("DICE", str(dice))
    expected = sum(dice) + 2 + 1                                    # bojovník 2, přesně +1
    if total == expected:
        r = run(text)
        assert step(r, "s")["rolls"]["b"] == {"total": total, "dice": dice, "bonus": 2, "source": "given",
                                               "modifiers": [{"source": "presne", "amount": 1}]}
    else:
        err = invalid(text)
        assert err.problems[0].rule == "R-ROLL-2" and err.problems[0].path[-1] == "roll"
        assert str(total) in err.problems[0].message and str(expected) in err.problems[0].message


def test_4_1_keep_best_two_of_three_adds_the_best_two_dice():
    text = ROLL_AND_DICE.replace("PRESNE", "keep-best-2-of-3").replace("DICE", "[1, 6, 5]")
    assert step(run(text.replace("TOTAL", "13")), "s")["rolls"]["b"]["total"] == 13
    invalid(text.replace("TOTAL", "14"))


def test_4_1_the_contradiction_is_exit_2_at_file_line_col(tmp_path):
    from typer.testing import CliRunner

    from drd_cli.cli.app import app

    path = tmp_path / "k.yaml"
    text = ROLL_AND_DICE.replace("PRESNE", "plus-one").replace("TOTAL", "13").replace("DICE", "[6, 6]")
    path.write_text(text, encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "roll: 13" in row)
    col = text.splitlines()[line - 1].index("roll: 13") + 1
    res = CliRunner().invoke(app, ["resolve", str(path)])
    assert res.exit_code == 2
    assert f"{path}:{line}:{col}:" in res.stderr and "R-ROLL-2" in res.stderr and "Traceback" not in res.stderr
