"""Déšť střel (`dest-strel`): Lovec: plošná střelba s municí po ruce, rozsáhle zdarma (RULES.md §3, CS-RANGE-3)."""

from __future__ import annotations

from drd_cli.plugin import hookimpl

from ._abilities import free_area_rozsahle

ID = "dest-strel"
TITLE = "Déšť střel"


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": TITLE, "kind": "ability", "rules": ["CS-RANGE-3", "CS-RANGE-4"], "api_version": 2,
            "description": "Lovec: plošná střelba s municí po ruce, rozsáhle zdarma"}


@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre):
    return free_area_rozsahle(ID, TITLE, ("shooting",), participant, action, manoeuvre,
                              getattr(action, "target_states", None))
