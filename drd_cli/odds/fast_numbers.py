"""The arithmetic of the fast method of a contest (`fast`): every number of the step from the
learnt model, as integer weights over all dice (a convolution over the harming counters per
total of the actor and combination of the special counters' states), then exact Fractions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable


def _numbers(st: Any, group_of: Callable, model: Any) -> dict:
    """Every number of the step from the model, as integer weights over all dice, then Fractions."""
    dc = 1
    for s in st.sizes[1:]:
        dc *= s
    dh = 1                       # the harming counters' dice
    for j in st.harmers:
        dh *= st.sizes[j + 1]
    denom = st.sizes[0] * dc
    acc = _Acc()
    for a, _f, cnt in st.rollers[0]:
        for sig_t, ws in st.sigmas(a).items():
            g = model.groups[(group_of(a), sig_t)]
            _add_numbers(acc, st, model, g, a, cnt * ws, dh, dict(zip(st.specials, sig_t)))
    return as_fractions(acc, denom)


def as_fractions(acc: Any, denom: int) -> dict:
    """A step's numbers from integer weights over `denom` (all dice): pairs, Ohrožení, success,
    who is hit; no exhaustions (the methods that answer with them add their own)."""
    share = lambda v: Fraction(v, denom)  # noqa: E731
    return {
        "pairs": {k: {who: share(v) for who, v in sorted(d.items()) if v} for k, d in acc.pairs.items()},
        "ohrozeni": {pid: {o: share(v) for o, v in sorted(d.items()) if v} for pid, d in acc.ohr.items()},
        "success": {pid: share(v) for pid, v in acc.success.items()},
        "hit": {pid: share(v) for pid, v in sorted(acc.hit.items()) if v},
        "exhausts": {}, "exhaust_cost": {}, "exhaust_vs": {},
    }


class _Acc:
    def __init__(self) -> None:
        self.ohr: dict[str, dict[int, int]] = {}
        self.success: dict[str, int] = {}
        self.hit: dict[str, int] = {}
        self.pairs: dict[str, dict[str, int]] = {}


def _add_numbers(acc: _Acc, st: Any, model: Any, g: dict, a: int, cnt: int, dh: int, sig: dict) -> None:
    """Adds the weights at actor total `a` and special states `sig` (weight `cnt` of both)."""
    w = {j: sum(c for t, _f2, c in st.rollers[j + 1] if st.wins(t, a)) for j in st.harmers}
    lose = {j: st.sizes[j + 1] - w[j] for j in st.harmers}
    q0 = 1
    for x in lose.values():
        q0 *= x
    for j, c in enumerate(model.counters):
        d = acc.pairs.setdefault(f"{model.actor} vs {c}", {})
        win_w = cnt * w[j] * (dh // st.sizes[j + 1]) if j in w else (cnt * dh if sig[j][0] else 0)
        d[c] = d.get(c, 0) + win_w
        d[model.actor] = d.get(model.actor, 0) + cnt * dh - win_w
    none = g["none"]
    for pid in model.pre:
        dist = acc.ohr.setdefault(pid, {})
        if q0 and none is not None:
            v = none["ohr"][pid]
            dist[v] = dist.get(v, 0) + cnt * q0
        for s, wt in _sums(pid, g, st, w, lose).items():
            v = g["base"].get(pid, 0) + s
            dist[v] = dist.get(v, 0) + cnt * wt
    for key, field in (("success", "success"), ("hit", "hit")):
        target = acc.success if key == "success" else acc.hit
        names = model.names if key == "success" else model.pre
        for pid in names:
            base = (none["success"].get(pid, False) if key == "success" else pid in none["hit"]) \
                if none is not None else False
            avoid = 1
            for j in st.harmers:
                e = g["each"].get(j)
                brings = e is not None and pid in e[field]
                avoid *= lose[j] if brings else st.sizes[j + 1]
            every = pid in g["s_sig" if key == "success" else "h_sig"]    # whoever wins
            wt = (q0 if base else 0) + ((dh - q0) if every else (dh - avoid))
            if key == "success" or wt:
                target[pid] = target.get(pid, 0) + cnt * wt


def _sums(pid: str, g: dict, st: Any, w: dict[int, int], lose: dict[int, int]) -> dict[int, int]:
    """Weights of Σ (what each winner changes in `pid`'s Ohrožení) over the non-empty sets of
    winning harming counters: a convolution over them, one at a time (polynomial in their number)."""
    dist: dict[tuple[int, bool], int] = {(0, False): 1}
    for j in st.harmers:
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
