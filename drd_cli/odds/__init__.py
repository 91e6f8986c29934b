"""Exact odds for DrD2 rolls (R-ROLL, R-TEST, R-CONT, R-EXH) as `fractions.Fraction`: the public
names of the odds package (docs/odds.md).

The pure dice are in `dice` (histograms of counts divided at the end, so every number is exact).
`step_odds` reuses the engine: it resolves a scenario up to one step once, then answers that step
by the fast method (`fast`), the class method (`classes`) or the labelled estimate (`estimate`),
each within the bounds of `budget`; `what_if` compares variants of the step (`whatif`). Nothing
heavy is imported here: the engine only when a step is asked about.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .dice import (MAX_PRESNE, PRESNE_MODES, TIES, compare_totals, contest_odds, exhaustion_cost,  # noqa: F401
                   expected_exhaustion_cost, kept_hist, roll_distribution, test_odds)

# --------------------------------------------------------------------------- a scenario step

def step_odds(loaded: Any, step_id: str, choose: str = "accept", **kwargs: Any) -> dict[str, Any]:
    """The outcome of one step over the dice the file leaves open in it: exact while its classes
    fit the budget, else a labelled estimate (`drd_cli.odds.step.odds_for`, docs/odds.md)."""
    from .step import step_odds as run

    return run(loaded, step_id, choose, **kwargs)


def what_if(loaded: Any, step_id: str, choose: str = "accept", **kwargs: Any) -> dict[str, Any]:
    """The step's odds and, for each open roller, the odds with přesně added and what it costs;
    for a counter also the chance that the actor has to exhaust and its expected cost (#15).
    As data: `drd odds FILE STEP --what-if --json` prints it, `drd play` can show it before a roll
    (`drd_cli.odds.whatif.what_if` says every key)."""
    from .whatif import what_if as run

    return run(loaded, step_id, choose, **kwargs)


def what_if_lines(data: dict[str, Any], names: dict[str, str] | None = None) -> list[str]:
    """The text of `what_if` data, one line per roller and per option, in the active language."""
    from .whatif import what_if_lines as lines

    return lines(data, names)


def fmt(p: Any) -> str:
    """'13/18 (72,2 %)' in Czech, '13/18 (72.2 %)' in English (drd_cli.i18n.fmt_fraction); an
    estimate as '≈ 72,2 % (71,4–73,0 %)' with its 95 % interval."""
    from ..i18n import fmt_fraction, fmt_percent

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
