"""Small helpers for driving the engine without the CLI (engine, property and golden tests).

`run(yaml_text)` validates an inline YAML scenario with the strict models, builds the rules
profile and the plugin manager exactly as `drd_cli.api` does, and resolves it.
"""

from __future__ import annotations

import io
import textwrap
from typing import Any

import pytest
from ruamel.yaml import YAML

from drd_cli.api import LoadedScenario, setup_rules
from drd_cli.dice import SeededDice
from drd_cli.engine.hooks import Hooks
from drd_cli.engine.run import resolve
from drd_cli.errors import RuleViolation, ScenarioError
from drd_cli.plugins import discover
from drd_cli.scenario.models import build_scenario_model

_ENTRIES: dict | None = None


def entries() -> dict:
    global _ENTRIES
    if _ENTRIES is None:
        _ENTRIES = discover()
    return _ENTRIES


def load_yaml(text: str) -> Any:
    return YAML(typ="safe").load(io.StringIO(textwrap.dedent(text)))


_MODEL: Any = None


def scenario_model() -> Any:
    """The Scenario model (plugin steps such as `hide` are kept and checked by the engine)."""
    global _MODEL
    if _MODEL is None:
        _MODEL = build_scenario_model({})
    return _MODEL


def scenario(data: Any) -> Any:
    """A validated Scenario from YAML text or an already-parsed mapping."""
    if isinstance(data, str):
        data = load_yaml(data)
    return scenario_model().model_validate(data)


def setup(sc: Any, *, params: dict | None = None, enable=(), disable=()):
    """(profile, hooks) for a scenario: defaults ← scenario rules ← `params`/`enable`/`disable`,
    through the one setup pipeline (`drd_cli.api.setup_rules`); plugin steps are left to the engine."""
    loaded = LoadedScenario("<test>.yaml", sc, None, None)
    done = setup_rules(loaded, params=params, enable=tuple(enable), disable=tuple(disable), check_steps=False)
    return done.profile, Hooks(done.pm, done.profile.enabled, params=done.profile.params)


def run(data: Any, *, params: dict | None = None, enable=(), disable=(), choose: str = "accept",
        dice: Any = None, seed: int | None = None) -> dict:
    """Resolves a scenario (YAML text, mapping or Scenario) and returns the result dict."""
    sc = data if hasattr(data, "rounds") else scenario(data)
    profile, hooks = setup(sc, params=params, enable=enable, disable=disable)
    if seed is None:
        seed = sc.seed if sc.seed is not None else 1
    from drd_cli.wording import word_result

    return word_result(resolve(sc, profile, dice or SeededDice(seed), hooks, choose=choose, seed=seed))


def violation(data: Any, rule: str | None = None, **kw: Any) -> RuleViolation:
    """Asserts resolving raises RuleViolation (exit 1), optionally with `rule`; returns it."""
    with pytest.raises(RuleViolation) as info:
        run(data, **kw)
    if rule is not None:
        rules = [p.rule for p in info.value.problems]
        assert rule in rules, f"expected rule {rule}, got {rules}: {info.value.format()}"
    assert info.value.exit_code == 1
    return info.value


def invalid(data: Any, **kw: Any) -> ScenarioError:
    """Asserts the scenario is refused as invalid (exit 2)."""
    with pytest.raises(ScenarioError) as info:
        run(data, **kw)
    assert info.value.exit_code == 2
    return info.value


def step(result: dict, sid: str | None = None) -> dict:
    """A step of the result by id (the only/last step when `sid` is None)."""
    if sid is None:
        return result["steps"][-1]
    return next(s for s in result["steps"] if s["id"] == sid)


def final(result: dict, pid: str) -> dict:
    return result["final"][pid]


def exhaustions(result: dict, by: str | None = None) -> list[dict]:
    out = [e for s in result["steps"] for e in s["exhaustions"]]
    return [e for e in out if by is None or e["by"] == by]


def rules_logged(result: dict) -> list[str]:
    return [entry["rule"] for s in result["steps"] for entry in s["log"]]


def doc(participants: str, steps: str, *, rules: str = "", rounds: str | None = None, extra: str = "") -> str:
    """A scenario as YAML text: participants and the steps of one round (both YAML fragments)."""
    body = textwrap.dedent(participants).strip("\n")
    out = "format: drd/1\ntitle: t\n"
    if rules:
        out += f"rules: {rules}\n"
    out += "participants:\n" + textwrap.indent(body, "  ") + "\n"
    if extra:
        out += textwrap.dedent(extra).strip("\n") + "\n"
    if rounds is not None:
        out += "rounds:\n" + textwrap.indent(textwrap.dedent(rounds).strip("\n"), "  ") + "\n"
    else:
        out += "rounds:\n  - steps:\n" + textwrap.indent(textwrap.dedent(steps).strip("\n"), "      ") + "\n"
    return out
