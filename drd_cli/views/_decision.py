"""The views of what a decision costs: a manoeuvre's price, an exhaustion and its breakdown, a cost paid
by another, a Jizva (drd_cli.views)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True, slots=True)
class ManoeuvreView:
    """One declared manoeuvre whose price is being decided (R-MAN-2)."""

    name: str                        # presne, rozsahle, obrana, mocne, lstive
    index: int                       # its place among the action's manoeuvres
    occurrence: int                  # how many of the same name come before it in this action
    free_by: Mapping[str, int]       # source → manoeuvres of this action it already made free
    paid_by: str | None = None       # who pays it, when someone else does (R-ABIL-SHARE)


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
class ExhaustionView:
    """One exhaustion about to be paid (R-EXH-1..4, CS-FOR-1/2, CS-SEQ-1, CS-MULTI-2/3/5)."""

    payer: ParticipantView           # whose exhaustion it is (its Ohrožení prices it and rises)
    protected: tuple[ParticipantView, ...]   # whose consequence it averts (empty for a denial)
    vs: str                          # the winner's id, or "test" (a test's 9, an obstacle, a výzva)
    winner: ParticipantView | None   # the winning participant (None against a test or výzva)
    action: ActionView | None        # the winning action, or the test's / výzva's own
    pool: str                        # the pool it is paid from (the payer's, a creature's sudba)
    kind: str                        # protect | deny | test | challenge
    rule: str                        # the rule id it is paid under
    breakdown: tuple[BreakdownEntry, ...]   # the core's cost per protected, before plugin adjustments
    paid_by: ParticipantView | None = None  # someone else paying the points (R-ABIL-SHARE)

    @property
    def cost(self) -> int:
        return sum(e.cost for e in self.breakdown)


@dataclass(frozen=True, slots=True)
class CostView:
    """A cost someone other than its owner offers to pay (R-ABIL-SHARE, `paid_by`)."""

    kind: str                        # manoeuvre | activation | narocnost | exhaustion
    amount: int
    pool: str                        # the beneficiary's pool the cost is in (telo/duse/vliv/sudba)
    what: str | None = None          # the manoeuvre's or ability's id, where there is one


@dataclass(frozen=True, slots=True)
class JizvaView:
    """A Jizva taken for points (R-EXH-4)."""

    name: str
    pool: str                        # the pool it pays into
    gain: int                        # the points the scenario gives it
    purpose: str                     # exhaust | manoeuvre | narocnost | activation
    tags: tuple[str, ...] = ()       # the story circumstances the scenario states (`tags:`)
