"""The plugin host: discovery, loading, defaults, parameters, the run's manager, step types.

The lifecycle (docs/plugins.md "Lifecycle"): discover (metadata only; DRD_DISABLE_PLUGIN_AUTOLOAD
keeps only drd's own entry points: `discovery`) → settle the profile (a plugin's own on/off
default is read from its `drd_plugin_info()` only when no layer says whether it is on:
`defaults`, `params`) → load (API version checked: `loading`) → run (an immutable `Registry` from
`manager`, every hook implementation guarded so that whatever a plugin does wrong is a
PluginError naming it: `guard`) → the result's `rules` names the built-ins in effect and the other
plugins that acted (`steps.plugins_acted`).

A disabled plugin is never imported. Built-ins are found exactly like third-party plugins. Local
plugin folders load only when a group profile lists them or `--plugins-dir` names them. The
names below are this package's public surface inside drd (`from drd_cli import plugins;
plugins.discover(...)`); the layers (docs/architecture.md) let the engine import only
`drd_cli.plugins.errors`.
"""

from __future__ import annotations

from .defaults import DefaultStates, default_flag, default_states, dormant, third_party
from .discovery import (AUTOLOAD_ENV, OWN_DISTRIBUTION, Discovered, PluginEntry, add_untrusted, autoload_disabled,
                        discover, id_clash)
from .errors import GROUP, PluginError, _plain, disable_hint, enable_hint, hook_failed, refuse_untrusted
from .loading import check_api_version, foreign_code_loaded, load_plugin, plugin_info
from .manager import build_manager, run_manager
from .params import ParamSource, declared_params
from .registry import Registry
from .steps import (check_plugin_steps, collect_step_types, missing_step_type, plugins_acted, run_plugin_step,
                    step_doc_path, step_type_owner, step_types_of)
# Private helpers that older callers and tests reach as `plugins.<name>` (module state, such as
# the caches, is in the modules themselves: drd_cli.plugins.discovery._TEMPLATES, manager._SHARED).
from .discovery import _load_value  # noqa: E402,F401
from .loading import _load_entry_point  # noqa: E402,F401
from .manager import _manager_class  # noqa: E402,F401

__all__ = [
    "AUTOLOAD_ENV", "GROUP", "OWN_DISTRIBUTION", "DefaultStates", "Discovered", "ParamSource", "PluginEntry",
    "PluginError", "Registry", "_plain", "add_untrusted", "autoload_disabled", "build_manager", "check_api_version",
    "check_plugin_steps", "collect_step_types", "declared_params", "default_flag", "default_states",
    "disable_hint", "discover", "dormant", "enable_hint", "foreign_code_loaded", "hook_failed", "id_clash",
    "load_plugin", "missing_step_type", "plugin_info", "plugins_acted", "refuse_untrusted", "run_manager",
    "run_plugin_step", "step_doc_path", "step_type_owner", "step_types_of", "third_party",
]
