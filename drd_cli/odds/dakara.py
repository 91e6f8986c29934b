"""`drd odds FILE STEP` of a Dakara file: the exact odds of one skill step over its dice.

The step is resolved by Dakara's own engine for every value of every die it rolls (the player's
and the narrator's d6, and each helper's), with the dice the file gives for that step left open
and the steps before it as the file (and `--seed`) makes them. A skill step rolls a few d6, so
this is at most a few thousand resolutions of a small file; past `MAX_RESOLUTIONS` or the time and
memory `Guard` the command refuses rather than guess (docs/odds.md, "Dakara").
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from .budget import Guard, OverBudget

METHOD = "dakara-dice"
#: Most resolutions of the file an exact answer may take (6^5 = 7,776: five dice).
MAX_RESOLUTIONS = 8000


class TooManyDice(Exception):
    """The step rolls more dice than an exact answer may enumerate."""


class _Replay:
    """The dice of the steps before (recorded), then the planned values of the step's own dice;
    one more die than planned raises `_More`."""

    name = "entered"

    def __init__(self, before: list[int], plan: list[int]):
        self._values = before + plan
        self._i = 0

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        if self._i + n > len(self._values):
            raise _More()
        out = self._values[self._i:self._i + n]
        self._i += n
        return out


class _More(Exception):
    pass


class _Recorder:
    name = "seeded"

    def __init__(self, seed: int):
        self._rng = random.Random(seed)
        self.values: list[int] = []

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        vals = [self._rng.randint(1, 6) for _ in range(n)]
        self.values += vals
        return vals


def dakara_step_odds(loaded: Any, step_id: str, *, seed: int = 0, params: dict | None = None,
                     enable: tuple[str, ...] = (), disable: tuple[str, ...] = (), group: str | None = None,
                     time_limit: float | None = None, **_ignored: Any) -> dict[str, Any]:
    """{"step", "system": "dakara", "method", "exact": True, "open_dice", "resolutions",
    "outcomes": [{"outcome", "complication", "injury", "p"}], "dead", "refused", "risk"}."""
    from ..api import setup_rules
    from ..dakara.engine import resolve_dakara
    from ..errors import RuleViolation
    from .step import find_step

    setup = setup_rules(loaded, params=params, enable=enable, disable=disable, group=group)
    rule_params = dict(setup.profile.params)
    scn = loaded.scenario
    ri, si = find_step(scn, step_id)
    step = scn.rounds[ri].steps[si]
    opened = step.model_copy(update={"skill": step.skill.model_copy(update={"dice": None, "helper_dice": {}})})
    rnd = scn.rounds[ri]
    before = scn.model_copy(update={"rounds": [*scn.rounds[:ri], rnd.model_copy(update={"steps": rnd.steps[:si]})]})
    upto = scn.model_copy(update={"rounds": [*scn.rounds[:ri],
                                             rnd.model_copy(update={"steps": [*rnd.steps[:si], opened]})]})
    rec = _Recorder(seed)
    resolve_dakara(before, rule_params, rec, seed)
    guard = Guard(None if time_limit is None else max(10.0, 4 * time_limit))
    outcomes: dict[tuple, Fraction] = {}
    dead = refused = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    resolutions = most = 0
    while stack:
        plan, p = stack.pop()
        resolutions += 1
        if resolutions > MAX_RESOLUTIONS:
            raise TooManyDice()
        try:
            guard.check()
        except OverBudget:
            raise TooManyDice() from None
        try:
            res = resolve_dakara(upto, rule_params, _Replay(rec.values, plan), seed)
        except _More:
            stack.extend((plan + [v], p / 6) for v in range(6, 0, -1))
            continue
        except RuleViolation:
            refused += p
            continue
        most = max(most, len(plan))
        st = res["steps"][-1]
        key = (st.get("outcome"), st.get("complication") or "none", st.get("injury") or 0)
        outcomes[key] = outcomes.get(key, Fraction(0)) + p
        if st.get("dead"):
            dead += p
    order = ("auto-success", "success", "win", "draw", "failure", "loss", "withdrawn", "impossible")
    rank = {o: i for i, o in enumerate(order)}
    comp = {"none": 0, "mild": 1, "serious": 2}
    rows = [{"outcome": o, "complication": c, "injury": i, "p": q}
            for (o, c, i), q in sorted(outcomes.items(),
                                       key=lambda kv: (rank.get(kv[0][0], 99), comp.get(kv[0][1], 9), kv[0][2]))]
    return {"step": step_id, "system": "dakara", "kind": "skill", "method": METHOD, "exact": True,
            "open_dice": most, "resolutions": resolutions, "risk": step.skill.risk,
            "outcomes": rows, "dead": dead, "refused": refused}
