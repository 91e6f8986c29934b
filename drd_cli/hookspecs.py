"""The hooks a drd plugin may implement (project name "drd"; every hook is prefixed `drd_`).

Hooks return data; the core applies it in an order that never depends on which plugin was
installed or registered first (results are sorted by plugin id). Arguments are read-only views:
a plugin must not change the participant or action it is shown. Each hook is documented in
docs/plugins.md and exercised by a test (tests/test_hookspecs.py checks both).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pluggy

hookspec = pluggy.HookspecMarker("drd")
hookimpl = pluggy.HookimplMarker("drd")


@dataclass(frozen=True)
class StepType:
    """A step type a plugin adds to the scenario format (returned by `drd_step_types`).

    `model` is a strict pydantic model (subclass of drd_cli.scenario.models.StrictModel) for the
    step's mapping, checked once the rules profile says the plugin is on (errors at file:line:col);
    `resolve(engine, spec, choices, path)` resolves one validated step.
    """

    model: type
    resolve: Callable[..., Any]


@hookspec
def drd_plugin_info() -> dict:
    """Describe the plugin: ``{"title": str, "kind": "rule area" | "ability" | "step type",
    "rules": [rule ids it implements], "description": str, "params": {name: declaration}}``.

    A parameter declaration is a :class:`drd_cli.rules.ParamSpec` or a mapping ``{"default": …,
    "choices": [...] or "type": "int" | "bool" | "str", "rule": "R-…", "help": "…"}``; the
    parameter's value in effect reaches the hooks that take ``params``.
    """


@hookspec
def drd_step_types() -> dict:
    """Step types this plugin provides: ``{name: StepType(model=<pydantic model>, resolve=<callable>)}``.

    ``resolve(engine, spec, choices, path)`` gets an :class:`drd_cli.engine.run.StepAPI` and
    resolves the step through it (tests, výzvy, contests), recording into its step record.
    """


@hookspec
def drd_free_manoeuvre(participant: Any, action: Any, manoeuvre: str, params: Any) -> dict | None:
    """Say whether `participant` may use `manoeuvre` on `action` for free.

    Return ``{"free": True, "via": "Kruhový sek", "key": "kruhovy-sek", "per": "round" | None}`` to make
    it free (``per: round`` = once per round), ``{"free": False, "note": "why not"}`` to explain in the
    transcript why it does not apply, or None when the plugin has nothing to say. `params` is a
    read-only mapping of the rules parameters in effect (core and enabled plugins' own).
    """


@hookspec
def drd_armour_adjustment(protected: Any, attacker: Any, action: Any, params: Any) -> int | None:
    """A change to `protected`'s armour discount against `attacker`'s bodily `action` (R-EXH-3)."""


@hookspec
def drd_indirect_threats(action: Any, params: Any) -> list[str] | None:
    """Participant ids that `action` threatens indirectly and immediately (CS-IND-1)."""


@hookspec
def drd_followup(action: Any, followup: Any, params: Any) -> Any:
    """The výzva (a ChallengeSpec) to resolve right after `action` for its `followup` (CS-FOL-1), or None."""


@hookspec
def drd_round_end(scenario: Any, round_index: int, round: Any, params: Any) -> list | None:
    """Environment actions to resolve at the end of round `round_index` (1-based), after all steps (CS-ENV-1).

    Return a list of ``(entry_id, ChallengeSpec, choices: dict, path: tuple)``.
    """


@hookspec(firstresult=True)
def drd_resolve_contest(engine: Any, spec: Any, choices: Any, path: tuple) -> bool | None:
    """Take over resolving a contest (e.g. a plošná counter-action, CS-OPT-AREA); return True if done."""
