"""Interchangeable protecting counters in the fast method of a contest (drd_cli/odds/fast_alike.py):
a story per family of combinations of their states (k alike protectors: k + 1 stories, not 2^k),
equal to the class method on small steps, within a seeded simulation's interval on a large one,
and too many protectors that are not alike still said as such."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_method import inside_999, numbers, protector_file

from drd_cli import api
from drd_cli.odds.step import StepPrep, odds_for


def alike_file(tmp_path: Path, harming: list[int], protecting: list[int], obstacle: bool = False) -> str:
    """`protector_file` with every counter's Ohrožení 0 before the step, so protectors of the same
    charakteristika are alike."""
    path = protector_file(tmp_path, harming, protecting, tie="actor", obstacle=obstacle)
    text = Path(path).read_text(encoding="utf-8").replace("ohrozeni: 1, charakteristika", "ohrozeni: 0, charakteristika")
    Path(path).write_text(text, encoding="utf-8")
    return path


def fast_and_classes(path: str) -> tuple[dict, dict]:
    prep = StepPrep(api.load_scenario(path), "boj")
    return odds_for(prep, "accept", time_limit=None), odds_for(prep, "accept", fast_method=False, time_limit=None)


@pytest.mark.parametrize("harming, protecting, obstacle", [([], [1, 1, 1, 1, 1], False), ([1], [0, 0, 0], True),
                                                           ([2], [1, 1, 0, 0], False)])
def test_alike_protectors_by_the_fast_method_equal_the_class_method(tmp_path, harming, protecting, obstacle):
    fast, classes = fast_and_classes(alike_file(tmp_path, harming, protecting, obstacle))
    assert fast["method"] == "independent", fast["why_not_fast"]
    assert classes["method"] == "classes"
    assert numbers(fast) == numbers(classes)


def test_five_alike_protectors_take_far_fewer_resolutions_than_their_combinations(tmp_path):
    """Five alike protectors: 6 stories per class of the actor's total instead of 32."""
    alike = odds_for(StepPrep(api.load_scenario(alike_file(tmp_path, [], [1] * 5)), "boj"), "accept", time_limit=None)
    mixed = odds_for(StepPrep(api.load_scenario(alike_file(tmp_path, [], [0, 1, 2, 3, 4])), "boj"), "accept",
                     time_limit=None)
    assert alike["method"] == mixed["method"] == "independent"
    assert 2 * alike["resolutions"] < mixed["resolutions"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(harming=st.lists(st.integers(0, 3), max_size=1), bonus=st.integers(0, 3), k=st.integers(2, 3),
       obstacle=st.booleans())
def test_any_alike_protectors_equal_the_class_method(tmp_path, harming, bonus, k, obstacle):
    fast, classes = fast_and_classes(alike_file(tmp_path, harming, [bonus] * k, obstacle))
    assert fast["method"] == "independent", fast["why_not_fast"]
    assert numbers(fast) == numbers(classes)


def test_ten_alike_protectors_agree_with_a_seeded_simulation(tmp_path):
    """13 rollers: two harming counters and ten alike protectors (2^10 combinations of their states,
    11 stories per class of the actor's total), exact, within a seeded estimate's 99.9 %."""
    prep = StepPrep(api.load_scenario(alike_file(tmp_path, [1, 0], [1] * 10)), "boj")
    exact = odds_for(prep, "accept", time_limit=None)
    assert exact["method"] == "independent", exact["why_not_fast"]
    assert exact["combinations"] == 36 ** 13
    assert inside_999(exact, odds_for(prep, "accept", budget=0, samples=2000)) == 13


def test_seven_protectors_that_are_not_alike_are_said_as_such(tmp_path):
    """Seven protectors of seven different charakteristiky: 2^7 stories, more than `fast.MAX_STATES`."""
    path = alike_file(tmp_path, [1], [0, 1, 2, 3, 4, 5, 6])
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", budget=1, time_limit=0.25)
    assert got["method"] != "independent" and got["why_not_fast"] == "protect"
