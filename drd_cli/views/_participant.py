"""The views of a participant and of what it holds (drd_cli.views)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ._empty import _EMPTY


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
        from ..awareness import is_asleep

        return is_asleep(self)

    def resource(self, pool: str | None) -> int:
        """Points available in `pool` (a creature: Sudba, whatever the pool)."""
        if not self.is_hero:
            return self.sudba or 0
        return self.pools.get(pool or "telo", 0)

    def pool_for(self, pool: str | None) -> str:
        """The pool this participant pays from for an action of type `pool` (a creature: sudba)."""
        return (pool or "telo") if self.is_hero else "sudba"
