"""The fast exact method for a test (zkouška) of one or many actors (docs/odds.md, "The fast method").

Each actor's roll either reaches the test's target or not, independently of the others; who
reached it decides the step. The engine is asked with nobody reaching it, with each actor alone,
and with everybody who can; then one of three shapes must explain every answer it gave (and a few
random groups more), or the class method answers instead:
  * `each` — everything adds up from nobody's success: each actor's own success changes what it
    changes (one actor alone, or `mode: individual`);
  * `any` — the step ends one way when nobody succeeds and another when anybody does (`mode: any`);
  * `all` — one way when everybody succeeds and another otherwise (`mode: all`).
The numbers are then products over the actors: polynomial in their number.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable

from .budget import Guard
from .classes import _classes
from .estimate import _Agg
from .fast import CHECKS, MAX_SPECIAL, _outcome

METHOD = "independent"


def why_not(spec: Any, step_rec: dict, open_calls: list, offsets: list) -> str | None:
    """None for a core test whose every actor rolls here once each, or a výzva without counters
    whose every roll is open (each roller against the target); else why the class method answers."""
    whos = [c[1] for c in open_calls]
    kind = step_rec.get("kind")
    if None in offsets or len(set(whos)) != len(whos):
        return "totals"
    if kind == "test" and getattr(spec, "test", None) is not None:
        from .fast import rolled_followup

        test = spec.test
        if rolled_followup(test):
            return "followup"
        actors = list(test.actors) if test.actors else [test.actor]
        return None if whos and sorted(whos) == sorted(actors) else "totals"
    if kind == "challenge" and getattr(spec, "challenge", None) is not None:
        ch = spec.challenge
        if ch.counters:
            return _protected_why_not(ch, whos)
        rolled = set(step_rec.get("rolls") or {})
        return None if whos and rolled == set(whos) else "totals"
    return "kind"


def _protected_why_not(ch: Any, whos: list[str]) -> str | None:
    """A výzva with protecting counters (`fast_vyzva`): each protector a counter of its own, at most
    `fast.MAX_SPECIAL` of them rolling here."""
    protectors = [c.actor for c in ch.counters]
    if len(set(protectors)) != len(protectors):
        return "totals"
    return "protect" if len([w for w in whos if w in protectors]) > MAX_SPECIAL else None


def applies(spec: Any, step_rec: dict, profile: Any, open_calls: list, offsets: list) -> bool:
    """A core test whose every actor rolls here, once each, or a výzva (else the class method answers)."""
    return why_not(spec, step_rec, open_calls, offsets) is None


def target_of(spec: Any, profile: Any) -> int:
    part = spec.test if getattr(spec, "test", None) is not None else spec.challenge
    t = part.target
    if t is None:
        t = profile.params.get("target", 9)
    return t if isinstance(t, int) else 9


def fast_test_odds(run: Callable, open_calls: list, offsets: list, target: int, guard: Guard) -> dict | None:
    """The step's numbers, or None when no shape explains what the engine answered."""
    rollers = [[(k + off, tuple(f), c) for k, f, c in _classes(call[0])] for call, off in zip(open_calls, offsets)]
    sizes = [6 ** call[0] for call in open_calls]
    n = len(rollers)
    passes = [sum(c for t, _f, c in r if t >= target) for r in rollers]
    can = {j for j in range(n) if passes[j]}
    must = {j for j in range(n) if passes[j] == sizes[j]}
    rng = random.Random(1)

    def outcome(winners: set[int]) -> dict | None:
        plan = []
        for j, vals in enumerate(rollers):
            fit = [f for t, f, _c in vals if (t >= target) == (j in winners)]
            if not fit:
                return None
            plan.append(list(rng.choice(fit)))
        return _outcome(run, plan, guard, keep_exh=True)

    learnt: dict[frozenset, dict] = {}
    for s in [must, *({j} | must for j in sorted(can - must)), can]:
        key = frozenset(s)
        if key not in learnt:
            got = outcome(set(s))
            if got is None:
                return None
            learnt[key] = got
    for _ in range(CHECKS):
        s = must | {j for j in can if rng.random() < 0.5}
        key = frozenset(s)
        if key not in learnt:
            got = outcome(s)
            if got is None:
                return None
            learnt[key] = got
    none, full = learnt[frozenset(must)], learnt[frozenset(can)]
    for shape in (_each, _any, _all):
        predict = shape(learnt, must, can)
        if predict is not None and all(_same(predict(set(s)), o) for s, o in learnt.items()):
            try:
                return _numbers(shape.__name__, rollers, sizes, passes, learnt, must, none, full)
            except _Mixed:
                return None
    guard.why = "exhaustion" if any(o["exh"] for o in learnt.values()) else "model"
    return None


def _same(a: dict, b: dict) -> bool:
    return a["ohr"] == b["ohr"] and a["success"] == b["success"] and a["hit"] == b["hit"] and a["exh"] == b["exh"]


def _each(learnt: dict, must: set[int], can: set[int]) -> Callable | None:
    none = learnt[frozenset(must)]
    alone = {j: learnt[frozenset({j} | must)] for j in can - must}
    owners = _exhaustion_owners(none, alone)
    if owners is None:
        return None

    def predict(s: set[int]) -> dict:
        ohr = dict(none["ohr"])
        success = dict(none["success"])
        hit = set(none["hit"])
        for j in s - must:
            o = alone[j]
            for pid, v in o["ohr"].items():
                ohr[pid] = ohr.get(pid, 0) + v - none["ohr"].get(pid, 0)
            for pid, ok in o["success"].items():
                success[pid] = success.get(pid, False) or ok
            hit |= o["hit"]
        # An exhaustion is bought off a failure: it goes with its actor's success.
        exh = tuple(e for e, j in zip(none["exh"], owners) if j is None or j not in s)
        return {"ohr": ohr, "success": success, "hit": hit, "exh": exh}

    return predict


def _exhaustion_owners(none: dict, alone: dict[int, dict]) -> list[int | None] | None:
    """For each exhaustion with nobody succeeding, the actor whose success alone takes it away
    (None: nobody's); None when an actor's success adds one or takes away several actors'."""
    owners: list[int | None] = []
    for e in none["exh"]:
        gone = [j for j, o in alone.items() if e not in o["exh"]]
        if len(gone) > 1:
            return None
        owners.append(gone[0] if gone else None)
    if any(e not in none["exh"] for o in alone.values() for e in o["exh"]):
        return None
    return owners


def _any(learnt: dict, must: set[int], can: set[int]) -> Callable | None:
    none, full = learnt[frozenset(must)], learnt[frozenset(can)]
    return lambda s: full if s else none


def _all(learnt: dict, must: set[int], can: set[int]) -> Callable | None:
    none, full = learnt[frozenset(must)], learnt[frozenset(can)]
    return lambda s: full if s == can else none


def _numbers(shape: str, rollers: list, sizes: list[int], passes: list[int], learnt: dict, must: set[int],
             none: dict, full: dict) -> dict:
    n = len(rollers)
    total = 1
    for s in sizes:
        total *= s
    fails = [sizes[j] - passes[j] for j in range(n)]
    share = lambda v: Fraction(v, total)  # noqa: E731
    if shape != "_each":
        q_none = 1
        q_full = 1
        for j in range(n):
            q_none *= fails[j] if j not in must else passes[j]
            q_full *= passes[j] if passes[j] else fails[j]
        w_full = total - q_none if shape == "_any" else q_full
        agg = _Agg()
        for o, w in ((none, total - w_full), (full, w_full)):
            if w:
                agg.add((tuple(o["ohr"].items()), tuple(o["success"].items()), tuple(sorted(o["hit"])), o["exh"], ()), w)
        out = agg.result(share)
        out["pairs"] = {}
        return out
    dist = _each_numbers(n, sizes, passes, fails, learnt, must, none, total)
    return {"pairs": {},
            "ohrozeni": {pid: {o: share(v) for o, v in sorted(d.items()) if v} for pid, d in dist["ohr"].items()},
            "success": {pid: share(v) for pid, v in dist["success"].items()},
            "hit": {pid: share(v) for pid, v in sorted(dist["hit"].items()) if v},
            **_each_exhaustions(none, learnt, must, sizes, fails, total, share)}


def _each_exhaustions(none: dict, learnt: dict, must: set[int], sizes: list[int], fails: list[int], total: int,
                      share: Callable) -> dict:
    """Who exhausts, at what expected cost, against whom: each exhaustion is there exactly when its
    actor fails (or always, when nobody's success takes it away)."""
    alone = {j: learnt[frozenset({j} | must)] for j in range(len(sizes)) if frozenset({j} | must) in learnt
             and j not in must}
    owners = _exhaustion_owners(none, alone) or []
    weight = lambda j: total if j is None else total // sizes[j] * fails[j]  # noqa: E731
    by_owner: dict[str, set] = {}
    vs_owner: dict[str, set] = {}
    cost_by: dict[str, int] = {}
    cost_vs: dict[str, int] = {}
    for (by, vs, cost), j in zip(none["exh"], owners):
        by_owner.setdefault(by, set()).add(j)
        vs_owner.setdefault(f"{by} vs {vs}", set()).add(j)
        cost_by[by] = cost_by.get(by, 0) + weight(j) * cost
        cost_vs[f"{by} vs {vs}"] = cost_vs.get(f"{by} vs {vs}", 0) + weight(j) * cost

    def chance(js: set) -> int:
        if len(js) != 1:        # exhaustions of one payer for several actors' failures
            raise _Mixed
        return weight(next(iter(js)))

    return {"exhausts": {by: share(chance(js)) for by, js in sorted(by_owner.items())},
            "exhaust_cost": {by: share(c) for by, c in sorted(cost_by.items())},
            "exhaust_vs": {k: {"p": share(chance(js)), "cost": share(cost_vs[k])} for k, js in sorted(vs_owner.items())}}


class _Mixed(Exception):
    """One payer's exhaustions go with several actors' failures: not modelled (the class method)."""


def _each_numbers(n: int, sizes: list[int], passes: list[int], fails: list[int], learnt: dict, must: set[int],
                  none: dict, total: int) -> dict:
    """Each participant's Ohrožení as a convolution over the actors, success and hit as "any of
    those who bring it about succeeds" (a product of the others failing)."""
    alone = {j: learnt[frozenset({j} | must)] for j in range(n) if passes[j] and j not in must}
    ohr: dict[str, dict[int, int]] = {}
    for pid, base in none["ohr"].items():
        dist = {base: 1}
        for j in range(n):
            d = alone[j]["ohr"].get(pid, 0) - base if j in alone else 0
            new: dict[int, int] = {}
            for v, w in dist.items():
                if j in alone:
                    new[v + d] = new.get(v + d, 0) + w * passes[j]
                    new[v] = new.get(v, 0) + w * fails[j]
                else:
                    new[v] = new.get(v, 0) + w * sizes[j]
            dist = new
        ohr[pid] = dist
    out: dict[str, dict[str, int]] = {"success": {}, "hit": {}}
    for key in ("success", "hit"):
        names = none["success"] if key == "success" else none["ohr"]
        for pid in names:
            base = none["success"].get(pid, False) if key == "success" else pid in none["hit"]
            if base:
                out[key][pid] = total
                continue
            avoid = 1
            for j in range(n):
                brings = j in alone and (alone[j]["success"].get(pid, False) if key == "success"
                                         else pid in alone[j]["hit"])
                avoid *= fails[j] if brings else sizes[j]
            out[key][pid] = total - avoid
    return {"ohr": ohr, "success": out["success"], "hit": out["hit"]}
