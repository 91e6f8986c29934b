"""The plugin manager of a run: pluggy's, holding only the enabled plugins, registered in id
order, handed out inside an immutable `Registry` that also says what the run left idle or
unimported and which entries and parameters it was made with."""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..errors import ScenarioError
from ..i18n import _, language
from .defaults import dormant
from .discovery import PluginEntry, autoload_disabled
from .choice import note_replaced
from .guard import guard_hooks
from .loading import acts_only_where_listed, load_plugin, plugin_info
from .registry import Registry


def build_manager(enabled: frozenset[str] | set[str], entries: dict[str, PluginEntry], *,
                  listed: set[str] | frozenset[str] | None = None,
                  extra_plugins: Mapping[str, Any] | None = None) -> Registry:
    """A fresh Registry: a pluggy manager holding only the enabled plugins, registered in id order.

    `listed` (the ability ids a scenario's participants list, or None for "any"): an enabled
    plugin of kind "ability" none of whose abilities is listed cannot act in that run
    (engine.hooks `focus`), so it is loaded (its info is checked) but not registered; it is kept
    in the registry's `idle` ({id: plugin}) for the catalogue's cards. A plugin that provides step
    types is always registered (its steps do not depend on who lists what). `extra_plugins`
    ({id: plugin object}, not installed: drd_cli.testing) are registered too when enabled.
    """
    from .. import hookspecs

    pm = _manager_class()("drd")
    pm.add_hookspecs(hookspecs)
    idle: dict[str, Any] = {}
    extra = dict(extra_plugins or {})
    loaded, sleeping = _enabled_plugins(frozenset(enabled) - set(extra), entries, listed)
    for pid in sorted(extra):
        if pid in enabled:
            plugin_info(pid, extra[pid])      # its API version, as for an installed plugin
            loaded.append((pid, extra[pid]))
    loaded.sort(key=lambda item: item[0])
    trace = bool(os.environ.get("DRD_TRACE_PLUGINS"))
    for pid, plugin in loaded:
        if pid not in extra and listed is not None and _idle_ability(pid, plugin, entries[pid], listed):
            idle[pid] = plugin
            continue
        pm.register(plugin, name=pid)
        guard_hooks(pm, plugin, pid, entries, trace=trace)
        if pid not in extra:
            note_replaced(pid, entries.get(pid))
    return Registry(pm, entries, MappingProxyType(idle), sleeping)


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
                listed: set[str] | frozenset[str] | None = None, params: Mapping | None = None) -> Registry:
    """`build_manager`'s Registry for one run of api.setup_rules, its pluggy manager reused from the
    previous run when that one registered the same plugin objects, unchanged, for the same
    abilities listed and the same parameters.

    `drd check` of a folder builds a manager per file; most files switch on the same plugins, and
    registering them again (reading every attribute of each) was most of that. The pluggy manager
    holds no state of a run: what a run has of its own (entries, idle plugins, parameters) is in
    its own immutable Registry, and the engine's own state in its `Hooks` façade. A plugin whose
    attributes changed since (a function replaced at run time), a plugin that is not a module, or
    DRD_TRACE_PLUGINS makes a fresh one. Every enabled plugin is loaded here as build_manager
    loads it (same order, same errors; those `dormant` in this run not at all).
    """
    global _SHARED
    if os.environ.get("DRD_TRACE_PLUGINS"):
        return build_manager(enabled, entries, listed=listed).with_params(params)
    # The dormant ones are not imported: the same in a reused manager (same key).
    objs = [plugin for _pid, plugin in _enabled_plugins(enabled, entries, listed)[0]]
    try:
        key = (language(), autoload_disabled(), frozenset(enabled), None if listed is None else frozenset(listed),
               tuple(sorted((params or {}).items())))
        hash(key)
    except TypeError:       # a parameter value that is not hashable: nothing to compare with
        return build_manager(enabled, entries, listed=listed).with_params(params)
    got = _SHARED
    if got is not None and got[0] == key and len(got[1]) == len(objs) \
            and all(a is b for a, b in zip(got[1], objs)) and _unchanged(got[2]):
        old: Registry = got[3]
        return Registry(old.manager, entries, MappingProxyType(dict(old.idle)), old.dormant,
                        MappingProxyType(dict(params or {})))
    registry = build_manager(enabled, entries, listed=listed).with_params(params)
    registered = registry.get_plugins()
    if all(isinstance(p, type(os)) for p in registered):
        # What the registered modules held: their attributes (pluggy reads them all).
        state = tuple((p, dict(vars(p))) for p in registered)
        _SHARED = (key, objs, state, registry)
    else:
        _SHARED = None
    return registry


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


# (key, enabled plugin objects, registered modules' attributes, Registry) of the last run_manager.
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
    """An ability plugin (API ≥ 2: loading.acts_only_where_listed) none of whose abilities `listed`
    names, and without step types."""
    if getattr(plugin, "drd_step_types", None) is not None:
        return False
    info = plugin_info(pid, plugin, entry)
    if not acts_only_where_listed(info):
        return False
    return not set(info.get("abilities") or (pid,)) & set(listed)
