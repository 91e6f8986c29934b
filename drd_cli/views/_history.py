"""The views of what has happened so far: a participant's history in this conflict and this step,
and the conflict itself (drd_cli.views; plugin API 3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from ._empty import _EMPTY


@dataclass(frozen=True, slots=True)
class Tally:
    """What one participant did over a span (the conflict so far, or the current step so far)."""

    paid: Mapping[str, int] = field(default_factory=lambda: _EMPTY)     # pool → points paid from its own pools (manoeuvres, náročnost,
    #                                      activations, exhaustions — its own or paid for others);
    #                                      "vyhody": Výhody spent on manoeuvres
    exhausted: int = 0                   # points of its own exhaustions (whoever paid the points)
    exhaustions: int = 0                 # how many times it exhausted
    gained: Mapping[str, int] = field(default_factory=lambda: _EMPTY)   # pool → points gained from a Jizva, a sacrifice, an ability
    accepted: int = 0                    # consequences that landed on it (an effect it did not avert)
    jizvy: tuple[str, ...] = ()          # Jizvy taken (for points or as a consequence)
    items: tuple[str, ...] = ()          # items it no longer holds (sacrificed, lost)

    @property
    def paid_points(self) -> int:
        """Every point paid from its pools (Výhody not counted)."""
        return sum(n for k, n in self.paid.items() if k != "vyhody")


@dataclass(frozen=True, slots=True)
class HistoryView:
    """A participant's history: where it started, the whole conflict so far, this step so far."""

    participant: str
    start: Mapping[str, int]             # its pools as the conflict started ({"sudba": n} for a creature)
    start_ohrozeni: int                  # its Ohrožení then
    conflict: Tally                      # so far in this conflict, this step included
    step: Tally                          # so far in the current step


@dataclass(frozen=True, slots=True)
class ConflictView:
    """The conflict at the moment of the hook call: where it stands, how everyone started, and
    each participant's history (`history(id)`)."""

    round: int
    step: str | None                     # the current step's id
    start: Mapping[str, Mapping[str, int]]   # participant id → its pools as the conflict started
    _history: Callable[[str], HistoryView | None] = field(repr=False, compare=False, default=lambda _pid: None)

    def history(self, participant: str) -> HistoryView | None:
        """The participant's history (None for an id that is not in the conflict)."""
        return self._history(participant)
