"""Parameters that plugins declare (`drd_plugin_info()["params"]`), for the rules profile."""

from __future__ import annotations

from typing import Any

from .. import builtin_abilities
from ..i18n import N_, _, language
from .defaults import dormant
from .discovery import PluginEntry
from .errors import PluginError, _claim, _plain
from .guard import plugin_code
from .loading import load_plugin


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
    from ..rules import param_spec_from

    info_fn = getattr(plugin, "drd_plugin_info", None)
    if info_fn is None:
        return {}
    with plugin_code(pid, "drd_plugin_info"):
        info = info_fn() or {}
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
                if named & set(builtin_abilities.ABILITY_PLUGINS.get(pid, ())):
                    self._declare(pid, declared)
        from ..rules import CORE_PARAMS          # once per run, not once per plugin

        out: dict = {}
        owner: dict[str, str] = {}
        for pid in sorted(declared):
            _claim(out, owner, pid, declared[pid], N_("plugins {first} and {second} both declare the parameter {name}"))
            _no_core_param(pid, declared[pid], CORE_PARAMS)
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


def _no_core_param(pid: str, declared: dict, core: Any = None) -> None:
    """A plugin declaring a parameter the core has (`tie`, one of `core`: default the core's
    parameters, rules.CORE_PARAMS) is the plugin's failure (exit 1)."""
    if core is None:
        from ..rules import CORE_PARAMS

        core = CORE_PARAMS
    if not declared:
        return
    for name in sorted(set(declared) & set(core)):
        raise PluginError(_("plugin {plugin} declares the parameter {name}, which the core already has").format(
                              plugin=repr(pid), name=repr(name)),
                          hint=_("rename it in {plugin}, or disable one of them").format(plugin=pid))
