"""Rodová zbraň (`rodova-zbran`): one free obrana per round (RULES.md §3, R-MAN-2)."""

from __future__ import annotations

from drd_cli.plugin import hookimpl

ID = "rodova-zbran"


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Rodová zbraň", "kind": "ability", "rules": ["R-MAN-2"],
            "description": "jednou za kolo manévr obrana zdarma"}


@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre):
    if manoeuvre != "obrana" or not participant.has_ability(ID):
        return None
    return {"free": True, "via": "Rodová zbraň", "key": ID, "per": "round"}
