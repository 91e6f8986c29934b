"""Read-only views for calling the catalogue's hooks directly (tests of drd_plugins' abilities)."""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import ActionView, BreakdownEntry, EventView, ExhaustionView, ItemView, JizvaView, ManoeuvreView, \
    ParticipantView
from drd_cli.views import _ro


def participant(pid: str = "hrdina", *, abilities: tuple = (), options: dict | None = None, hero: bool = True,
                equipment: tuple = (), traits: tuple = (), conditions: tuple = (), zone: str | None = None,
                side: str | None = "družina", count: int = 1, events: tuple = (), armour: int = 0) -> ParticipantView:
    items = tuple(ItemView(name=e) if isinstance(e, str) else e for e in equipment)
    return ParticipantView(
        id=pid, name=pid.capitalize(), side=side, is_hero=hero,
        pools=_ro({"telo": 5, "duse": 5, "vliv": 5} if hero else {}), sudba=None if hero else 8, maxima=_ro({}),
        ohrozeni=2, vyhody=0, armour=armour, armour_by_source=(("armour", armour),) if armour else (),
        abilities=tuple(abilities), ability_options=_ro({k: _ro(v) for k, v in (options or {}).items()}),
        equipment=items, conditions=tuple(conditions), jizvy=(), levels=_ro({}), charakteristika=None, covers=None,
        suspicion=(), zone=zone, count=count, traits=tuple(traits), events=tuple(events))


def action(actor: str | None = "hrdina", *, skill: str | None = None, means: str | None = None, pool: str = "telo",
           threat_pool: str | None = None, targets: tuple = (), label: str | None = None, area: bool = False,
           manoeuvres: tuple = (), kind: str = "action", activated: tuple = ()) -> ActionView:
    return ActionView(actor=actor, kind=kind, label=label, skill=skill, means=means, pool=pool,
                      threat_pool=threat_pool or pool, targets=tuple(t.id for t in targets),
                      target_states=tuple(targets), area=area, area_via="rozsahle" if area else None, zone=None,
                      group=None, group_size=None, manoeuvres=tuple(manoeuvres), from_="initiative", round=1,
                      step="s", long=None, activated=tuple(activated))


def manoeuvre(name: str, *, index: int = 0, occurrence: int = 0, free_by: dict | None = None) -> ManoeuvreView:
    return ManoeuvreView(name=name, index=index, occurrence=occurrence, free_by=_ro(free_by or {}))


def exhaustion(payer: ParticipantView, protected: tuple, act: ActionView | None, *, winner: ParticipantView | None = None,
               kind: str = "protect", armour: int = 0) -> tuple[ExhaustionView, BreakdownEntry]:
    entries = tuple(BreakdownEntry(protected=p.id, ohrozeni=payer.ohrozeni,
                                   armour=(("armour", -armour),) if armour else (),
                                   cost=max(0, payer.ohrozeni - armour)) for p in protected)
    view = ExhaustionView(payer=payer, protected=tuple(protected), vs=winner.id if winner else "test", winner=winner,
                          action=act, pool=act.threat_pool if act else "telo", kind=kind, rule="R-EXH-1",
                          breakdown=entries)
    return view, entries[0]


def jizva(pool: str = "telo", tags: tuple = (), gain: int = 2) -> JizvaView:
    return JizvaView(name="Šrám", pool=pool, gain=gain, purpose="exhaust", tags=tuple(tags))


def event(name: str, **data: Any) -> EventView:
    return EventView(name=name, round=1, data=_ro(data))


PARAMS: dict = {}
