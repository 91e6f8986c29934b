"""Loading: importing a plugin (entry point or local file) and checking its `drd_plugin_info()`
and the API version it needs (`API_VERSION`, drd_cli/hookspecs.py)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Mapping
from typing import Any

from ..hookspecs import API_VERSION
from ..i18n import _, language
from .discovery import OWN_DISTRIBUTION, PluginEntry, _load_value, _norm, id_clash
from .errors import PluginError, disable_hint
from .guard import plugin_code


def plugin_info(pid: str, plugin: Any, entry: PluginEntry | None = None,
                entries: Mapping[str, Any] | None = None) -> dict:
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
        with plugin_code(pid, "drd_plugin_info", entries or ({pid: entry} if entry else None)):
            info = fn()
        if info is None:
            info = {}
        if not isinstance(info, Mapping):
            raise PluginError(_("plugin {id}: drd_plugin_info() must return a mapping, not {kind}").format(
                id=repr(pid), kind=type(info).__name__), hint=_("fix the plugin, or disable it with `--disable {id}`")
                .format(id=pid))
    need = check_api_version(pid, info, entry)
    if "ability" in info and info["ability"] is not None:
        from .cards import check_card

        check_card(pid, info["ability"], need)
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
    need = info.get("api_version", 1)
    where = entry.where if entry is not None else None
    if isinstance(need, bool) or not isinstance(need, int) or need < 1:
        raise PluginError(_("plugin {id}: api_version must be a whole number ≥ 1, not {value}").format(
            id=repr(pid), value=repr(need)), hint=_("fix the plugin, or disable it with `--disable {id}`").format(id=pid))
    if need > API_VERSION:
        text = (_("plugin {id} ({where}) needs the plugin API version {need}; this drd provides version {have}")
                if where else _("plugin {id} needs the plugin API version {need}; this drd provides version {have}"))
        # A number too long to print (10**5000) is said by its size, not printed (Python refuses).
        shown = need if need.bit_length() < 64 else f"> {2 ** 63}"
        raise PluginError(text.format(id=repr(pid), where=where, need=shown, have=API_VERSION),
                          hint=_("update drd, or use a version of the plugin made for API {have}; or {how}").format(
                              have=API_VERSION, how=disable_hint(pid)))
    return need


def declared_api(info: Mapping) -> int:
    """The API version a plugin's checked info declares (`api_version`, absent = 1).

    The engine side asks this (through `Registry.api_version`) to keep older plugins' behaviour:
    answers and hooks that a version added are read only from plugins declaring it."""
    need = info.get("api_version", 1)
    return need if isinstance(need, int) and not isinstance(need, bool) and need >= 1 else 1


def acts_only_where_listed(info: Mapping) -> bool:
    """Is a plugin consulted only in runs where a participant lists one of its abilities?

    True for kind "ability" under API 2 and later. An API 1 plugin (no `api_version`) of kind
    "ability" was asked for every participant of every run, and still is (docs/plugins.md "API
    versions"): whatever worked against version N keeps working against N + 1."""
    return str(info.get("kind", "")) == "ability" and declared_api(info) >= 2


def load_plugin(entry: PluginEntry, *, clash_ok: bool = False) -> Any:
    """Imports one plugin module and checks its info (API version); a failure names it and how to disable it.

    An id that two plugins claim is refused (naming both) unless `clash_ok` (`drd plugins` lists them).
    """
    if entry.rivals and not clash_ok:
        raise id_clash(entry)
    if entry.module is not None:
        return entry.module
    out = sys.stdout
    sys.stdout = sys.stderr       # what a plugin prints while imported is not drd's output
    try:
        if entry.local:
            name = f"drd_local_plugins.{entry.id.replace('-', '_')}"
            spec = importlib.util.spec_from_file_location(name, entry.value)
            if spec is None or spec.loader is None:
                raise ImportError(entry.value)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        else:
            module = _load_entry_point(entry)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - any failure inside third-party code (SystemExit too)
        # The exception's own text is the plugin's (Python's), quoted as it is.
        raise PluginError(_("plugin {id} ({where}) failed to load: {error}").format(
                              id=repr(entry.id), where=entry.where, error=f"{type(exc).__name__}: {exc}"),
                          hint=disable_hint(entry.id)) from None
    finally:
        sys.stdout = out
    plugin_info(entry.id, module, entry)
    entry.module = module
    return module
