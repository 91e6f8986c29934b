"""The fast exact method of a core contest whose payments come in sequence (docs/odds.md, "The
fast method", exhaustion): one actor against harming counters under the `exhaust` or `cheapest`
policy, or with exhaustions the file writes for every pair alike.

Fix the actor's total. Every counter beats it or not on its own dice; the winners' pairs are
settled first, highest total first (R-ORDER), and the actor pays against each winner in turn
(CS-SEQ-1): each payment raises its Ohrožení, so whether the next one is affordable and what it
costs follow from the ones before. When every counter that can win does the same thing to the
actor (one *type*: the same action apart from who acts), the actor's side of the step depends only
on HOW MANY counters won — the k-th payment on the k-th place — and every other participant's on
its own role: it won, it lost while somebody won, or nobody won. The method learns these parts
from the engine (the step resolved with 0, 1, 2, … winners), checks the model on every possible
winner at once, on random winners with random totals (so random orders) and on nobody winning,
and steps aside (None) on any disagreement, so the class method answers instead.

The numbers are then sums over the actor's totals of Poisson-binomial weights: P(k winners) from
each counter's own chance of winning, and for "actor vs c" the chance that c is the i-th winner
(the others before it: a higher total, or the same one earlier in the file). Integer weights over
6^dice until the end, so every number is an exact `Fraction`.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable

from .budget import Guard
from .estimate import _NeedDice, _PlanDice

METHOD = "sequence"
#: Random sets of winners (with random totals, so random orders) checked per class of the actor's total.
CHECKS = 4

Part = tuple  # (Ohrožení, success or None, hit, exhaustions: ((vs, cost), …))
#: An outcome a rule refuses (a written exhaustion the payer cannot afford, R-EXH-4): with k
#: winners the actor's part, or the outcome with nobody winning.
REFUSED = "refused"


class _Missing(Exception):
    """A part the numbers need was never learnt."""


class _Rollers:
    """Each open roller's totals (total, faces, how many faces give it) and how a counter's total
    meets the actor's."""

    def __init__(self, open_calls: list, offsets: list, tie: str):
        from .classes import _classes

        self.rollers = [[(k + off, tuple(f), c) for k, f, c in _classes(call[0])]
                        for call, off in zip(open_calls, offsets)]
        self.sizes = [6 ** call[0] for call in open_calls]
        self.n = len(open_calls) - 1
        self.tie = tie

    def wins(self, t: int, a: int) -> bool:
        return t > a if self.tie == "actor" else t >= a

    def can(self, a: int) -> list[int]:
        return [j for j in range(self.n) if any(self.wins(t, a) for t, _f, _c in self.rollers[j + 1])]

    def must(self, a: int) -> list[int]:
        return [j for j in range(self.n) if all(self.wins(t, a) for t, _f, _c in self.rollers[j + 1])]

    def plan(self, a: int, winners: set[int], rng: random.Random | None = None) -> tuple[list, list[int]] | None:
        """Dice (and the counters' totals) with which the actor rolls `a` and exactly `winners` beat
        it: the totals nearest the actor's, or (`rng`) any that fit."""
        first = [f for t, f, _c in self.rollers[0] if t == a]
        if not first:
            return None
        plan, totals = [list(first[0])], []
        for j in range(self.n):
            want = j in winners
            fit = [(t, f) for t, f, _c in self.rollers[j + 1] if self.wins(t, a) == want]
            if not fit:
                return None
            t, f = rng.choice(fit) if rng is not None else (min(fit) if want else max(fit))
            plan.append(list(f))
            totals.append(t)
        return plan, totals

    def order(self, a: int, totals: list[int]) -> list[int]:
        """The winners in the order their pairs are settled: highest total first, then file order."""
        return sorted((j for j, t in enumerate(totals) if self.wins(t, a)), key=lambda j: (-totals[j], j))


class Seq:
    """What the engine showed, per class of the actor's total: the outcome with nobody winning, the
    actor's part with k winners, and every other participant's part by its role."""

    def __init__(self, actor: str, counters: list[str]):
        self.actor, self.counters = actor, counters
        self.none: dict[tuple, dict | None] = {}
        self.k: dict[tuple, dict[int, tuple]] = {}          # actor's part: (ohr, success, hit, ((pos, cost), …))
        self.role: dict[tuple, dict[tuple[str, bool], Part]] = {}   # (pid, won) → part
        self.resolutions = 0


def seq_odds(run: Callable, open_calls: list, offsets: list, tie: str, act_consts: list[int], types: list,
             guard: Guard, model: Seq | None = None) -> tuple[dict, Seq] | None:
    """The step's numbers by the sequence model, or None (with `guard.why`) when it does not fit.
    A `model` learnt on the step itself (what-if: a variant differs in one roller's dice) is only
    checked again, with fewer random winners; a class of the actor's total it lacks is learnt."""
    ro = _Rollers(open_calls, offsets, tie)
    if len(types) != ro.n or len(set(types)) > 1:
        guard.why = guard.why or "exhaustion"
        return None
    group_of = lambda a: tuple(a >= k for k in act_consts)  # noqa: E731
    groups: dict[tuple, list[int]] = {}
    for t in sorted({t for t, _f, _c in ro.rollers[0]}):
        groups.setdefault(group_of(t), []).append(t)
    whos = (open_calls[0][1], [c[1] for c in open_calls[1:]])
    if model is None or (model.actor, model.counters) != whos:
        model = Seq(*whos)
    rng = random.Random(1)
    for g, avals in groups.items():
        reused = g in model.k
        if not reused and not _learn(run, ro, g, avals, model, guard):
            return None
        if not _check(run, ro, g, avals, model, rng, guard, 1 if reused else CHECKS):
            return None
    try:
        return _numbers(ro, group_of, model), model
    except _Missing:
        guard.why = "model"
        return None


def _resolve(run: Callable, ro: _Rollers, model: Seq, a: int, plan: list, totals: list[int],
             guard: Guard) -> tuple[Any, list[int]] | None:
    """One resolution, in canonical form (`_canon`, or `REFUSED`), with its winners in settling order."""
    from ..errors import RuleViolation

    guard.check()
    model.resolutions += 1
    try:
        rec, state = run(_PlanDice(plan))
    except RuleViolation:
        return REFUSED, ro.order(a, totals)
    except _NeedDice:
        guard.why = "reroll"
        return None
    return _canon(rec, state), ro.order(a, totals)


def _canon(rec: dict, state: Any) -> dict:
    hit: set[str] = set()
    success: dict[str, bool] = {}
    for pid, act in rec.get("actions", {}).items():
        success[pid] = bool(act.get("success"))
        hit.update(act.get("affected") or [])
    return {"ohr": {pid: ps.ohrozeni for pid, ps in state.participants.items()}, "success": success, "hit": hit,
            "exh": [(e["by"], e.get("vs"), e.get("cost", 0)) for e in rec.get("exhaustions", [])],
            "pairs": {f"{p['actor']} vs {p['counter']}": p["winner"] for p in rec.get("pairs", [])}}


def _split(model: Seq, out: dict, order: list[int]) -> tuple[tuple, dict[str, Part]] | None:
    """The actor's part (its exhaustions by place among the winners) and every other one's."""
    names = [model.counters[j] for j in order]
    act_exh: list[tuple] = []
    others: dict[str, list] = {}
    for by, vs, cost in out["exh"]:
        if by == model.actor:
            act_exh.append((names.index(vs) + 1 if vs in names else vs, cost))
        elif vs in names:
            return None         # somebody else paying against a winner: not modelled
        else:
            others.setdefault(by, []).append((vs, cost))
    a = model.actor
    actor = (out["ohr"][a], out["success"].get(a), a in out["hit"], tuple(act_exh))
    parts = {pid: (o, out["success"].get(pid), pid in out["hit"], tuple(sorted(others.get(pid, []), key=repr)))
             for pid, o in out["ohr"].items() if pid != a}
    return actor, parts


def _learn(run: Callable, ro: _Rollers, g: tuple, avals: list[int], model: Seq, guard: Guard) -> bool:
    """Resolves the step with nobody winning and with k = 1, 2, … winners (and with each counter
    that can win winning and losing), recording the parts; False when two disagree."""
    model.k[g], model.role[g], model.none[g] = {}, {}, None
    for a in reversed(avals):
        got = ro.plan(a, set())
        if got is not None:
            res = _resolve(run, ro, model, a, *got, guard)
            if res is None:
                return False
            model.none[g] = res[0]
            break
    wanted: list[tuple[int, set[int]]] = []
    for k in range(1, ro.n + 1):
        for a in avals:
            must, can = ro.must(a), ro.can(a)
            if len(must) <= k <= len(can):
                wanted.append((a, set(must) | set([j for j in can if j not in must][:k - len(must)])))
                break
    for a, ws in wanted:
        if not _record(run, ro, g, a, ws, model, guard):
            return False
    # Every counter that can win seen winning, and losing while somebody else wins.
    for j in range(ro.n):
        for won in (True, False):
            if (model.counters[j], won) in model.role[g]:
                continue
            pick = _role_plan(ro, avals, j, won)
            if pick is not None and not _record(run, ro, g, pick[0], pick[1], model, guard):
                return False
    return _prefix_ok(model.k[g])


def _role_plan(ro: _Rollers, avals: list[int], j: int, won: bool) -> tuple[int, set[int]] | None:
    """The fewest winners with which counter j wins (or loses while somebody else wins): fewer
    payments, so the least likely to be refused."""
    best: tuple[int, set[int]] | None = None
    for a in avals:
        must, can = set(ro.must(a)), set(ro.can(a))
        if won and j in can:
            got = must | {j}
        elif not won and j not in must and (must or can - {j}):
            got = must or set(sorted(can - {j})[:1])
        else:
            continue
        if best is None or len(got) < len(best[1]):
            best = (a, got)
    return best


def _record(run: Callable, ro: _Rollers, g: tuple, a: int, winners: set[int], model: Seq, guard: Guard) -> bool:
    got = ro.plan(a, winners)
    if got is None:
        return True
    res = _resolve(run, ro, model, a, *got, guard)
    if res is None:
        return False
    k = len(res[1])
    if res[0] is REFUSED:
        if model.k[g].setdefault(k, REFUSED) != REFUSED:
            guard.why = "exhaustion"
            return False
        return True
    split = _split(model, *res)
    if split is None:
        guard.why = "exhaustion"
        return False
    actor, parts = split
    if model.k[g].setdefault(k, actor) != actor:
        guard.why = "exhaustion"    # the actor's side depends on who won, not only how many
        return False
    wset = {model.counters[j] for j in res[1]}
    for pid, part in parts.items():
        if model.role[g].setdefault((pid, pid in wset), part) != part:
            guard.why = "exhaustion"
            return False
    return True


def _prefix_ok(ks: dict[int, tuple]) -> bool:
    """The payment on the i-th place must not depend on how many winners follow it."""
    seen: dict[int, tuple] = {}
    refused = False
    for k in sorted(ks):
        if ks[k] is REFUSED:
            refused = True
            continue
        if refused:
            return False    # refused with fewer winners, not with more: not a sequence
        by_pos: dict[int, list] = {}
        for pos, cost in ks[k][3]:
            if isinstance(pos, int):
                by_pos.setdefault(pos, []).append(cost)
        for pos in range(1, k + 1):
            here = tuple(by_pos.get(pos, ()))
            if seen.setdefault(pos, here) != here:
                return False
    return True


def _predict(model: Seq, g: tuple, order: list[int]) -> Any:
    if not order:
        return model.none[g]
    actor = model.k[g].get(len(order))
    if actor is None or actor is REFUSED:
        return actor
    return predicted(model.actor, model.counters, actor,
                     ((pid, won, part) for (pid, won), part in model.role[g].items()), order)


def predicted(a: str, counters: list[str], actor: tuple, roles: Any, order: list[int]) -> dict:
    """The outcome the model gives when the counters `order` (indices) win, in that order: the
    actor's learnt part, and each other participant's part by its role (`roles`: (id, won, part))."""
    names = [counters[j] for j in order]
    wset = set(names)
    out: dict[str, Any] = {"ohr": {a: actor[0]}, "success": {}, "hit": {a} if actor[2] else set(),
                           "exh": [(a, names[pos - 1] if isinstance(pos, int) else pos, c) for pos, c in actor[3]],
                           "pairs": {f"{a} vs {c}": (c if c in wset else a) for c in counters}}
    if actor[1] is not None:
        out["success"][a] = actor[1]
    for pid, won, part in roles:
        if won != (pid in wset):
            continue
        out["ohr"][pid] = part[0]
        if part[1] is not None:
            out["success"][pid] = part[1]
        if part[2]:
            out["hit"].add(pid)
        out["exh"] += [(pid, vs, c) for vs, c in part[3]]
    return out


def _same(got: Any, want: Any) -> bool:
    if want is None or got is REFUSED or want is REFUSED:
        return got is want
    return (got["ohr"] == want["ohr"] and got["success"] == want["success"] and got["hit"] == want["hit"]
            and sorted(got["exh"], key=repr) == sorted(want["exh"], key=repr) and got["pairs"] == want["pairs"])


def _check(run: Callable, ro: _Rollers, g: tuple, avals: list[int], model: Any, rng: random.Random,
           guard: Guard, checks: int, predict: Callable | None = None, fewest: int = 0) -> bool:
    """The model against the engine: every possible winner at once, `checks` random winners on
    random totals, the fewest winners on the class's total `avals[fewest]` (also used by
    `fast_seq_types` with its own `predict`)."""
    predict = predict or _predict
    sets: list[tuple[int, set[int], random.Random | None]] = [(avals[0], set(ro.can(avals[0])), rng)]
    for _ in range(checks):
        a = rng.choice(avals)
        can, must = ro.can(a), set(ro.must(a))
        sets.append((a, {j for j in can if rng.random() < 0.6} | must, rng))
    sets.append((avals[fewest], set(ro.must(avals[fewest])), None))
    for a, winners, r in sets:
        got = ro.plan(a, winners, r)
        if got is None:
            continue
        res = _resolve(run, ro, model, a, *got, guard)
        if res is None:
            return False
        if not _same(res[0], predict(model, g, res[1])):
            guard.why = "model"
            return False
    return True


# --------------------------------------------------------------------------- the numbers

class _Acc:
    """Integer weights of every number the odds show (as `estimate._Agg`, but by parts)."""

    def __init__(self) -> None:
        self.ohr: dict[str, dict[int, int]] = {}
        self.success: dict[str, int] = {}
        self.hit: dict[str, int] = {}
        self.exhausts: dict[str, int] = {}
        self.cost_by: dict[str, int] = {}
        self.vs: dict[str, list[int]] = {}      # "by vs against" → [weight, Σ weight·cost]
        self.pairs: dict[str, dict[str, int]] = {}

    def part(self, pid: str, part: Part, w: int, vs: dict[str, int] | None = None) -> None:
        """`pid`'s part with weight w (its exhaustions against named participants)."""
        if not w:
            return
        ohr, ok, hit, exh = part
        d = self.ohr.setdefault(pid, {})
        d[ohr] = d.get(ohr, 0) + w
        if ok is not None:
            self.success[pid] = self.success.get(pid, 0) + (w if ok else 0)
        if hit:
            self.hit[pid] = self.hit.get(pid, 0) + w
        per_vs: dict[Any, int] = {}
        for v, c in exh:
            per_vs[v] = per_vs.get(v, 0) + c
        if exh:
            self.exhausts[pid] = self.exhausts.get(pid, 0) + w
            self.cost_by[pid] = self.cost_by.get(pid, 0) + w * sum(per_vs.values())
        for v, c in per_vs.items():
            if isinstance(v, int):
                continue        # against the v-th winner: counted by `_ranks`
            acc = self.vs.setdefault(f"{pid} vs {v}", [0, 0])
            acc[0] += w
            acc[1] += w * c

    def whole(self, out: dict, w: int) -> None:
        """A whole outcome (nobody winning) with weight w, except its pairs."""
        per: dict[str, list] = {}
        for by, vs, c in out["exh"]:
            per.setdefault(by, []).append((vs, c))
        for pid, o in out["ohr"].items():
            self.part(pid, (o, out["success"].get(pid), pid in out["hit"], tuple(per.get(pid, ()))), w)


def _poly(ws: list[tuple[int, int]], cap: int) -> list[int]:
    """Poisson-binomial weights of how many succeed ((succeed, fail) weights each), up to `cap`."""
    out = [1]
    for s, f in ws:
        new = [0] * min(len(out) + 1, cap + 1)
        for i, x in enumerate(out):
            if not x:
                continue
            if i < len(new):
                new[i] += x * f
            if i + 1 < len(new):
                new[i + 1] += x * s
        out = new
    return out


def _without(q: list[int], w: int, lose: int) -> list[int]:
    """The Poisson-binomial weights `q` with one member (weights w, lose) taken out again."""
    out = [0] * (len(q) - 1)
    if lose:
        prev = 0
        for i in range(len(out)):
            prev = out[i] = (q[i] - w * prev) // lose
    else:
        for i in range(len(out)):
            out[i] = q[i + 1] // w
    return out


def _numbers(ro: _Rollers, group_of: Callable, model: Seq) -> dict:
    """Every number of the step from the model, as integer weights over all dice, then Fractions."""
    dh = 1
    for s in ro.sizes[1:]:
        dh *= s
    acc = _Acc()
    refused = 0
    rk = _Ranks(ro)
    for a, _f, cnt in ro.rollers[0]:
        refused += _at(acc, rk, model, group_of(a), a, cnt, dh)
    out = _fractions(acc, ro.sizes[0] * dh)
    out["refused"] = Fraction(refused, ro.sizes[0] * dh)
    return out


def _part(table: dict, key: Any) -> Any:
    got = table.get(key)
    if got is None:
        raise _Missing(key)
    return got


def _at(acc: _Acc, rk: _Ranks, model: Seq, g: tuple, a: int, cnt: int, dh: int) -> int:
    """Adds the weights at actor total `a` (weight cnt); returns the weight a rule refuses."""
    ro = rk.ro
    a_id = model.actor
    w = [sum(c for t, _f2, c in ro.rollers[j + 1] if ro.wins(t, a)) for j in range(ro.n)]
    lose = [ro.sizes[j + 1] - w[j] for j in range(ro.n)]
    q = _poly(list(zip(w, lose)), ro.n)
    parts = model.k[g]
    none_ok = q[0] and model.none[g] is not REFUSED
    ok = [bool(none_ok)] + [bool(q[k]) and _part(parts, k) is not REFUSED for k in range(1, len(q))]
    refused = cnt * sum(x for x, good in zip(q, ok) if not good)
    if none_ok:
        acc.whole(_part(model.none, g), cnt * q[0])
    for k in range(1, len(q)):
        if ok[k]:
            acc.part(a_id, parts[k], cnt * q[k])
    for j, c in enumerate(model.counters):
        rest = _without(q, w[j], lose[j])           # the others: how many of them win
        won = cnt * w[j] * sum(x for i, x in enumerate(rest) if ok[i + 1])
        lost = cnt * lose[j] * sum(x for i, x in enumerate(rest) if i and ok[i])
        d = acc.pairs.setdefault(f"{a_id} vs {c}", {})
        d[c] = d.get(c, 0) + won
        d[a_id] = d.get(a_id, 0) + lost + (cnt * lose[j] * rest[0] if ok[0] else 0)
        if won:
            acc.part(c, _part(model.role[g], (c, True)), won)
        if lost:
            acc.part(c, _part(model.role[g], (c, False)), lost)
    some = cnt * sum(x for k, x in enumerate(q) if k and ok[k])
    for (pid, _won), part in model.role[g].items():
        if pid not in model.counters and some:
            acc.part(pid, part, some)
    bad = [k for k in range(1, len(q)) if q[k] and not ok[k]]
    _ranks(acc, rk, model, g, a, cnt, min(bad) if bad else ro.n + 2)
    return refused


def _places(ks: dict[int, Any]) -> dict[int, int]:
    """The actor's payments by place among the winners: place → total cost (a payment of 0 too)."""
    out: dict[int, int] = {}
    for k in sorted(ks, reverse=True):
        if ks[k] is REFUSED:
            continue
        per: dict[int, int] = {}
        for pos, cost in ks[k][3]:
            if isinstance(pos, int):
                per[pos] = per.get(pos, 0) + cost
        for pos, cost in per.items():
            out.setdefault(pos, cost)   # the same on every k (`_prefix_ok`)
    return out


class _Ranks:
    """Each counter's weights above / at least each total, and the 'how many come before c at
    total t' weights, which do not depend on the actor's total (memoised)."""

    def __init__(self, ro: _Rollers):
        self.ro = ro
        self.tots = [sorted((t, c) for t, _f, c in r) for r in ro.rollers[1:]]
        self.above: list[dict[int, int]] = []
        self.at_least: list[dict[int, int]] = []
        every = sorted({t for r in self.tots for t, _c in r})
        for r in self.tots:
            self.above.append({t: sum(c for u, c in r if u > t) for t in every})
            self.at_least.append({t: sum(c for u, c in r if u >= t) for t in every})
        self.memo: dict[tuple, list[int]] = {}

    def before(self, ci: int, t: int, a: int, cap: int, limit: int) -> list[int]:
        ro = self.ro
        key = (ci, t, cap) if limit >= ro.n + 1 else (ci, t, cap, a, limit)
        got = self.memo.get(key)
        if got is None:
            others = []
            for i in range(ro.n):
                if i != ci:
                    b = (self.at_least if i < ci else self.above)[i][t]
                    f = sum(c for u, c in self.tots[i] if ro.wins(u, a)) - b if len(key) > 3 else 0
                    others.append((b, f, ro.sizes[i + 1] - b - f))
            got = self.memo[key] = _before(others, cap, limit)
        return got


def _ranks(acc: _Acc, rk: _Ranks, model: Seq, g: tuple, a: int, cnt: int, limit: int) -> None:
    """'actor vs c': the chance that c wins on the i-th place and the actor pays there, for every i —
    the others before c (a higher total, or the same one earlier in the file) and after it counted
    by weight; outcomes a rule refuses (too many winners) left out."""
    places = _places(model.k[g])
    if not places:
        return
    cap = min(max(places), limit - 1) - 1
    for ci, name in enumerate(model.counters):
        p = s = 0
        for t, ct in rk.tots[ci]:
            if not rk.ro.wins(t, a):
                continue
            for r, x in enumerate(rk.before(ci, t, a, cap, limit)):
                cost = places.get(r + 1)
                if x and cost is not None:
                    p += ct * x
                    s += ct * x * cost
        if p:
            e = acc.vs.setdefault(f"{model.actor} vs {name}", [0, 0])
            e[0] += cnt * p
            e[1] += cnt * s


def _before(others: list[tuple[int, int, int]], cap: int, limit: int) -> list[int]:
    """Weights of how many of `others` (before, after, losing weights) come before, up to `cap`,
    over the outcomes with fewer than `limit` winners in all (c itself included)."""
    if limit >= len(others) + 2:
        return _poly([(b, f + lo) for b, f, lo in others], cap)
    # A 2-D Poisson-binomial: (before, after) with before + after + 1 < limit.
    dist = {(0, 0): 1}
    for b, f, lo in others:
        new: dict[tuple[int, int], int] = {}
        for (x, y), v in dist.items():
            for dx, dy, wt in ((0, 0, lo), (1, 0, b), (0, 1, f)):
                key = (x + dx, y + dy)
                if wt and key[0] + key[1] + 1 < limit and key[0] <= cap:
                    new[key] = new.get(key, 0) + v * wt
        dist = new
    out = [0] * (cap + 1)
    for (x, _y), v in dist.items():
        out[x] += v
    return out


def _fractions(acc: _Acc, denom: int) -> dict:
    """The numbers of `fast_numbers.as_fractions` and the payments: who pays, at what expected
    cost, against whom."""
    from .fast_numbers import as_fractions

    share = lambda v: Fraction(v, denom)  # noqa: E731
    out = as_fractions(acc, denom)
    out.update({
        "exhausts": {pid: share(v) for pid, v in sorted(acc.exhausts.items()) if v},
        "exhaust_cost": {pid: share(acc.cost_by[pid]) for pid, v in sorted(acc.exhausts.items()) if v},
        "exhaust_vs": {k: {"p": share(w), "cost": share(c)} for k, (w, c) in sorted(acc.vs.items()) if w},
    })
    return out
