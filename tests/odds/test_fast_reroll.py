"""`tie: reroll` in a contest by the fast method (drd_cli/odds/fast_reroll.py): against a brute
force over every kept sum of every roller whose ties are re-rolled by the engine itself — every
sum of the first re-roll branched over, a tie again decided with the exact chance of the rest of
the engine's re-rolls (at most 20) — and against a seeded simulation where that cannot go."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_method import DATA, contest_file, inside_999, numbers

from drd_cli import api
from drd_cli.odds.dice import kept_faces, kept_hist
from drd_cli.odds.estimate import _Agg, summarize
from drd_cli.odds.step import StepPrep, odds_for

CAP = 20        # the engine's most re-rolls of one tied pair (engine.pairs.pair_winner)


class _More(Exception):
    def __init__(self, who: str):
        self.who = who


class _Dice:
    """First rolls by who rolls them; re-rolls from a script, `_More` past its end."""

    name = "entered"

    def __init__(self, first: dict[str, list[int]], script: list[list[int]]):
        self.first, self.script, self.i = first, script, 0

    def roll(self, n, who, purpose):
        if purpose != "reroll":
            return list(self.first[who])
        if self.i >= len(self.script):
            raise _More(who)
        self.i += 1
        return list(self.script[self.i - 1])


def _rest_of_chain(b_actor: int, b_counter: int, rerolls_left: int) -> tuple[Fraction, Fraction]:
    """The chance that the actor, and that the counter, wins a tie with `rerolls_left` re-rolls
    still allowed (after them the actor wins), each re-roll 2k6 + bonus."""
    h = kept_hist(2)
    win = sum(ca * cc for (ka, ca), (kc, cc) in product(h, h) if ka + b_actor > kc + b_counter)
    lose = sum(ca * cc for (ka, ca), (kc, cc) in product(h, h) if ka + b_actor < kc + b_counter)
    w, lo = Fraction(win, 1296), Fraction(lose, 1296)
    t = 1 - w - lo
    series = sum(t ** k for k in range(rerolls_left))
    return w * series + t ** rerolls_left, lo * series


def brute_force_rerolls(path: str, bonus: dict[str, int], branch: bool = True) -> dict:
    """Every kept sum of every roller; the first tied pair's first re-roll (with `branch`) branched
    over every kept sum of both, any other re-roll decided by `_rest_of_chain` (with the re-rolls
    the engine still allows): the engine resolves every branch."""
    from drd_cli.engine.run import resolve_step_from

    prep = StepPrep(api.load_scenario(path), "boj")
    cp = prep.checkpoint("accept")
    whos = list(bonus)
    agg = _Agg()
    h = kept_hist(2)
    for combo in product(*[h] * len(whos)):
        first = {w: kept_faces(2, k) for w, (k, _c) in zip(whos, combo)}
        stack = [([], Fraction(math.prod(c for _k, c in combo), 36 ** len(whos)))]
        while stack:
            script, p = stack.pop()
            try:
                rec, state = resolve_step_from(cp, prep.scn, prep.profile, _Dice(first, script), prep.hooks,
                                               choose="accept")
            except _More:
                counter, rerolls = _pending(first, script, bonus)
                actor = whos[0]
                if branch and counter == _first_tied(first, bonus) and not rerolls:
                    # The first re-roll of the first tied pair: every kept sum of both.
                    for (ka, ca), (kc, cc) in product(h, h):
                        stack.append((script + [kept_faces(2, ka), kept_faces(2, kc)], p * Fraction(ca * cc, 1296)))
                    continue
                # Any other re-roll: the rest of the engine's re-rolls decide, with their exact chances.
                win, lose = _rest_of_chain(bonus[actor], bonus[counter], CAP - rerolls)
                if win:
                    stack.append((script + [[6, 6], [1, 1]], p * win))
                if lose:
                    stack.append((script + [[1, 1], [6, 6]], p * lose))
                continue
            agg.add(summarize(rec, state), p)
    out = agg.result(lambda v: v)
    out["refused"] = Fraction(0)
    return out


def _tied(first: dict[str, list[int]], bonus: dict[str, int]) -> list[str]:
    """The counters whose first roll equals the actor's, in file order (how the engine settles them)."""
    whos = list(bonus)
    a = sum(first[whos[0]]) + bonus[whos[0]]
    return [w for w in whos[1:] if sum(first[w]) + bonus[w] == a]


def _first_tied(first: dict[str, list[int]], bonus: dict[str, int]) -> str | None:
    return next(iter(_tied(first, bonus)), None)


def _pending(first: dict[str, list[int]], script: list[list[int]], bonus: dict[str, int]) -> tuple[str, int]:
    """The tied counter whose re-roll the engine asks for next, and how many re-rolls it had."""
    actor = list(bonus)[0]
    i = 0
    for c in _tied(first, bonus):
        done = 0
        while True:
            if i >= len(script):
                return c, done
            tied = sum(script[i]) + bonus[actor] == sum(script[i + 1]) + bonus[c]
            i, done = i + 2, done + 1
            if not tied:
                break
    raise AssertionError("a re-roll nobody tied for")


def reroll_file(tmp_path: Path, bonuses: list[int], targets: list[int], outsider: bool = False) -> str:
    return contest_file(tmp_path, bonuses, ["harm"] * len(bonuses), targets=targets, tie="reroll", outsider=outsider)


def bonuses_of(bonuses: list[int]) -> dict[str, int]:
    """The actor's bonus (valečník 1: +1) and each counter's charakteristika, by who rolls."""
    return {"a": 1, **{f"c{i}": b for i, b in enumerate(bonuses)}}


@pytest.mark.parametrize("bonuses, targets, outsider", [([1], [0], False), ([0], [0], True), ([0, 2], [0, 1], False)])
def test_reroll_by_the_fast_method_equals_every_die_and_every_reroll(tmp_path, bonuses, targets, outsider):
    path = reroll_file(tmp_path, bonuses, targets, outsider)
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", time_limit=None)
    assert got["method"] == "independent", got["why_not_fast"]
    want = brute_force_rerolls(path, bonuses_of(bonuses))
    assert numbers(got) == numbers(want)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_reroll_contest_equals_every_die_and_every_reroll(tmp_path, data):
    n = data.draw(st.integers(1, 3), label="counters")
    bonuses = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="bonuses")
    targets = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="targets"))
    path = reroll_file(tmp_path, bonuses, targets, data.draw(st.booleans(), label="outsider") and n < 3)
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", time_limit=None)
    assert got["method"] == "independent", got["why_not_fast"]
    assert numbers(got) == numbers(brute_force_rerolls(path, bonuses_of(bonuses), branch=False))


def test_a_tied_loser_before_a_tied_winner_is_hit(tmp_path):
    """Three counters of one bonus, all targets: with no counter above the actor, a counter who
    ties and loses its re-roll before (file order) one who ties and wins it is hit; the same loser
    after the winner is not. The fast method gives the first counter a higher chance of being hit
    than the last, and equals brute force."""
    path = reroll_file(tmp_path, [1, 1, 1], [0, 1, 2])
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", time_limit=None)
    assert got["method"] == "independent", got["why_not_fast"]
    assert got["hit"]["c0"] > got["hit"]["c2"]
    assert numbers(got) == numbers(brute_force_rerolls(path, bonuses_of([1, 1, 1]), branch=False))


def test_reroll_against_nineteen_counters_agrees_with_a_seeded_simulation(tmp_path):
    """20 rollers, `tie: reroll`: exact by the fast method, within a seeded estimate's 99.9 %."""
    text = (DATA / "jeden-proti-19.yaml").read_text(encoding="utf-8")
    path = tmp_path / "prehoz.yaml"
    path.write_text(text.replace("tie: actor", "tie: reroll", 1),
                    encoding="utf-8")
    prep = StepPrep(api.load_scenario(str(path)), "boj")
    assert prep.profile.params["tie"] == "reroll"
    exact = odds_for(prep, "accept", time_limit=None)
    assert exact["method"] == "independent" and exact["combinations"] == 36 ** 20
    assert inside_999(exact, odds_for(prep, "accept", budget=0, samples=3000)) == 20


def test_reroll_beside_a_protecting_counter_is_left_to_the_class_method(tmp_path):
    path = contest_file(tmp_path, [1, 0], ["harm", "protect"], targets=[0, 1], tie="reroll")
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", budget=1, time_limit=0.25)
    assert got["method"] != "independent" and got["why_not_fast"] == "reroll"
