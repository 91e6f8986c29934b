"""Whom an action is aimed at and whom it threatens (R-THR, CS-MULTI-2, CS-IND-1)."""

from __future__ import annotations

from typing import Any

from ..errors import DocPath, Message
from ..i18n import N_
from ..scenario.models import ActionSpec, as_list, effects_of
from .context import Ctx, violation
from .state import Working



def action_targets(ctx: Ctx, w: Working, spec: ActionSpec, actor: str, path: DocPath, *,
                   counter: bool = False) -> list[str]:
    """Who the action is aimed at: `targets`, or everyone in `zone` for a plošná action (CS-RANGE)."""
    targets = [t for t in as_list(spec.targets)]
    names = [m if isinstance(m, str) else m.name for m in spec.manoeuvres]
    rozsahle = any(n in ("rozsahle", "rozsáhle") for n in names)
    if spec.area:
        via = spec.area_via or ("rozsahle" if rozsahle else None)
        if via is None:
            raise violation(Message(N_("a plošná action needs rozsáhle, or `area_via: environment` or `skill`")), "CS-RANGE-2",
                            path + ("area",))
        if via == "rozsahle" and not rozsahle:
            raise violation(Message(N_("area_via: rozsahle needs the manoeuvre rozsáhle")), "CS-RANGE-2", path + ("area_via",))
        if spec.zone is not None:
            members = [pid for pid in w.in_conflict() if w.peek(pid).zone == spec.zone and pid != actor]
            if targets and sorted(targets) != sorted(members):
                raise violation(Message(N_("a plošná action hits everyone in zone {zone} ({members}), not a chosen few"),
                    zone=repr(spec.zone), members=", ".join(members)), "CS-RANGE-2", path + ("targets",))
            targets = members
    elif spec.zone is not None and not targets:
        raise violation(Message(N_("`zone` makes an action plošná: add `area: true`")), "CS-RANGE-2", path + ("zone",))
    if len(targets) > 1 and not (rozsahle or spec.area):
        raise violation(Message(N_("{name}'s action has {n} targets: more than one needs rozsáhle or a plošná action"),
            name=w.peek(actor).name, n=len(targets)), "CS-RANGE-1", path + ("targets",))
    for i, t in enumerate(targets):
        if t == actor and not spec.area:
            raise violation(Message(N_("an action does not target its own actor (use self_effect)")), "R-THR",
                            path + ("targets", i))
    return targets


def _named_in_to(effect: Any) -> set[str]:
    """Participant ids a harming part of an effect sends itself to (`to`, without actor/payer)."""
    out: set[str] = set()
    for eff in effects_of(effect):
        if eff.to is not None and not _only_helps(eff):
            out.update(t for t in as_list(eff.to) if t not in ("actor", "payer"))
    return out


def _only_helps(eff: Any) -> bool:
    """R-THR: an effect item that only helps its recipients (lower Ohrožení, Výhody gained, a
    condition removed) and harms nothing (no Ohrožení up, Výhody lost, Jizva, condition imposed,
    item lost, ability disabled). A note or suspicion alone says nothing, so it does not count as help."""
    harms = ((eff.ohrozeni or 0) > 0 or (eff.vyhody or 0) < 0 or eff.jizva is not None
             or eff.condition is not None or bool(as_list(eff.lose)) or bool(as_list(eff.disable)))
    helps = (eff.ohrozeni or 0) < 0 or (eff.vyhody or 0) > 0 or bool(as_list(eff.remove_condition))
    return helps and not harms


def threatened_targets(effect: Any, targets: list[str], actor: str | None) -> set[str]:
    """R-THR: the targets an action's `effect` threatens. A target is threatened unless every part
    of the effect that would land on it only helps; an action that declares no effect threatens all
    its targets (the scenario did not say it helps)."""
    items = effects_of(effect)
    if not items:
        return set(targets)
    out: set[str] = set()
    for eff in items:
        if _only_helps(eff):
            continue
        if eff.to is None:
            out.update(targets)
        else:
            out.update(t for t in as_list(eff.to) if t in targets and t != actor)
    return out
