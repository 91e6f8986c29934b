"""Rodová zbraň (`rodova-zbran`): the hero chose one weapon type (the required key `weapon`); one
obrana per round is free on an action with a weapon of that type (RULES.md §3, R-ABIL-FREE, R-MAN-2).

"An action with that weapon type" is read from what a scenario says of an action (the format has no
key naming the weapon an action uses): its `means` (or, without `means`, its `skill`) must be one the
weapon type is used for — `melee` for a meč, `shooting` for a luk, `melee` or `throwing` for a sekera —
and the hero must hold a working item whose name contains the type (`rodová sekera` is a `sekera`),
or hold no weapon of any listed type at all (the scenario does not model his weapons, so the chosen
one is taken to be the one used; the reading of Cit pro zbraň). A verbal duel, a magic action, a
reaction to a výzva without `means` get no free obrana.
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import _, field_of, held_item

ID = "rodova-zbran"
TITLE = "Rodová zbraň"
# Without `means`, an action of these skills is a fight, a shot, a throw (as for zběhlost, R-ABIL-ZB).
SKILL_MEANS = {"bezny-boj-zblizka": "melee", "bezna-strelba": "shooting", "bezny-vrh": "throwing"}


def weapons() -> tuple[str, ...]:
    """The weapon types `weapon` may name (those of Cit pro zbraň, Dobrá muška and Děsivá přesnost;
    imported when needed: a run whose participants list no ability imports none of their modules)."""
    from .nadani import MELEE, MISSILE, THROWING

    return tuple(dict.fromkeys(MELEE + MISSILE + THROWING))


def means_of(weapon: str) -> tuple[str, ...]:
    """The `means` an action with a weapon of this type has (a sekera is swung or thrown)."""
    from .nadani import MELEE, MISSILE, THROWING

    return tuple(m for m, kinds in (("melee", MELEE), ("shooting", MISSILE), ("throwing", THROWING))
                 if weapon in kinds)


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": TITLE, "kind": "ability", "rules": ["R-ABIL-FREE", "R-MAN-2"], "api_version": 2,
            "description": "jednou za kolo manévr obrana zdarma v akci se zvoleným typem zbraně"}


def _options(participant: Any) -> Any:
    getter = getattr(participant, "ability", None)
    if callable(getter):
        return getter(ID)
    if not participant.has_ability(ID):
        return None
    return dict((getattr(participant, "ability_options", None) or {}).get(ID) or {})


def check(participant: Any, weapon: str, action: Any) -> str | None:
    """None when `action` is one with the chosen weapon type, else the condition that failed and
    what would be allowed (shown in the transcript)."""
    allowed = means_of(weapon)
    means = field_of(action, "means") or SKILL_MEANS.get(field_of(action, "skill"))
    if means not in allowed:
        return _("only on an action with his {weapon} (means {allowed}); this action's means is {means}").format(
            weapon=weapon, allowed=" / ".join(allowed), means=means or _("not given"))
    if held_item(participant, weapon) is None and any(held_item(participant, k) for k in weapons()):
        return _("holds no {weapon}: the free obrana is only on an action with his {weapon}").format(weapon=weapon)
    return None


@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre):
    if manoeuvre != "obrana":
        return None
    opts = _options(participant)
    if opts is None:
        return None
    weapon = opts.get("weapon")
    why = check(participant, weapon, action) if weapon else _("no weapon type chosen (the key `weapon`)")
    if why is not None:
        return {"free": False, "rule": "R-ABIL-FREE",
                "note": _("{name}: {ability} — {text}").format(name=participant.name, ability=TITLE, text=why)}
    return {"free": True, "via": TITLE, "key": ID, "per": "round"}
