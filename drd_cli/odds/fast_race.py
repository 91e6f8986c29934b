"""The fast exact method for a race (závod, CS-RACE-1) of any number of racers (docs/odds.md).

What happens to a racer depends on its own total (does it reach the obstacle's target) and on who
is faster than it (each faster racer's consequence lands on it); once its total is fixed, every
other racer is faster or not on its own dice. The method learns from the engine, with every racer
on one common total and then with each racer alone a little faster (and, where the obstacle can
go either way, each racer alone on the other side of the target):
  * each participant's Ohrožení: its value on its side of the target plus what each faster racer
    adds;
  * each racer's success: its side of the target;
  * who is hit: its side, or any faster racer whose consequence hit it.
The model is checked on random totals; where the engine disagrees (an exhaustion, a rule refusing,
effects that do not add up), the class method answers.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable

from .budget import Guard
from .classes import _classes
from .fast import _outcome

METHOD = "independent"
#: Random totals the model is checked on (besides the configurations it learnt from).
CHECKS = 6


def why_not(spec: Any, step_rec: dict, open_calls: list, offsets: list) -> str | None:
    """None for a race whose every racer rolls here once; else why not (`fast.WHY`)."""
    race = getattr(spec, "race", None)
    if race is None or step_rec.get("kind") != "race":
        return "kind"
    whos = [c[1] for c in open_calls]
    if None in offsets or len(set(whos)) != len(whos) or sorted(whos) != sorted(race.actors):
        return "totals"
    return None


def fast_race_odds(run: Callable, open_calls: list, offsets: list, target: int, guard: Guard) -> dict | None:
    """The race's numbers, or None when the engine does not follow the model."""
    rollers = [[(k + off, tuple(f), c) for k, f, c in _classes(call[0])] for call, off in zip(open_calls, offsets)]
    whos = [c[1] for c in open_calls]
    n = len(rollers)
    faces = [{t: f for t, f, _c in r} for r in rollers]
    common = sorted(set.intersection(*[set(fs) for fs in faces]))
    if not common:
        return None
    v = common[len(common) // 2]

    def resolve(totals: list[int]) -> dict | None:
        return _outcome(run, [list(faces[j][t]) for j, t in enumerate(totals)], guard)

    base = resolve([v] * n)
    if base is None:
        return None
    side_v = v >= target
    model = {"v": v, "base": base, "d": {}, "hits": {}, "other": {}}
    for q in range(n):
        if not _learn_faster(resolve, faces, n, v, q, target, whos, model):
            return None
        other = [t for t in sorted(faces[q]) if (t >= target) != side_v]
        if other and q not in model["other"]:
            t = max(other) if side_v else min(other)
            got = resolve([v if j != q else t for j in range(n)])
            if got is None:
                return None
            model["other"][q] = (t, got)
    if not _solve_other_sides(model, n, whos, target):
        return None
    if not _check(resolve, rollers, n, target, whos, model):
        return None
    return _numbers(rollers, [6 ** c[0] for c in open_calls], n, target, whos, model)


def _learn_faster(resolve: Callable, faces: list[dict], n: int, v: int, q: int, target: int, whos: list[str],
                  model: dict) -> bool:
    """What racer q adds to every slower racer: everybody else on one total u, q once just above it
    and once not above it (u is the common total v where q can go above it, else the nearest
    total the others share that q can both pass and not pass). True also when q is never faster."""
    if max(faces[q]) <= min(min(faces[p]) for p in range(n) if p != q):
        return True     # never faster than anybody: adds nothing
    shared = set.intersection(*[set(faces[p]) for p in range(n) if p != q])
    for u in sorted(shared, key=lambda x: (abs(x - v), x)):
        lo = [t for t in faces[q] if t <= u]
        hi = [t for t in faces[q] if t > u]
        if lo and hi:
            break
    else:
        # No total the others share that q can both pass and not pass (their ranges barely
        # meet): what q adds is learnt racer by racer instead.
        return _learn_faster_pairwise(resolve, faces, n, v, q, whos, model)
    if u == v and v in faces[q]:
        base = model["base"]
    else:
        base = resolve([u if j != q else max(lo) for j in range(n)])
        if base is None:
            return False
    t = min(hi)
    got = resolve([u if j != q else t for j in range(n)])
    if got is None:
        return False
    model["d"][q] = {whos[p]: got["ohr"][whos[p]] - base["ohr"][whos[p]] for p in range(n) if p != q}
    model["hits"][q] = {whos[p] for p in range(n) if p != q and whos[p] in got["hit"]} - base["hit"]
    others = [pid for pid in base["ohr"] if pid not in whos]
    if any(got["ohr"][pid] != base["ohr"][pid] for pid in others) or (got["hit"] - base["hit"]) - model["hits"][q] - {whos[q]}:
        return False
    if u == v and (t >= target) != (v >= target):
        model["other"][q] = (t, got)     # q also learnt its other side here
    return True


def _learn_faster_pairwise(resolve: Callable, faces: list[dict], n: int, v: int, q: int, whos: list[str],
                           model: dict) -> bool:
    """What racer q adds to each other racer p, p by p: the others on the common total v, p on a
    total of its own that q can both pass and not pass, q once just not above it and once just
    above it; only p's Ohrožení and being hit are read (the model's check then tests the sum)."""
    d: dict[str, int] = {}
    hits: set[str] = set()
    for p in range(n):
        if p == q:
            continue
        d[whos[p]] = 0
        cands = [u for u in faces[p] if any(t <= u for t in faces[q]) and any(t > u for t in faces[q])]
        if not cands:
            if min(faces[q]) > max(faces[p]):
                return False    # q is always faster than p: its share cannot be told apart
            continue            # q is never faster than p
        u = min(cands, key=lambda x: (abs(x - v), x))
        lo = max(t for t in faces[q] if t <= u)
        hi = min(t for t in faces[q] if t > u)
        totals = [v] * n
        totals[p] = u
        got = []
        for t in (lo, hi):
            totals[q] = t
            o = resolve(list(totals))
            if o is None:
                return False
            got.append(o)
        d[whos[p]] = got[1]["ohr"][whos[p]] - got[0]["ohr"][whos[p]]
        if whos[p] in got[1]["hit"] and whos[p] not in got[0]["hit"]:
            hits.add(whos[p])
    model["d"][q], model["hits"][q] = d, hits
    return True


def _solve_other_sides(model: dict, n: int, whos: list[str], target: int) -> bool:
    """Each racer's Ohrožení, success and being hit on the other side of the target than the common
    total's: from the configuration where it alone was there (less what faster racers added)."""
    base, v = model["base"], model["v"]
    sides: dict[int, dict] = {}
    for p, (t, got) in model["other"].items():
        pid = whos[p]
        faster = [q for q in range(n) if q != p and v > t]      # everybody else, when p went below v
        ohr = got["ohr"][pid] - sum(model["d"].get(q, {}).get(pid, 0) for q in faster)
        if faster and any(q not in model["d"] for q in faster):
            return False
        hit = pid in got["hit"] and not any(pid in model["hits"].get(q, ()) for q in faster)
        sides[p] = {"ohr": ohr, "success": got["success"].get(pid, False), "hit": hit}
    model["sides"] = {(p, v >= target): {"ohr": base["ohr"][whos[p]], "success": base["success"].get(whos[p], False),
                                         "hit": whos[p] in base["hit"]} for p in range(n)}
    for p, s in sides.items():
        model["sides"][(p, v < target)] = s
    return True


def _predict(model: dict, totals: list[int], target: int, whos: list[str]) -> dict | None:
    base = model["base"]
    ohr = dict(base["ohr"])
    success = dict(base["success"])
    hit = {pid for pid in base["hit"] if pid not in whos}
    for p, pid in enumerate(whos):
        s = model["sides"].get((p, totals[p] >= target))
        if s is None:
            return None
        o, h = s["ohr"], s["hit"]
        for q, tq in enumerate(totals):
            if q != p and tq > totals[p]:
                if q not in model["d"]:
                    return None
                o += model["d"][q][pid]
                h = h or pid in model["hits"][q]
        ohr[pid], success[pid] = o, s["success"]
        if h:
            hit.add(pid)
    return {"ohr": ohr, "success": success, "hit": hit}


def _check(resolve: Callable, rollers: list, n: int, target: int, whos: list[str], model: dict) -> bool:
    rng = random.Random(1)
    for _ in range(CHECKS + n):
        totals = [rng.choice(r)[0] for r in rollers]
        want = _predict(model, totals, target, whos)
        got = resolve(totals)
        if want is None or got is None:
            return False
        if got["ohr"] != want["ohr"] or got["success"] != want["success"] or got["hit"] != want["hit"]:
            return False
    return True


def _numbers(rollers: list, sizes: list[int], n: int, target: int, whos: list[str], model: dict) -> dict:
    """Per racer, over its own totals: the others faster or not, each on its own dice (a
    convolution of what each faster racer adds); integer weights over all dice, then Fractions."""
    total = 1
    for s in sizes:
        total *= s
    base = model["base"]
    ohr: dict[str, dict[int, int]] = {pid: {o: total} for pid, o in base["ohr"].items() if pid not in whos}
    success: dict[str, int] = {pid: (total if ok else 0) for pid, ok in base["success"].items() if pid not in whos}
    hit: dict[str, int] = {pid: total for pid in base["hit"] if pid not in whos}
    for p, pid in enumerate(whos):
        rest = total // sizes[p]
        dist: dict[int, int] = {}
        ok = hits = 0
        for t, _f, cnt in rollers[p]:
            s = model["sides"][(p, t >= target)]
            conv = {s["ohr"]: 1}
            avoid = 1
            for q in range(n):
                if q == p:
                    continue
                w = sum(c for tq, _f2, c in rollers[q] if tq > t)
                if w and q not in model["d"]:
                    raise AssertionError("a racer faster than the model learnt")  # _check rules this out
                d = model["d"].get(q, {}).get(pid, 0)
                new: dict[int, int] = {}
                for o, x in conv.items():
                    if w:
                        new[o + d] = new.get(o + d, 0) + x * w
                    new[o] = new.get(o, 0) + x * (sizes[q] - w)
                conv = new
                avoid *= (sizes[q] - w) if pid in model["hits"].get(q, ()) else sizes[q]
            for o, x in conv.items():
                dist[o] = dist.get(o, 0) + cnt * x
            ok += cnt * rest if s["success"] else 0
            hits += cnt * (rest if s["hit"] else rest - avoid)
        ohr[pid], success[pid] = dist, ok
        if hits:
            hit[pid] = hits
    share = lambda v: Fraction(v, total)  # noqa: E731
    order = list(base["ohr"])
    return {"pairs": {},
            "ohrozeni": {pid: {o: share(x) for o, x in sorted(ohr[pid].items()) if x} for pid in order},
            "success": {pid: share(success[pid]) for pid in base["success"]},
            "hit": {pid: share(x) for pid, x in sorted(hit.items()) if x},
            "exhausts": {}, "exhaust_cost": {}, "exhaust_vs": {}}
