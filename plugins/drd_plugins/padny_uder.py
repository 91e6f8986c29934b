"""Pádný úder (`padny-uder`): the target's armour discount against his bodily attacks is 1 lower
(RULES.md §3, R-EXH-3)."""

from __future__ import annotations

from drd_cli.plugin import hookimpl

ID = "padny-uder"


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Pádný úder", "kind": "ability", "rules": ["R-EXH-3"],
            "description": "zbroj cíle proti jeho tělesným útokům sníží cenu vyčerpání o 1 méně"}


@hookimpl
def drd_armour_adjustment(protected, attacker, action):
    if attacker is None or not attacker.has_ability(ID) or protected.armour <= 0:
        return None
    return -1
