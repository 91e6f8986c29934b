"""Defaults: whether each known plugin is on when no layer of the rules profile says, and which
of drd's own ability plugins a run may leave unimported (the generated list in
drd_cli/builtin_abilities.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterator

from .. import builtin_abilities
from ..i18n import _
from .discovery import PluginEntry
from .errors import PluginError, _plain
from .loading import acts_only_where_listed, load_plugin, plugin_info


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
        from ..rules import BUILTIN_PLUGINS

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
        entry = self.entries.get(pid)
        if pid in self._builtin and (entry is None or entry.replaces is None or pid in self.extra):
            return self._builtin[pid]
        if pid not in self.extra and entry is not None and entry.rivals:
            return self._clash_default(pid, entry)
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


    def _clash_default(self, pid: str, entry: PluginEntry) -> bool:
        """An id two third-party plugins claim is on when any of them is on by default (a run that
        uses it then fails, saying how to choose: choice.clash_error)."""
        try:
            flags = []
            for claimant in [entry, *entry.rivals]:
                load_plugin(claimant, clash_ok=True)
                flags.append(default_flag(pid, claimant.info or {}))
            return any(flags)
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
    from ..rules import BUILTIN_PLUGINS        # once per call, not once per plugin (`drd check`: per file)

    extra = extra or {}
    return frozenset(pid for pid in set(entries) | set(extra) if not _ships(pid, entries, extra, BUILTIN_PLUGINS))


def _ships(pid: str, entries: dict[str, PluginEntry], extra: Mapping[str, Any], builtin: Any = None) -> bool:
    """Does drd ship plugin `pid`: a built-in id (BUILTIN_PLUGINS, or `builtin` when given), or an
    entry point of drd's own distribution that no plugin object given to the test fixture (`extra`)
    stands in for?"""
    if builtin is None:
        from ..rules import BUILTIN_PLUGINS

        builtin = BUILTIN_PLUGINS
    entry = entries.get(pid)
    if entry is not None and entry.replaces is not None and pid not in extra:
        return False            # a third-party plugin in a built-in's place (choice.settle)
    return pid in builtin or (entry is not None and entry.builtin and pid not in extra)


def dormant(pid: str, entry: PluginEntry | None, listed: set[str] | frozenset[str] | None) -> bool:
    """A plugin this run leaves unimported: one of drd's own ability plugins
    (`drd_cli.builtin_abilities`) that no participant lists (`listed`: the abilities the scenario
    names; None: any may act, so none sleeps). It could not act in this run; its default (on) and
    the names of its parameters are known without it. A second plugin with its id is no reason to
    sleep, unless this run does not use the id at all (choice.unused_clash: all of them are ability
    plugins nobody lists); used, loading it gives the clash's error."""
    if listed is None or entry is None or pid in listed:
        return False
    if entry.rivals:
        return unused_clash(pid, entry, listed)
    return _own_ability(pid, entry)


def _own_ability(pid: str, entry: PluginEntry) -> bool:
    return pid in builtin_abilities.ABILITY_PLUGINS and entry.builtin and not entry.local and not entry.rivals


def unused_clash(pid: str, entry: Any, listed: Any) -> bool:
    """True when this run does not use a clashed id: every claimant is an ability plugin that is
    consulted only where a participant lists it (API ≥ 2) and none of its abilities is listed.

    Imports the claimants (to read their infos), never registers them."""
    if not entry.rivals or listed is None or pid in listed:
        return False
    for claimant in [entry, *entry.rivals]:
        module = load_plugin(claimant, clash_ok=True)
        info = claimant.info or {}
        if getattr(module, "drd_step_types", None) is not None or not acts_only_where_listed(info):
            return False
        if set(info.get("abilities") or (pid,)) & set(listed):
            return False
    return True
