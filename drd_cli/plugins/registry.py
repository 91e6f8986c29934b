"""The Registry: what the plugin host hands a run — immutable, made once per run by
`manager.build_manager` / `manager.run_manager` (instead of attributes set on pluggy's manager).

It answers pluggy's read-only questions (`hook`, `get_plugins`, `get_plugin`, `get_name`) for the
plugins registered in this run, and carries what the run needs besides: the known plugin entries,
the enabled ability plugins left idle (loaded, not registered), the ones left unimported
(`dormant`), the parameters in effect. The engine's hook façade (drd_cli/engine/hooks.py) reaches
the plugin host only through it: `plugin_info`, `hook_failed`, the step types, `run_plugin_step`,
`plugins_acted`, `missing_step_type` — so the engine imports nothing of drd_cli/plugins/ but its
error type.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ..errors import DrdError
from .discovery import PluginEntry
from .errors import PluginError, hook_failed
from .loading import declared_api, plugin_info
from . import steps as _steps

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, eq=False)
class Registry:
    """The enabled plugins of one run (see the module's docstring). `manager` is pluggy's."""

    manager: Any
    entries: Mapping[str, PluginEntry] = field(default_factory=dict)
    idle: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    dormant: frozenset[str] = frozenset()
    params: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def with_params(self, params: Mapping[str, Any] | None) -> "Registry":
        """The same registry with the parameters in effect (shown read-only to hooks taking `params`)."""
        return replace(self, params=MappingProxyType(dict(params or {})))

    # -- pluggy's read side -------------------------------------------------------------------
    @property
    def hook(self) -> Any:
        return self.manager.hook

    def get_plugins(self) -> set[Any]:
        return set(self.manager.get_plugins())

    def get_plugin(self, name: str) -> Any:
        return self.manager.get_plugin(name)

    def get_name(self, plugin: Any) -> str | None:
        return self.manager.get_name(plugin)

    def ids(self) -> list[str]:
        """The ids of the registered plugins, sorted."""
        return sorted(str(self.manager.get_name(p)) for p in self.manager.get_plugins())

    # -- what the engine's façade asks --------------------------------------------------------
    def plugin_info(self, pid: str, plugin: Any) -> dict:
        """`drd_plugin_info()` of a plugin of this run, checked (loading.plugin_info)."""
        return plugin_info(pid, plugin, entries=self.entries)

    def api_version(self, pid: str, plugin: Any) -> int:
        """The plugin API version plugin `pid` declares (`api_version`, absent = 1): what the engine
        reads to keep an older plugin's behaviour (loading.declared_api)."""
        return declared_api(self.plugin_info(pid, plugin))

    def hook_failed(self, pid: str, hook: str, exc: BaseException) -> PluginError:
        """The error a plugin's exception becomes (naming the plugin, its distribution, the hook);
        an error already attributed to that plugin (by the guard around its hooks) stays as it is."""
        if isinstance(exc, PluginError) and getattr(exc, "plugin", None) == pid:
            return exc
        return hook_failed(pid, hook, exc, dict(self.entries))

    @functools.cached_property
    def step_types(self) -> Mapping[str, Any]:
        """{step key: StepType} of the registered plugins, collected once; a key two plugins give
        is a PluginError naming both (steps.step_types_of)."""
        return MappingProxyType(_steps.collect_step_types(self))

    def run_plugin_step(self, hooks: Any, kind: str, step_type: Any, engine: Any, spec: Any, choices: Any,
                        path: tuple) -> Any:
        return _steps.run_plugin_step(hooks, kind, step_type, engine, spec, choices, path)

    def plugins_acted(self, hooks: Any, steps: list | None = None) -> set[str]:
        return _steps.plugins_acted(hooks, steps)

    def missing_step_type(self, kind: str, path: tuple, known: Any) -> DrdError:
        return _steps.missing_step_type(kind, path, known)
