"""The library API: load a scenario file, resolve it, get the result contract as a dict.

Everything the CLI commands do goes through these functions; the engine itself stays pure
(no I/O) and is reached only from here. One pass: YAML → validated Scenario → rules profile and
plugins → engine → result dict.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .errors import DrdError, Location


@dataclass
class LoadedScenario:
    """A validated scenario together with where every part of it came from."""

    path: str
    scenario: Any          # drd_cli.scenario.models.Scenario (or the Dakara root model)
    source: Any            # drd_cli.scenario.load.SourceMap
    raw: Any               # the document as read (None once released)
    digest_document: bytes | None = None    # its canonical bytes for the digest, once released
    # Participants taken from a campaign (SCENARIO-FORMAT §2.1): {"root", "start": {id: …}}, else None.
    campaign: Any = None

    @property
    def system(self) -> str:
        return getattr(self.scenario, "system", "drd2")

    def release_document(self) -> None:
        """Drops the document's data tree, keeping what the digest needs (its canonical bytes).

        Everything else reads the models (`scenario`) and, to locate an error, `source`; a
        5,000-step battle's data tree is about 20 MB, freed this way before the engine runs.
        """
        if self.raw is not None:
            from .digest import document_bytes

            # The reader already knows whether the document is plain data (SourceMap.plain_document).
            known = bool(getattr(self.source, "plain_document", False))
            self.digest_document = document_bytes(self.raw, known_plain=known)
            self.raw = None

    def locate(self, path: tuple) -> Location:
        """file:line:col of a document path (the file itself when there is no source map)."""
        return self.source.locate(path) if self.source is not None else Location(self.path)

    def digest_source(self) -> Any:
        """What `digest.digest` hashes of the scenario: the document, or its bytes once released."""
        return self.raw if self.raw is not None or self.digest_document is None else self.digest_document


@dataclass(frozen=True)
class Setup:
    """The effective rules and plugins for one run (made by `setup_rules`, not changed after):
    the rules profile, the known plugin entries, and the run's plugin Registry
    (drd_cli/plugins/registry.py; None for `describe` and Dakara)."""

    profile: Any
    entries: dict
    pm: Any


def load_scenario(path: str, *, plugin_steps: dict | None = None, snapshot: dict | None = None) -> LoadedScenario:
    """Read and validate a scenario file; raises ScenarioError (exit 2) with file:line:col.

    No plugin is imported here: a step whose key is not a core step type is kept as a plugin
    step (`Step.plugin_step`) and checked by `setup_rules` once the rules profile says which
    plugins are on. `plugin_steps` ({key: model}, optional, kept for older callers) validates
    those keys right away instead, as typed step keys. Participants naming a campaign's character
    or creature are expanded first (scenario/references.py; `snapshot` gives their start states).
    """
    from .scenario.load import load_document
    from .scenario.references import has_references
    from .scenario.validate import validate_model

    data, source = load_document(path)
    campaign = None
    if has_references(data):
        from .scenario.references import expand

        campaign = expand(data, source, path, snapshot=snapshot)
    system = data.get("system", "drd2") if hasattr(data, "get") else "drd2"
    if system == "dakara":
        from .dakara.models import DakaraScenario

        model = validate_model(DakaraScenario, data, source, path)
    else:
        from .scenario.models import build_scenario_model

        model = validate_model(build_scenario_model(plugin_steps or {}), data, source, path)
    return LoadedScenario(path, model, source, data, campaign=campaign)


def known_step_models(group: str | None = None, plugin_dirs: tuple[str, ...] = ()) -> dict:
    """{step key: model} of the step types the plugins on in a profile provide.

    The profile is the defaults ← `group` (and `--plugins-dir`); with no group, the installed
    plugins that are on by default. `drd schema` describes these for editors.
    """
    # An untrusted group's plugins are left out here (the schema command says so), not refused.
    setup = setup_rules(None, group=group, plugin_dirs=plugin_dirs, allow_untrusted=True)
    return {k: v.model for k, v in sorted(setup.pm.step_types.items())}


def setup_rules(loaded: LoadedScenario | None, *, params: dict[str, str] | None = None,
                enable: tuple[str, ...] = (), disable: tuple[str, ...] = (), group: str | None = None,
                plugin_dirs: tuple[str, ...] = (), describe: bool = False, check_steps: bool = True,
                allow_untrusted: bool = False, extra_plugins: dict[str, Any] | None = None) -> Setup:
    """Builds the layered rules profile (defaults ← group ← scenario ← command line) and plugins.

    The one setup pipeline: the commands, `drd_cli.testing` and the test helpers all come here.
    `describe=True` (for `drd rules`): no plugin manager, and an enabled plugin that fails to
    import is noted in `profile.broken` instead of stopping. `check_steps=False` leaves the
    plugin-step check to the caller (`drd diff` reports a step refused under one profile as a
    difference, so it needs the profile even then: `_check_plugin_steps(loaded, hooks, entries=…)`).
    `extra_plugins` ({id: plugin object}, not installed: the pytest fixture) count like installed
    plugins (on unless they say `enabled_by_default: False`), and the run gets a fresh manager.

    The plugin folders of a group profile that is not trusted (drd_cli/trust.py) are never
    imported: their plugins are known by id only (`profile.untrusted`), and a run that would
    enable one is a PluginError (exit 1) naming `drd group trust …` — unless `describe` or
    `allow_untrusted`, which leave them out.
    """
    from .plugins import (ParamSource, add_untrusted, build_manager, default_states, discover, refuse_untrusted,
                          run_manager, third_party)
    from .plugins.choice import chosen, replaced_by
    from .rules import Layer, build_profile

    extra = dict(extra_plugins or {})
    layers, dirs, untrusted = _group_layers(group, plugin_dirs)
    entries = discover(list(dict.fromkeys(os.path.abspath(d) for d in dirs)), *chosen(layers))
    add_untrusted(entries, untrusted)
    if loaded is not None:
        r = loaded.scenario.rules
        layers.append(Layer("scenario", list(r.enable), list(r.disable), dict(r.params),
                            locate=loaded.locate, path_prefix=("rules",)))
    if params or enable or disable:
        layers.append(Layer("command line", list(enable), list(disable), dict(params or {})))
    # Ability plugins nobody in the scenario lists cannot act: drd's own are not even imported,
    # others are loaded but not registered (docs/plugins.md "Lifecycle").
    listed = None
    if loaded is not None and not describe and loaded.system != "dakara":
        from .engine.run import listed_abilities

        listed = listed_abilities(loaded.scenario)
    source = ParamSource(entries, extra, tolerant=describe, listed=listed,
                         wanted={name for layer in layers for name in layer.params})
    states = default_states(entries, extra, tolerant=describe)
    profile = build_profile(layers, states, plugin_params=source.for_enabled,
                            find_inactive=source.find_inactive)
    profile.broken = {**states.broken, **source.broken}
    profile.third_party = third_party(entries, extra)
    profile.replaced = {pid: dist for pid, dist in replaced_by(entries).items() if pid not in extra}
    profile.untrusted = untrusted
    if not (describe or allow_untrusted):
        refuse_untrusted(untrusted, profile.enabled)
    if describe or (loaded is not None and loaded.system == "dakara"):
        return Setup(profile, entries, None)
    # A run with plugin folders (or plugin objects) has its plugins loaded anew (their files may
    # have changed): its manager is fresh too; otherwise it may be the previous run's (run_manager).
    if dirs or extra:
        pm = build_manager(profile.enabled, entries, listed=listed, extra_plugins=extra).with_params(profile.params)
    else:
        pm = run_manager(profile.enabled, entries, listed=listed, params=profile.params)
    if loaded is not None and check_steps:
        # Plugin steps are checked here, once the profile is known, so every caller (resolve,
        # odds, simulate, diff, play) refuses them before the engine runs.
        from .plugins import check_plugin_steps

        check_plugin_steps(loaded.scenario, dict(pm.step_types), source=loaded.source, filename=loaded.path,
                           raw=loaded.raw, entries=entries, enabled=profile.enabled, extra=extra or None)
    return Setup(profile, entries, pm)


def _group_layers(group: str | None, plugin_dirs: tuple[str, ...]) -> tuple[list[Any], list[str], Any]:
    """([the group profile's layer], the plugin folders to import, the untrusted ones or None):
    `--plugins-dir`, then DRD_PLUGINS_DIR (`drd --plugins-dir D …`), then a trusted group's folders."""
    layers: list[Any] = []
    dirs = list(plugin_dirs) + [d for d in os.environ.get("DRD_PLUGINS_DIR", "").split(os.pathsep) if d]
    untrusted = None
    if group:
        from .groups import group_layer
        from .trust import split_group_dirs

        glayer, found = group_layer(group)
        layers.append(glayer)
        allowed, untrusted = split_group_dirs(group, found)
        dirs += allowed
    return layers, dirs, untrusted


def resolve_scenario(loaded: LoadedScenario, *, seed: int | None = None, choose: str = "accept",
                     params: dict[str, str] | None = None, enable: tuple[str, ...] = (),
                     disable: tuple[str, ...] = (), group: str | None = None, dice: Any = None,
                     plugin_dirs: tuple[str, ...] = (), release_document: bool = False) -> dict:
    """Resolve a loaded scenario; returns the result contract (SCENARIO-FORMAT §7) as a dict.

    `release_document`: once the file is checked, drop its data tree before the engine runs
    (`LoadedScenario.release_document`; for a caller that needs no more of it than the digest).

    Raises RuleViolation (exit 1) when a rule forbids something in the file; its problems carry
    document paths, already turned into file:line:col using `loaded.source`.
    """
    from .dice import QueuedDice, SeededDice, new_seed

    try:
        setup = setup_rules(loaded, params=params, enable=enable, disable=disable, group=group,
                            plugin_dirs=plugin_dirs)
        if seed is None:
            seed = loaded.scenario.seed if loaded.scenario.seed is not None else new_seed()
        seeded = None
        if dice is None:
            dice = seeded = SeededDice(seed)
            queue = getattr(loaded.scenario, "extra_dice", None)
            if queue:
                dice = QueuedDice(queue, dice)
        if loaded.system == "dakara":
            from .dakara.engine import resolve_dakara

            if release_document:
                loaded.release_document()

            # The result's `rules` are Dakara's own (its parameters, no DrD II plugins): the engine
            # reads the layered profile's parameters and reports only those that apply to it.
            result = resolve_dakara(loaded.scenario, dict(setup.profile.params), dice, seed)
            return _no_seed_unless_used(result, seeded)
        from .engine.hooks import Hooks
        from .engine.run import resolve

        hooks = Hooks(setup.pm, setup.profile.enabled, params=setup.profile.params)
        _check_plugin_steps(loaded, hooks)
        from .abilities import check_plugin_uses

        check_plugin_uses(loaded.scenario, setup.profile, setup.pm)
        if release_document:
            loaded.release_document()
        from .wording import step_wording, word_result

        from .gcpause import collector_paused

        # The result grows by hundreds of thousands of mappings and lists and makes no cycles: the
        # collector waits until it is built (drd_cli/gcpause.py). Each step's log is worded as
        # soon as the step is resolved, its events dropped then (word_result finds nothing left).
        with collector_paused():
            result = word_result(resolve(loaded.scenario, setup.profile, dice, hooks, choose=choose, seed=seed,
                                         each_record=step_wording()))
        if loaded.campaign:
            result["campaign"] = _campaign_start(loaded.campaign)   # SCENARIO-FORMAT §2.1
        return _no_seed_unless_used(result, seeded)
    except DrdError as exc:
        locate(exc, loaded)
        raise


def _campaign_start(campaign: dict) -> dict:
    """The result's `campaign`: the start states and the hash of them all (the snapshot a transcript
    names), stored in the campaign's `kronika/snimky/` for a later --verify (docs/kampan.md)."""
    from .scenario import snapshots

    digest = snapshots.snapshot_hash(campaign["start"])
    if campaign.get("root"):
        snapshots.store(campaign["root"], campaign["start"], digest)
    return {"start": campaign["start"], "snapshot": digest}


def _no_seed_unless_used(result: dict, seeded: Any) -> dict:
    """SCENARIO-FORMAT §7: `seed` is null when every roll was given (no die came from the seed),
    so the same file gives the same result, and digest, on every run."""
    if seeded is not None and not seeded.drawn:
        result["seed"] = None
    return result


def _check_plugin_steps(loaded: LoadedScenario, hooks: Any, *, entries: dict | None = None,
                        extra: dict | None = None) -> None:
    """Plugin steps against the step types `hooks` has (setup_rules has done this already).

    A step type no enabled plugin provides: exit 1 naming the plugin that is off (or a built-in
    one that is missing), else exit 2 "unknown step type". `entries` are the known plugins
    (default: the installed ones), `extra` uninstalled plugin objects (drd_cli.testing).
    """
    from .plugins import check_plugin_steps, discover

    kinds = [ps.kind for r in loaded.scenario.rounds for s in r.steps
             if (ps := getattr(s, "plugin_step", None)) is not None]
    if not kinds and extra is None:
        return      # no plugin step: nothing for check_plugin_steps to check (a battle has 5,000 steps)
    if entries is None and any(kind not in hooks.step_types for kind in kinds):
        entries = discover()
    check_plugin_steps(loaded.scenario, hooks.step_types, source=loaded.source, filename=loaded.path,
                       raw=loaded.raw, entries=entries, enabled=hooks.enabled, extra=extra)


def locate(exc: DrdError, loaded: LoadedScenario | None) -> None:
    """Fills in file:line:col for problems that carry only a document path."""
    for p in exc.problems:
        if p.location.line == 0 and p.location.file != "command line":   # --set/--enable: in no file
            if loaded is not None and p.path:
                p.location = loaded.source.locate(tuple(p.path))
            elif loaded is not None:
                p.location = Location(loaded.path)
