"""The views of a price being decided: a declared manoeuvre's, and a cost someone else offers to pay
(drd_cli.views)."""

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
class CostView:
    """A cost someone other than its owner offers to pay (R-ABIL-SHARE, `paid_by`)."""

    kind: str                        # manoeuvre | activation | narocnost | exhaustion
    amount: int
    pool: str                        # the beneficiary's pool the cost is in (telo/duse/vliv/sudba)
    what: str | None = None          # the manoeuvre's or ability's id, where there is one
