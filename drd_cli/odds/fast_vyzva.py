"""The fast exact method of a výzva with protecting counters (CS-ENV-3; docs/odds.md, "A výzva").

The protecting counters roll first, each against the výzva's target: each one's roll passes it or
not, on its own dice. Fix those states (a protector who passed, one who did not, …): whom they
shield is then settled, and the rest of the výzva is a test of everybody who undergoes it and is
not shielded, each against the target on its own dice — the step `fast_test` answers, learnt
from the engine with the protectors held in those states. The numbers are the sum over the
protectors' states (at most `fast.MAX_STATES` combinations) of each state's chance times the
test's numbers. The dice are handed to the engine by who rolls them, so a participant the
protectors shield (who then does not roll) cannot shift anybody else's dice; one the model took
for shielded but whom the engine asks to roll stops the method (the class method answers).
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product
from typing import Any, Callable

from .budget import Guard
from .classes import _classes
from .estimate import _NeedDice
from .fast import MAX_STATES
from . import fast_test


class _WhoDice:
    """The faces of each roller, by who rolls them; a roll of anybody else is a die the plan did
    not fix (`_NeedDice`)."""

    name = "entered"

    def __init__(self, faces: dict[str, list[int]]):
        self.faces = faces

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        f = self.faces.get(who)
        if f is None or len(f) != n or purpose == "reroll":
            raise _NeedDice(n)
        return list(f)


class _LowestFor:
    """Seeded dice that give `low` participants their lowest faces (every protector fails, so
    everybody it could shield rolls) and remember every request (n, who, purpose, values)."""

    name = "seeded"

    def __init__(self, low: set[str], seed: int):
        self.low, self._rng = low, random.Random(seed)
        self.calls: list[tuple[int, str, str, list[int]]] = []

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        vals = [1] * n if who in self.low else [self._rng.randint(1, 6) for _ in range(n)]
        self.calls.append((n, who, purpose, vals))
        return vals


def fast_vyzva_odds(run: Callable, open_calls: list, offsets: list, target: int, guard: Guard, *, spec: Any,
                    keep_best: bool = False) -> dict | None:
    """The výzva's numbers, or None when the engine does not follow the model."""
    ch = spec.challenge
    shields = {c.actor: list(c.protects or [c.actor]) for c in ch.counters}
    found = _discover(run, open_calls, offsets, set(shields), keep_best, guard)
    if found is None:
        return None
    calls, offs = found
    rollers = [[(k + off, tuple(f), c) for k, f, c in _classes(call[0])] for call, off in zip(calls, offs)]
    sizes = [6 ** call[0] for call in calls]
    prot = [i for i, c in enumerate(calls) if c[1] in shields]
    rest = [i for i, c in enumerate(calls) if c[1] not in shields]
    per: list[list[tuple[bool, int, list]]] = []
    for i in prot:
        states = []
        for ok in (True, False):
            fit = [f for t, f, _c in rollers[i] if (t >= target) == ok]
            if fit:
                states.append((ok, sum(c for t, _f, c in rollers[i] if (t >= target) == ok), fit))
        per.append(states)
    combos = list(product(*per))
    if len(combos) > MAX_STATES:
        guard.why = "protect"
        return None
    denom = 1
    for i in prot:
        denom *= sizes[i]
    rng = random.Random(1)
    acc: dict[str, Any] = {}
    for combo in combos:
        weight = 1
        shielded: set[str] = set()
        fixed: dict[str, list] = {}
        for i, (ok, w, fit) in zip(prot, combo):
            weight *= w
            fixed[calls[i][1]] = fit
            if ok:
                shielded.update(shields[calls[i][1]])
        sub = [i for i in rest if calls[i][1] not in shielded]
        whos = [calls[i][1] for i in sub]

        def keyed(dice: Any, whos: list[str] = whos, fixed: dict[str, list] = fixed) -> Any:
            faces = {w: list(f) for w, f in zip(whos, dice._answers)}
            for who, fit in fixed.items():
                faces[who] = list(rng.choice(fit))
            return run(_WhoDice(faces))

        got = fast_test.fast_test_odds(keyed, [calls[i] for i in sub], [offs[i] for i in sub], target, guard)
        if got is None:
            if guard.why in (None, "reroll"):
                guard.why = "model"
            return None
        _add(acc, got, Fraction(weight, denom))
    acc["pairs"] = {}
    return acc


def _discover(run: Callable, open_calls: list, offsets: list, protectors: set[str], keep_best: bool,
              guard: Guard) -> tuple[list, list] | None:
    """The step's rollers with their bonuses: those the probe saw, and those a protector shielded
    in the probe (asked once more with every protector on its lowest roll)."""
    calls, offs = list(open_calls), list(offsets)
    seen = {c[1] for c in calls}
    dice = _LowestFor(protectors, 7)
    guard.check()
    try:
        rec = run(dice)[0]
    except Exception:   # a rule refusing these dice (or anything else): the probe's rollers only
        return calls, offs
    for n, who, purpose, vals in dice.calls:
        if who in seen or purpose == "reroll":
            continue
        r = rec.get("rolls", {}).get(who)
        if r is None or r.get("dice") != vals or r.get("total") is None:
            guard.why = "totals"
            return None
        kept = sum(sorted(vals, reverse=True)[:2]) if keep_best else sum(vals)
        calls.append((n, who, purpose, vals))
        offs.append(r["total"] - kept)
        seen.add(who)
    return calls, offs


def _add(acc: dict[str, Any], got: dict[str, Any], p: Fraction) -> None:
    """Adds the numbers of one combination of the protectors' states, weighted by its chance `p`
    (the combinations exclude one another, so chances and expected costs add up)."""
    for key in ("success", "hit", "exhausts", "exhaust_cost"):
        d = acc.setdefault(key, {})
        for pid, v in got.get(key, {}).items():
            d[pid] = d.get(pid, 0) + p * v
    ohr = acc.setdefault("ohrozeni", {})
    for pid, dist in got.get("ohrozeni", {}).items():
        mine = ohr.setdefault(pid, {})
        for o, v in dist.items():
            mine[o] = mine.get(o, 0) + p * v
    vs = acc.setdefault("exhaust_vs", {})
    for k, e in got.get("exhaust_vs", {}).items():
        mine = vs.setdefault(k, {"p": Fraction(0), "cost": Fraction(0)})
        mine["p"] += p * e["p"]
        mine["cost"] += p * e["cost"]
