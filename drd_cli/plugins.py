"""Plugin discovery: entry points of the group `drd_cli.plugins` (the name is the plugin id).

A fresh plugin manager per run holds only the enabled plugins; a disabled plugin is never
imported. Built-ins are found exactly like third-party plugins. Local plugin folders load only
when a group profile lists them or `--plugins-dir` names them.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import DrdError, ScenarioError

GROUP = "drd_cli.plugins"


class PluginError(DrdError):
    """A plugin could not be loaded (exit 1): says which and how to disable it."""

    exit_code = 1


@dataclass
class PluginEntry:
    """A plugin known from metadata (not necessarily imported)."""

    id: str
    value: str                 # "module:attr" or a file path for local plugins
    dist: str | None = None
    version: str | None = None
    local: bool = False
    entry_point: Any = None


@dataclass
class Discovered:
    entries: dict[str, PluginEntry] = field(default_factory=dict)


def discover(plugin_dirs: list[str] | tuple[str, ...] = ()) -> dict[str, PluginEntry]:
    """Every plugin id from installed entry points and the given local folders, sorted by id.

    Two distributions providing one id is an error naming both.
    """
    from importlib.metadata import entry_points

    found: dict[str, PluginEntry] = {}
    for ep in entry_points(group=GROUP):
        dist = getattr(ep, "dist", None)
        name = dist.metadata["Name"] if dist is not None else None
        version = dist.version if dist is not None else None
        prev = found.get(ep.name)
        if prev is not None:
            if prev.dist == name and prev.value == ep.value:
                continue   # the same distribution seen twice on sys.path
            raise PluginError(f"two plugins use the id {ep.name!r}: {prev.dist or prev.value} and "
                              f"{name or ep.value}; uninstall one of them")
        found[ep.name] = PluginEntry(ep.name, ep.value, name, version, entry_point=ep)
    for folder in plugin_dirs:
        for path in sorted(Path(folder).glob("*.py")):
            pid = path.stem.replace("_", "-")
            if pid in found:
                raise PluginError(f"two plugins use the id {pid!r}: {found[pid].dist or found[pid].value} and {path}")
            found[pid] = PluginEntry(pid, str(path), None, None, local=True)
    return dict(sorted(found.items()))


def default_states(entries: dict[str, PluginEntry]) -> dict[str, bool]:
    """Known plugin ids with their default on/off: built-ins per RULES.md, others on when installed."""
    from .rules import BUILTIN_PLUGINS

    states = {pid: BUILTIN_PLUGINS.get(pid, True) for pid in entries}
    for pid, on in BUILTIN_PLUGINS.items():
        states.setdefault(pid, on)
    return states


def load_plugin(entry: PluginEntry) -> Any:
    """Imports one plugin module; an import failure names it and how to disable it."""
    try:
        if entry.local:
            name = f"drd_local_plugins.{entry.id.replace('-', '_')}"
            spec = importlib.util.spec_from_file_location(name, entry.value)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
            return module
        return entry.entry_point.load()
    except Exception as exc:  # any failure inside third-party code becomes a clear message
        raise PluginError(f"plugin {entry.id!r} ({entry.dist or entry.value}) failed to load: "
                          f"{type(exc).__name__}: {exc}",
                          hint=f"disable it with `--disable {entry.id}` or in your group profile") from None


def build_manager(enabled: frozenset[str] | set[str], entries: dict[str, PluginEntry]):
    """A fresh pluggy manager holding only the enabled plugins, registered in id order."""
    import pluggy

    from . import hookspecs

    pm = pluggy.PluginManager("drd")
    pm.add_hookspecs(hookspecs)
    for pid in sorted(enabled):
        entry = entries.get(pid)
        if entry is None:
            raise ScenarioError(f"plugin {pid!r} is enabled but not installed",
                                hint="install it, or disable it in the group profile or the scenario's rules:")
        pm.register(load_plugin(entry), name=pid)
    if os.environ.get("DRD_TRACE_PLUGINS"):
        def before(hook_name, impls, kwargs):
            print(f"[drd] {hook_name} → {', '.join(pm.get_name(i.plugin) for i in impls)}", file=sys.stderr)

        def after(outcome, hook_name, impls, kwargs):
            return None

        pm.add_hookcall_monitoring(before, after)
    return pm
