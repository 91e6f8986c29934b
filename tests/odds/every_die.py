"""The brute force the fast methods are checked against: every kept sum of every open roller
(weighted by how many faces give it), each resolved by the engine from the state before the
step, the dice handed out by who rolls them — the exact outcome, with no classes or model."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

from drd_cli import api
from drd_cli.odds.dice import kept_faces, kept_hist
from drd_cli.odds.estimate import _Agg, summarize
from drd_cli.odds.step import StepPrep, odds_for


class ByWho:
    """The dice of each roller, by who rolls them."""

    name = "entered"

    def __init__(self, faces: dict[str, tuple]):
        self.faces = faces

    def roll(self, n, who, purpose):
        return list(self.faces[who])


def every_die(prep: StepPrep, choose: str, whos: list[str]) -> dict:
    """The step of `prep` over every kept sum of the rollers `whos` (two dice each)."""
    from drd_cli.engine.run import resolve_step_from
    from drd_cli.errors import RuleViolation

    cp = prep.checkpoint(choose)
    agg, refused, total = _Agg(), 0, 36 ** len(whos)
    for combo in product(*[kept_hist(2)] * len(whos)):
        weight = math.prod(c for _k, c in combo)
        dice = ByWho({w: kept_faces(2, k) for w, (k, _c) in zip(whos, combo)})
        try:
            rec, state = resolve_step_from(cp, prep.scn, prep.profile, dice, prep.hooks, choose=choose)
        except RuleViolation:
            refused += weight
            continue
        agg.add(summarize(rec, state), weight)
    out = agg.result(lambda v: Fraction(v, total))
    out["refused"] = Fraction(refused, total)
    return out


def brute_force(path: str, choose: str, params: dict | None = None, step: str = "boj") -> dict:
    """`every_die` of a file's step over the rollers its first resolution shows open."""
    prep = StepPrep(api.load_scenario(path), step, params=params)
    whos = [o["who"] for o in odds_for(prep, choose, budget=0, samples=1)["open_rolls"]]
    return every_die(prep, choose, whos)
