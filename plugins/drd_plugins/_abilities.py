"""Shared logic of the abilities that make rozsáhle free for plošné actions (CS-RANGE-3, RULES.md §3)."""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import translator

_, ngettext = translator()      # drd's own catalog

HRSTKA = 12
TIGHT_HRSTKA = "sevřená hrstka"


def group_ok(action: Any, participants: Any = None) -> tuple[bool, str]:
    """Is the area at most a sevřená hrstka? Checked against `group`, else the zone's members."""
    group = getattr(action.spec, "group", None)
    if group is not None:
        if group == TIGHT_HRSTKA:
            # The scenario's `group` decides (RULES §3: "its `group` (or its zone's members)"): a hrstka
            # is only "about 12" (CS-RANGE-4), so a larger zone count is a warning, not a refusal.
            if action.targets and getattr(action.spec, "zone", None) and participants is not None:
                size = sum(getattr(t, "count", 1) for t in participants)
                if size > HRSTKA:
                    return True, _("the zone holds {size} beings, more than a hrstka; the `group` given "
                                   "(sevřená hrstka) decides").format(size=size)
            return True, ""
        return False, _("the group is „{group}“, the ability works on a sevřená hrstka at most").format(group=group)
    if action.targets and getattr(action.spec, "zone", None):
        size = sum(getattr(t, "count", 1) for t in (participants or []))
        if participants is not None and size <= HRSTKA:
            return True, ""
        return False, _("the zone holds {size} beings, more than a hrstka").format(size=size)
    return False, _("the action gives neither `group` nor `zone`: cannot check it is a sevřená hrstka")


def free_area_rozsahle(ability: str, title: str, means: tuple[str, ...], participant: Any, action: Any,
                       manoeuvre: str, members: Any = None) -> dict | None:
    """Free rozsáhle for a plošná action of the right kind on at most a sevřená hrstka."""
    if manoeuvre != "rozsahle" or not participant.has_ability(ability):
        return None
    spec = action.spec
    if not getattr(spec, "area", False):
        return {"free": False, "rule": "CS-RANGE-3",
                "note": _("{name}: {title} applies only to a plošná action, not to chosen targets").format(
                    name=participant.name, title=title)}
    if getattr(spec, "means", None) not in means:
        return {"free": False, "rule": "CS-RANGE-3",
                "note": _("{name}: {title} applies only to {means}").format(
                    name=participant.name, title=title, means="/".join(means))}
    ok, why = group_ok(action, members)
    if ok and why:
        return {"free": True, "via": title, "key": ability, "per": None, "rule": "CS-RANGE-4",
                "note": _("{name}: {title} — {why}").format(name=participant.name, title=title, why=why)}
    if not ok:
        return {"free": False, "rule": "CS-RANGE-4", "note": _("{name}: {title} cannot be used — {why}").format(
                    name=participant.name, title=title, why=why)}
    return {"free": True, "via": title, "key": ability, "per": None}
