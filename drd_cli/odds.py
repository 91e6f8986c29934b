"""Exact odds for DrD2 rolls (R-ROLL, R-TEST, R-CONT, R-EXH) as `fractions.Fraction`.

Everything here is pure: dice are histograms {value: count} built by enumerating faces, and
probabilities are integer counts divided at the end, so results are exact (rpg-tools-anchors §4–5).
`step_odds` is the exception that reuses the engine: it resolves a scenario up to one step once,
then that step alone once per class of its open dice, and weights the outcomes.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

from .i18n import _

PRESNE_MODES = ("plus-one", "keep-best-2-of-3")
TIES = ("actor", "counter", "reroll")


@lru_cache(maxsize=None)
def _kept_hist(n: int, keep: int) -> tuple[tuple[int, int], ...]:
    """Histogram (as sorted pairs) of the sum of the best `keep` of `n` six-sided dice."""
    h: Counter = Counter()
    for faces in product(range(1, 7), repeat=n):
        h[sum(sorted(faces, reverse=True)[:keep])] += 1
    return tuple(sorted(h.items()))


def roll_distribution(bonus: int = 0, presne: int = 0, presne_mode: str = "plus-one") -> dict[int, Fraction]:
    """Distribution of a roll's total: 2k6 + bonus with `presne` uses of přesně (R-ROLL-1/3).

    `plus-one` adds 1 per use; `keep-best-2-of-3` rolls 2 + presne dice and keeps the best two.
    """
    if presne_mode not in PRESNE_MODES:
        raise ValueError(_("presne_mode must be one of {choices}, not {value}").format(
            choices=", ".join(PRESNE_MODES), value=repr(presne_mode)))
    if presne < 0:
        raise ValueError(_("presne cannot be negative"))
    if presne_mode == "plus-one":
        hist, shift = _kept_hist(2, 2), bonus + presne
    else:
        hist, shift = _kept_hist(2 + presne, 2), bonus
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
    cost = exhaustion_cost(ohrozeni, armour, mocne, bodily)
    out: dict[str, Any] = {"cost": cost, "ohrozeni_after": ohrozeni + 1}
    if bonus is not None:
        fail = test_odds(bonus, presne, presne_mode, target)["failure"]
        out["p_failure"] = fail
        out["expected"] = fail * cost
    return out


# --------------------------------------------------------------------------- a scenario step

def step_odds(loaded: Any, step_id: str, choose: str = "accept", **kwargs: Any) -> dict[str, Any]:
    """The outcome of one step over the dice the file leaves open in it: exact while its classes
    fit the budget, else a labelled estimate (`drd_cli.odds_step.odds_for`, docs/odds.md)."""
    from .odds_step import step_odds as run

    return run(loaded, step_id, choose, **kwargs)


def what_if(loaded: Any, step_id: str, choose: str = "accept", **kwargs: Any) -> dict[str, Any]:
    """The step's odds and, for each open roller, the odds with přesně added and what it costs;
    for a counter also the chance that the actor has to exhaust and its expected cost (#15).
    As data: `drd odds FILE STEP --what-if --json` prints it, `drd play` can show it before a roll
    (`drd_cli.odds_whatif.what_if` says every key)."""
    from .odds_whatif import what_if as run

    return run(loaded, step_id, choose, **kwargs)


def what_if_lines(data: dict[str, Any], names: dict[str, str] | None = None) -> list[str]:
    """The text of `what_if` data, one line per roller and per option, in the active language."""
    from .odds_whatif import what_if_lines as lines

    return lines(data, names)


def fmt(p: Any) -> str:
    """'13/18 (72,2 %)' in Czech, '13/18 (72.2 %)' in English (drd_cli.i18n.fmt_fraction); an
    estimate as '≈ 72,2 % (71,4–73,0 %)' with its 95 % interval."""
    from .i18n import fmt_fraction, fmt_percent

    if isinstance(p, Fraction):
        return fmt_fraction(p)
    if hasattr(p, "low"):
        return f"≈ {fmt_percent(p.value)} ({fmt_percent(p.low).rstrip(' %')}–{fmt_percent(p.high)})"
    return fmt_percent(float(p))


def as_json(obj: Any) -> Any:
    """Fractions become {'fraction': 'a/b', 'p': float}, estimates {'p': float, 'interval': [low,
    high]} (95 %), recursively (for --json)."""
    if isinstance(obj, Fraction):
        return {"fraction": f"{obj.numerator}/{obj.denominator}", "p": float(obj)}
    if hasattr(obj, "low") and hasattr(obj, "high"):
        return {"p": obj.value, "interval": [obj.low, obj.high]}
    if isinstance(obj, dict):
        return {str(k): as_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [as_json(v) for v in obj]
    return obj
