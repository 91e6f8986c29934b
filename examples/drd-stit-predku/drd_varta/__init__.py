"""Varta (`varta`): a step type — a watcher keeps watch for some hours (a Duše test, R-TEST).

`- varta: {watcher: ID, hours: N, roll: 2..12}`; the step's result gets a `varta` entry
(`watcher`, `name`, `hours`, `held`) that `drd_render_entry` puts in words. The messages are in
this package's own catalog, `locale/<lang>/LC_MESSAGES/drd_varta.mo`, in drd's language.
"""

from drd_cli.plugin import ScenarioError, StepType, StrictModel, hookimpl, scenario_models, translator

_, ngettext = translator("drd_varta", __file__)


class VartaSpec(StrictModel):
    """The mapping under the step key `varta`."""

    watcher: str
    hours: int = 1
    roll: int | None = None


@hookimpl
def drd_plugin_info():
    return {"title": "Varta", "kind": "step type", "api_version": 2, "rules": ["R-TEST"],
            "description": "krok varta: hlídač drží hlídku (zkouška Duše)"}


@hookimpl
def drd_step_types():
    return {"varta": StepType(model=VartaSpec, resolve=resolve_varta)}


def resolve_varta(engine, spec, choices, path):
    """The watcher's Duše test; the step's `varta` entry says whether the watch held."""
    if spec.watcher not in engine.w:
        raise ScenarioError(_("unknown watcher {id}").format(id=repr(spec.watcher)), path=path + ("watcher",))
    test = scenario_models.TestSpec.model_construct(actor=spec.watcher, pool="duse", roll=spec.roll,
                                                    label=_("watch"))
    engine.test(test, choices, path)
    engine.rec.data["varta"] = {"watcher": spec.watcher, "name": engine.participant(spec.watcher).name,
                                "hours": spec.hours,
                                "held": bool(engine.rec.data["actions"][spec.watcher]["success"])}


@hookimpl
def drd_render_entry(kind, entry, format):
    if kind != "varta":
        return None
    hours = ngettext("{n} hour", "{n} hours", entry["hours"]).format(n=entry["hours"])
    text = _("{name} on watch ({hours}): nobody got past") if entry["held"] else \
        _("{name} on watch ({hours}): someone got past")
    return [text.format(name=entry["name"], hours=hours)]
