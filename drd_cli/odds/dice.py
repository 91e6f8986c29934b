"""The pure dice of DrD2 rolls (R-ROLL, R-TEST, R-CONT, R-EXH) as exact `fractions.Fraction`s.

Dice are histograms {value: count}; probabilities are integer counts divided at the end, so every
number is exact. The best two of n dice (přesně under `keep-best-2-of-3`) is counted by a formula,
not by enumerating 6^n faces, so any number of dice costs the same (docs/odds.md).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..i18n import _

#: Most přesně one roll may take in these functions (2 + this many dice under keep-best).
MAX_PRESNE = 100

PRESNE_MODES = ("plus-one", "keep-best-2-of-3")
TIES = ("actor", "counter", "reroll")


@lru_cache(maxsize=256)
def kept_hist(n: int) -> tuple[tuple[int, int], ...]:
    """How many of the 6^n faces of `n` six-sided dice give each sum of the best two (all of
    them when n ≤ 2), as sorted (sum, count) pairs.

    Counted, not enumerated: the highest die x and the second highest y (x ≥ y) come from
    n · (y^(n−1) − (y−1)^(n−1)) faces when x > y (one die shows x, the others are at most y and
    one of them y) and from x^n − (x−1)^n − n · (x−1)^(n−1) faces when x = y (two or more show x).
    """
    if n <= 0:
        return ((0, 1),)
    if n == 1:
        return tuple((v, 1) for v in range(1, 7))
    h: dict[int, int] = {}
    for x in range(1, 7):
        for y in range(1, x + 1):
            if x > y:
                c = n * (y ** (n - 1) - (y - 1) ** (n - 1))
            else:
                c = x ** n - (x - 1) ** n - n * (x - 1) ** (n - 1)
            if c:
                h[x + y] = h.get(x + y, 0) + c
    return tuple(sorted(h.items()))


def kept_faces(n: int, kept: int) -> tuple[int, ...]:
    """Some faces of `n` dice whose best two (all, for n ≤ 2) sum to `kept` (a representative)."""
    if n == 1:
        return (kept,)
    x = min(6, kept - 1)
    return (x, kept - x) + (1,) * (n - 2)


def roll_distribution(bonus: int = 0, presne: int = 0, presne_mode: str = "plus-one") -> dict[int, Fraction]:
    """Distribution of a roll's total: 2k6 + bonus with `presne` uses of přesně (R-ROLL-1/3).

    `plus-one` adds 1 per use; `keep-best-2-of-3` rolls 2 + presne dice and keeps the best two.
    """
    if presne_mode not in PRESNE_MODES:
        raise ValueError(_("presne_mode must be one of {choices}, not {value}").format(
            choices=", ".join(PRESNE_MODES), value=repr(presne_mode)))
    if presne < 0:
        raise ValueError(_("presne cannot be negative"))
    if presne > MAX_PRESNE:
        raise ValueError(_("presne can be used at most {n} times in one roll").format(n=MAX_PRESNE))
    if presne_mode == "plus-one":
        hist, shift = kept_hist(2), bonus + presne
    else:
        hist, shift = kept_hist(2 + presne), bonus
    total = sum(c for _, c in hist)
    return {v + shift: Fraction(c, total) for v, c in hist}


def test_odds(bonus: int = 0, presne: int = 0, presne_mode: str = "plus-one", target: int = 9) -> dict[str, Fraction]:
    """R-TEST: P(success) = P(total ≥ target) and P(failure) for one roll."""
    dist = roll_distribution(bonus, presne, presne_mode)
    win = sum((p for v, p in dist.items() if v >= target), Fraction(0))
    return {"success": win, "failure": 1 - win}


# pytest would otherwise collect `test_odds` as a test when a test module imports it by name.
test_odds.__test__ = False  # type: ignore[attr-defined]


def compare_totals(actor: Any, counter: Any) -> tuple[Fraction, Fraction, Fraction]:
    """(higher, lower, equal): the chances that a total drawn from `actor` beats, loses to or ties
    one drawn from `counter`, each given as (total, probability) pairs."""
    counter = list(counter)
    win = lose = draw = Fraction(0)
    for va, pa in actor:
        for vc, pc in counter:
            if va > vc:
                win += pa * pc
            elif va < vc:
                lose += pa * pc
            else:
                draw += pa * pc
    return win, lose, draw


def contest_odds(bonus: int = 0, vs: int = 0, tie: str = "actor", presne: int = 0, vs_presne: int = 0,
                 presne_mode: str = "plus-one") -> dict[str, Fraction]:
    """R-CONT: one pair, actor (2k6 + bonus) against counter (2k6 + vs).

    Returns win/lose for the actor plus the raw tie chance. A tie goes to the actor (`actor`),
    to the counter (`counter`), or is rolled again (`reroll`), which is the same as conditioning
    on the rolls not being equal.
    """
    if tie not in TIES:
        raise ValueError(_("tie must be one of {choices}, not {value}").format(choices=", ".join(TIES), value=repr(tie)))
    win, lose, draw = compare_totals(roll_distribution(bonus, presne, presne_mode).items(),
                                     roll_distribution(vs, vs_presne, presne_mode).items())
    if tie == "actor":
        return {"win": win + draw, "lose": lose, "tie": draw}
    if tie == "counter":
        return {"win": win, "lose": lose + draw, "tie": draw}
    if draw == 1:  # cannot happen with dice, but keeps the division honest
        raise ZeroDivisionError("every roll ties")
    return {"win": win / (1 - draw), "lose": lose / (1 - draw), "tie": draw}


def exhaustion_cost(ohrozeni: int, armour: int = 0, mocne: int = 0, bodily: bool = True) -> int:
    """R-EXH-1/3: what one exhaustion costs: Ohrožení, minus armour against bodily actions, plus mocně."""
    if not bodily:
        return ohrozeni
    return max(0, ohrozeni - armour + mocne)


def expected_exhaustion_cost(ohrozeni: int, bonus: int | None = None, armour: int = 0, mocne: int = 0,
                             bodily: bool = True, presne: int = 0, presne_mode: str = "plus-one",
                             target: int = 9) -> dict[str, Any]:
    """The cost of exhausting at this Ohrožení and, given a `bonus`, the expected cost of a test
    whose failure is always bought off: P(failure) × cost (rpg-tools-anchors §4.2).
    """
    if ohrozeni < 0 or armour < 0 or mocne < 0:
        raise ValueError(_("Ohrožení, armour and mocně cannot be negative"))
    cost = exhaustion_cost(ohrozeni, armour, mocne, bodily)
    out: dict[str, Any] = {"cost": cost, "ohrozeni_after": ohrozeni + 1}
    if bonus is not None:
        fail = test_odds(bonus, presne, presne_mode, target)["failure"]
        out["p_failure"] = fail
        out["expected"] = fail * cost
    return out
