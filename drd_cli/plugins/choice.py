"""Ids and clashes (docs/plugins.md "Ids and clashes"): which of several plugins claiming one id
a run gets, and when a clash is an error.

* A third-party plugin whose id is a built-in one **replaces** the built-in one (what the user
  installed wins, as in pip and pytest): the entry is the third-party plugin, its `replaces` the
  built-in; a run that uses it says so once on stderr (`note_replaced`), `drd plugins` and
  `drd rules` show it, and the result's `rules.replaced` names its distribution.
* Two third-party plugins with one id are a **clash**: one is the entry, the others its `rivals`.
  Only a run that uses the id fails (`clash_error`, saying how to choose); a run that does not
  (the id is off, or all claimants are ability plugins nobody in the scenario lists:
  `defaults.unused_clash`) never imports more than it needs to know that.
* A **choice** (`--use ID=DISTRIBUTION`, DRD_USE, a group profile's `use:`) picks one claimant,
  built-in or not; the others are `passed_over`. A choice naming no claimant is exit 2.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from typing import Any

from ..errors import COMMAND_LINE, Location, ScenarioError
from ..i18n import _
from .errors import PluginError, disable_hint

USE_ENV = "DRD_USE"
"""Choices given to a command (`--use ID=DISTRIBUTION`, repeatable), as ``ID=DIST`` items separated
by os.pathsep; set by the option itself, read by every run of the process (like DRD_PLUGINS_DIR)."""


def parse_use(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """`--use ID=DISTRIBUTION` items as {id: distribution}; a malformed one is exit 2."""
    out: dict[str, str] = {}
    for item in items:
        pid, sep, dist = str(item).partition("=")
        if not sep or not pid.strip() or not dist.strip():
            raise ScenarioError(_("--use expects ID=DISTRIBUTION, got {item}").format(item=repr(item)),
                                Location(COMMAND_LINE),
                                hint=_("e.g. `--use pruvodce=drd-pruvodce`; `drd plugins` lists each plugin's "
                                       "distribution"))
        out[pid.strip()] = dist.strip()
    return out


def env_use() -> dict[str, str]:
    """The choices of DRD_USE (set by `--use`)."""
    raw = os.environ.get(USE_ENV, "")
    return parse_use([item for item in raw.split(os.pathsep) if item]) if raw else {}


def remember_use(items: list[str] | tuple[str, ...] | None) -> None:
    """Passes `--use` choices on through DRD_USE, so every run of this command sees them."""
    if not items:
        return
    parse_use(items)            # a malformed item is refused here, at the command line
    old = [item for item in os.environ.get(USE_ENV, "").split(os.pathsep) if item]
    os.environ[USE_ENV] = os.pathsep.join(old + list(items))


def _norm(name: str) -> str:
    """A distribution name as pip compares them (`drd_Pruvodce` = `drd-pruvodce`)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _names(entry: Any, choice: str) -> bool:
    """Does `choice` name this claimant: its distribution (spelled either way), or its file?"""
    if entry.dist is not None:
        return _norm(entry.dist) == _norm(choice)
    return os.path.abspath(choice) in (os.path.abspath(entry.value), os.path.dirname(os.path.abspath(entry.value)))


def check_choices(found: Mapping[str, Any], use: Mapping[str, str], where: Mapping[str, Any]) -> None:
    """Every choice must name an id that is found and one of its claimants; else exit 2 listing them."""
    problems = []
    for pid, choice in sorted(use.items()):
        loc = where.get(pid) or Location(COMMAND_LINE)
        entry = found.get(pid)
        if entry is None:
            problems.append((_("a choice names the plugin id {id}, which no plugin has").format(id=repr(pid)), loc,
                             _("`drd plugins` lists the plugins and their distributions")))
            continue
        claimants = [entry, *entry.rivals]
        if not any(_names(c, choice) for c in claimants):
            problems.append((_("no plugin {id} comes from {dist}; it is provided by {claimants}").format(
                id=repr(pid), dist=repr(choice), claimants=", ".join(sorted(c.where for c in claimants))), loc,
                _("name one of them: `--use {id}=DISTRIBUTION`").format(id=pid)))
    if problems:
        from ..errors import Problem

        raise ScenarioError([Problem(text, location=loc, hint=hint) for text, loc, hint in problems])


def settle(claimants: list[Any], choice: str | None) -> Any:
    """The entry of one id claimed by `claimants` (with its `replaces`, `rivals`, `passed_over` set)."""
    for c in claimants:
        c.rivals, c.replaces, c.passed_over = [], None, []
    own = sorted((c for c in claimants if c.builtin), key=lambda e: e.where)
    others = sorted((c for c in claimants if not c.builtin), key=lambda e: (e.local, e.where))
    if choice is not None:
        first = next(c for c in [*others, *own] if _names(c, choice))
        first.passed_over = [c for c in claimants if c is not first]
        if not first.builtin and own:
            first.replaces = own[0]
        return first
    if not others:                      # drd's own distribution twice (two installs): the first
        own[0].rivals = own[1:]
        return own[0]
    first = others[0]
    first.rivals = others[1:]
    if own:
        first.replaces = own[0]
    return first


def clash_error(entry: Any) -> PluginError:
    """The error of a run that uses an id two third-party plugins claim: names them all and says
    exactly how to choose one (or to switch the id off)."""
    claimants = [entry, *entry.rivals]
    names = ", ".join(c.where for c in claimants)
    example = claimants[0].dist or claimants[0].value
    return PluginError(
        _("plugins {names} all use the id {id}, and this run uses it").format(names=names, id=repr(entry.id)),
        hint=_("choose one: `--use {id}={dist}` on the command line, or `use: {{{id}: {dist}}}` in the group "
               "profile (any of: {names}); or {how}").format(id=entry.id, dist=example, names=names,
                                                           how=disable_hint(entry.id)))


_NOTED: set[tuple[str, str]] = set()


def note_replaced(pid: str, entry: Any) -> None:
    """Says once per process, on stderr, that a run uses a third-party plugin in a built-in's place."""
    if entry is None or entry.replaces is None or (pid, entry.where) in _NOTED:
        return
    _NOTED.add((pid, entry.where))
    sys.stderr.write(_("note: plugin {id} comes from {dist}, which replaces the built-in one ({own}); "
                       "`--use {id}={own}` uses the built-in one").format(
                           id=pid, dist=entry.where, own=entry.replaces.where) + "\n")


def replaced_by(entries: Mapping[str, Any]) -> dict[str, str]:
    """{id: distribution} of the third-party plugins that replace a built-in one."""
    return {pid: e.where for pid, e in entries.items() if getattr(e, "replaces", None) is not None}


def chosen(layers: list[Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """({id: distribution}, {id: where the choice was made}) of the group layer's `use:` and then
    the command line's `--use` (DRD_USE), the later winning."""
    use: dict[str, str] = {}
    where: dict[str, Any] = {}
    for layer in layers:
        for pid, dist in getattr(layer, "use", {}).items():
            _origin, locate, path = layer.sources.get(("use", pid), (None, layer.locate, ("use", pid)))
            use[pid] = dist
            where[pid] = locate(path) if locate else None
    for pid, dist in env_use().items():
        use[pid], where[pid] = dist, Location(COMMAND_LINE)
    return use, where
