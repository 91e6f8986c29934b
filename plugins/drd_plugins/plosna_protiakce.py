"""Protiakce plošná z principu (`plosna-protiakce`, CS-OPT-AREA), an optional rule."""

from __future__ import annotations

from drd_cli.hookspecs import hookimpl


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Protiakce plošná z principu", "kind": "rule area", "rules": ["CS-OPT-AREA"],
            "description": "plošná protiakce vtáhne do střetu nové bytosti, které na ni reagují jako na akci"}
