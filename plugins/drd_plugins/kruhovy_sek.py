"""Kruhový sek (`kruhovy-sek`): Bojovník: útok zblízka plošně na nejvýše sevřenou hrstku, rozsáhle zdarma (RULES.md §3, CS-RANGE-3)."""

from __future__ import annotations

from drd_cli.plugin import hookimpl

from ._abilities import free_area_rozsahle

ID = "kruhovy-sek"
TITLE = "Kruhový sek"


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": TITLE, "kind": "ability", "rules": ["CS-RANGE-3", "CS-RANGE-4"], "api_version": 2,
            "description": "Bojovník: útok zblízka plošně na nejvýše sevřenou hrstku, rozsáhle zdarma"}


@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre):
    return free_area_rozsahle(ID, TITLE, ("melee",), participant, action, manoeuvre,
                              getattr(action, "target_states", None))
