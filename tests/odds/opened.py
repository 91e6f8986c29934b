"""Scenario steps with every roll the file gives left open (for comparing the odds methods)."""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

ROLL_FIELDS = ("roll", "dice", "rolls")


def open_rolls(step: Any) -> Any:
    """A copy of `step` in which no action, counter or test gives its roll or dice."""
    new = step.model_copy(deep=True)

    def walk(obj: Any) -> None:
        if isinstance(obj, BaseModel):
            fields = type(obj).model_fields
            opened = False
            for name in ROLL_FIELDS:
                if name in fields and getattr(obj, name, None):
                    f = fields[name]
                    obj.__dict__[name] = f.default_factory() if f.default_factory is not None else f.default
                    opened = True
            if opened and "bonus_from" in fields and obj.bonus_from is None:
                # A hero whose total the file gave named no profession: it now rolls with none.
                obj.__dict__["bonus_from"] = "none"
            for name in fields:
                walk(getattr(obj, name, None))
        elif isinstance(obj, (list, tuple)):
            for x in obj:
                walk(x)
        elif isinstance(obj, dict):
            for x in obj.values():
                walk(x)

    walk(new)
    return new


def with_open_step(loaded: Any, ri: int, si: int) -> Any:
    """A shallow copy of a loaded scenario whose step (ri, si) has its rolls opened."""
    scn = loaded.scenario
    rnd = scn.rounds[ri]
    steps = list(rnd.steps)
    steps[si] = open_rolls(steps[si])
    rounds = list(scn.rounds)
    rounds[ri] = rnd.model_copy(update={"steps": steps})
    out = copy.copy(loaded)
    object.__setattr__(out, "scenario", scn.model_copy(update={"rounds": rounds}))
    return out
