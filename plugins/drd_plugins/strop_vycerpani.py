"""House rule `strop-vycerpani` (off by default): exhausting costs at most `strop_vycerpani`
points per protected participant (R-EXH-1, CS-FOR-2), whatever the Ohrožení."""

from __future__ import annotations

from drd_cli.plugin import hookimpl

ID = "strop-vycerpani"


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Strop vyčerpání", "kind": "house rule", "rules": ["R-EXH-1", "CS-FOR-2"], "api_version": 2,
            "enabled_by_default": False,
            "description": "vyčerpání stojí nejvýše strop_vycerpani bodů za každého chráněného",
            "params": {"strop_vycerpani": {"default": 3, "type": "int", "rule": "R-EXH-1",
                                           "help": "the most one exhaustion costs per protected participant"}}}


@hookimpl
def drd_exhaustion_cap(exhaustion, entry, params):
    return max(0, int(params["strop_vycerpani"]))
