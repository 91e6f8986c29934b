"""Exact odds of a Dakara skill use (SK-2..SK-7), as data with `fractions.Fraction`.

The computation does not enumerate dice pairs one by one: it uses the distribution of the die
difference D = p − g (P(D = d) = (6 − |d|)/36) and convolves the helpers' independent successes.
The tests check it against a brute-force enumeration of every die (tests/dakara/test_dakara_odds.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable

from drd_cli.dakara import rules

#: P(p − g = d) for two independent d6.
DIFFERENCE: dict[int, Fraction] = {d: Fraction(6 - abs(d), 36) for d in range(-5, 6)}

OUTCOME_ORDER = ["auto-success", "success", "win", "draw", "failure", "loss", "withdrawn", "impossible"]
COMPLICATION_ORDER = {"none": 0, "mild": 1, "serious": 2}


def p_at_least(k: int) -> Fraction:
    """P(p − g ≥ k) for two d6."""
    return sum((q for d, q in DIFFERENCE.items() if d >= k), Fraction(0))


@dataclass(frozen=True)
class HelperSpec:
    """A helper as far as the odds care: its modified rating and whether it declines to roll."""

    mod_rating: int
    declines: bool = False


def helper_success_probability(mod_rating: int, difficulty: int, declines: bool = False) -> Fraction:
    """SK-7: auto (1) when the rating meets the difficulty, else P(tie or better), 0 if it declines."""
    if mod_rating >= difficulty:
        return Fraction(1)
    if declines:
        return Fraction(0)
    return p_at_least(difficulty - mod_rating)


def helper_bonus_distribution(helpers: Iterable[HelperSpec], difficulty: int,
                              mode: rules.HelperMode = "escalating") -> dict[int, Fraction]:
    """Distribution of the number of successful helpers (= the bonus, +1 each, SK-7)."""
    helpers = list(helpers)
    diffs = rules.helper_difficulties(difficulty, len(helpers), mode)
    dist = {0: Fraction(1)}
    for h, hd in zip(helpers, diffs):
        p = helper_success_probability(h.mod_rating, hd, h.declines)
        nxt: dict[int, Fraction] = {}
        for b, q in dist.items():
            if p:
                nxt[b + 1] = nxt.get(b + 1, Fraction(0)) + q * p
            if p != 1:
                nxt[b] = nxt.get(b, Fraction(0)) + q * (1 - p)
        dist = nxt
    return dist


@dataclass
class Odds:
    """The exact distribution of a skill use's results.

    `outcomes` maps (outcome, complication, injury) to its probability; they sum to 1.
    `dead` is P(accumulated injury > kondice) when an accumulated injury was given, else None.
    """

    kind: rules.Kind
    mod_rating: int                 # without helpers
    difficulty: int
    risk: rules.Risk | None
    helper_bonus: dict[int, Fraction]
    outcomes: dict[tuple[str, str, int], Fraction] = field(default_factory=dict)
    dead: Fraction | None = None

    def by_outcome(self) -> dict[str, Fraction]:
        """Probabilities of each outcome word (success, failure, win, …)."""
        out: dict[str, Fraction] = {}
        for (o, _c, _i), q in self.outcomes.items():
            out[o] = out.get(o, Fraction(0)) + q
        return dict(sorted(out.items(), key=lambda kv: OUTCOME_ORDER.index(kv[0])))

    def sorted_items(self) -> list[tuple[tuple[str, str, int], Fraction]]:
        """Entries in reading order: successes first, then failures by severity."""
        return sorted(self.outcomes.items(),
                      key=lambda kv: (OUTCOME_ORDER.index(kv[0][0]), COMPLICATION_ORDER[kv[0][1]], kv[0][2]))

    def total(self) -> Fraction:
        return sum(self.outcomes.values(), Fraction(0))

    def to_dict(self) -> dict:
        """JSON-friendly form: every probability as "a/b" and as a percentage."""
        return {
            "kind": self.kind,
            "modified_rating": self.mod_rating,
            "difficulty": self.difficulty,
            "risk": self.risk,
            "helper_bonus": {str(b): fraction_dict(q) for b, q in sorted(self.helper_bonus.items())},
            "outcomes": [{"outcome": o, "complication": c, "injury": i, **fraction_dict(q)}
                         for (o, c, i), q in self.sorted_items()],
            "by_outcome": {o: fraction_dict(q) for o, q in self.by_outcome().items()},
            "dead": None if self.dead is None else fraction_dict(self.dead),
        }


def fraction_dict(q: Fraction) -> dict:
    """{"fraction": "a/b", "percent": 12.34} (percent rounded to 2 places, for display)."""
    return {"fraction": f"{q.numerator}/{q.denominator}", "percent": round(float(q) * 100, 2)}


def skill_odds(kind: rules.Kind, mod_rating: int, difficulty: int, *,
               helpers: Iterable[HelperSpec] = (), helper_mode: rules.HelperMode = "escalating",
               risk: rules.Risk | None = None, risk_it: bool = True, injury_modifier: int = 0,
               armour: int = 0, injury_floor: int = 0, impossible: bool = False,
               accumulated_injury: int | None = None, kondice: int = 18) -> Odds:
    """Exact odds of `rules.resolve` with helpers rolled first (SK-7), over all dice.

    `mod_rating` is the actor's modified rating before the helpers' bonus.
    """
    bonus = helper_bonus_distribution(helpers, difficulty, helper_mode)
    odds = Odds(kind, mod_rating, difficulty, risk, bonus)

    def add(key: tuple[str, str, int], q: Fraction) -> None:
        if q:
            odds.outcomes[key] = odds.outcomes.get(key, Fraction(0)) + q

    for b, qb in bonus.items():
        mod = mod_rating + b
        answer = (rules.pre_roll_answer(mod, difficulty, impossible=impossible) if kind == "test"
                  else ("impossible" if impossible else None))
        if answer == "impossible":
            add(("impossible", "none", 0), qb)
            continue
        if kind == "test" and answer == "yes":
            add(("auto-success", "none", 0), qb)
            continue
        if not rules.needs_roll(kind, answer, risk_it):
            add(("withdrawn", "none", 0), qb)
            continue
        for d, qd in DIFFERENCE.items():
            margin = mod - difficulty + d
            outcome = rules.test_outcome(margin) if kind == "test" else rules.contest_outcome(margin)
            comp, inj = "none", 0
            if outcome in ("failure", "loss"):
                if risk == "complication":
                    comp = rules.complication_for(-margin)
                elif risk == "injury":
                    inj = rules.injury_for(-margin, injury_modifier, armour, injury_floor)
            add((outcome, comp, inj), qb * qd)
    if accumulated_injury is not None:
        odds.dead = sum((q for (_o, _c, i), q in odds.outcomes.items()
                         if rules.is_dead(accumulated_injury + i, kondice)), Fraction(0))
    return odds
