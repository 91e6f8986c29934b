"""The pure dice odds (`drd odds test|contest|exhaust`): the best two of n dice counted by formula,
cross-checked with enumeration and with icepool (another exact dice engine); the commands refuse
values no roll can have."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drd_cli import odds
from drd_cli.odds.dice import kept_hist

DRD = [sys.executable, "-m", "drd_cli.cli.app"]


def _enumerated(n: int) -> dict[int, int]:
    h: Counter = Counter()
    for faces in product(range(1, 7), repeat=n):
        h[sum(sorted(faces, reverse=True)[:2])] += 1
    return dict(h)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_best_two_formula_matches_every_face(n):
    assert dict(kept_hist(n)) == _enumerated(n)


@pytest.mark.parametrize("n", [3, 8, 10, 25])
def test_best_two_formula_matches_icepool(n):
    ice = icepool.d6.pool(n).highest(2).sum()
    assert dict(kept_hist(n)) == {v: c for v, c in ice.items()}


@settings(max_examples=40, deadline=None)
@given(bonus=st.integers(-5, 8), presne=st.integers(0, 12), target=st.integers(0, 20),
       mode=st.sampled_from(["plus-one", "keep-best-2-of-3"]))
def test_test_odds_match_icepool(bonus, presne, target, mode):
    if mode == "plus-one":
        roll = (icepool.d6 + icepool.d6) + bonus + presne
    else:
        roll = icepool.d6.pool(2 + presne).highest(2).sum() + bonus
    want = Fraction(sum(c for v, c in roll.items() if v >= target), roll.denominator())
    assert odds.test_odds(bonus, presne, mode, target)["success"] == want


@settings(max_examples=30, deadline=None)
@given(bonus=st.integers(-4, 6), vs=st.integers(-4, 6), tie=st.sampled_from(["actor", "counter", "reroll"]))
def test_contest_odds_match_icepool(bonus, vs, tie):
    a, c = icepool.d6 + icepool.d6 + bonus, icepool.d6 + icepool.d6 + vs
    d = a.denominator() * c.denominator()
    win = Fraction(sum(pa * pc for va, pa in a.items() for vc, pc in c.items() if va > vc), d)
    draw = Fraction(sum(pa * pc for va, pa in a.items() for vc, pc in c.items() if va == vc), d)
    got = odds.contest_odds(bonus, vs, tie)
    want = {"actor": win + draw, "counter": win, "reroll": win / (1 - draw)}[tie]
    assert got["win"] == want and got["tie"] == draw


def test_keep_best_with_eight_presne_is_immediate():
    t0 = time.perf_counter()
    r = odds.test_odds(0, 8, "keep-best-2-of-3", 9)
    assert time.perf_counter() - t0 < 0.5
    assert r["success"] + r["failure"] == 1 and r["success"] > Fraction(97, 100)


@pytest.mark.parametrize("args,option", [
    (["exhaust", "--ohrozeni", "-1"], "--ohrozeni"),
    (["exhaust", "--ohrozeni", "2", "--armour", "-5"], "--armour"),
    (["exhaust", "--ohrozeni", "2", "--mocne", "-1"], "--mocne"),
    (["test", "--target", "-5"], "--target"),
    (["test", "--presne", "101"], "--presne"),
])
def test_odds_commands_refuse_values_no_roll_has(args, option):
    r = subprocess.run([*DRD, "odds", *args, "--lang", "en"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert option in r.stderr and "Traceback" not in r.stderr


def test_library_refuses_negative_ohrozeni():
    with pytest.raises(ValueError):
        odds.expected_exhaustion_cost(-1)
