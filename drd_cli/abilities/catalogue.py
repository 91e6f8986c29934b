"""The ability catalogue: {ability id: card} from the plugins' `drd_plugin_info()["ability"]`
(docs/abilities.md is generated from it)."""

from __future__ import annotations

from typing import Any, Iterable


def info_of(plugin: Any, pid: str = "") -> dict:
    """A plugin's `drd_plugin_info()` as `plugins.plugin_info` reads it (once per language), or an
    empty dict when it has none or it fails: its own bug is reported where drd reads its parameters."""
    from ..plugins import PluginError, plugin_info

    try:
        return plugin_info(pid, plugin)
    except PluginError:
        return {}


def catalogue(plugins: Iterable[tuple[str, Any]]) -> dict[str, dict]:
    """{ability id: card} of the given (id, plugin object) pairs, sorted by id.

    A plugin of kind "ability" gives its own card (`info["ability"]`); a plugin may also supply
    cards for abilities whose plugins carry none (`info["catalogue"]`: {ability id: card}, or a
    function giving it, read only here; the `schopnosti` plugin does so for the six older
    modules). An ability plugin without any card gets a minimal one.
    """
    infos = {pid: info_of(obj, pid) for pid, obj in plugins}
    extra: dict[str, dict] = {}
    for pid in sorted(infos):
        supplied = infos[pid].get("catalogue")
        for aid, card in ((supplied() if callable(supplied) else supplied) or {}).items():
            extra.setdefault(aid, dict(card))
    out: dict[str, dict] = {}
    for pid, info in infos.items():
        if info.get("kind") != "ability":
            continue
        card = info.get("ability") or extra.get(pid) or {
            "name": info.get("title") or pid, "owner": None, "family": None, "class": None, "scope": {},
            "activation": None, "mechanic": info.get("description") or "", "status": "shipped", "keys": {}}
        out[pid] = dict(card, id=pid, rules=list(info.get("rules") or []))
    return dict(sorted(out.items()))


def installed_catalogue(only: str | None = None) -> dict[str, dict]:
    """The catalogue of every installed plugin (imports them: for `drd abilities` and the docs).

    `only`: an ability id — import just its plugin (and `schopnosti`, which carries the cards of
    the older modules); the result is {} when that gives no card for it (`drd abilities ID`)."""
    from ..plugins import PluginError, discover, load_plugin

    entries = discover()
    if only is not None:
        try:
            got = catalogue([(pid, load_plugin(entries[pid])) for pid in dict.fromkeys((only, "schopnosti"))
                             if pid in entries])
        except PluginError:
            return {}
        return {only: got[only]} if only in got else {}
    pairs = []
    for pid, entry in entries.items():
        try:
            pairs.append((pid, load_plugin(entry)))
        except PluginError:
            continue
    return catalogue(pairs)
