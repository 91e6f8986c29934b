"""Smršť dýk (`smrst-dyk`): Kejklíř: plošné vrhání, rozsáhle zdarma (RULES.md §3, CS-RANGE-3)."""

from __future__ import annotations

from drd_cli.plugin import hookimpl

from ._abilities import free_area_rozsahle

ID = "smrst-dyk"
TITLE = "Smršť dýk"


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": TITLE, "kind": "ability", "rules": ["CS-RANGE-3", "CS-RANGE-4"], "api_version": 2,
            "description": "Kejklíř: plošné vrhání, rozsáhle zdarma"}


@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre):
    return free_area_rozsahle(ID, TITLE, ("throwing",), participant, action, manoeuvre,
                              getattr(action, "target_states", None))
