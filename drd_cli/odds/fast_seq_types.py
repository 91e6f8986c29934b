"""The sequence method (`odds.fast_seq`) for harming counters of several types: the actor's side
of the step depends on the sequence of TYPES of the winners in settling order (highest total
first, then file order), every other participant's on its own role.

The counters are grouped into runs of consecutive counters (file order) with the same type and
the same dice; members of a run are interchangeable. For a total of the actor, a walk over the
counters' totals from the highest down holds states (the type sequence placed so far, how many
members of each run are left); at a total t each run in file order places k of its r members
(weight C(r, k)·p(t)^k), so the order of the types within one total follows from the counts; at
the end the members left lose (weight P(loses)^r). For the numbers against one counter c the walk
is done with c split out of its run and marked. The actor's part for a type sequence is learnt
from the engine (a resolution with exactly such winners in that order), memoised, and checked on
random winners as the one-type method is; a walk of more than `STATES` states steps aside.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb, prod
from typing import Any, Callable

from .budget import Guard
from .fast_seq import (
    CHECKS,
    REFUSED,
    predicted,
    Seq,
    _Acc,
    _check,
    _fractions,
    _Missing,
    _resolve,
    _Rollers,
    _same,
    _split,
)

#: The most states a walk over the totals may hold before the method steps aside.
STATES = 2000


class _Stop(Exception):
    """The model does not fit (`guard.why` says why)."""


class TSeq(Seq):
    """What the engine showed, per class of the actor's total: the actor's part by the type
    sequence of the winners, every other participant's part by its role."""

    def __init__(self, actor: str, counters: list[str], tids: list[int]):
        super().__init__(actor, counters)
        self.tids = tids
        self.tseq: dict[tuple, Any] = {}      # (class, type sequence) → actor's part or REFUSED
        self.troles: dict[tuple, tuple] = {}  # (class, pid, won) → part


def types_odds(run: Callable, open_calls: list, offsets: list, tie: str, act_consts: list[int], types: list,
               guard: Guard, model: Any = None) -> tuple[dict, TSeq] | None:
    """The step's numbers with counters of several types, or None (with `guard.why`)."""
    ro = _Rollers(open_calls, offsets, tie)
    if len(types) != ro.n:
        guard.why = guard.why or "exhaustion"
        return None
    group_of = lambda a: tuple(a >= k for k in act_consts)  # noqa: E731
    groups: dict[tuple, list[int]] = {}
    for t in sorted({t for t, _f, _c in ro.rollers[0]}):
        groups.setdefault(group_of(t), []).append(t)
    whos = (open_calls[0][1], [c[1] for c in open_calls[1:]])
    ids: dict[Any, int] = {}
    tids = [ids.setdefault(t, len(ids)) for t in types]
    reused = isinstance(model, TSeq) and (model.actor, model.counters, model.tids) == (*whos, tids)
    if not reused:
        model = TSeq(whos[0], whos[1], tids)
    try:
        out = _numbers(run, ro, model, group_of, guard)
        rng = random.Random(1)
        for g, avals in groups.items():
            if not _check(run, ro, g, avals, model, rng, guard, 1 if reused else CHECKS, _predict, -1):
                raise _Stop
    except _TooMany:
        guard.why = guard.why or "exhaustion"
        return None
    except _Missing:
        guard.why = "model"
        return None
    except _Stop:
        guard.why = guard.why or "model"
        return None
    return out, model


class _TooMany(Exception):
    """A walk over the totals holds more than `STATES` states."""


# --------------------------------------------------------------------------- learning

def _record(run: Callable, ro: _Rollers, model: TSeq, g: tuple, a: int, got: tuple[list, list[int]] | None,
            guard: Guard) -> None:
    """Resolves the plan `got` and records what it shows; `_Stop` on a disagreement."""
    if got is None:
        return
    res = _resolve(run, ro, model, a, got[0], got[1], guard)
    if res is None:
        raise _Stop
    out, order = res
    if not order:
        if not _same(out, model.none.setdefault(g, out)):
            guard.why = "exhaustion"
            raise _Stop
        return
    key = (g, tuple(model.tids[j] for j in order))
    if out is REFUSED:
        if model.tseq.setdefault(key, REFUSED) is not REFUSED:
            guard.why = "exhaustion"
            raise _Stop
        return
    split = _split(model, out, order)
    if split is None or model.tseq.setdefault(key, split[0]) != split[0]:
        guard.why = "exhaustion"
        raise _Stop
    wset = {model.counters[j] for j in order}
    for pid, part in split[1].items():
        if model.troles.setdefault((g, pid, pid in wset), part) != part:
            guard.why = "exhaustion"
            raise _Stop


def _plan_for(ro: _Rollers, tids: list[int], a: int, s: tuple) -> tuple[list, list[int]] | None:
    """Dice with which the actor rolls `a` and the winners' types come in the order `s`."""
    must = set(ro.must(a))
    chosen: dict[int, int] = {}

    def place(i: int, prev: tuple[int, int] | None) -> bool:
        if i == len(s):
            return must <= set(chosen)
        for j in range(ro.n):
            if j in chosen or tids[j] != s[i]:
                continue
            for t in sorted({t for t, _f, _c in ro.rollers[j + 1] if ro.wins(t, a)}, reverse=True):
                if prev is not None and (t > prev[0] or (t == prev[0] and j < prev[1])):
                    continue
                chosen[j] = t       # the highest total that fits leaves the most room after it
                if place(i + 1, (t, j)):
                    return True
                del chosen[j]
                break
        return False

    if not place(0, None):
        return None
    first = [f for t, f, _c in ro.rollers[0] if t == a]
    if not first:
        return None
    plan, totals = [list(first[0])], []
    for j in range(ro.n):
        want = chosen.get(j)
        fit = [(t, f) for t, f, _c in ro.rollers[j + 1]
               if (t == want if want is not None else not ro.wins(t, a))]
        if not fit:
            return None
        t, f = max(fit)
        plan.append(list(f))
        totals.append(t)
    return plan, totals


def _actor_part(run: Callable, ro: _Rollers, model: TSeq, g: tuple, a: int, s: tuple, guard: Guard) -> Any:
    if not s:
        if g not in model.none:
            _record(run, ro, model, g, a, ro.plan(a, set()), guard)
        if g not in model.none:
            raise _Missing(g)
        return model.none[g]
    if (g, s) not in model.tseq:
        _record(run, ro, model, g, a, _plan_for(ro, model.tids, a, s), guard)
    if (g, s) not in model.tseq:
        raise _Missing((g, s))
    return model.tseq[(g, s)]


def _role(run: Callable, ro: _Rollers, model: TSeq, g: tuple, a: int, j: int, won: bool, guard: Guard) -> tuple:
    key = (g, model.counters[j], won)
    if key not in model.troles:
        must, can = set(ro.must(a)), set(ro.can(a))
        winners = must | {j} if won else (must or set(sorted(can - {j})[:1]))
        if (j in winners) == won and winners:
            _record(run, ro, model, g, a, ro.plan(a, winners), guard)
    if key not in model.troles:
        raise _Missing(key)
    return model.troles[key]


def _predict(model: TSeq, g: tuple, order: list[int]) -> Any:
    if not order:
        return model.none.get(g)
    actor = model.tseq.get((g, tuple(model.tids[j] for j in order)))
    if actor is None or actor is REFUSED:
        return actor
    return predicted(model.actor, model.counters, actor,
                     ((pid, won, part) for (gg, pid, won), part in model.troles.items() if gg == g), order)


# --------------------------------------------------------------------------- the walk

def _runs(ro: _Rollers, tids: list[int], split: int | None = None) -> list[tuple[int, int, dict[int, int]]]:
    """(type, or -1 - type for the counter split out; members; each member's weight by total)."""
    out: list[tuple[int, int, dict[int, int]]] = []
    for j in range(ro.n):
        dist: dict[int, int] = {}
        for t, _f, c in ro.rollers[j + 1]:
            dist[t] = dist.get(t, 0) + c
        e = -1 - tids[j] if j == split else tids[j]
        if out and j != split and j - 1 != split and out[-1][0] == e and out[-1][2] == dist:
            out[-1] = (e, out[-1][1] + 1, dist)
        else:
            out.append((e, 1, dist))
    return out


def _walk(ro: _Rollers, runs: list[tuple[int, int, dict[int, int]]], a: int) -> dict[tuple, int]:
    """Weights of every type sequence of the winners when the actor rolls `a`."""
    tots = sorted({t for _e, _r, d in runs for t in d if ro.wins(t, a)}, reverse=True)
    states: dict[tuple, int] = {((), tuple(r for _e, r, _d in runs)): 1}
    for t in tots:
        for gi, (e, _r, d) in enumerate(runs):
            p = d.get(t, 0)
            if not p:
                continue
            new: dict[tuple, int] = {}
            for (seq, rem), w in states.items():
                r = rem[gi]
                for k in range(r + 1):
                    key = (seq + (e,) * k, rem[:gi] + (r - k,) + rem[gi + 1:])
                    new[key] = new.get(key, 0) + w * comb(r, k) * p ** k
            states = new
            if len(states) > STATES:
                raise _TooMany
    lose = [sum(c for t, c in d.items() if not ro.wins(t, a)) for _e, _r, d in runs]
    out: dict[tuple, int] = {}
    for (seq, rem), w in states.items():
        w *= prod(lose[gi] ** r for gi, r in enumerate(rem))
        if w:
            out[seq] = out.get(seq, 0) + w
    return out


def _numbers(run: Callable, ro: _Rollers, model: TSeq, group_of: Callable, guard: Guard) -> dict:
    """Every number of the step, as integer weights over all dice, then Fractions."""
    acc, refused, actor = _Acc(), 0, model.actor
    full = _runs(ro, model.tids)
    splits = [_runs(ro, model.tids, j) for j in range(ro.n)]
    for a, _f, cnt in ro.rollers[0]:
        g = group_of(a)
        some = 0
        for s, w in _walk(ro, full, a).items():
            part = _actor_part(run, ro, model, g, a, s, guard)
            if part is REFUSED:
                refused += cnt * w
            elif not s:
                acc.whole(part, cnt * w)
            else:
                acc.part(actor, part, cnt * w)
                some += cnt * w
        for (gg, pid, _won), part in list(model.troles.items()):
            if gg == g and pid not in model.counters:
                acc.part(pid, part, some)
        for j, c in enumerate(model.counters):
            _against(run, ro, model, g, a, j, splits[j], cnt, acc, guard)
    dh = prod(ro.sizes[1:])
    out = _fractions(acc, ro.sizes[0] * dh)
    out["refused"] = Fraction(refused, ro.sizes[0] * dh)
    return out


def _against(run: Callable, ro: _Rollers, model: TSeq, g: tuple, a: int, j: int, runs: list, cnt: int,
             acc: _Acc, guard: Guard) -> None:
    """The numbers of 'actor vs c' and c's own part, by the walk with c split out and marked."""
    actor, c = model.actor, model.counters[j]
    mark = -1 - model.tids[j]
    d = acc.pairs.setdefault(f"{actor} vs {c}", {})
    for s, w in _walk(ro, runs, a).items():
        plain = tuple(-1 - e if e < 0 else e for e in s)
        part = _actor_part(run, ro, model, g, a, plain, guard)
        if part is REFUSED:
            continue
        wt = cnt * w
        if mark in s:
            d[c] = d.get(c, 0) + wt
            acc.part(c, _role(run, ro, model, g, a, j, True, guard), wt)
            pos = s.index(mark) + 1
            costs = [cost for p, cost in part[3] if p == pos]
            if costs:
                e = acc.vs.setdefault(f"{actor} vs {c}", [0, 0])
                e[0] += wt
                e[1] += wt * sum(costs)
        else:
            d[actor] = d.get(actor, 0) + wt
            if s:
                acc.part(c, _role(run, ro, model, g, a, j, False, guard), wt)


