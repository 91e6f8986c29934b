"""The views the engine itself records in a result: an exhaustion's cost breakdown and a Jizva
(drd_cli.views)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BreakdownEntry:
    """The cost of one exhaustion for one protected participant (SCENARIO-FORMAT §7 `breakdown`)."""

    protected: str | None            # None: a denial (CS-MULTI-5) or a test's own 9
    ohrozeni: int                    # the payer's Ohrožení (R-EXH-1)
    armour: tuple[tuple[str, int], ...] = ()        # (item name or "armour", −n): worn armour (R-EXH-3)
    mocne: int = 0                                  # +1 per mocně of the winning action
    adjustments: tuple[tuple[str, int], ...] = ()   # (plugin id or "floor", n)
    cost: int = 0                    # the sum of everything above

    def as_result(self) -> dict:
        return {"protected": self.protected, "ohrozeni": self.ohrozeni,
                "armour": [{"source": s, "amount": a} for s, a in self.armour], "mocne": self.mocne,
                "adjustments": [{"source": s, "amount": a} for s, a in self.adjustments], "cost": self.cost}


@dataclass(frozen=True, slots=True)
class JizvaView:
    """A Jizva taken for points (R-EXH-4)."""

    name: str
    pool: str                        # the pool it pays into
    gain: int                        # the points the scenario gives it
    purpose: str                     # exhaust | manoeuvre | narocnost | activation
    tags: tuple[str, ...] = ()       # the story circumstances the scenario states (`tags:`)
