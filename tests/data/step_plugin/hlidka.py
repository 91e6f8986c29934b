"""A third-party test plugin (loaded as a local plugin, id `hlidka`): the `hlidka` step type.

A watch (hlídka): one watcher keeps watch, resolved by the core as a Duše zkouška (R-TEST)
through the StepAPI; the step record gets a `hlidka` entry saying whether the watch held.
Used by tests/plugins/test_plugin_steps.py; not a rule of the book.
"""

from __future__ import annotations

from pydantic import Field

from drd_cli.hookspecs import StepType, hookimpl
from drd_cli.scenario.models import StrictModel, TestSpec, cz


class HlidkaSpec(StrictModel):
    """`hlidka: {watcher: ID, roll: 2..12, bonus_from: PROFESSION | none, label: …}`."""

    watcher: str = cz("watcher", "hlídač")
    roll: int | None = Field(default=None, ge=2, le=12)
    bonus_from: str | None = None
    label: str | None = None


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Hlídka (testovací)", "kind": "step type", "rules": ["R-TEST"],
            "description": "krok `hlidka`: zkouška Duše hlídače"}


@hookimpl
def drd_step_types() -> dict:
    return {"hlidka": StepType(model=HlidkaSpec, resolve=resolve_hlidka)}


def resolve_hlidka(api, spec: HlidkaSpec, choices, path: tuple) -> None:
    """The watcher's Duše test; the record says whether the watch held."""
    if spec.watcher not in api.w:
        from drd_cli.errors import ScenarioError

        raise ScenarioError(f"unknown participant {spec.watcher!r}", path=path + ("watcher",))
    api.log("R-TEST", f"Hlídka: {api.participant(spec.watcher).name} drží stráž")
    test = TestSpec.model_construct(actor=spec.watcher, pool="duse", roll=spec.roll,
                                    bonus_from=spec.bonus_from, label=spec.label or "hlídka")
    api.test(test, choices, path)
    api.rec.data["hlidka"] = {"watcher": spec.watcher,
                              "held": bool(api.rec.data["actions"][spec.watcher]["success"])}
