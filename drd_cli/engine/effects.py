"""Applying effects (§1.5): conditions, items, Ohrožení and pools, to whom an effect lands."""

from __future__ import annotations

from typing import Any

from ..scenario.models import ConditionSpec, Effect, JizvaSpec, as_list, effects_of
from . import events as ev
from .events import Event
from .context import Ctx, StepRecord
from .state import Condition, Working


# --------------------------------------------------------------------------- effects

def apply_effects(ctx: Ctx, w: Working, rec: StepRecord, spec: Any, default_to: list[str], *, actor: str | None,
                  payer: str | None = None, lstive: bool = False, source: str | Event = "",
                  rule: str = "§1.5", spare: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Applies an effect (mapping or list) to `default_to` (or its `to`); returns who it landed on.
    `spare`: participants an item's `to` names who exhausted against it (they are left out)."""
    landed: list[str] = []
    for eff in effects_of(spec):
        to = _recipients(eff, default_to, actor, payer, w)
        if eff.to is not None:
            # SCENARIO-FORMAT §4.1: an effect lands on each target reached; `to` only sends it
            # elsewhere, so an item with `to` lands once per default recipient (twice for two targets).
            to = [pid for pid in to if pid not in spare] * max(1, len(default_to))
        for pid in to:
            _apply_one(ctx, w, rec, eff, pid, lstive, source, rule)
            if pid not in landed:
                landed.append(pid)
    return landed


def _recipients(eff: Effect, default_to: list[str], actor: str | None, payer: str | None, w: Working) -> list[str]:
    if eff.to is None:
        return list(default_to)
    out = []
    for t in as_list(eff.to):
        pid = actor if t == "actor" else payer if t == "payer" else t
        if pid and pid in w and pid not in out:
            out.append(pid)
    return out


def _apply_one(ctx: Ctx, w: Working, rec: StepRecord, eff: Effect, pid: str, lstive: bool, source: str | Event,
               rule: str) -> None:
    p = w[pid]
    mult = 2 if lstive else 1
    what: list[str | Event] = []
    if eff.ohrozeni:
        before = p.ohrozeni
        p.ohrozeni = max(0, p.ohrozeni + eff.ohrozeni * mult)
        what.append(f"Ohrožení {before}→{p.ohrozeni}")
    if eff.vyhody:
        before = p.vyhody
        p.vyhody = max(0, p.vyhody + eff.vyhody * mult)
        what.append(f"Výhody {before}→{p.vyhody}")
    if eff.jizva is not None:
        name = eff.jizva.name if isinstance(eff.jizva, JizvaSpec) else eff.jizva
        p.jizvy.append(name)
        what.append(f"Jizva „{name}“")
    if eff.condition is not None:
        c = eff.condition
        if isinstance(c, ConditionSpec):
            cond = Condition(c.name, list(c.forbids), list(c.demanding),
                             None if c.rounds is None else ctx.round.number + c.rounds)
        else:
            cond = Condition(c)
        p.conditions = [x for x in p.conditions if x.name != cond.name] + [cond]
        what.append(ev.phrase("effect.condition", name=cond.name))
    for name in as_list(eff.remove_condition):
        if any(c.name == name for c in p.conditions):
            p.conditions = [c for c in p.conditions if c.name != name]
            what.append(ev.phrase("effect.no_longer", name=name))
    for name in as_list(eff.lose):
        if p.has_item(name):
            p.equipment = [i for i in p.equipment if i.name != name]
            what.append(ev.phrase("effect.loses", item=name))
        else:
            rec.event("CS-PREP-2", "effect.nothing_to_lose", name=ev.who(p.id), item=name)
    for name in as_list(eff.disable):
        if name not in p.disabled:
            p.disabled.append(name)
            what.append(ev.phrase("effect.cannot_use", item=name))
    for name in as_list(eff.suspicion):
        if name not in p.suspicion:
            p.suspicion.append(name)
            what.append(ev.phrase("effect.suspicion", item=ev.who(name) if name in w else name))
    if eff.note:
        what.append(eff.note)
    if what:
        rec.event(rule, "effect.applied", name=ev.who(p.id), what=ev.joined(what), source=source)


def has_effect(spec: Any) -> bool:
    return bool(effects_of(spec))
