"""Shared logic of the abilities that make rozsáhle free for plošné actions (CS-RANGE-3, RULES.md §3)."""

from __future__ import annotations

from typing import Any

HRSTKA = 12
TIGHT_HRSTKA = "sevřená hrstka"


def group_ok(action: Any, participants: Any = None) -> tuple[bool, str]:
    """Is the area at most a sevřená hrstka? Checked against `group`, else the zone's members."""
    group = getattr(action.spec, "group", None)
    if group is not None:
        if group == TIGHT_HRSTKA:
            return True, ""
        return False, f"skupina je „{group}“, schopnost působí nejvýše na sevřenou hrstku"
    if action.targets and getattr(action.spec, "zone", None):
        size = sum(getattr(t, "count", 1) for t in (participants or []))
        if participants is not None and size <= HRSTKA:
            return True, ""
        return False, f"v zóně je {size} bytostí, víc než hrstka"
    return False, "akce neuvádí `group` ani `zone`, nelze ověřit, že jde o sevřenou hrstku"


def free_area_rozsahle(ability: str, title: str, means: tuple[str, ...], participant: Any, action: Any,
                       manoeuvre: str, members: Any = None) -> dict | None:
    """Free rozsáhle for a plošná action of the right kind on at most a sevřená hrstka."""
    if manoeuvre != "rozsahle" or not participant.has_ability(ability):
        return None
    spec = action.spec
    if not getattr(spec, "area", False):
        return {"free": False, "rule": "CS-RANGE-3",
                "note": f"{participant.name}: {title} platí jen pro plošnou akci, ne pro vybrané cíle"}
    if getattr(spec, "means", None) not in means:
        return {"free": False, "rule": "CS-RANGE-3",
                "note": f"{participant.name}: {title} platí jen pro {'/'.join(means)}"}
    ok, why = group_ok(action, members)
    if not ok:
        return {"free": False, "rule": "CS-RANGE-4", "note": f"{participant.name}: {title} nelze použít — {why}"}
    return {"free": True, "via": title, "key": ability, "per": None}
