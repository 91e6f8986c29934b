"""Vyjednávání (`vyjednavani`): a step type — Vliv tests, the difficulty dropping after each failure.

`- vyjednavani: {actor: ID, difficulty: 12, tries: 3, rolls: [7, 9]}`: at most `tries` tries of one
action; the first spends the initiative (R-RND-1), the others are further tries of the same action.
"""

from drd_cli.plugin import StepType, StrictModel, hookimpl, scenario_models


class VyjednavaniSpec(StrictModel):
    actor: str
    difficulty: int = 12
    tries: int = 3
    rolls: list[int] = []


@hookimpl
def drd_plugin_info():
    return {"title": "Vyjednávání", "kind": "step type", "api_version": 3, "rules": ["R-TEST", "R-RND-1"],
            "description": "krok vyjednavani: opakované zkoušky Vlivu, obtížnost klesá"}


@hookimpl
def drd_step_types():
    return {"vyjednavani": StepType(model=VyjednavaniSpec, resolve=resolve)}


def resolve(engine, spec, choices, path):
    tries = []
    for i in range(spec.tries):
        roll = spec.rolls[i] if i < len(spec.rolls) else None
        test = scenario_models.TestSpec.model_construct(actor=spec.actor, pool="vliv", roll=roll,
                                                        target=spec.difficulty - i, label="vyjednávání")
        engine.test(test, choices, path, spends_initiative=not tries)
        tries.append({"target": spec.difficulty - i, "roll": engine.rec.data["rolls"][spec.actor]["total"]})
        if engine.rec.data["actions"][spec.actor]["success"]:
            break
    engine.rec.data["vyjednavani"] = {"actor": spec.actor, "tries": tries,
                                      "success": engine.rec.data["actions"][spec.actor]["success"]}
