"""Discovery: the plugins known from metadata (installed entry points of the group
`drd_cli.plugins`, and local plugin folders), without importing any of them."""

from __future__ import annotations

import importlib
import os
import re
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .errors import GROUP, PluginError, disable_hint
from ..i18n import _


AUTOLOAD_ENV = "DRD_DISABLE_PLUGIN_AUTOLOAD"
"""Set (to any non-empty value) to discover only drd's own entry points, like pytest's
PYTEST_DISABLE_PLUGIN_AUTOLOAD: plugin folders (`--plugins-dir`, `plugin_dirs:`) and plugin objects
given to the test fixture still count. Our test suite sets it for every test (tests/conftest.py)."""


OWN_DISTRIBUTION = "drd-cli"
"""drd's own distribution: the plugins it ships are the built-ins (listed in every result's rules)."""


@dataclass
class PluginEntry:
    """A plugin known from metadata (not necessarily imported)."""

    id: str
    value: str                 # "module:attr" or a file path for local plugins
    dist: str | None = None
    version: str | None = None
    local: bool = False
    entry_point: Any = None
    module: Any = None         # set once loaded (entries are per run, so is this cache)
    builtin: bool = False      # shipped in drd's own distribution
    info: dict | None = None   # drd_plugin_info(), once read (checked: a mapping, a known API version)
    # Other third-party plugins found under the same id and not chosen between (a clash): listed
    # by `drd plugins`, an error for a run that uses this id (docs/plugins.md "Ids and clashes").
    rivals: list["PluginEntry"] = field(default_factory=list)
    # The built-in plugin of the same id that this third-party one replaces (what the user
    # installed wins), or None.
    replaces: "PluginEntry | None" = None
    # The plugins of the same id that a choice (`--use ID=DISTRIBUTION`, a group's `use:`) set aside.
    passed_over: list["PluginEntry"] = field(default_factory=list)

    @property
    def where(self) -> str:
        """The distribution (or file) the plugin comes from, for messages."""
        return self.dist or self.value


@dataclass
class Discovered:
    entries: dict[str, PluginEntry] = field(default_factory=dict)


def _norm(name: str | None) -> str:
    return re.sub(r"[-_.]+", "-", name or "").lower()


def autoload_disabled() -> bool:
    """True when DRD_DISABLE_PLUGIN_AUTOLOAD is set: only drd's own entry points are discovered."""
    return bool(os.environ.get(AUTOLOAD_ENV))


def discover(plugin_dirs: list[str] | tuple[str, ...] = (), use: Mapping[str, str] | None = None,
             where: Mapping[str, Any] | None = None) -> dict[str, PluginEntry]:
    """Every plugin id from installed entry points and the given local folders, sorted by id.

    Nothing is imported. Two plugins with one id do not stop the discovery (docs/plugins.md "Ids
    and clashes", `choice.settle`): a third-party plugin replaces a built-in one of its id (it is
    the entry, the built-in its `replaces`); two third-party ones are a clash (one is the entry,
    the others its `rivals`), refused only by a run that uses the id, unless `use` ({id:
    distribution}: `--use`, a group's `use:`; `where` locates each choice for its error) picks one.
    `drd plugins` lists all of them. Under DRD_DISABLE_PLUGIN_AUTOLOAD only drd's own
    distribution's entry points are looked at.
    """
    from .choice import check_choices, settle

    found = _installed_entries(autoload_disabled())
    for folder in plugin_dirs:
        for path in sorted(Path(folder).glob("*.py")):
            pid = path.stem.replace("_", "-")
            entry = PluginEntry(pid, str(path), None, None, local=True)
            if pid in found:
                found[pid].rivals.append(entry)
                continue
            found[pid] = entry
    use = dict(use or {})
    check_choices(found, use, where or {})
    for pid, entry in found.items():
        if entry.rivals or pid in use:
            found[pid] = settle([entry, *entry.rivals], use.get(pid))
    return dict(sorted(found.items()))


# The installed plugins' entries as `discover` first makes them (before local folders), per list of
# installed entry points (`_installed()`, kept with them) and DRD_DISABLE_PLUGIN_AUTOLOAD: never
# handed out, only copied (`_fresh`), so every run still gets its own entries.
_TEMPLATES: dict[tuple[int, bool], tuple[Any, dict[str, PluginEntry]]] = {}


def _installed_entries(only_own: bool) -> dict[str, PluginEntry]:
    """{id: fresh PluginEntry} of the installed entry points (drd's own only, with `only_own`);
    a second distribution claiming an id is that entry's rival."""
    rows = _installed()
    key = (id(rows), only_own)
    got = _TEMPLATES.get(key)
    if got is None or got[0] is not rows:
        found: dict[str, PluginEntry] = {}
        for ep_name, value, name, version, ep in rows:
            own = _norm(name) == OWN_DISTRIBUTION
            if only_own and not own:
                continue
            entry = PluginEntry(ep_name, value, name, version, entry_point=ep, builtin=own)
            prev = found.get(ep_name)
            if prev is not None:
                if prev.dist == name and prev.value == value:
                    continue   # the same distribution seen twice on sys.path
                prev.rivals.append(entry)
                continue
            found[ep_name] = entry
        if len(_TEMPLATES) > 4:
            _TEMPLATES.clear()
        got = _TEMPLATES[key] = (rows, found)
    return {pid: _fresh(entry) for pid, entry in got[1].items()}


def _fresh(template: PluginEntry) -> PluginEntry:
    """A copy of a template entry (not loaded: no module, no info) with copies of its rivals."""
    entry = object.__new__(PluginEntry)
    entry.__dict__.update(template.__dict__)
    entry.rivals = [_fresh(r) for r in template.rivals]
    return entry


def id_clash(entry: PluginEntry) -> PluginError:
    """The error for a run using an id that two third-party plugins claim (choice.clash_error)."""
    from .choice import clash_error

    return clash_error(entry)


_INSTALLED: dict[tuple, list[tuple]] = {}


def _installed() -> list[tuple]:
    """(id, value, distribution name, version, entry point) of every installed entry point of
    the group, read once per process and `sys.path` (fresh PluginEntry objects are made from it
    on every `discover`); between runs the list is kept in the user's cache while nothing on
    `sys.path` changed (`entry_cache`: then the entry point is None and `_load_entry_point`
    imports the value itself)."""
    key = tuple(sys.path)
    known = _INSTALLED.get(key)
    if known is None:
        from .. import entry_cache

        known = entry_cache.rows(GROUP, _read_installed)
        _INSTALLED.clear()      # only the current sys.path is worth keeping
        _INSTALLED[key] = known
    return known


def _read_installed() -> list[tuple]:
    """The rows of `_installed`, from `importlib.metadata`; each distribution's METADATA is
    parsed once, not twice per plugin."""
    from importlib.metadata import entry_points

    meta: dict[Any, tuple] = {}
    known = []
    for ep in entry_points(group=GROUP):
        dist = getattr(ep, "dist", None)
        where = getattr(dist, "_path", None) or id(dist)
        if where not in meta:
            meta[where] = (dist.metadata["Name"], dist.version) if dist is not None else (None, None)
        known.append((ep.name, ep.value, *meta[where], ep))
    return known


# An entry point's value, as importlib.metadata reads it: "module.path:attr.path [extras]".
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


def _load_value(entry: PluginEntry) -> Any:
    """What an entry point known only from the cache names: its module imported, then its
    attributes, as `EntryPoint.load` does (an unusual value is left to EntryPoint itself)."""
    match = _VALUE.match(entry.value)
    if match is None:
        from importlib.metadata import EntryPoint

        return EntryPoint(entry.id, entry.value, GROUP).load()
    obj = importlib.import_module(match.group("module"))
    for attr in filter(None, (match.group("attr") or "").split(".")):
        obj = getattr(obj, attr)
    return obj


def add_untrusted(entries: dict[str, PluginEntry], untrusted: Any) -> None:
    """Adds the plugins of an untrusted group profile (drd_cli.trust.Untrusted) to `entries` as known
    ids whose module is empty: nothing of them is imported."""
    if untrusted is None:
        return
    for pid, path in untrusted.ids.items():
        if pid not in entries:
            entries[pid] = PluginEntry(pid, path, None, None, local=True,
                                       module=types.ModuleType(f"drd_untrusted_{pid.replace('-', '_')}"))
