"""Helpers and pytest fixtures for testing drd plugins (built-in and third-party).

Use from a plugin package's tests::

    # conftest.py
    pytest_plugins = ["drd_cli.testing"]

    # test_my_ability.py
    def test_free_obrana(drd_resolve):
        result = drd_resolve(SCENARIO_YAML, plugins={"moje-schopnost": my_plugin_module})
        assert result["steps"][0]["manoeuvres"][0]["paid"] == "free"

`drd_resolve(text, *, plugins=None, enable=(), disable=(), params=None, group=None, seed=None,
choose="accept", lang=None)` resolves a scenario given as YAML text and returns the result contract
(SCENARIO-FORMAT §7). `plugins` registers plugin objects (modules or instances) under ids without
installing them; they are on unless disabled (or declared `enabled_by_default: False`), and the parameters they declare
(`drd_plugin_info()["params"]`) can be set through `params=` like installed plugins' ones. Errors are raised as `drd_cli.errors.DrdError`
(`.exit_code` 1 or 2). Nothing global is touched: every call builds a fresh plugin manager.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pydantic import BaseModel


def load_text_scenario(text: str, filename: str = "<test>.yaml", *, extra_steps: dict | None = None):
    """A LoadedScenario from YAML text (strict validation, as `drd_cli.api.load_scenario`).

    Plugin steps are kept and checked when the scenario is resolved, with the rules profile;
    `extra_steps` ({key: model}) makes those keys typed step keys checked right away instead.
    """
    from .api import LoadedScenario
    from .scenario.load import load_text
    from .scenario.models import build_scenario_model

    data, source = load_text(text, filename)
    model_cls = build_scenario_model(dict(extra_steps or {}))
    try:
        from .scenario.validate import validate_model
    except ImportError:   # pragma: no cover - the validator lives in the CLI layer
        model = _plain_validate(model_cls, data, filename)
    else:
        model = validate_model(model_cls, data, source, filename)
    return LoadedScenario(filename, model, source, data)


def _plain_validate(model_cls: type[BaseModel], data: Any, filename: str) -> Any:
    from pydantic import ValidationError

    from .errors import ScenarioError

    try:
        return model_cls.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(f"{filename}: {exc}") from None


def resolve_text(text: str, *, plugins: dict[str, Any] | None = None, enable: tuple[str, ...] = (),
                 disable: tuple[str, ...] = (), params: dict[str, Any] | None = None, group: str | None = None,
                 seed: int | None = None, choose: str = "accept", plugin_dirs: tuple[str, ...] = (),
                 lang: str | None = None) -> dict:
    """Resolve a scenario given as YAML text; `plugins` adds uninstalled plugin objects by id.

    `lang` (`cs`, `en`) is the language of the run's words (logs, a plugin step's `rendered`
    lines) for this call only; without it, drd's current language."""
    if lang is not None:
        from .i18n import using

        with using(lang):
            return resolve_text(text, plugins=plugins, enable=enable, disable=disable, params=params, group=group,
                                seed=seed, choose=choose, plugin_dirs=plugin_dirs)
    loaded = load_text_scenario(text)
    if not plugins:
        from .api import resolve_scenario

        return resolve_scenario(loaded, seed=seed, choose=choose, params=params, enable=enable, disable=disable,
                                group=group, plugin_dirs=plugin_dirs)
    return _resolve_with(loaded, plugins, enable=enable, disable=disable, params=params, group=group, seed=seed,
                         choose=choose, plugin_dirs=plugin_dirs)


def _resolve_with(loaded: Any, plugins: dict[str, Any], **kw: Any) -> dict:
    """Like api.resolve_scenario, with extra plugin objects (not installed) in the one setup
    pipeline (`api.setup_rules(extra_plugins=…)`: a fresh manager for every call)."""
    from .abilities import check_plugin_uses
    from .api import _check_plugin_steps, locate, setup_rules
    from .dice import SeededDice
    from .engine.hooks import Hooks
    from .engine.run import resolve
    from .errors import DrdError

    try:
        setup = setup_rules(loaded, params=kw["params"], enable=kw["enable"], disable=kw["disable"],
                            group=kw["group"], plugin_dirs=kw["plugin_dirs"], extra_plugins=plugins)
        hooks = Hooks(setup.pm, setup.profile.enabled, params=setup.profile.params)
        _check_plugin_steps(loaded, hooks, entries=setup.entries, extra=plugins)
        check_plugin_uses(loaded.scenario, setup.profile, setup.pm)
        seed = kw["seed"] if kw["seed"] is not None else (loaded.scenario.seed or 0)
        from .wording import word_result

        return word_result(resolve(loaded.scenario, setup.profile, SeededDice(seed), hooks, choose=kw["choose"],
                                   seed=seed))
    except DrdError as exc:
        locate(exc, loaded)
        raise


def step(result: dict, step_id: str) -> dict:
    """The result entry of step `step_id`."""
    for s in result["steps"]:
        if s["id"] == step_id:
            return s
    raise KeyError(f"no step {step_id!r}; steps are {[s['id'] for s in result['steps']]}")


@pytest.fixture
def drd_resolve():
    """`drd_resolve(yaml_text, plugins={id: module}, enable=..., disable=..., params=...)` → result dict."""
    return resolve_text


@pytest.fixture
def drd_manager():
    """`drd_manager({id: plugin}, enabled=None)` → a fresh pluggy manager with the drd hookspecs and only
    the given plugin objects registered (no installed plugins), for calling hooks directly."""

    def make(plugins: dict[str, Any] | None = None):
        import pluggy

        from . import hookspecs

        pm = pluggy.PluginManager("drd")
        pm.add_hookspecs(hookspecs)
        given = plugins or {}
        for pid in sorted(given):
            pm.register(given[pid], name=pid)
        return pm

    return make
