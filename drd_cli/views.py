"""Read-only views: what a plugin's hook is shown of a participant, an action and a decision.

Every view is a frozen dataclass (assigning a field raises `dataclasses.FrozenInstanceError`);
collections are tuples or read-only mappings. The engine builds them from its own state for each
hook call, so a plugin can neither change the conflict behind the engine's back nor depend on how
the engine stores it. Field by field documentation: docs/plugins.md "Views".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

_EMPTY: Mapping = MappingProxyType({})


def _ro(mapping: Mapping | None) -> Mapping:
    return MappingProxyType(dict(mapping)) if mapping else _EMPTY


@dataclass(frozen=True, slots=True)
class ItemView:
    """An item a participant holds (SCENARIO-FORMAT §2 `equipment`)."""

    name: str
    armour: int = 0
    free: str | None = None          # the manoeuvre it makes free, if any
    per: str = "round"               # how often: round | conflict
    needs: tuple[str, ...] = ()      # items it needs to work (a bow needs arrows)
    enables: tuple[str, ...] = ()    # abilities that work only while it is held
    works: bool = True               # everything it needs is held


@dataclass(frozen=True, slots=True)
class ParticipantView:
    """A participant as it stands at the moment of the hook call."""

    id: str
    name: str
    side: str | None
    is_hero: bool                    # hero (pools) or creature (Sudba)
    pools: Mapping[str, int]         # telo/duse/vliv of a hero; {} for a creature
    sudba: int | None
    maxima: Mapping[str, int]        # pool → maximum, where the file gives one
    ohrozeni: int
    vyhody: int
    armour: int                      # worn armour: the plain value plus every held, working item (R-EXH-3)
    armour_by_source: tuple[tuple[str, int], ...]   # ("armour", n) for the plain value, (item name, n) per item
    abilities: tuple[str, ...]       # ability ids that work now (listed, not disabled, enabling item held)
    ability_options: Mapping[str, Mapping[str, Any]]  # ability id → its own keys ({weapon: meč})
    equipment: tuple[ItemView, ...]
    conditions: tuple[str, ...]
    jizvy: tuple[str, ...]
    levels: Mapping[str, int]        # profession → level
    charakteristika: int | None
    covers: tuple[str, ...] | None   # what the charakteristika covers; None = everything
    suspicion: tuple[str, ...]
    zone: str | None
    count: int                       # beings this participant stands for
    traits: tuple[str, ...] = ()     # free labels the scenario gives (SCENARIO-FORMAT §2 `traits`)
    events: tuple[str, ...] = ()     # events the scenario states for it (R-ABIL-GAIN)
    in_conflict: bool = True
    suroviny: int | None = None      # bought crafting ingredients held (None: the file gives none)

    def has_ability(self, ability: str) -> bool:
        """Does the ability work for this participant now?"""
        return ability in self.abilities

    def ability(self, ability: str) -> Mapping[str, Any] | None:
        """The ability's own keys (an empty mapping for a plain id), or None if it does not work now."""
        if ability not in self.abilities:
            return None
        return self.ability_options.get(ability, _EMPTY)

    def has_item(self, name: str) -> bool:
        return any(i.name == name for i in self.equipment)

    def has_condition(self, name: str) -> bool:
        return name in self.conditions

    @property
    def asleep(self) -> bool:
        """Holds a sleep condition (`spí`, `spánek`, `spící`, `asleep`): not aware, cannot react (R-AWARE)."""
        from .awareness import is_asleep

        return is_asleep(self)

    def resource(self, pool: str | None) -> int:
        """Points available in `pool` (a creature: Sudba, whatever the pool)."""
        if not self.is_hero:
            return self.sudba or 0
        return self.pools.get(pool or "telo", 0)

    def pool_for(self, pool: str | None) -> str:
        """The pool this participant pays from for an action of type `pool` (a creature: sudba)."""
        return (pool or "telo") if self.is_hero else "sudba"


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
class ManoeuvreView:
    """One declared manoeuvre whose price is being decided (R-MAN-2)."""

    name: str                        # presne, rozsahle, obrana, mocne, lstive
    index: int                       # its place among the action's manoeuvres
    occurrence: int                  # how many of the same name come before it in this action
    free_by: Mapping[str, int]       # source → manoeuvres of this action it already made free
    paid_by: str | None = None       # who pays it, when someone else does (R-ABIL-SHARE)


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


@dataclass(frozen=True, slots=True)
class EventView:
    """Something that happened to a participant that an ability may reward (R-ABIL-GAIN)."""

    name: str                        # a scenario-stated event (`events:`), or conflict-start / round-start
    round: int
    step: str | None = None
    data: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


class ReadOnly:
    """A read-only proxy of a scenario object (API 1's `action.spec`): attributes read through,
    assignment refused."""

    __slots__ = ("_obj",)

    def __init__(self, obj: Any):
        object.__setattr__(self, "_obj", obj)

    def __getattr__(self, name: str) -> Any:
        value = getattr(object.__getattribute__(self, "_obj"), name)
        if isinstance(value, list):
            return tuple(value)
        if isinstance(value, dict):
            return MappingProxyType(value)
        if hasattr(value, "model_fields"):      # a nested scenario object (an effect, a follow-up)
            return ReadOnly(value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"read-only view: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"read-only view: cannot delete {name!r}")

    def __repr__(self) -> str:
        return f"ReadOnly({object.__getattribute__(self, '_obj')!r})"


__all__ = ["ItemView", "ParticipantView", "ActionView", "ManoeuvreView", "PairView", "BreakdownEntry",
           "ExhaustionView", "CostView", "JizvaView", "EventView", "ReadOnly", "_ro"]
