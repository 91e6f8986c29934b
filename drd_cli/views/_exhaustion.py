"""The view of an exhaustion about to be paid (drd_cli.views)."""

from __future__ import annotations

from dataclasses import dataclass

from ._action import ActionView  # noqa: F401 - named in the annotations
from ._participant import ParticipantView  # noqa: F401 - named in the annotations
from ._records import BreakdownEntry  # noqa: F401 - named in the annotations


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
