"""Conflict state as values: participants, their pools, Ohrožení, Výhody, Jizvy, conditions.

A `State` is never changed once built. A step works on a `Working` copy-on-write view: the
first write to a participant copies it, and `Working.commit()` returns the new State sharing
every participant the step did not touch (cheap for 500 participants × 5,000 steps).
"""

from __future__ import annotations

import copy
from types import MappingProxyType
from dataclasses import dataclass, field
from typing import Any, Mapping

OUT_OF_CONFLICT = "mimo konflikt"
_NO_OPTIONS: Any = MappingProxyType({})
_MUTABLE = (list, dict, set)


@dataclass
class Item:
    name: str
    armour: int = 0
    free: str | None = None
    per: str = "round"
    needs: list[str] = field(default_factory=list)
    enables: list[str] = field(default_factory=list)


@dataclass
class Condition:
    name: str
    forbids: list[str] = field(default_factory=list)
    demanding: list[str] = field(default_factory=list)
    until_round: int | None = None   # last round it lasts through; None = until removed


@dataclass
class PState:
    """One participant. Heroes have `pools`; creatures have `sudba` (pools is None)."""

    id: str
    name: str
    side: str | None
    pools: dict[str, int] | None
    sudba: int | None
    ohrozeni: int
    vyhody: int
    levels: dict[str, int]
    charakteristika: int | None
    covers: list[str] | None          # None: a plain number covering everything
    equipment: list[Item]
    conditions: list[Condition]
    jizvy: list[str]
    suspicion: list[str]
    zone: str | None
    count: int
    armour_base: int
    abilities: list[str]
    disabled: list[str] = field(default_factory=list)
    maxima: dict[str, int] = field(default_factory=dict)   # pool → maximum, only where the file gives one
    suroviny: int | None = None       # bought crafting ingredients held; None: the file gives none (R-ABIL-ACT)
    # Never changed once built (immutable types, so a step's copy shares them): ability id → its
    # own keys, and the scenario's free labels and stated events.
    ability_options: Any = field(default_factory=lambda: _NO_OPTIONS)
    traits: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    # What this participant has paid and gained so far in the conflict (the history of the views,
    # docs/plugins.md "History"): pool → points, counted by `change_resource` (payments are
    # negative changes, gains from a Jizva, a sacrifice or an ability positive ones; an effect does
    # not go through it). Výhody spent on manoeuvres count under "vyhody".
    paid: dict[str, int] = field(default_factory=dict)
    gained: dict[str, int] = field(default_factory=dict)
    exhausted: int = 0                # points of this participant's exhaustions (whoever paid them)
    exhaustions: int = 0              # how many times it exhausted
    accepted: int = 0                 # consequences that landed on it, in steps already resolved

    @property
    def is_hero(self) -> bool:
        return self.pools is not None

    @property
    def in_conflict(self) -> bool:
        return not any(c.name == OUT_OF_CONFLICT for c in self.conditions)

    @property
    def asleep(self) -> bool:
        """Holds a sleep condition: not aware, cannot react (R-AWARE, drd_cli.awareness)."""
        from ..awareness import is_asleep

        return is_asleep(self)

    def has_item(self, name: str) -> bool:
        return any(i.name == name for i in self.equipment)

    def item(self, name: str) -> Item | None:
        return next((i for i in self.equipment if i.name == name), None)

    def item_works(self, item: Item) -> bool:
        """An item gives its benefits only while everything it needs is held (a bow needs arrows)."""
        return all(self.has_item(n) for n in item.needs)

    @property
    def armour(self) -> int:
        """Armour from the plain value plus every held, working item (R-EXH-3)."""
        return self.armour_base + sum(i.armour for i in self.equipment if self.item_works(i))

    def has_ability(self, ability: str) -> bool:
        """Listed, not disabled, and every item that enables it (if any) still held."""
        if ability not in self.abilities or ability in self.disabled:
            return False
        enablers = [i for i in self.equipment if ability in i.enables]
        # An ability some item of the scenario enables needs that item; the scenario marks such
        # abilities by listing them under an item's `enables`. Losing the item loses the ability.
        return not self._needs_item(ability) or any(self.item_works(i) for i in enablers)

    _item_abilities: frozenset = frozenset()

    def _needs_item(self, ability: str) -> bool:
        return ability in self._item_abilities

    def resource(self, pool: str | None) -> int:
        """Points available in `pool` (creatures: Sudba)."""
        if not self.is_hero:
            return self.sudba or 0
        return self._pools().get(pool or "telo", 0)

    def _pools(self) -> dict[str, int]:
        """The pools of a hero (a creature has none: an empty mapping)."""
        return self.pools if self.pools is not None else {}

    def pool_for(self, pool: str | None) -> str:
        """The pool name this participant actually pays from (creatures always Sudba)."""
        return (pool or "telo") if self.is_hero else "sudba"

    def change_resource(self, pool: str | None, delta: int) -> None:
        """A payment (`delta` < 0) or a gain (> 0) in `pool`, remembered in `paid` / `gained`."""
        if self.pools is None:
            key = "sudba"
            self.sudba = (self.sudba or 0) + delta
        else:
            key = pool or "telo"
            self.pools[key] = self.pools.get(key, 0) + delta
        if delta < 0:
            self.paid[key] = self.paid.get(key, 0) - delta
        elif delta > 0:
            self.gained[key] = self.gained.get(key, 0) + delta

    def spend_vyhody(self, n: int) -> None:
        """Výhody spent as a payment (a manoeuvre, R-MAN-2), remembered in `paid["vyhody"]`."""
        self.vyhody -= n
        self.paid["vyhody"] = self.paid.get("vyhody", 0) + n

    def cap_pools(self) -> dict[str, int]:
        """Cuts every pool down to its maximum (if the file gives one); returns {pool: points lost}.

        Called after a payment, not on each gain: points from a Jizva or a sacrifice are first
        spent on what they were taken for, only the surplus over the maximum is lost (R-EXH-4).
        """
        lost: dict[str, int] = {}
        if self.pools is None:
            return lost
        for key, cap in self.maxima.items():
            if self.pools.get(key, 0) > cap:
                lost[key] = self.pools[key] - cap
                self.pools[key] = cap
        return lost

    def __deepcopy__(self, memo: dict) -> "PState":
        """The copy a step changes (Working): every list, dict and set is copied one level deep.

        Their items (Item, Condition, str, int) are never changed in place, only replaced, so
        sharing them is safe and several times faster than `copy.deepcopy` (drd odds resolves one
        step thousands of times; benchmarks/README.md measured deepcopy at ~40 % of a resolution).
        """
        cls = self.__class__
        if cls is not PState:           # a subclass may copy itself its own way (copy.copy's rules)
            new = copy.copy(self)
            for key, value in self.__dict__.items():
                if isinstance(value, (list, dict, set)):
                    new.__dict__[key] = value.copy()
            return new
        # What copy.copy does for a dataclass instance (a new object, its __dict__ copied), in line.
        state = self.__dict__.copy()
        for key, value in state.items():
            if isinstance(value, _MUTABLE):
                state[key] = value.copy()
        new = cls.__new__(cls)
        new.__dict__.update(state)
        return new

    def final(self, last_round: int) -> dict:
        """This participant's entry of the result's `final` block."""
        out: dict[str, Any] = {}
        if self.pools is not None:
            out.update({k: self.pools.get(k, 0) for k in ("telo", "duse", "vliv")})
        else:
            out["sudba"] = self.sudba
        if self.suroviny is not None:
            out["suroviny"] = self.suroviny
        out.update({
            "ohrozeni": self.ohrozeni,
            "vyhody": self.vyhody,
            "jizvy": list(self.jizvy),
            "conditions": [c.name if c.until_round is None
                           else {"name": c.name, "rounds": max(0, c.until_round - last_round)}
                           for c in self.conditions],
            "equipment": [i.name for i in self.equipment],
            "suspicion": list(self.suspicion),
        })
        if self.disabled:
            out["disabled"] = list(self.disabled)
        return out


@dataclass(frozen=True)
class State:
    """Every participant, in file order, plus per-conflict memory (long actions, suspicion)."""

    participants: dict[str, PState]
    longs: dict[str, dict] = field(default_factory=dict)
    # (participant, "item:NAME") of `per: conflict` items whose free manoeuvre is spent (R-MAN-2)
    free_used: frozenset = frozenset()
    # Every participant as the conflict started (the file's values), for the views' history.
    start: Mapping[str, PState] = field(default_factory=dict)


class Working:
    """A copy-on-write view of a State for one step."""

    def __init__(self, state: State):
        self._base = state
        self._changed: dict[str, PState] = {}
        self.longs = dict(state.longs)
        self.free_used = set(state.free_used)
        self.start = state.start

    def before(self, pid: str) -> PState:
        """The participant as this step found it (read-only)."""
        return self._base.participants[pid]

    def __getitem__(self, pid: str) -> PState:
        """The participant, copied on first access so the base State is never changed."""
        p = self._changed.get(pid)
        if p is None:
            base = self._base.participants[pid]
            # PState's own copy, without copy.deepcopy's dispatch and memo (a battle copies thousands).
            p = base.__deepcopy__({}) if base.__class__ is PState else copy.deepcopy(base)
            self._changed[pid] = p
        return p

    def peek(self, pid: str) -> PState:
        """Read-only look (no copy); do not modify the returned object."""
        return self._changed.get(pid) or self._base.participants[pid]

    def __contains__(self, pid: str) -> bool:
        return pid in self._base.participants

    def ids(self) -> list[str]:
        return list(self._base.participants)

    def id_set(self) -> Any:
        """Every participant id, for `in` tests: a view of the state's own mapping (no copy per step)."""
        return self._base.participants.keys()

    def in_conflict(self) -> list[str]:
        return [pid for pid in self._base.participants if self.peek(pid).in_conflict]

    def commit(self, *, consume: bool = False) -> State:
        """The State after the step.

        The base mapping copied and the changed few put over it: the same mapping, in the same
        (file) order, as rebuilding it entry by entry, but at C speed. With `consume=True` the
        caller promises that nobody will look at the base State again (`engine.run.resolve`
        drops each state for the next): its mapping is updated in place instead of copied, so a
        step costs the same with 2,000 participants as with 500 (copying a mapping touches every
        participant object it holds).
        """
        if consume:
            merged = self._base.participants
        else:
            merged = dict(self._base.participants)
        if self._changed:
            merged.update(self._changed)
        return State(merged, dict(self.longs), frozenset(self.free_used), self.start)


def initial_state(scenario: Any) -> State:
    """Builds the starting State from a validated Scenario."""
    from ..scenario.models import ConditionSpec, Equipment, ability_id

    item_abilities: set[str] = set()
    participants: dict[str, PState] = {}
    for pid, p in scenario.participants.items():
        items = []
        for e in p.equipment:
            if isinstance(e, Equipment):
                items.append(Item(e.name, e.armour, _canon_manoeuvre(e.free), e.per, list(e.needs),
                                  list(e.enables)))
                item_abilities.update(e.enables)
            else:
                items.append(Item(e))
        conds = [Condition(c) if isinstance(c, str) else
                 Condition(c.name, list(c.forbids), list(c.demanding),
                           None if c.rounds is None else c.rounds)
                 for c in p.conditions]
        ch = p.charakteristika
        level, covers = (None, None)
        if isinstance(ch, int):
            level, covers = ch, None
        elif ch is not None:
            level, covers = ch.level, list(ch.covers)
        pools = None
        if p.pools is not None:
            pools = {"telo": p.pools.telo, "duse": p.pools.duse, "vliv": p.pools.vliv}
        ps = PState(id=pid, name=p.name or pid, side=p.side, pools=pools, sudba=p.sudba,
                    ohrozeni=p.ohrozeni, vyhody=p.vyhody, levels=dict(p.levels), charakteristika=level,
                    covers=covers, equipment=items, conditions=conds, jizvy=list(p.jizvy),
                    suspicion=list(p.suspicion), zone=p.zone, count=p.count, armour_base=p.armour,
                    abilities=[ability_id(a) for a in p.abilities],
                    ability_options=MappingProxyType({a.id: MappingProxyType(a.options())
                                                      for a in p.abilities if not isinstance(a, str)}),
                    traits=tuple(getattr(p, "traits", ())), events=tuple(getattr(p, "events", ())),
                    maxima={k: v for k, v in (p.max.model_dump().items() if p.max else ()) if v is not None},
                    suroviny=getattr(p, "suroviny", None))
        participants[pid] = ps
    frozen = frozenset(item_abilities)
    for ps in participants.values():
        ps._item_abilities = frozen
    _ = ConditionSpec  # imported for type clarity of conditions above
    return State(participants, start=MappingProxyType(dict(participants)))


def _canon_manoeuvre(name: str | None) -> str | None:
    from ..scenario.models import MANOEUVRE_ALIASES

    return MANOEUVRE_ALIASES.get(name, name) if name else None
