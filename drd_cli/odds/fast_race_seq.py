"""The fast exact method of a race (CS-RACE-1) whose racers pay in sequence (docs/odds.md): under
the `exhaust` or `cheapest` policy, or with one written answer for every racer's decisions.

A racer pays first against the obstacle (its total below the target), then against each faster
racer, fastest first (ties in the order of `actors`); each payment raises its own Ohrožení, so
what the next one costs follows. Every racer does the same action, so a racer's own outcome
depends only on its side of the target and on HOW MANY racers were faster — the same structure as
a contest's attacker (`fast_seq`), whose core this uses: the parts are learnt from the engine per
(racer, side, number faster) — racers alike before the step (the same Ohrožení, pools, items …,
whatever their bonus) share theirs —, checked on random totals, and the numbers are Poisson-binomial
weights per racer and total; "racer vs faster racer" counts who comes before it.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable

from .budget import Guard
from .estimate import planned_run
from .fast_seq import _Acc, _canon, _fractions, _poly, _ranks, _same, _without, Seq

METHOD = "sequence"
#: Random totals of every racer the model is checked on.
CHECKS = 6


class _View:
    """One racer (index 0) and the others in their order, as `fast_seq._Rollers` reads them:
    another racer 'wins' when its total is higher (it is faster)."""

    def __init__(self, rollers: list[list], sizes: list[int], i: int):
        order = [i] + [j for j in range(len(rollers)) if j != i]
        self.rollers = [rollers[j] for j in order]
        self.sizes = [sizes[j] for j in order]
        self.n = len(rollers) - 1
        self.tie = "actor"

    def wins(self, t: int, a: int) -> bool:
        return t > a


class _Before:
    """For `fast_seq._ranks` in racer i's view: how many of the others come before racer q at
    total t (a higher total, or the same one earlier in `actors`) — the count over every racer but
    q, shared by all views, with racer i taken out again (`_without`)."""

    def __init__(self, race: "_Race", shared: dict, i: int):
        self.race, self.shared, self.i = race, shared, i
        self.ro = _View(race.rollers, race.sizes, i)
        self.tots = [sorted((t, c) for t, _f, c in r) for r in self.ro.rollers[1:]]
        self.others = [q for q in range(race.n) if q != i]
        self.memo: dict[tuple[int, int, int], list[int]] = {}

    def weight(self, p: int, q: int, t: int) -> int:
        return sum(c for u, _f, c in self.race.rollers[p] if u > t or (u == t and p < q))

    def before(self, ci: int, t: int, a: int, cap: int, limit: int) -> list[int]:
        got = self.memo.get((ci, t, cap))
        if got is not None:
            return got
        q, race = self.others[ci], self.race
        full = self.shared.get((q, t))
        if full is None:
            ws = [(w, race.sizes[p] - w) for p in range(race.n) if p != q for w in (self.weight(p, q, t),)]
            full = self.shared[(q, t)] = _poly(ws, race.n)
        b = self.weight(self.i, q, t)
        got = self.memo[(ci, t, cap)] = _without(full, b, race.sizes[self.i] - b)[:cap + 1]
        return got


class _Race:
    def __init__(self, open_calls: list, offsets: list, target: int, sigs: list):
        from .classes import _classes

        self.rollers = [[(k + off, tuple(f), c) for k, f, c in _classes(call[0])]
                        for call, off in zip(open_calls, offsets)]
        self.sizes = [6 ** call[0] for call in open_calls]
        self.totals = [[t for t, _f, _c in r] for r in self.rollers]
        self.lo = [min(ts) for ts in self.totals]
        self.hi = [max(ts) for ts in self.totals]
        self.whos = [c[1] for c in open_calls]
        self.n = len(self.whos)
        self.target = target
        #: Racers alike before the step (all but their id, name and charakteristika) pay alike.
        self.sig = [sigs.index(x) for x in sigs]
        self.parts: dict[tuple[int, bool, int], tuple] = {}
        self.others: dict[str, tuple] = {}
        self.resolutions = 0

    def faster(self, totals: list[int], i: int) -> list[int]:
        return sorted((q for q in range(self.n) if totals[q] > totals[i]), key=lambda q: (-totals[q], q))

    def bounds(self, i: int, x: int) -> tuple[list[int], list[int]]:
        """The racers always faster than racer i on total x, and those that can be."""
        must = [q for q in range(self.n) if q != i and self.lo[q] > x]
        can = [q for q in range(self.n) if q != i and self.hi[q] > x]
        return must, can


def race_seq_odds(run: Callable, open_calls: list, offsets: list, target: int, guard: Guard,
                  sigs: list | None = None) -> tuple[dict, int] | None:
    """The race's numbers and the resolutions they took, or None (with `guard.why`). `sigs`: each
    racer's state before the step, as far as its payments may read it (racers alike share parts)."""
    race = _Race(open_calls, offsets, target, sigs or [c[1] for c in open_calls])
    if len(set(race.whos)) != race.n:
        return None
    rng = random.Random(1)
    if not _learn(run, race, guard) or not _check(run, race, rng, guard):
        return None
    return _numbers(race), race.resolutions


def _resolve(run: Callable, race: _Race, totals: list[int], guard: Guard) -> dict | None:
    race.resolutions += 1
    faces = [next(list(f) for t, f, _c in race.rollers[j] if t == totals[j]) for j in range(race.n)]
    got = planned_run(run, faces, guard)
    return None if got is None else _canon(*got)


def _split(race: _Race, out: dict, totals: list[int]) -> dict[Any, tuple] | None:
    """Every racer's part under key (racer, side, how many faster), everybody else's under its id."""
    exh: dict[str, list] = {}
    for by, vs, cost in out["exh"]:
        exh.setdefault(by, []).append((vs, cost))
    parts: dict[Any, tuple] = {}
    for i, who in enumerate(race.whos):
        names = [race.whos[q] for q in race.faster(totals, i)]
        mine = []
        for vs, cost in exh.pop(who, []):
            if vs in names:
                mine.append((names.index(vs) + 1, cost))
            elif vs in race.whos:
                return None     # paying against a racer who is not faster: not modelled
            else:
                mine.append((vs, cost))
        key = (race.sig[i], totals[i] >= race.target, len(names))
        parts[key] = (out["ohr"][who], out["success"].get(who), who in out["hit"], tuple(mine))
    for pid, o in out["ohr"].items():
        if pid not in race.whos:
            parts[pid] = (o, out["success"].get(pid), pid in out["hit"], tuple(sorted(exh.get(pid, []), key=repr)))
    return parts


def _record(race: _Race, parts: dict[Any, tuple], guard: Guard) -> bool:
    for key, part in parts.items():
        table: dict[Any, tuple] = race.others if isinstance(key, str) else race.parts  # type: ignore[assignment]
        if table.setdefault(key, part) != part:
            guard.why = "exhaustion"
            return False
    return True


def _needed(race: _Race) -> list[tuple[int, bool, int, int]]:
    """(racer, side, how many faster, a total of the racer where that can happen) to learn."""
    out: dict[tuple[int, bool, int], tuple[int, int]] = {}
    for i in range(race.n):
        for x, _f, _c in race.rollers[i]:
            must, can = race.bounds(i, x)
            for k in range(len(must), len(can) + 1):
                out.setdefault((race.sig[i], x >= race.target, k), (i, x))
    return [(i, side, k, x) for (_sig, side, k), (i, x) in out.items()]


#: Candidate sets of totals weighed for each resolution while learning (the one teaching most wins).
CANDIDATES = 24


def _learn(run: Callable, race: _Race, guard: Guard) -> bool:
    """Resolves the race with racer i on total x and exactly k racers faster, for every (racer,
    side, k) not seen yet; each resolution teaches every racer, so of a few candidate sets of
    the others' totals the one that teaches the most keys not seen yet is resolved."""
    rng = random.Random(2)
    for i, side, k, x in _needed(race):
        if (race.sig[i], side, k) in race.parts:
            continue
        totals = max((_candidate(race, i, k, x, rng if c else None) for c in range(CANDIDATES)),
                     key=lambda ts: _teaches(race, ts))
        out = _resolve(run, race, totals, guard)
        if out is None:
            return False
        parts = _split(race, out, totals)
        if parts is None or not _record(race, parts, guard):
            guard.why = guard.why or "exhaustion"
            return False
    return True


def _candidate(race: _Race, i: int, k: int, x: int, rng: random.Random | None) -> list[int]:
    """Totals with racer i on x and exactly k racers faster: the others as near x as they can, or
    (`rng`) anywhere on their side of x."""
    must, can = race.bounds(i, x)
    free = [q for q in can if q not in must]
    if rng is not None:
        rng.shuffle(free)
    fast = set(must) | set(free[:k - len(must)])
    totals = []
    for q in range(race.n):
        ts = race.totals[q]
        if q == i:
            totals.append(x)
            continue
        side = [t for t in ts if t > x] if q in fast else [t for t in ts if t <= x]
        totals.append(rng.choice(side) if rng is not None else (min(side) if q in fast else max(side)))
    return totals


def _teaches(race: _Race, totals: list[int]) -> int:
    ranked = sorted(totals, reverse=True)
    new = 0
    for j, t in enumerate(totals):
        above = 0
        while above < len(ranked) and ranked[above] > t:
            above += 1
        new += (race.sig[j], t >= race.target, above) not in race.parts
    return new


def _predict(race: _Race, totals: list[int]) -> dict | None:
    out: dict[str, Any] = {"ohr": {}, "success": {}, "hit": set(), "exh": [], "pairs": {}}
    items: list[tuple[str, tuple, list[str]]] = []
    for i, who in enumerate(race.whos):
        names = [race.whos[q] for q in race.faster(totals, i)]
        part = race.parts.get((race.sig[i], totals[i] >= race.target, len(names)))
        if part is None:
            return None
        items.append((who, part, names))
    items += [(pid, part, []) for pid, part in race.others.items()]
    for who, (ohr, ok, hit, exh), names in items:
        out["ohr"][who] = ohr
        if ok is not None:
            out["success"][who] = ok
        if hit:
            out["hit"].add(who)
        out["exh"] += [(who, names[vs - 1] if isinstance(vs, int) else vs, c) for vs, c in exh]
    return out


def _check(run: Callable, race: _Race, rng: random.Random, guard: Guard) -> bool:
    """The model against the engine on random totals of every racer (and everybody on the top)."""
    plans = [[max(t for t, _f, _c in r) for r in race.rollers]]
    plans += [[rng.choice(r)[0] for r in race.rollers] for _ in range(CHECKS)]
    for totals in plans:
        out = _resolve(run, race, totals, guard)
        if out is None:
            return False
        out["pairs"] = {}
        if not _same(out, _predict(race, totals)):
            guard.why = "model"
            return False
    return True


def _numbers(race: _Race) -> dict:
    denom = 1
    for s in race.sizes:
        denom *= s
    acc = _Acc()
    shared: dict[tuple[int, int], list[int]] = {}
    faster: dict[int, list[int]] = {}
    for i, who in enumerate(race.whos):
        rk = _Before(race, shared, i)
        view = rk.ro
        others = [race.whos[q] for q in range(race.n) if q != i]
        seq = Seq(who, others)
        for side in (False, True):
            seq.k[(side,)] = {k: p for (j, s, k), p in race.parts.items() if j == race.sig[i] and s == side}
        for x, _f, cnt in view.rollers[0]:
            # How many racers are faster than x: the count over all racers, racer i taken out.
            full = faster.get(x)
            if full is None:
                ws = [sum(c for t, _f2, c in r if t > x) for r in race.rollers]
                full = faster[x] = _poly([(w, size - w) for w, size in zip(ws, race.sizes)], race.n)
            mine = sum(c for t, _f2, c in race.rollers[i] if t > x)
            q = _without(full, mine, race.sizes[i] - mine)
            for k, weight in enumerate(q):
                if weight:
                    acc.part(who, race.parts[(race.sig[i], x >= race.target, k)], cnt * weight)
            _ranks(acc, rk, seq, (x >= race.target,), x, cnt, view.n + 2)  # type: ignore[arg-type]
    for pid, part in race.others.items():
        acc.part(pid, part, denom)
    out = _fractions(acc, denom)
    out["pairs"] = {}
    out["refused"] = Fraction(0)
    return out
