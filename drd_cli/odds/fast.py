"""The fast exact method of `drd odds FILE STEP` for a core contest: one actor against any number
of harming counters, settled by the totals alone (docs/odds.md, "The fast method"; a test of
several actors: `fast_test`).

Once the actor's total is fixed, every counter either beats it or not, each independently of the
others (their dice are independent). Who beats the actor decides the step: the pairs are settled
from the highest total down, so every winner comes before every loser, and the first winner stops
the action. The method learns from the engine what each winner changes — the step resolved with
nobody winning, then with each counter alone winning — and models a set S of winners as:
  * each participant's Ohrožení: its value before the step plus the sum of what each winner in S
    changed (the value with nobody winning when S is empty);
  * an action's success and who is hit: whether any winner in S brought it about.
The model is checked against the engine on the step with every possible winner at once and on a
few random sets of winners; when the engine disagrees anywhere (an exhaustion, a rule refusing,
a re-roll, effects that do not add up), the method steps aside and the class method answers.

With the model the numbers are sums over the actor's totals (11 values) of products over the
counters: per actor total a polynomial convolution, no enumeration of the 11^n combinations.
Counts are integers over 6^dice until the end, so every number is an exact `Fraction`.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable

from .budget import Guard
from .classes import _classes
from .estimate import _NeedDice, _PlanDice, summarize

METHOD = "independent"
#: Random sets of winners the model is checked on, per class of the actor's total.
CHECKS = 3


class Model:
    """What the engine showed about a step: per class of the actor's total, the outcome with
    nobody winning and each counter's contribution as the only winner."""

    def __init__(self, actor: str, counters: list[str], pre: dict[str, int]):
        self.actor, self.counters, self.pre = actor, counters, pre
        self.groups: dict[tuple, dict] = {}
        self.resolutions = 0


#: Why the fast method did not answer a step (`why_not_fast` in the JSON; the words are in
#: cli/odds_cmd.py): a plugin hook that may decide from the dice, protecting counters, a plošná
#: counter, an obstacle, `tie: reroll`, a long action or follow-up, totals the file gives (or a
#: roller rolling twice), another kind of step, the engine disagreeing with the model on
#: a checked configuration, and the exhaust/cheapest policy (payments that depend on their order).
WHY = ("hooks", "protect", "area", "obstacle", "reroll", "long", "totals", "kind", "model", "policy")


def why_not(spec: Any, step_rec: dict, keyfn: Any, profile: Any, open_calls: list, offsets: list) -> str | None:
    """None when the step has the shape the fast contest method models, else why not (`WHY`)."""
    contest = getattr(spec, "contest", None)
    if contest is None or step_rec.get("kind") != "contest":
        return "kind"
    for c in contest.counters:
        if getattr(c, "protects", None) or c.kind != "harm":
            return "protect"
        if c.area:
            return "area"
        if c.obstacle is not None:
            return "obstacle"
    if profile.params.get("tie", "actor") not in ("actor", "counter"):
        return "reroll"
    a = contest.action
    if getattr(a, "long", None) or getattr(a, "followup", None) is not None:
        return "long"
    if keyfn is None or not getattr(keyfn, "split", False) or None in offsets or any(keyfn.cnt_consts):
        return "totals"
    return None if len(open_calls) >= 2 else "totals"


def applies(spec: Any, keyfn: Any, profile: Any, hooks: Any, open_calls: list, offsets: list,
            step_rec: dict | None = None) -> bool:
    """Whether the step has the shape the fast method models (else the class method answers)."""
    from .hooks import deciding_hooks

    if deciding_hooks(hooks):
        return False
    return why_not(spec, step_rec or {"kind": "contest"}, keyfn, profile, open_calls, offsets) is None


def fast_odds(run: Callable, open_calls: list, offsets: list, pre_state: Any, tie: str, act_consts: list[int],
              guard: Guard, model: Model | None = None) -> tuple[dict, Model] | None:
    """The step's numbers by the model (`Model`, learnt here or reused from an earlier variant of
    the same step and checked again), or None when the engine disagrees with the model."""
    rollers = [[(k + off, tuple(f), c) for k, f, c in _classes(call[0])] for call, off in zip(open_calls, offsets)]
    sizes = [6 ** call[0] for call in open_calls]
    wins = (lambda c, a: c > a) if tie == "actor" else (lambda c, a: c >= a)
    group_of = lambda a: tuple(a >= k for k in act_consts)  # noqa: E731
    actor_vals = sorted({t for t, _f, _c in rollers[0]})
    groups: dict[tuple, list[int]] = {}
    for t in actor_vals:
        groups.setdefault(group_of(t), []).append(t)
    if model is None:
        pre = {pid: ps.ohrozeni for pid, ps in pre_state.participants.items()}
        model = Model(open_calls[0][1], [c[1] for c in open_calls[1:]], pre)
        learn = True
    else:
        learn = False
    rng = random.Random(1)
    for g, avals in groups.items():
        if learn:
            got = _learn(run, rollers, avals, wins, model, guard)
            if got is None:
                return None
            model.groups[g] = got
        elif g not in model.groups:
            return None
        if not _check(run, rollers, avals, wins, model, model.groups[g], rng, guard, always=not learn):
            return None
    return _numbers(rollers, sizes, wins, group_of, model), model


def _plan(rollers: list, a: int, winners: set[int], wins: Callable,
          rng: random.Random | None = None) -> list[list[int]] | None:
    """Dice with which the actor rolls `a` and exactly the counters `winners` (indices) beat it:
    each counter's total nearest the actor's, or (`rng`) any that fits, so the checks also try
    totals the model was not learnt from."""
    plan = None
    for t, f, _c in rollers[0]:
        if t == a:
            plan = [list(f)]
            break
    if plan is None:
        return None
    for j, vals in enumerate(rollers[1:]):
        want = j in winners
        fit = [(t, f) for t, f, _c in vals if wins(t, a) == want]
        if not fit:
            return None
        if rng is not None:
            plan.append(list(rng.choice(fit)[1]))
        else:   # the total nearest the actor's: a winner just above it, a loser just below
            plan.append(list(min(fit)[1] if want else max(fit)[1]))
    return plan


def _outcome(run: Callable, plan: list, guard: Guard) -> dict | None:
    from ..errors import RuleViolation

    guard.check()
    try:
        rec, state = run(_PlanDice(plan))
    except (RuleViolation, _NeedDice):
        return None
    ohr, actions, hit, exh, pairs = summarize(rec, state)
    if exh:
        return None
    return {"ohr": dict(ohr), "success": dict(actions), "hit": set(hit), "pairs": dict(pairs)}


def _first_plan(rollers: list, avals: list[int], winners: set[int], wins: Callable) -> list | None:
    for a in reversed(avals):
        plan = _plan(rollers, a, winners, wins)
        if plan is not None:
            return plan
    return None


def _learn(run: Callable, rollers: list, avals: list[int], wins: Callable, model: Model, guard: Guard) -> dict | None:
    """The outcome with nobody winning and each counter's contribution as the only winner."""
    n = len(rollers) - 1
    out: dict[str, Any] = {"none": None, "each": {}}
    plan = _first_plan(rollers, avals, set(), wins)
    if plan is not None:
        model.resolutions += 1
        out["none"] = _outcome(run, plan, guard)
        if out["none"] is None:
            return None
    for j in range(n):
        if not any(wins(t, a) for a in avals for t, _f, _c in rollers[j + 1]):
            continue        # never beats the actor here: its contribution is never used
        plan = _first_plan(rollers, avals, {j}, wins)
        if plan is None:
            return None     # only wins together with another: not modelled
        model.resolutions += 1
        got = _outcome(run, plan, guard)
        if got is None:
            return None
        out["each"][j] = {"d": {pid: v - model.pre.get(pid, 0) for pid, v in got["ohr"].items()},
                          "success": {pid for pid, ok in got["success"].items() if ok}, "hit": got["hit"]}
    return out


def _predict(model: Model, g: dict, winners: set[int]) -> dict:
    if not winners:
        return g["none"]
    ohr = dict(model.pre)
    success: set[str] = set()
    hit: set[str] = set()
    for j in winners:
        e = g["each"][j]
        for pid, d in e["d"].items():
            ohr[pid] = ohr.get(pid, 0) + d
        success |= e["success"]
        hit |= e["hit"]
    names = g["names"]
    return {"ohr": ohr, "success": {pid: pid in success for pid in names}, "hit": hit,
            "pairs": {f"{model.actor} vs {c}": (c if j in winners else model.actor)
                      for j, c in enumerate(model.counters)}}


def _check(run: Callable, rollers: list, avals: list[int], wins: Callable, model: Model, g: dict,
           rng: random.Random, guard: Guard, always: bool) -> bool:
    """Compares the model with the engine: every possible winner at once, a few random sets of
    winners, and (`always`) nobody winning; True when they all agree."""
    n = len(rollers) - 1
    # The actions of the step (nobody winning never happens here: the actor's and the counters').
    g["names"] = list(g["none"]["success"]) if g["none"] is not None else [model.actor, *model.counters]
    sets: list[tuple[int, set[int]]] = []
    lo = avals[0]
    every = {j for j in range(n) if any(wins(t, lo) for t, _f, _c in rollers[j + 1])}
    if every:
        sets.append((lo, every))
    for _ in range(CHECKS):
        a = rng.choice(avals)
        can = [j for j in range(n) if any(wins(t, a) for t, _f, _c in rollers[j + 1])]
        must = {j for j in can if all(wins(t, a) for t, _f, _c in rollers[j + 1])}
        pick = {j for j in can if rng.random() < 0.5} | must
        if pick:
            sets.append((a, pick))
    if always and g["none"] is not None:
        sets.append((avals[-1], set()))
    for a, winners in sets:
        if any(j not in g["each"] for j in winners):
            return False
        plan = _plan(rollers, a, winners, wins, rng)
        if plan is None:
            continue
        model.resolutions += 1
        got = _outcome(run, plan, guard)
        if got is None:
            return False
        want = _predict(model, g, winners)
        if (got["ohr"] != want["ohr"] or got["success"] != want["success"] or got["hit"] != want["hit"]
                or got["pairs"] != want["pairs"]):
            return False
    return True


def _numbers(rollers: list, sizes: list[int], wins: Callable, group_of: Callable, model: Model) -> dict:
    """Every number of the step from the model, as integer weights over all dice, then Fractions."""
    n = len(rollers) - 1
    dc = 1
    for s in sizes[1:]:
        dc *= s
    denom = sizes[0] * dc
    ohr: dict[str, dict[int, int]] = {}
    success: dict[str, int] = {}
    hit: dict[str, int] = {}
    pairs: dict[str, dict[str, int]] = {}
    for a, _f, cnt in rollers[0]:
        g = model.groups[group_of(a)]
        w = [sum(c for t, _f2, c in rollers[j + 1] if wins(t, a)) for j in range(n)]
        lose = [sizes[j + 1] - w[j] for j in range(n)]
        q0 = 1
        for x in lose:
            q0 *= x
        for j, c in enumerate(model.counters):
            d = pairs.setdefault(f"{model.actor} vs {c}", {})
            win_w = cnt * w[j] * (dc // sizes[j + 1])
            d[c] = d.get(c, 0) + win_w
            d[model.actor] = d.get(model.actor, 0) + cnt * dc - win_w
        none = g["none"]
        for pid in model.pre:
            dist = ohr.setdefault(pid, {})
            if q0 and none is not None:
                v = none["ohr"][pid]
                dist[v] = dist.get(v, 0) + cnt * q0
            for s, wt in _sums(pid, g, w, lose, sizes, n).items():
                v = model.pre[pid] + s
                dist[v] = dist.get(v, 0) + cnt * wt
        for key, acc, field in (("success", success, "success"), ("hit", hit, "hit")):
            names = g["names"] if key == "success" else model.pre
            for pid in names:
                base = (none["success"].get(pid, False) if key == "success" else pid in none["hit"]) \
                    if none is not None else False
                avoid = 1
                for j in range(n):
                    e = g["each"].get(j)
                    brings = e is not None and pid in e[field]
                    avoid *= lose[j] if brings else sizes[j + 1]
                wt = (q0 if base else 0) + (dc - avoid)
                if key == "success" or wt:
                    acc[pid] = acc.get(pid, 0) + cnt * wt
    share = lambda v: Fraction(v, denom)  # noqa: E731
    return {
        "pairs": {k: {who: share(v) for who, v in sorted(d.items()) if v} for k, d in pairs.items()},
        "ohrozeni": {pid: {o: share(v) for o, v in sorted(d.items()) if v} for pid, d in ohr.items()},
        "success": {pid: share(v) for pid, v in success.items()},
        "hit": {pid: share(v) for pid, v in sorted(hit.items()) if v},
        "exhausts": {}, "exhaust_cost": {}, "exhaust_vs": {},
    }


def _sums(pid: str, g: dict, w: list[int], lose: list[int], sizes: list[int], n: int) -> dict[int, int]:
    """Weights of Σ (what each winner changes in `pid`'s Ohrožení) over the non-empty sets of
    winners: a convolution over the counters, one at a time (polynomial in their number)."""
    dist: dict[tuple[int, bool], int] = {(0, False): 1}
    for j in range(n):
        e = g["each"].get(j)
        d = e["d"].get(pid, 0) if e is not None else 0
        new: dict[tuple[int, bool], int] = {}
        for (s, ne), wt in dist.items():
            if w[j]:
                k = (s + d, True)
                new[k] = new.get(k, 0) + wt * w[j]
            if lose[j]:
                k = (s, ne)
                new[k] = new.get(k, 0) + wt * lose[j]
        dist = new
    return {s: wt for (s, ne), wt in dist.items() if ne}
