"""The view of an event an ability may reward (drd_cli.views)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ._empty import _EMPTY


@dataclass(frozen=True, slots=True)
class EventView:
    """Something that happened to a participant that an ability may reward (R-ABIL-GAIN)."""

    name: str                        # a scenario-stated event (`events:`), or conflict-start / round-start
    round: int
    step: str | None = None
    data: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
