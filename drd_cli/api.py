"""The library API: load a scenario file, resolve it, get the result contract as a dict.

Everything the CLI commands do goes through these functions; the engine itself stays pure
(no I/O) and is reached only from here. One pass: YAML → validated Scenario → rules profile and
plugins → engine → result dict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import DrdError, Location


@dataclass
class LoadedScenario:
    """A validated scenario together with where every part of it came from."""

    path: str
    scenario: Any          # drd_cli.scenario.models.Scenario (or the Dakara root model)
    source: Any            # drd_cli.scenario.load.SourceMap
    raw: Any               # the ruamel document (CommentedMap)

    @property
    def system(self) -> str:
        return getattr(self.scenario, "system", "drd2")


@dataclass
class Setup:
    """The effective rules and plugins for one run."""

    profile: Any
    entries: dict
    pm: Any


def load_scenario(path: str, *, plugin_steps: dict | None = None) -> LoadedScenario:
    """Read and validate a scenario file; raises ScenarioError (exit 2) with file:line:col.

    `plugin_steps` adds step types of enabled plugins; by default every installed, enabled-by-
    default plugin step type is known (so `hide` validates), and the rules in the file decide later.
    """
    from .scenario.load import load_document
    from .scenario.validate import validate_model

    data, source = load_document(path)
    system = data.get("system", "drd2") if hasattr(data, "get") else "drd2"
    if system == "dakara":
        from .dakara.models import DakaraScenario

        model = validate_model(DakaraScenario, data, source, path)
    else:
        from .scenario.models import build_scenario_model

        steps = plugin_steps if plugin_steps is not None else known_step_models()
        model = validate_model(build_scenario_model(steps), data, source, path)
    return LoadedScenario(path, model, source, data)


def known_step_models() -> dict:
    """Step models of the built-in plugins that provide step types (validated before rules apply)."""
    from .plugins import discover, load_plugin

    out: dict = {}
    for pid, entry in discover().items():
        if entry.id not in STEP_PLUGINS:
            continue
        module = load_plugin(entry)
        types = module.drd_step_types() if hasattr(module, "drd_step_types") else {}
        out.update({k: v.model for k, v in types.items()})
    return out


# Plugins whose step types are part of the published format (SCENARIO-FORMAT §4.7).
STEP_PLUGINS = {"ukryvani"}


def setup_rules(loaded: LoadedScenario | None, *, params: dict[str, str] | None = None,
                enable: tuple[str, ...] = (), disable: tuple[str, ...] = (), group: str | None = None,
                plugin_dirs: tuple[str, ...] = (), describe: bool = False) -> Setup:
    """Builds the layered rules profile (defaults ← group ← scenario ← command line) and plugins.

    `describe=True` (for `drd rules`): no plugin manager, and an enabled plugin that fails to
    import is noted in `profile.broken` instead of stopping.
    """
    from .groups import group_layer
    from .plugins import ParamSource, build_manager, default_states, discover
    from .rules import Layer, build_profile

    import os

    layers: list[Layer] = []
    # `drd --plugins-dir D …` (global) arrives through DRD_PLUGINS_DIR.
    dirs = list(plugin_dirs) + [d for d in os.environ.get("DRD_PLUGINS_DIR", "").split(os.pathsep) if d]
    if group:
        glayer, gdirs = group_layer(group)
        layers.append(glayer)
        dirs += gdirs
    entries = discover(list(dict.fromkeys(os.path.abspath(d) for d in dirs)))
    if loaded is not None:
        r = loaded.scenario.rules
        layers.append(Layer("scenario", list(r.enable), list(r.disable), dict(r.params),
                            locate=lambda p: loaded.source.locate(p), path_prefix=("rules",)))
    if params or enable or disable:
        layers.append(Layer("command line", list(enable), list(disable), dict(params or {})))
    source = ParamSource(entries, tolerant=describe)
    profile = build_profile(layers, default_states(entries), plugin_params=source.for_enabled,
                            find_inactive=source.find_inactive)
    profile.broken = source.broken
    if describe or (loaded is not None and loaded.system == "dakara"):
        return Setup(profile, entries, None)
    pm = build_manager(profile.enabled, entries)
    pm.drd_params = profile.params      # engine.hooks.Hooks shows them to hooks taking `params`
    return Setup(profile, entries, pm)


def resolve_scenario(loaded: LoadedScenario, *, seed: int | None = None, choose: str = "accept",
                     params: dict[str, str] | None = None, enable: tuple[str, ...] = (),
                     disable: tuple[str, ...] = (), group: str | None = None, dice: Any = None,
                     plugin_dirs: tuple[str, ...] = ()) -> dict:
    """Resolve a loaded scenario; returns the result contract (SCENARIO-FORMAT §7) as a dict.

    Raises RuleViolation (exit 1) when a rule forbids something in the file; its problems carry
    document paths, already turned into file:line:col using `loaded.source`.
    """
    from .dice import QueuedDice, SeededDice, new_seed

    try:
        setup = setup_rules(loaded, params=params, enable=enable, disable=disable, group=group,
                            plugin_dirs=plugin_dirs)
        if seed is None:
            seed = loaded.scenario.seed if loaded.scenario.seed is not None else new_seed()
        if dice is None:
            dice = SeededDice(seed)
            queue = getattr(loaded.scenario, "extra_dice", None)
            if queue:
                dice = QueuedDice(queue, dice)
        if loaded.system == "dakara":
            from .dakara.engine import resolve_dakara

            result = resolve_dakara(loaded.scenario, dict(setup.profile.params), dice, seed)
            result["rules"] = setup.profile.to_result()
            return result
        from .engine.hooks import Hooks
        from .engine.run import resolve

        hooks = Hooks(setup.pm, setup.profile.enabled, params=setup.profile.params)
        _check_plugin_steps(loaded, hooks)
        from .plugins import check_plugin_uses

        check_plugin_uses(loaded.scenario, setup.profile)
        return resolve(loaded.scenario, setup.profile, dice, hooks, choose=choose, seed=seed)
    except DrdError as exc:
        locate(exc, loaded)
        raise


def _check_plugin_steps(loaded: LoadedScenario, hooks: Any) -> None:
    """A step type whose plugin is disabled is exit 1 naming the plugin."""
    from .errors import RuleViolation

    for ri, rnd in enumerate(loaded.scenario.rounds):
        for si, step in enumerate(rnd.steps):
            for kind in STEP_KIND_PLUGIN:
                if getattr(step, kind, None) is not None and kind not in hooks.step_types:
                    raise RuleViolation(f"step type {kind!r} is provided by the plugin {STEP_KIND_PLUGIN[kind]}, "
                                        f"which is disabled", rule="SCENARIO-FORMAT §4",
                                        path=("rounds", ri, "steps", si, kind),
                                        hint=f"enable it: `rules: {{enable: [{STEP_KIND_PLUGIN[kind]}]}}`")


STEP_KIND_PLUGIN = {"hide": "ukryvani"}


def locate(exc: DrdError, loaded: LoadedScenario | None) -> None:
    """Fills in file:line:col for problems that carry only a document path."""
    for p in exc.problems:
        if p.location.line == 0 and p.location.file != "command line":   # --set/--enable: in no file
            if loaded is not None and p.path:
                p.location = loaded.source.locate(tuple(p.path))
            elif loaded is not None:
                p.location = Location(loaded.path)
