"""The plugin host's errors and the advice they give: every failure a plugin causes is a
PluginError (exit 1) that names the plugin and how to switch it off or on.

The engine imports this module only (drd_cli/plugins/ is otherwise reached through the Registry
a run is given): its error type and the hints its own refusals give.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from ..errors import DrdError
from ..i18n import _

GROUP = "drd_cli.plugins"
"""The entry-point group of drd plugins (the entry point's name is the plugin id)."""


class PluginError(DrdError):
    """A plugin could not be loaded or failed while running (exit 1): says which and how to disable it."""

    exit_code = 1
    # Set by `hook_failed` and the guard: the plugin, the hook, the plugin's own exception.
    plugin: str | None = None
    hook: str | None = None
    original: BaseException | None = None


def disable_hint(pid: str) -> str:
    """How to switch a plugin off (the hint of every error a plugin causes)."""
    return _("disable it with `--disable {id}` or in your group profile").format(id=pid)


def enable_hint(pid: str, where: str = "anywhere") -> str:
    """How to switch plugin `pid` on: the one place this advice is worded.

    `where`: "anywhere" (command line, group profile, scenario: a step type or a plugin that is
    off), "run" (the scenario's rules or the command line: the engine's refusals), "scenario"
    (the scenario's rules only), "ability" (an ability used `via:` whose plugin is off)."""
    if where == "run":
        return _("enable it: `rules: {{enable: [{plugin}]}}` or `--enable {plugin}`").format(plugin=pid)
    if where == "scenario":
        return _("enable it: `rules: {{enable: [{plugin}]}}`").format(plugin=pid)
    if where == "ability":
        return _("enable it: `rules: {{enable: [{plugin}]}}`, `--enable {plugin}` or `drd rules enable {plugin} "
                 "--group G`").format(plugin=pid)
    return _("enable it with `--enable {id}`, with `enable: [{id}]` in the group profile (`drd rules enable {id} "
             "--group G`), or with `rules: {{enable: [{id}]}}` in the scenario").format(id=pid)


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


def _plain(exc: DrdError) -> str:
    """An error's messages and hints without a file location (it is about a plugin, not a file)."""
    return "; ".join(p.message + (f" → {p.hint}" if p.hint else "") for p in exc.problems)


def _claim(out: dict, owner: dict, pid: str, items: dict, clash: str) -> None:
    """Adds `pid`'s `items` to `out`; a name another plugin already gave is a PluginError naming both
    (`clash`: its message, untranslated; put into words only then, as it is asked for every plugin)."""
    for name, value in items.items():
        if name in owner:
            raise PluginError(_(clash).format(first=repr(owner[name]), second=repr(pid), name=repr(name)),
                              hint=_("disable one of them (`--disable {id}`)").format(id=pid))
        owner[name] = pid
        out[name] = value


def refuse_untrusted(untrusted: Any, enabled: Any) -> None:
    """PluginError (exit 1) when a run would use a plugin of an untrusted group profile's folders
    (drd_cli.trust.Untrusted; None: nothing untrusted)."""
    if untrusted is None:
        return
    used = sorted(pid for pid in untrusted.ids if pid in enabled)
    if not used:
        return
    raise PluginError(_("plugins {ids} come from plugin folders of the group profile {profile}, which is "
                        "not trusted ({reason}); none of its code was run").format(
                          ids=", ".join(used), profile=untrusted.status.profile, reason=untrusted.reason),
                      untrusted.location,
                      hint=_("if you trust that code: {command} (or disable them: --disable ID)").format(
                          command=untrusted.status.command))
