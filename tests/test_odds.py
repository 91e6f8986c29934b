"""Exact odds (drd_cli.odds) against brute-force enumeration, known values and a hand count."""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from drd_cli import odds
from drd_cli.cli.odds_cmd import odds_app

D = range(1, 7)


def brute_test(bonus, presne, mode, target):
    n = 2 + (presne if mode == "keep-best-2-of-3" else 0)
    ok = tot = 0
    for faces in product(D, repeat=n):
        kept = sum(sorted(faces, reverse=True)[:2])
        total = kept + bonus + (presne if mode == "plus-one" else 0)
        ok += total >= target
        tot += 1
    return Fraction(ok, tot)


@given(st.integers(-4, 10), st.integers(0, 2), st.sampled_from(odds.PRESNE_MODES), st.integers(2, 14))
@settings(max_examples=60, deadline=None)
def test_test_odds_equal_brute_force(bonus, presne, mode, target):
    r = odds.test_odds(bonus, presne, mode, target)
    assert r["success"] == brute_test(bonus, presne, mode, target)
    assert r["success"] + r["failure"] == 1


@given(st.integers(-3, 8), st.integers(-3, 8), st.sampled_from(odds.TIES))
@settings(max_examples=60, deadline=None)
def test_contest_odds_equal_brute_force(a, b, tie):
    w = l_ = t = 0
    for x in product(D, repeat=4):
        ra, rc = x[0] + x[1] + a, x[2] + x[3] + b
        w += ra > rc
        l_ += ra < rc
        t += ra == rc
    r = odds.contest_odds(a, b, tie)
    if tie == "actor":
        assert (r["win"], r["lose"]) == (Fraction(w + t, 1296), Fraction(l_, 1296))
    elif tie == "counter":
        assert (r["win"], r["lose"]) == (Fraction(w, 1296), Fraction(l_ + t, 1296))
    else:
        assert (r["win"], r["lose"]) == (Fraction(w, w + l_), Fraction(l_, w + l_))
    assert r["win"] + r["lose"] == 1


@pytest.mark.parametrize("presne,mode", [(0, "plus-one"), (2, "plus-one"), (1, "keep-best-2-of-3"),
                                         (3, "keep-best-2-of-3")])
def test_distribution_sums_to_one(presne, mode):
    assert sum(odds.roll_distribution(1, presne, mode).values()) == 1


def test_known_values():
    assert odds.test_odds(0)["success"] == Fraction(10, 36)
    # 26/36 is +3 (2k6 ≥ 6), not +2 (2k6 ≥ 7 = 21/36); rpg-tools-anchors §4.2 agrees.
    assert odds.test_odds(2)["success"] == Fraction(21, 36)
    assert odds.test_odds(3)["success"] == Fraction(26, 36)
    assert odds.test_odds(0, 1, "keep-best-2-of-3")["success"] == Fraction(113, 216)
    assert odds.contest_odds(0, 0, "counter")["win"] == Fraction(575, 1296)
    assert odds.contest_odds(0, 0)["tie"] == Fraction(73, 648)


def test_exhaustion_cost():
    assert odds.exhaustion_cost(3) == 3
    assert odds.exhaustion_cost(3, armour=1) == 2
    assert odds.exhaustion_cost(1, armour=2) == 0
    assert odds.exhaustion_cost(3, armour=1, bodily=False) == 3
    r = odds.expected_exhaustion_cost(3, bonus=2)
    assert r["expected"] == Fraction(5, 12) * 3 and r["ohrozeni_after"] == 4


SCEN = """\
format: drd/1
title: t
participants:
  a: {name: Aneta, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1, levels: {lovec: 2}}
  b: {name: Bohous, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1, levels: {lovec: 1}}
  c: {name: Cyril, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 2, levels: {lovec: 1}}
  d: {name: Dan, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 0, levels: {lovec: 3}}
rounds:
  - steps:
      - id: s1
        test:
          actors: [a, b, c, d]
          label: skok
          bonus_from: lovec
          pool: telo
          failure: {condition: spadl}
"""


@pytest.fixture
def scen_path(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(SCEN, encoding="utf-8")
    return str(p)


RULES = {"disable": ("ukryvani",)}


def test_step_odds_hand_count(scen_path):
    from drd_cli.simulate import _load

    loaded = _load(scen_path)
    r = odds.step_odds(loaded, "s1", "accept", **RULES)
    # hand count: P(2k6 + L ≥ 9) per actor, independently
    assert r["success"] == {"a": Fraction(7, 12), "b": Fraction(5, 12), "c": Fraction(5, 12), "d": Fraction(13, 18)}
    assert r["combinations"] == 36 ** 4
    x = odds.step_odds(loaded, "s1", "exhaust", **RULES)
    assert all(v == 1 for v in x["success"].values())
    # exhausting on failure raises Ohrožení by 1
    assert x["ohrozeni"]["a"] == {1: Fraction(7, 12), 2: Fraction(5, 12)}
    for d in x["ohrozeni"].values():
        assert sum(d.values()) == 1


def test_step_odds_classes_match_full_enumeration(scen_path):
    from drd_cli.simulate import _load

    loaded = _load(scen_path)
    loaded.scenario.rounds[0].steps[0].test.actors = ["a", "b"]
    fast = odds.step_odds(loaded, "s1", "exhaust", **RULES)
    slow = odds.step_odds(loaded, "s1", "exhaust", classes=False, **RULES)
    assert fast["success"] == slow["success"] and fast["ohrozeni"] == slow["ohrozeni"]


runner = CliRunner()


def test_cli_test_and_contest():
    r = runner.invoke(odds_app, ["test", "--bonus", "2"])
    assert r.exit_code == 0 and "ÚSPĚCH" in r.output and "7/12" in r.output
    r = runner.invoke(odds_app, ["contest", "--bonus", "3", "--vs", "2", "--json"])
    assert r.exit_code == 0 and '"win"' in r.output
    r = runner.invoke(odds_app, ["exhaust", "--ohrozeni", "3", "--armour", "1"])
    assert r.exit_code == 0 and "cena 2" in r.output
