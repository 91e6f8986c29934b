"""The exact odds (drd_cli.dakara.odds) against a brute-force enumeration of every die,
and against the tables of the research note (research/dakara-skill-use-research.md §4)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st

from drd_cli.dakara import odds, rules
from drd_cli.dakara.odds import HelperSpec, skill_odds


def brute_force(kind, mod, difficulty, helpers=(), mode="escalating", risk=None, risk_it=True,
                injury_modifier=0, armour=0, floor=0, impossible=False):
    """Enumerate every die of every helper and of the main roll, resolving with `rules` only."""
    helpers = list(helpers)
    diffs = rules.helper_difficulties(difficulty, len(helpers), mode)
    n_dice = 2 * len(helpers) + 2
    counts: Counter = Counter()
    for dice in product(range(1, 7), repeat=n_dice):
        bonus = 0
        if not impossible:
            for k, (h, hd) in enumerate(zip(helpers, diffs)):
                r = rules.resolve_helper(h.mod_rating, hd, (dice[2 * k], dice[2 * k + 1]), h.declines)
                bonus += r.success
        res = rules.resolve(kind, mod + bonus, difficulty, risk=risk, risk_it=risk_it, dice=dice[-2:],
                            injury_modifier=injury_modifier, armour=armour, injury_floor=floor,
                            impossible=impossible)
        counts[(res.outcome, res.complication, res.injury)] += 1
    total = 6 ** n_dice
    return {k: Fraction(c, total) for k, c in counts.items()}


ratings = st.integers(min_value=-3, max_value=9)
helper_st = st.builds(HelperSpec, mod_rating=ratings, declines=st.booleans())
common = dict(
    kind=st.sampled_from(["test", "contest"]),
    mod=ratings,
    difficulty=ratings,
    risk=st.sampled_from([None, "injury", "complication"]),
    risk_it=st.booleans(),
    injury_modifier=st.integers(-2, 4),
    armour=st.integers(0, 3),
    floor=st.integers(0, 1),
    impossible=st.booleans(),
)


def _check(kind, mod, difficulty, risk, risk_it, injury_modifier, armour, floor, impossible, helpers, mode):
    got = skill_odds(kind, mod, difficulty, helpers=helpers, helper_mode=mode, risk=risk, risk_it=risk_it,
                     injury_modifier=injury_modifier, armour=armour, injury_floor=floor, impossible=impossible)
    want = brute_force(kind, mod, difficulty, helpers, mode, risk, risk_it, injury_modifier, armour, floor,
                       impossible)
    assert got.outcomes == want
    assert got.total() == 1


@settings(max_examples=150, deadline=None)
@given(**common)
def test_odds_equal_brute_force_without_helpers(kind, mod, difficulty, risk, risk_it, injury_modifier, armour,
                                                floor, impossible):
    _check(kind, mod, difficulty, risk, risk_it, injury_modifier, armour, floor, impossible, [], "escalating")


@settings(max_examples=40, deadline=None)
@given(**common, helpers=st.lists(helper_st, max_size=1), mode=st.sampled_from(["escalating", "shared"]))
def test_odds_equal_brute_force_with_one_helper(kind, mod, difficulty, risk, risk_it, injury_modifier, armour,
                                                floor, impossible, helpers, mode):
    _check(kind, mod, difficulty, risk, risk_it, injury_modifier, armour, floor, impossible, helpers, mode)


@settings(max_examples=8, deadline=None)
@given(**common, helpers=st.lists(helper_st, min_size=2, max_size=2), mode=st.sampled_from(["escalating", "shared"]))
def test_odds_equal_brute_force_with_two_helpers(kind, mod, difficulty, risk, risk_it, injury_modifier, armour,
                                                 floor, impossible, helpers, mode):
    _check(kind, mod, difficulty, risk, risk_it, injury_modifier, armour, floor, impossible, helpers, mode)


@settings(max_examples=60, deadline=None)
@given(helpers=st.lists(helper_st, max_size=4), difficulty=ratings, mode=st.sampled_from(["escalating", "shared"]))
def test_helper_bonus_distribution_sums_to_one(helpers, difficulty, mode):
    dist = odds.helper_bonus_distribution(helpers, difficulty, mode)
    assert sum(dist.values()) == 1
    assert all(0 <= b <= len(helpers) for b in dist)


def _counts36(o):
    return {k: q * 36 for k, q in o.items()}


@pytest.mark.parametrize("k,row", [(1, (15, 11, 9, 1)), (2, (10, 11, 12, 3)), (3, (6, 9, 15, 6)),
                                   (4, (3, 7, 16, 10)), (5, (1, 5, 15, 15)), (6, (0, 3, 12, 21)),
                                   (7, (0, 1, 9, 26))])
def test_research_table_4_2_tests(k, row):
    o = skill_odds("test", 0, k, risk="complication").outcomes
    got = (o.get(("success", "none", 0), 0), o.get(("failure", "none", 0), 0),
           o.get(("failure", "mild", 0), 0), o.get(("failure", "serious", 0), 0))
    assert tuple(q * 36 for q in got) == row


@pytest.mark.parametrize("delta,row", [(-5, (0, 1, 35)), (-4, (1, 2, 33)), (-3, (3, 3, 30)), (-2, (6, 4, 26)),
                                       (-1, (10, 5, 21)), (0, (15, 6, 15)), (1, (21, 5, 10)), (3, (30, 3, 3)),
                                       (5, (35, 1, 0))])
def test_research_table_4_3_contests(delta, row):
    o = skill_odds("contest", 4 + delta, 4).by_outcome()
    assert tuple(o.get(w, 0) * 36 for w in ("win", "draw", "loss")) == row


def test_research_injury_example_k2_modifier1_armour2():
    o = skill_odds("test", 2, 4, risk="injury", injury_modifier=1, armour=2).outcomes
    assert o[("success", "none", 0)] * 36 == 10
    assert {i: q * 36 for (out, _c, i), q in o.items() if out == "failure"} == \
        {0: 5, 1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1}


def test_research_helpers_reading_c():
    # T = 4, shared mode: two helpers both face 6; ratings 5 and 4
    dist = odds.helper_bonus_distribution([HelperSpec(5), HelperSpec(4)], 4, "shared")
    assert dist == {0: Fraction(91, 216), 1: Fraction(100, 216), 2: Fraction(25, 216)}


def test_death_probability():
    o = skill_odds("test", 3, 4, risk="injury", accumulated_injury=15)
    # dead when injury ≥ 4: failure margins 4, 5, 6 → 3 + 2 + 1 out of 36
    assert o.dead == Fraction(6, 36)
    assert skill_odds("test", 3, 4, risk="injury").dead is None


def test_to_dict_is_json_friendly():
    import json
    d = skill_odds("test", 3, 4, risk="complication", helpers=[HelperSpec(5)]).to_dict()
    json.dumps(d)
    assert d["by_outcome"]["auto-success"]["fraction"] == "1/1"
