"""Long actions (CS-DUR-1/2) and follow-ups (CS-FOL-1) by the fast method of `drd odds FILE STEP`:
equal to the class method on small steps, within a seeded simulation's interval on a large one,
and a follow-up whose výzva rolls dice left to the class method with its reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_method import DATA, contest_file, inside_999, joint_test_file, numbers, race_file

from drd_cli import api
from drd_cli.odds.step import StepPrep, odds_for


def _edit(path: str, old: str, new: str) -> str:
    text = Path(path).read_text(encoding="utf-8")
    assert old in text
    Path(path).write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def long_contest(tmp_path: Path, bonuses: list[int], kinds: list[str], targets: list[int], tie: str,
                 obstacle: bool = False, outsider: bool = False) -> str:
    """`contest_file` whose action is a long one (`long: strom`)."""
    path = contest_file(tmp_path, bonuses, kinds, targets=targets, tie=tie, obstacle=obstacle, outsider=outsider)
    return _edit(path, "bonus_from: valecnik,", "bonus_from: valecnik, long: strom,")


def fast_and_classes(path: str, step: str, choose: str = "accept") -> tuple[dict, dict]:
    prep = StepPrep(api.load_scenario(path), step)
    return (odds_for(prep, choose, time_limit=None),
            odds_for(prep, choose, fast_method=False, time_limit=None))


@pytest.mark.parametrize("tie", ["actor", "counter"])
def test_long_action_against_interrupters_by_the_fast_method_equals_the_class_method(tmp_path, tie):
    """Four rollers: two interrupters who harm and one who protects a target that does not react;
    every interrupter who loses accepts (CS-DUR-2: barred), which changes no number the odds read."""
    path = long_contest(tmp_path, [1, 0, 2], ["harm", "protect", "harm"], [0, 2], tie, obstacle=True, outsider=True)
    _edit(path, "kind: protect,", "kind: protect, protects: [x],")
    fast, classes = fast_and_classes(path, "boj")
    assert fast["method"] == "independent", fast["why_not_fast"]
    assert classes["method"] == "classes"
    assert numbers(fast) == numbers(classes)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), tie=st.sampled_from(["actor", "counter"]))
def test_any_long_contest_equals_the_class_method(tmp_path, data, tie):
    n = data.draw(st.integers(1, 3), label="counters")
    bonuses = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="bonuses")
    targets = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="targets"))
    path = long_contest(tmp_path, bonuses, ["harm"] * n, targets, tie,
                        outsider=data.draw(st.booleans(), label="outsider"))
    fast, classes = fast_and_classes(path, "boj")
    assert fast["method"] == "independent", fast["why_not_fast"]
    assert numbers(fast) == numbers(classes)


def test_long_action_with_an_exhausting_interrupter_is_left_to_the_payments(tmp_path):
    """Under `exhaust` a losing interrupter pays to try again (CS-DUR-2): payments in order, which
    the fast method of a contest hands over to the payments in sequence (odds/fast_seq.py); its
    numbers equal the class method's."""
    path = long_contest(tmp_path, [1, 2], ["harm", "harm"], [0], "actor")
    fast, classes = fast_and_classes(path, "boj", "exhaust")
    assert fast["method"] == "sequence" and classes["method"] == "classes"
    assert numbers(fast) == numbers(classes)


def test_long_action_against_nineteen_interrupters_agrees_with_a_seeded_simulation(tmp_path):
    """20 rollers with a long action: exact by the fast method, within a seeded estimate's 99.9 %."""
    text = (DATA / "jeden-proti-19.yaml").read_text(encoding="utf-8")
    path = tmp_path / "dlouha.yaml"
    path.write_text(text.replace("action: {actor: a,", "action: {actor: a, long: strom,", 1), encoding="utf-8")
    assert "long: strom" in path.read_text(encoding="utf-8")
    prep = StepPrep(api.load_scenario(str(path)), "boj")
    exact = odds_for(prep, "accept", time_limit=None)
    assert exact["method"] == "independent" and exact["combinations"] == 36 ** 20
    assert inside_999(exact, odds_for(prep, "accept", budget=0, samples=3000)) == 20


@pytest.mark.parametrize("mode", ["individual", "any", "all"])
def test_long_joint_test_by_the_fast_method_equals_the_class_method(tmp_path, mode):
    path = _edit(joint_test_file(tmp_path, [0, 2, 3], mode, None, True), "pool: telo,", "pool: telo, long: strom,")
    for choose in ("accept", "exhaust"):
        fast, classes = fast_and_classes(path, "zk", choose)
        assert fast["method"] == "independent", fast["why_not_fast"]
        assert numbers(fast) == numbers(classes)


@pytest.mark.parametrize("obstacle", [False, True])
def test_long_race_by_the_fast_method_equals_the_class_method(tmp_path, obstacle):
    path = _edit(race_file(tmp_path, [0, 2, 1], obstacle, "{ohrozeni: 1}"), "pool: telo,", "pool: telo, long: honicka,")
    fast, classes = fast_and_classes(path, "zavod")
    assert fast["method"] == "independent", fast["why_not_fast"]
    assert numbers(fast) == numbers(classes)


def followup_contest(tmp_path: Path, react: bool) -> str:
    """A contest whose action carries a follow-up výzva for its targets (one that does not react
    to the contest among them); with `react` one target undergoes the výzva (an open roll)."""
    path = contest_file(tmp_path, [1, 2], ["harm", "harm"], targets=[0], tie="actor", outsider=True)
    how = ", react: {c0: obrana}" if react else ""
    fol = f"followup: {{challenge: {{name: pad, affects: [c0, x], pool: telo, effect: {{ohrozeni: 1}}{how}}}}}, "
    return _edit(path, "bonus_from: valecnik,", "bonus_from: valecnik, " + fol)


def test_follow_up_nobody_rolls_for_by_the_fast_method_equals_the_class_method(tmp_path):
    """The follow-up lands on the targets the action got through to: a deterministic part of each
    story (its výzva records an action of those it reached, counted as never succeeding)."""
    fast, classes = fast_and_classes(followup_contest(tmp_path, react=False), "boj")
    assert fast["method"] == "independent", fast["why_not_fast"]
    assert "x" in fast["success"]
    assert numbers(fast) == numbers(classes)


def test_follow_up_whose_vyzva_rolls_is_left_to_the_class_method(tmp_path):
    """A target undergoing the follow-up rolls only when the action gets through: the number of
    dice depends on who won, so the class method answers and `why_not_fast` is `followup`."""
    fast, classes = fast_and_classes(followup_contest(tmp_path, react=True), "boj")
    assert fast["method"] == "classes" and fast["why_not_fast"] == "followup"
    assert numbers(fast) == numbers(classes)
