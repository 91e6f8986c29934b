"""Plugin discovery: entry points of the group `drd_cli.plugins` (the name is the plugin id).

A run's plugin manager holds only the enabled plugins (the previous run's, when it would hold
the same unchanged ones: `run_manager`); a disabled plugin is never imported. Built-ins are
found exactly like third-party plugins. Local plugin folders load only when a group profile
lists them or `--plugins-dir` names them.

The lifecycle (docs/plugins.md "Lifecycle"): discover (metadata only; DRD_DISABLE_PLUGIN_AUTOLOAD
keeps only drd's own entry points) → settle the profile (a plugin's own on/off default is read
from its `drd_plugin_info()` only when no layer says whether it is on) → load (API version
checked) → run (a hook that raises becomes `hook_failed`'s error naming the plugin) → the result's
`rules` names the built-ins in effect and the other plugins that acted (`plugins_acted`).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from . import builtin_abilities
from .errors import DrdError, ScenarioError
from .i18n import N_, _, language
from .citations import RULES_LAYERS

GROUP = "drd_cli.plugins"

AUTOLOAD_ENV = "DRD_DISABLE_PLUGIN_AUTOLOAD"
"""Set (to any non-empty value) to discover only drd's own entry points, like pytest's
PYTEST_DISABLE_PLUGIN_AUTOLOAD: plugin folders (`--plugins-dir`, `plugin_dirs:`) and plugin objects
given to the test fixture still count. Our test suite sets it for every test (tests/conftest.py)."""

OWN_DISTRIBUTION = "drd-cli"
"""drd's own distribution: the plugins it ships are the built-ins (listed in every result's rules)."""


class PluginError(DrdError):
    """A plugin could not be loaded or failed while running (exit 1): says which and how to disable it."""

    exit_code = 1


def disable_hint(pid: str) -> str:
    """How to switch a plugin off (the hint of every error a plugin causes)."""
    return _("disable it with `--disable {id}` or in your group profile").format(id=pid)


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
    # Other plugins found under the same id (a clash): listed by `drd plugins`, an error for a run
    # that uses this id.
    rivals: list["PluginEntry"] = field(default_factory=list)

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


def discover(plugin_dirs: list[str] | tuple[str, ...] = ()) -> dict[str, PluginEntry]:
    """Every plugin id from installed entry points and the given local folders, sorted by id.

    Nothing is imported. Two plugins with one id do not stop the discovery: one is the entry (drd's
    own first, then installed before local, then by name), the others are its `rivals`; `load_plugin` refuses
    such an id (naming both), `drd plugins` lists all of them. Under DRD_DISABLE_PLUGIN_AUTOLOAD
    only drd's own distribution's entry points are looked at.
    """
    found = _installed_entries(autoload_disabled())
    for folder in plugin_dirs:
        for path in sorted(Path(folder).glob("*.py")):
            pid = path.stem.replace("_", "-")
            entry = PluginEntry(pid, str(path), None, None, local=True)
            if pid in found:
                found[pid].rivals.append(entry)
                continue
            found[pid] = entry
    for pid, entry in found.items():
        if entry.rivals:
            # Which of them is "the" entry must not depend on sys.path order: drd's own first,
            # then installed before local, then by name.
            claimants = sorted([entry, *entry.rivals], key=lambda e: (not e.builtin, e.local, e.where))
            for e in claimants:
                e.rivals = []
            claimants[0].rivals = claimants[1:]
            found[pid] = claimants[0]
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
    """The error for a run using an id that two plugins claim."""
    rival = entry.rivals[0]
    return PluginError(_("two plugins use the id {id}: {first} and {second}; uninstall one of them").format(
        id=repr(entry.id), first=entry.where, second=rival.where), hint=disable_hint(entry.id))


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
        from . import entry_cache

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


def hook_failed(plugin_id: str, hook: str, exc: BaseException, entries: dict | None = None) -> PluginError:
    """The error for a plugin whose hook (or step type, or `drd_plugin_info`) raised `exc`.

    Names the plugin, its distribution (from `entries`, when given), the hook, the exception's type
    and message (Python's, as they are), and how to disable the plugin. Exit 1, like every
    PluginError: the file is fine, the plugin is not (docs/cli.md "Exit codes").
    """
    entry = (entries or {}).get(plugin_id)
    where = getattr(entry, "where", None) or _where(plugin_id)
    text = (_("plugin {id} ({where}) failed in {hook}: {error}") if where else
            _("plugin {id} failed in {hook}: {error}"))
    message = text.format(id=repr(plugin_id), where=where, hook=hook,
                          error=f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
    err = PluginError(message, hint=_("this is a bug in the plugin, not in drd or your file; {how} (DRD_DEBUG=1 "
                                      "shows the traceback)").format(how=disable_hint(plugin_id)))
    err.plugin, err.hook, err.original = plugin_id, hook, exc
    if os.environ.get("DRD_DEBUG"):
        # The plugin's author needs the traceback; the error itself stays a clear message.
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    return err


def _where(plugin_id: str) -> str | None:
    """The distribution (or local file) of a plugin id when no entries are at hand (for messages only)."""
    from importlib.metadata import entry_points

    local = sys.modules.get(f"drd_local_plugins.{plugin_id.replace('-', '_')}")
    if local is not None and getattr(local, "__file__", None):
        return local.__file__
    try:
        for ep in entry_points(group=GROUP, name=plugin_id):
            dist = getattr(ep, "dist", None)
            if dist is not None:
                return dist.metadata["Name"]
    except Exception:  # noqa: BLE001 - only wording a message; never fail while reporting a failure
        return None
    return None


def plugin_info(pid: str, plugin: Any, entry: PluginEntry | None = None,
                entries: dict | None = None) -> dict:
    """`drd_plugin_info()` of a loaded plugin, checked: a mapping, an API version drd provides.

    A plugin without the hook has `{}`. Raises PluginError naming the plugin when the hook fails,
    returns something else than a mapping, or asks for a newer API than `drd_cli.plugin.API_VERSION`.
    The answer is kept on `entry` (read once per run).
    """
    if entry is not None and entry.info is not None:
        return entry.info
    key = (id(plugin), language())
    got = _INFOS.get(key)
    if got is not None and got[0] is plugin:
        # Read and checked before in this process, in this language (`drd check` of many files).
        if entry is not None:
            entry.info = dict(got[1])
        return dict(got[1])
    fn = getattr(plugin, "drd_plugin_info", None)
    info: Any = {}
    if fn is not None:
        try:
            info = fn()
        except Exception as exc:  # noqa: BLE001 - third-party code: report, never a traceback
            raise hook_failed(pid, "drd_plugin_info", exc, entries or ({pid: entry} if entry else None)) from None
        if info is None:
            info = {}
        if not isinstance(info, Mapping):
            raise PluginError(_("plugin {id}: drd_plugin_info() must return a mapping, not {kind}").format(
                id=repr(pid), kind=type(info).__name__), hint=_("fix the plugin, or disable it with `--disable {id}`")
                .format(id=pid))
    check_api_version(pid, info, entry)
    _INFOS[key] = (plugin, dict(info))
    if entry is not None:
        entry.info = dict(info)
    return dict(info)


# Per process: a plugin object's checked info per language, and what an entry point loaded
# (with the module it came from, so a module replaced in sys.modules is loaded anew).
_INFOS: dict[tuple[int, str], tuple[Any, dict]] = {}
_LOADED: dict[tuple[str, str | None], tuple[Any, Any]] = {}


def _load_entry_point(entry: PluginEntry) -> Any:
    key = (entry.value, entry.dist)
    modname = entry.value.split(":", 1)[0].strip()
    got = _LOADED.get(key)
    if got is not None and sys.modules.get(modname) is got[0]:
        return got[1]
    obj = entry.entry_point.load() if entry.entry_point is not None else _load_value(entry)
    _LOADED[key] = (sys.modules.get(modname), obj)
    return obj


def foreign_code_loaded() -> bool:
    """Has this process loaded a plugin that drd does not ship (an installed third-party entry
    point or a plugin folder's file)? (The console script then ends the ordinary way: cli.app.)"""
    if any(dist is not None and _norm(dist) != OWN_DISTRIBUTION for _value, dist in _LOADED):
        return True
    return any(name.startswith("drd_local_plugins.") for name in list(sys.modules))


def check_api_version(pid: str, info: Mapping, entry: PluginEntry | None = None) -> int:
    """The API version a plugin needs (`api_version`, absent = 1); one above ours is a PluginError."""
    from .plugin import API_VERSION

    need = info.get("api_version", 1)
    where = entry.where if entry is not None else None
    if isinstance(need, bool) or not isinstance(need, int) or need < 1:
        raise PluginError(_("plugin {id}: api_version must be a whole number ≥ 1, not {value}").format(
            id=repr(pid), value=repr(need)), hint=_("fix the plugin, or disable it with `--disable {id}`").format(id=pid))
    if need > API_VERSION:
        text = (_("plugin {id} ({where}) needs the plugin API version {need}; this drd provides version {have}")
                if where else _("plugin {id} needs the plugin API version {need}; this drd provides version {have}"))
        raise PluginError(text.format(id=repr(pid), where=where, need=need, have=API_VERSION),
                          hint=_("update drd, or use a version of the plugin made for API {have}; or {how}").format(
                              have=API_VERSION, how=disable_hint(pid)))
    return need


class DefaultStates(Mapping):
    """{plugin id: on by default} of the known plugins (read lazily).

    Built-in ids (drd_cli.rules.BUILTIN_PLUGINS) have their default from there, no import. Any
    other plugin's default is its ``drd_plugin_info()["enabled_by_default"]`` (absent = True), read
    the first time the id is looked up — which imports the plugin. `rules.build_profile` looks up
    only the ids that no layer enables or disables, so the plugins imported for this are at most
    those that today's rules import anyway (an installed plugin nobody switches off is on), and a
    plugin switched off with `--disable` / `disable:` is never imported for it. `extra` are plugin
    objects given to the test fixture (they take precedence over installed ones of the same id).
    With `tolerant` (for `drd rules`), a plugin that fails to load counts as on and is noted in
    `broken`.
    """

    def __init__(self, entries: dict[str, PluginEntry], extra: dict[str, Any] | None = None,
                 tolerant: bool = False):
        from .rules import BUILTIN_PLUGINS

        self.entries = entries
        self.extra = dict(extra or {})
        self.tolerant = tolerant
        self.broken: dict[str, str] = {}
        self._builtin = BUILTIN_PLUGINS
        self._ids = sorted(set(entries) | set(BUILTIN_PLUGINS) | set(self.extra))
        self._idset = set(self._ids)
        self._known: dict[str, bool] = {}

    def __getitem__(self, pid: str) -> bool:
        got = self._known.get(pid)
        if got is None:
            if pid not in self._idset:
                raise KeyError(pid)
            got = self._known[pid] = self._read(pid)
        return got

    def __contains__(self, pid: object) -> bool:
        return pid in self._idset

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def is_builtin(self, pid: str) -> bool:
        """A plugin drd ships: a built-in id (BUILTIN_PLUGINS) or an entry point of drd's own distribution."""
        return _ships(pid, self.entries, self.extra)

    def _read(self, pid: str) -> bool:
        if pid in self._builtin:
            return self._builtin[pid]
        entry = self.entries.get(pid)
        if pid not in self.extra and entry is not None and _own_ability(pid, entry):
            return True          # drd_cli.builtin_abilities: on by default, known without importing it
        try:
            if pid in self.extra:
                info = plugin_info(pid, self.extra[pid])
            else:
                entry = self.entries[pid]
                load_plugin(entry)
                info = entry.info or {}
            return default_flag(pid, info)
        except PluginError as exc:
            if not self.tolerant:
                raise
            self.broken[pid] = _plain(exc)
            return True


def default_flag(pid: str, info: Mapping) -> bool:
    """`enabled_by_default` of a plugin's info (absent = True); anything but true/false is a PluginError."""
    flag = info.get("enabled_by_default", True)
    if not isinstance(flag, bool):
        raise PluginError(_("plugin {id}: enabled_by_default must be true or false, not {value}").format(
            id=repr(pid), value=repr(flag)), hint=_("fix the plugin, or disable it with `--disable {id}`").format(id=pid))
    return flag


def default_states(entries: dict[str, PluginEntry], extra: dict[str, Any] | None = None,
                   tolerant: bool = False) -> DefaultStates:
    """Known plugin ids with their default on/off (see DefaultStates: read only when needed)."""
    return DefaultStates(entries, extra, tolerant)


def third_party(entries: dict[str, PluginEntry], extra: dict[str, Any] | None = None) -> frozenset[str]:
    """The ids of plugins that drd does not ship (listed in a result only when they acted)."""
    extra = extra or {}
    return frozenset(pid for pid in set(entries) | set(extra) if not _ships(pid, entries, extra))


def _ships(pid: str, entries: dict[str, PluginEntry], extra: Mapping[str, Any]) -> bool:
    """Does drd ship plugin `pid`: a built-in id (BUILTIN_PLUGINS), or an entry point of drd's own
    distribution that no plugin object given to the test fixture (`extra`) stands in for?"""
    from .rules import BUILTIN_PLUGINS

    entry = entries.get(pid)
    return pid in BUILTIN_PLUGINS or (entry is not None and entry.builtin and pid not in extra)


def load_plugin(entry: PluginEntry, *, clash_ok: bool = False) -> Any:
    """Imports one plugin module and checks its info (API version); a failure names it and how to disable it.

    An id that two plugins claim is refused (naming both) unless `clash_ok` (`drd plugins` lists them).
    """
    if entry.rivals and not clash_ok:
        raise id_clash(entry)
    if entry.module is not None:
        return entry.module
    try:
        if entry.local:
            name = f"drd_local_plugins.{entry.id.replace('-', '_')}"
            spec = importlib.util.spec_from_file_location(name, entry.value)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        else:
            module = _load_entry_point(entry)
    except Exception as exc:  # any failure inside third-party code becomes a clear message
        # The exception's own text is the plugin's (Python's), quoted as it is.
        raise PluginError(_("plugin {id} ({where}) failed to load: {error}").format(
                              id=repr(entry.id), where=entry.where, error=f"{type(exc).__name__}: {exc}"),
                          hint=disable_hint(entry.id)) from None
    plugin_info(entry.id, module, entry)
    entry.module = module
    return module


def dormant(pid: str, entry: PluginEntry | None, listed: set[str] | frozenset[str] | None) -> bool:
    """A plugin this run leaves unimported: one of drd's own ability plugins
    (`drd_cli.builtin_abilities`) that no participant lists (`listed`: the abilities the scenario
    names; None: any may act, so none sleeps). It could not act in this run; its default (on) and
    the names of its parameters are known without it. A second plugin with its id is no reason to
    sleep: loading it gives the clash's error."""
    if listed is None or entry is None or pid in listed:
        return False
    return _own_ability(pid, entry)


def _own_ability(pid: str, entry: PluginEntry) -> bool:
    return pid in builtin_abilities.ABILITY_PLUGINS and entry.builtin and not entry.local and not entry.rivals


def build_manager(enabled: frozenset[str] | set[str], entries: dict[str, PluginEntry], *,
                  listed: set[str] | frozenset[str] | None = None):
    """A fresh pluggy manager holding only the enabled plugins, registered in id order.

    `listed` (the ability ids a scenario's participants list, or None for "any"): an enabled
    plugin of kind "ability" none of whose abilities is listed cannot act in that run
    (engine.hooks `focus`), so it is loaded (its info is checked) but not registered; it is kept
    in `pm.drd_idle` ({id: plugin}) for the catalogue's cards. A plugin that provides step
    types is always registered (its steps do not depend on who lists what).
    """
    from . import hookspecs

    pm = _manager_class()("drd")
    pm.add_hookspecs(hookspecs)
    idle: dict[str, Any] = {}
    loaded, sleeping = _enabled_plugins(enabled, entries, listed)
    for pid, plugin in loaded:
        if listed is not None and _idle_ability(pid, plugin, entries[pid], listed):
            idle[pid] = plugin
            continue
        pm.register(plugin, name=pid)
    pm.drd_idle = idle
    pm.drd_dormant = sleeping     # not even imported (`dormant`)
    # The façade (engine.hooks) names a failing plugin's distribution from these (hook_failed).
    pm.drd_entries = entries
    if os.environ.get("DRD_TRACE_PLUGINS"):
        def before(hook_name, impls, kwargs):
            print(f"[drd] {hook_name} → {', '.join(pm.get_name(i.plugin) for i in impls)}", file=sys.stderr)

        def after(outcome, hook_name, impls, kwargs):
            return None

        pm.add_hookcall_monitoring(before, after)
    return pm


def _enabled_plugins(enabled: frozenset[str] | set[str], entries: dict[str, PluginEntry],
                     listed: set[str] | frozenset[str] | None) -> tuple[list[tuple[str, Any]], frozenset[str]]:
    """([(id, loaded plugin)] in id order, the ids left unimported as `dormant`) of the enabled
    plugins; an enabled id that is not installed is a ScenarioError."""
    loaded: list[tuple[str, Any]] = []
    sleeping: set[str] = set()
    for pid in sorted(enabled):
        entry = entries.get(pid)
        if entry is None:
            raise ScenarioError(_("plugin {id} is enabled but not installed").format(id=repr(pid)),
                                hint=_("install it, or disable it in the group profile or the scenario's rules:"))
        if dormant(pid, entry, listed):
            sleeping.add(pid)
        else:
            loaded.append((pid, load_plugin(entry)))
    return loaded, frozenset(sleeping)


def run_manager(enabled: frozenset[str] | set[str], entries: dict[str, PluginEntry], *,
                listed: set[str] | frozenset[str] | None = None, params: Mapping | None = None):
    """`build_manager`'s manager for one run of api.setup_rules, reused from the previous run
    when that one registered the same plugin objects, unchanged, for the same abilities listed
    and the same parameters (`params`, the profile's: a Setup kept by its caller while another run
    is set up sees the same `drd_params` values it was made with).

    `drd check` of a folder builds a manager per file; most files switch on the same plugins, and
    registering them again (reading every attribute of each) was most of that. The manager holds
    no state of a run: what a run sets on it (`drd_entries`, `drd_idle`, `drd_params`) is set anew
    each time, and the engine's own state is in its `Hooks` façade. A plugin whose attributes
    changed since (a function replaced at run time), a plugin that is not a module, or
    DRD_TRACE_PLUGINS makes a fresh one. Every enabled plugin is loaded here as build_manager
    loads it (same order, same errors; those `dormant` in this run not at all).
    """
    global _SHARED
    if os.environ.get("DRD_TRACE_PLUGINS"):
        return build_manager(enabled, entries, listed=listed)
    # The dormant ones are not imported: the same in a reused manager (same key).
    objs = [plugin for _pid, plugin in _enabled_plugins(enabled, entries, listed)[0]]
    try:
        key = (language(), autoload_disabled(), frozenset(enabled), None if listed is None else frozenset(listed),
               tuple(sorted((params or {}).items())))
        hash(key)
    except TypeError:       # a parameter value that is not hashable: nothing to compare with
        return build_manager(enabled, entries, listed=listed)
    got = _SHARED
    if got is not None and got[0] == key and len(got[1]) == len(objs) \
            and all(a is b for a, b in zip(got[1], objs)) and _unchanged(got[2]):
        pm = got[3]
        pm.drd_idle = dict(got[4])
        pm.drd_entries = entries
        return pm
    pm = build_manager(enabled, entries, listed=listed)
    registered = pm.get_plugins()
    if all(isinstance(p, type(os)) for p in registered):
        # What the registered modules held: their attributes (pluggy reads them all).
        state = tuple((p, dict(vars(p))) for p in registered)
        _SHARED = (key, objs, state, pm, dict(pm.drd_idle))
    else:
        _SHARED = None
    return pm


def _unchanged(state: tuple) -> bool:
    """Every registered module still has exactly the attributes (the same objects) it had."""
    for module, attrs in state:
        now = vars(module)
        if len(now) != len(attrs):
            return False
        for name, value in attrs.items():
            if now.get(name, attrs) is not value:
                return False
    return True


# (key, enabled plugin objects, registered modules' attributes, manager, idle) of the last run_manager.
_SHARED: tuple | None = None

_MANAGER: Any = None


def _manager_class() -> Any:
    """pluggy's PluginManager, remembering which attributes of a plugin object are hook
    implementations, and of drd's hookspecs module which are specifications: `drd check` of a
    folder builds a manager per file, and reading every attribute of the same modules again was
    a third of its time (pluggy's documented overrides)."""
    global _MANAGER
    if _MANAGER is None:
        import pluggy

        class Manager(pluggy.PluginManager):
            _opts: dict[tuple[str, int, str, int], tuple[Any, Any, Any]] = {}

            def _remembered(self, kind: str, obj: Any, name: str, read: Any) -> Any:
                # The attribute itself is part of the key: a module's function replaced at run
                # time (a test's monkeypatch) is read anew. The object is kept with its answer,
                # so its id cannot be reused meanwhile.
                own = getattr(obj, "__dict__", {}).get(name)
                key = (kind, id(obj), name, id(own))
                got = self._opts.get(key)
                if got is None or got[0] is not obj or got[1] is not own:
                    got = self._opts[key] = (obj, own, read(obj, name))
                return got[2]

            def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
                return self._remembered("impl", plugin, name, super().parse_hookimpl_opts)

            def parse_hookspec_opts(self, module_or_class: Any, name: str) -> Any:
                return self._remembered("spec", module_or_class, name, super().parse_hookspec_opts)

            # (id of the namespace, name) → (namespace, function, opts, pluggy's HookSpec)
            _specs: dict[tuple[int, str], tuple[Any, Any, Any, Any]] = {}

            def add_hookspecs(self, module_or_class: Any) -> None:
                # A fresh manager (nothing registered, no hooks yet) reuses the HookSpec objects
                # an earlier manager made of the same, unchanged specification functions: making
                # them (reading every signature) was most of a manager's cost per `drd check` file.
                # Anything else (a hook already there, a historic one) is pluggy's own way.
                if self.get_plugins() or "spec" not in getattr(pluggy.HookCaller, "__slots__", ()):
                    return super().add_hookspecs(module_or_class)
                found = []
                for name in dir(module_or_class):
                    opts = self.parse_hookspec_opts(module_or_class, name)
                    if opts is None:
                        continue
                    if opts.get("historic") or getattr(self.hook, name, None) is not None:
                        return super().add_hookspecs(module_or_class)
                    found.append((name, opts))
                for name, opts in found:
                    function = getattr(module_or_class, name)
                    key = (id(module_or_class), name)
                    got = self._specs.get(key)
                    if got is not None and got[0] is module_or_class and got[1] is function and got[2] is opts:
                        caller = pluggy.HookCaller(name, self._hookexec)
                        caller.spec = got[3]
                    else:
                        caller = pluggy.HookCaller(name, self._hookexec, module_or_class, opts)
                        self._specs[key] = (module_or_class, function, opts, caller.spec)
                    setattr(self.hook, name, caller)
                if not found:
                    return super().add_hookspecs(module_or_class)     # pluggy's error
                return None

        _MANAGER = Manager
    return _MANAGER


def _idle_ability(pid: str, plugin: Any, entry: PluginEntry, listed: set[str] | frozenset[str]) -> bool:
    """An ability plugin none of whose abilities `listed` names, and without step types."""
    if getattr(plugin, "drd_step_types", None) is not None:
        return False
    info = plugin_info(pid, plugin, entry)
    if str(info.get("kind", "")) != "ability":
        return False
    return not set(info.get("abilities") or (pid,)) & set(listed)


def declared_params(pid: str, plugin: Any) -> dict:
    """{name: ParamSpec} that plugin `pid` declares in `drd_plugin_info()["params"]`.

    A malformed declaration is a PluginError naming the plugin (it is the plugin's bug).
    """
    key = (id(plugin), pid, language())
    got = _DECLARED.get(key)
    if got is None or got[0] is not plugin:
        # Once per plugin object and language: a `drd check` of many files asks for every run.
        got = _DECLARED[key] = (plugin, _declared_params(pid, plugin))
    return dict(got[1])


_DECLARED: dict[tuple[int, str, str], tuple[Any, dict]] = {}


def _declared_params(pid: str, plugin: Any) -> dict:
    from .rules import param_spec_from

    info_fn = getattr(plugin, "drd_plugin_info", None)
    if info_fn is None:
        return {}
    try:
        info = info_fn() or {}
    except Exception as exc:  # noqa: BLE001 - third-party code: report, never a traceback
        raise hook_failed(pid, "drd_plugin_info", exc) from None
    try:
        decls = info.get("params") or {}
        return {name: param_spec_from(pid, name, decl) for name, decl in sorted(decls.items())}
    except Exception as exc:  # noqa: BLE001 - third-party code: report, never a traceback
        raise PluginError(_("plugin {id} declares its parameters wrongly: {error}").format(
                              id=repr(pid), error=f"{type(exc).__name__}: {exc}"),
                          hint=_("fix the plugin, or disable it with `--disable {id}`").format(id=pid)) from None


class ParamSource:
    """Parameters declared by plugins, for `rules.build_profile`.

    `for_enabled(ids)` imports the enabled plugins (they are imported for the run anyway).
    `find_inactive(name)` is asked only for a parameter no enabled plugin declares: it imports the
    plugins that are off, one by one in id order, until one declares it — the only time a disabled
    plugin is imported, and only because a profile sets one of its parameters. Plugins that fail to
    import are skipped there (the parameter is then unknown). `extra` adds plugin objects that are
    not installed (the pytest fixture).
    """

    def __init__(self, entries: dict[str, PluginEntry], extra: dict[str, Any] | None = None,
                 tolerant: bool = False, *, listed: set[str] | frozenset[str] | None = None,
                 wanted: set[str] | frozenset[str] = frozenset()):
        self.entries = entries
        self.extra = dict(extra or {})
        self.tolerant = tolerant
        self.enabled: frozenset[str] = frozenset()
        self.broken: dict[str, str] = {}
        # A run's abilities (None: any) and the parameters its layers set: an enabled plugin that
        # sleeps in this run (`dormant`) is imported for its parameters only when one of them is
        # set, or declared by another plugin too (the clash is then reported as without sleep).
        self.listed = listed
        self.wanted = frozenset(wanted)

    def _module(self, pid: str) -> Any:
        if pid in self.extra:
            return self.extra[pid]
        entry = self.entries.get(pid)
        return load_plugin(entry) if entry is not None else None

    def for_enabled(self, enabled: frozenset) -> dict:
        self.enabled = enabled
        declared: dict[str, dict] = {}
        asleep: list[str] = []
        for pid in sorted(enabled):
            if pid not in self.extra and dormant(pid, self.entries.get(pid), self.listed):
                asleep.append(pid)
                continue
            self._declare(pid, declared)
        if asleep:
            named = self.wanted.union(*(specs for specs in declared.values()))
            for pid in asleep:
                if named & set(builtin_abilities.ABILITY_PLUGINS[pid]):
                    self._declare(pid, declared)
        out: dict = {}
        owner: dict[str, str] = {}
        for pid in sorted(declared):
            _claim(out, owner, pid, declared[pid], N_("plugins {first} and {second} both declare the parameter {name}"))
        return out

    def _declare(self, pid: str, declared: dict[str, dict]) -> None:
        """Puts the parameters plugin `pid` declares into `declared` (a broken one is noted instead
        when tolerant)."""
        try:
            plugin = self._module(pid)
            declared[pid] = declared_params(pid, plugin) if plugin is not None else {}
        except PluginError as exc:
            if not self.tolerant:
                raise
            self.broken[pid] = _plain(exc)

    def all_params(self) -> dict:
        """Every parameter any loadable plugin declares, enabled or not (for editing a group)."""
        out: dict = {}
        for pid in sorted(set(self.entries) | set(self.extra)):
            try:
                plugin = self._module(pid)
                specs = declared_params(pid, plugin) if plugin is not None else {}
            except PluginError as exc:
                self.broken[pid] = _plain(exc)
                continue
            for name, spec in specs.items():
                out.setdefault(name, spec)
        return out

    def find_inactive(self, name: str) -> Any:
        for pid in sorted(set(self.entries) | set(self.extra)):
            if pid in self.enabled:
                continue
            try:
                plugin = self._module(pid)
                specs = declared_params(pid, plugin) if plugin is not None else {}
            except PluginError:
                continue
            if name in specs:
                return specs[name]
        return None


def _plain(exc: DrdError) -> str:
    """An error's messages and hints without a file location (it is about a plugin, not a file)."""
    return "; ".join(p.message + (f" → {p.hint}" if p.hint else "") for p in exc.problems)


def check_plugin_uses(scenario: Any, profile: Any, pm: Any = None) -> None:
    """Abilities a scenario names must come from a known plugin; one used explicitly must be on.

    * abilities listed by a participant (`abilities:`, with their own keys) or enabled by an item
      (`enables:`): `drd_cli.abilities.check_uses` (an unknown ability or key is exit 2 at
      file:line:col with "did you mean"; `pm` holds the enabled plugins whose cards declare the keys);
    * a manoeuvre made free `via:` an ability whose plugin is off → exit 1 naming the plugin and how
      to enable it. An ability that is merely listed while its plugin is off does nothing (that is
      how a group profile switches an ability off).
    """
    from .abilities import check_uses
    from .errors import Problem, RuleViolation

    check_uses(scenario, profile, pm)
    known = set(profile.known_plugins)
    problems: list[Problem] = []
    for path, man in _manoeuvres(scenario, ()):
        via = man.via
        if via in known and via not in profile.enabled:
            problems.append(Problem(
                _("manoeuvre {name} is made free via the ability {via}, whose plugin {plugin} is disabled").format(
                    name=repr(man.name), via=repr(via), plugin=via),
                rule=RULES_LAYERS, path=path + ("via",),
                hint=_("enable it: `rules: {{enable: [{plugin}]}}`, `--enable {plugin}` or `drd rules enable {plugin} "
                       "--group G`").format(plugin=via)))
    if problems:
        raise RuleViolation(problems)


def _manoeuvres(node: Any, path: tuple):
    """(document path, ManoeuvreSpec) of every manoeuvre given as a mapping with `via`."""
    from pydantic import BaseModel

    # Imported once per walk, not once per node (a battle has ~150,000 nodes).
    return _walk_manoeuvres(node, path, BaseModel)


def _walk_manoeuvres(node: Any, path: tuple, BaseModel: type):  # noqa: N803
    if isinstance(node, BaseModel):
        if type(node).__name__ == "ManoeuvreSpec":
            if getattr(node, "via", None):
                yield path, node
            return
        for name, key in _manoeuvre_fields(type(node), BaseModel):
            value = getattr(node, name, None)
            if value is not None and not isinstance(value, (str, int, float)):   # a scalar holds no manoeuvre
                yield from _walk_manoeuvres(value, path + (key,), BaseModel)
    elif isinstance(node, (list, tuple)):
        for i, item in enumerate(node):
            yield from _walk_manoeuvres(item, path + (i,), BaseModel)
    elif isinstance(node, dict):
        for key, item in node.items():
            yield from _walk_manoeuvres(item, path + (key,), BaseModel)


_MANOEUVRE_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}


def _manoeuvre_fields(cls: type, BaseModel: type) -> tuple[tuple[str, str], ...]:  # noqa: N803
    """(attribute, document key) of the fields of model `cls` whose values may hold a manoeuvre,
    read from the annotations once per class: a battle's 500 participants and their pools are not
    walked (an annotation drd cannot read, `Any` or a plain `dict`, counts as "may")."""
    got = _MANOEUVRE_FIELDS.get(cls)
    if got is None:
        got = _MANOEUVRE_FIELDS[cls] = tuple(
            (name, field.alias or name) for name, field in cls.model_fields.items()
            if _may_hold_manoeuvre(field.annotation, BaseModel, set()))
    return got


def _may_hold_manoeuvre(ann: Any, BaseModel: type, seen: set) -> bool:  # noqa: N803
    import typing

    if isinstance(ann, type) and issubclass(ann, BaseModel):
        if ann.__name__ == "ManoeuvreSpec":
            return True
        if ann in seen:
            return False       # a cycle: whatever it holds is found through its first visit
        seen.add(ann)
        return any(_may_hold_manoeuvre(f.annotation, BaseModel, seen) for f in ann.model_fields.values())
    if typing.get_origin(ann) is typing.Literal:
        return False
    args = typing.get_args(ann)
    if args:
        return any(_may_hold_manoeuvre(a, BaseModel, seen) for a in args if a is not Ellipsis)
    return ann not in (str, int, float, bool, type(None))


# --------------------------------------------------------------------------- plugin step types

def step_types_of(pm: Any) -> dict:
    """{step key: StepType} of the plugins registered on `pm`.

    Two enabled plugins providing one step key is a PluginError naming both (as for parameters),
    and so is a plugin whose `drd_step_types` fails (its bug, not the file's).
    """
    out: dict = {}
    owner: dict[str, str] = {}
    if pm is None:
        return out
    impls = sorted(pm.hook.drd_step_types.get_hookimpls(), key=lambda i: pm.get_name(i.plugin))
    for impl in impls:
        pid = pm.get_name(impl.plugin)
        try:
            types = impl.function() or {}
        except Exception as exc:  # noqa: BLE001 - third-party code: report, never a traceback
            raise hook_failed(pid, "drd_step_types", exc, getattr(pm, "drd_entries", None)) from None
        _claim(out, owner, pid, types, N_("plugins {first} and {second} both provide the step type {name}"))
    return out


def step_type_owner(hooks: Any, kind: str) -> str | None:
    """The id of the enabled plugin providing step type `kind` (None: none, or no manager)."""
    pm = getattr(hooks, "pm", None)
    if pm is None:
        return None
    for impl in pm.hook.drd_step_types.get_hookimpls():
        if kind in (_module_step_types(impl.plugin) or {}):
            return pm.get_name(impl.plugin)
    return None


def run_plugin_step(hooks: Any, kind: str, step_type: Any, engine: Any, spec: Any, choices: Any, path: tuple) -> Any:
    """Calls a plugin step type's `resolve`; an exception from it (not a DrdError, which is the
    plugin's message to the user) is `hook_failed`'s error naming the plugin that provides `kind`."""
    try:
        return step_type.resolve(engine, spec, choices, path)
    except DrdError:
        raise
    except Exception as exc:  # noqa: BLE001 - third-party code: report, never a traceback
        pid = step_type_owner(hooks, kind) or kind
        err = hook_failed(pid, f"drd_step_types: {kind}.resolve", exc,
                          getattr(getattr(hooks, "pm", None), "drd_entries", None))
        for problem in err.problems:
            problem.path = tuple(path)      # the step it failed on, as file:line:col
        raise err from None


def plugins_acted(hooks: Any, steps: list | None = None) -> set[str]:
    """The plugins that changed something in a run: the façade's `hooks.acted` (the ids whose
    answers changed something) and the providers of the plugin step types the run resolved.

    `RulesProfile.to_result` lists these (beside the built-ins in effect) in the result's `rules`.
    """
    acted = set(getattr(hooks, "acted", None) or ())
    kinds = {s.get("kind") for s in steps or () if isinstance(s, dict)} & set(getattr(hooks, "step_types", None) or ())
    for kind in sorted(kinds):
        owner = step_type_owner(hooks, kind)
        if owner is not None:
            acted.add(owner)
    return acted


def _claim(out: dict, owner: dict, pid: str, items: dict, clash: str) -> None:
    """Adds `pid`'s `items` to `out`; a name another plugin already gave is a PluginError naming both
    (`clash`: its message, untranslated; put into words only then, as it is asked for every plugin)."""
    for name, value in items.items():
        if name in owner:
            raise PluginError(_(clash).format(first=repr(owner[name]), second=repr(pid), name=repr(name)),
                              hint=_("disable one of them (`--disable {id}`)").format(id=pid))
        owner[name] = pid
        out[name] = value


def _module_step_types(plugin: Any) -> dict:
    fn = getattr(plugin, "drd_step_types", None)
    if fn is None:
        return {}
    try:
        return dict(fn() or {})
    except Exception:  # noqa: BLE001 - only used to word an error message
        return {}


def _off_providers(entries: dict[str, PluginEntry] | None, enabled: frozenset | set,
                   extra: dict[str, Any] | None = None) -> dict[str, str]:
    """{step key: plugin id} of plugins that are installed (or given in `extra`) but off.

    This imports disabled plugins, which is done only to word the error about a step type that
    no enabled plugin provides (the same exception as for parameters, see ParamSource).
    Plugins that fail to import are skipped.
    """
    out: dict[str, str] = {}
    for pid in sorted(set(entries or {}) | set(extra or {})):
        if pid in enabled:
            continue
        if extra and pid in extra:
            plugin = extra[pid]
        else:
            try:
                plugin = load_plugin(entries[pid])
            except PluginError:
                continue
        for kind in _module_step_types(plugin):
            out.setdefault(kind, pid)
    return out


def enable_hint(pid: str) -> str:
    """The three ways to switch a plugin on (command line, group profile, scenario)."""
    return _("enable it with `--enable {id}`, with `enable: [{id}]` in the group profile (`drd rules enable {id} "
             "--group G`), or with `rules: {{enable: [{id}]}}` in the scenario").format(id=pid)


def missing_step_type(kind: str, path: tuple, known: dict | set, *,
                      entries: dict[str, PluginEntry] | None = None, enabled: frozenset | set = frozenset(),
                      extra: dict[str, Any] | None = None) -> DrdError:
    """The error for a step key that no enabled plugin provides (`known`: the enabled ones' keys).

    * an installed plugin that is off provides it → RuleViolation (exit 1) naming it and how to
      enable it; likewise a built-in step type (`hide` → ukryvani) whose plugin is not installed;
    * nobody provides it → ScenarioError (exit 2) "unknown step type", with "did you mean" over
      every step key drd knows. `entries=None`: installed plugins are not looked at.
    """
    from .errors import RuleViolation
    from .rules import BUILTIN_STEP_TYPES
    from .scenario.models import core_step_keys

    off: dict[str, str] = {}
    builtin = BUILTIN_STEP_TYPES.get(kind)
    if builtin is not None and entries is not None and builtin in entries and builtin not in enabled:
        off = {kind: builtin}      # no need to import it to know
    elif entries is not None or extra:
        off = _off_providers(entries, enabled, extra)
    if kind in off:
        pid = off[kind]
        return RuleViolation(_("step type {kind} is provided by the plugin {id}, which is disabled").format(
                                 kind=repr(kind), id=pid),
                             rule=RULES_LAYERS, path=path, hint=enable_hint(pid))
    if builtin is not None:
        return RuleViolation(_("step type {kind} is provided by the built-in plugin {id}, which is not installed or "
                               "not enabled").format(kind=repr(kind), id=builtin), rule=RULES_LAYERS, path=path,
                             hint=_("install drd with its built-in plugins (`drd plugins` lists what is installed); "
                                    "{how}").format(how=enable_hint(builtin)))
    from .scenario.validate import _did_you_mean

    names = list(dict.fromkeys(core_step_keys() + sorted(known) + sorted(off) + sorted(BUILTIN_STEP_TYPES)))
    hint = _did_you_mean(kind, names)
    listed = ", ".join(dict.fromkeys(list(_core_kinds()) + sorted(known)))
    hint = (hint + " " if hint else "") + _("a step is one of: {listed}; a plugin's step type needs the plugin "
                                            "installed and enabled (`drd plugins`)").format(listed=listed)
    return ScenarioError(_("unknown step type {kind}").format(kind=repr(kind)), path=path, hint=hint)


def _core_kinds() -> tuple[str, ...]:
    from .scenario.models import CORE_STEP_KINDS

    return CORE_STEP_KINDS


def step_doc_path(raw: Any, ri: int, si: int) -> tuple:
    """("rounds", ri, "steps", si) spelled as in the document (`kola`/`kroky` when written so)."""
    def key(node: Any, *names: str) -> str:
        if hasattr(node, "keys"):
            for name in names:
                if name in node:
                    return name
        return names[0]

    rk = key(raw, "rounds", "kola")
    try:
        rnd = raw[rk][ri]
    except (KeyError, IndexError, TypeError):
        rnd = None
    return (rk, ri, key(rnd, "steps", "kroky"), si)


def check_plugin_steps(scenario: Any, step_types: dict, *, source: Any = None, filename: str = "<scenario>",
                       raw: Any = None, entries: dict[str, PluginEntry] | None = None,
                       enabled: frozenset | set = frozenset(), extra: dict[str, Any] | None = None) -> None:
    """Checks every plugin step of `scenario` against the step types of the enabled plugins.

    A step whose key an enabled plugin provides is validated with that plugin's model (the
    validated spec is kept on the step for the engine); errors are exit 2 at file:line:col. A
    step no enabled plugin provides is `missing_step_type`'s error. File errors (exit 2) come
    before rule refusals (exit 1); every plugin step's problems are reported at once.
    """
    from .errors import Problem, RuleViolation

    invalid: list[Problem] = []
    refused: list[Problem] = []
    for ri, rnd in enumerate(getattr(scenario, "rounds", None) or []):
        for si, step in enumerate(rnd.steps):
            ps = getattr(step, "plugin_step", None)
            if ps is None:
                continue
            path = step_doc_path(raw, ri, si) + (ps.kind,)
            st = step_types.get(ps.kind)
            if st is not None:
                try:
                    ps.validate(st.model, source=source, filename=filename, path=path)
                except ScenarioError as exc:
                    invalid += exc.problems
                continue
            err = missing_step_type(ps.kind, path, set(step_types), entries=entries, enabled=enabled, extra=extra)
            (invalid if isinstance(err, ScenarioError) else refused).extend(err.problems)
    for p in invalid + refused:
        if source is not None and not p.location.line:
            p.location = source.locate(p.path)
    if invalid:
        raise ScenarioError(invalid)
    if refused:
        raise RuleViolation(refused)
