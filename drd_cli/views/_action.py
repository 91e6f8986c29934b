"""The views of an action and of a contest's pair (drd_cli.views)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ._participant import ParticipantView  # noqa: F401 - named in the annotations


@dataclass(frozen=True, slots=True)
class ActionView:
    """An action, a counter-action, a test, a racer's action or a výzva, as declared and prepared."""

    actor: str | None                # None for a výzva (environment) or an action without an author
    kind: str                        # action | harm | protect | test | race | challenge | declare
    label: str | None
    skill: str | None
    means: str | None                # melee, shooting, throwing, dealing, magic, poison, other
    pool: str                        # the action's type: telo / duse / vliv
    threat_pool: str                 # what its targets pay exhaustion from
    targets: tuple[str, ...]
    target_states: tuple[ParticipantView, ...]
    area: bool                       # plošná (CS-RANGE-2)
    area_via: str | None
    zone: str | None
    group: str | None                # the group's size word (CS-RANGE-4): "sevřená hrstka", …
    group_size: int | None           # beings in the area (targets' `count` summed) when plošná
    manoeuvres: tuple[str, ...]      # declared, canonical names, in order (obrana implied by defence included)
    from_: str | None                # initiative | delayed | obrana
    round: int
    step: str | None                 # the step's id
    long: str | None
    activated: tuple[str, ...]       # abilities activated for this action (`activate:`)
    protects: tuple[str, ...] = ()   # a protecting counter: whom it shields
    roll: int | None = None          # the total, once rolled
    spec: Any = None                 # API 1 compatibility: a read-only proxy of the action as written
    # Round context (an extension of API 2): the other-side participants the actor faces this
    # round — whose actions in the round's steps target or threaten it, or whom its own target —
    # and how many beings they are (their `count` summed). docs/plugins.md "Views".
    opponents: tuple[str, ...] = ()
    opponent_beings: int = 0

    @property
    def mocne(self) -> int:
        return self.manoeuvres.count("mocne")

    @property
    def lstive(self) -> bool:
        return "lstive" in self.manoeuvres

    def count(self, manoeuvre: str) -> int:
        return self.manoeuvres.count(manoeuvre)


@dataclass(frozen=True, slots=True)
class PairView:
    """One pair of a contest whose winner is being decided (R-CONT)."""

    actor: ParticipantView           # the side the tie rule favours as the actor
    counter: ParticipantView
    actor_action: ActionView
    counter_action: ActionView
    actor_total: int
    counter_total: int
    tie_rule: str                    # the `tie` parameter in effect

    @property
    def tie(self) -> bool:
        return self.actor_total == self.counter_total
