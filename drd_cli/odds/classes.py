"""Classes of dice combinations a step's engine cannot tell apart (`drd odds FILE STEP`, docs/odds.md).

The engine reads dice only through their kept sums and compares totals with each other and with
a few numbers; combinations that compare alike are one class, resolved once. A core contest's
classes are built value by value from the highest total down (`contest_classes`), anything else
is enumerated by sums within `COMBO_BUDGET`. Both check a `Guard` while working.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from .budget import COMBO_BUDGET, DEFAULT_BUDGET, STATE_BUDGET, Guard, OverBudget
from .dice import kept_faces, kept_hist

#: Most subsets of rollers that may share one value while classes are built; beyond: estimate.
PLACEMENT_BUDGET = 4096

_CLASSES: dict[int, tuple] = {}

def _classes(n: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """For a request of n dice: (kept value, representative faces, count) per kept value.

    The engine uses dice only through their kept sum (all of them, or the best two when
    `keep-best-2-of-3` asks for more than two), so one representative per sum is enough.
    """
    got = _CLASSES.get(n)
    if got is None:
        got = tuple((k, kept_faces(n, k), c) for k, c in kept_hist(n))
        if n <= 64:
            _CLASSES[n] = got
    return got



def _exact_groups(per_call: list[list[tuple]], keyfn: Any, budget: int = DEFAULT_BUDGET,
                  guard: Guard | None = None) -> dict | None:
    """Classes of dice combinations: key → [representative faces per roller, number of faces];
    None when enumerating them is over budget (classes, or the `guard`'s time or memory)."""
    guard = guard or Guard(None)
    try:
        if keyfn is not None and getattr(keyfn, "split", False):
            return _contest_classes(per_call, keyfn.act_consts, keyfn.cnt_consts, STATE_BUDGET, guard)
        return _enumerated(per_call, keyfn, budget, guard)
    except OverBudget:
        return None


def _enumerated(per_call: list[list[tuple]], keyfn: Any, budget: int, guard: Guard) -> dict | None:
    size = 1
    for o in per_call:
        size *= len(o)
    if size > COMBO_BUDGET:
        return None
    groups: dict[Any, list] = {}
    for combo in product(*per_call):
        w = 1
        for _t, _f, cnt in combo:
            w *= cnt
        key = keyfn([t for t, _f, _c in combo]) if keyfn is not None else tuple(t for t, _f, _c in combo)
        g = groups.get(key)
        if g is None:
            groups[key] = [[list(f) for _t, f, _c in combo], w]
            if len(groups) > budget:
                return None
        else:
            g[1] += w
        guard.check()
    return groups


def _contest_classes(per_call: list[list[tuple]], act_consts: list[int], cnt_consts: list[list[int]],
                     limit: int, guard: Guard | None = None) -> dict | None:
    """The classes of a core contest without enumerating every combination of totals.

    A class is (the order in which the pairs are settled, each counter's side of the actor's
    total, the counters' obstacle checks, the actor's checks), as `_key_function` keys it. The
    totals are placed from the highest value down: at each value some of the rollers not placed
    yet take it, counters in file order (R-ORDER's tie-break). A state is what the key can still
    see — who is placed, in which order, on which side of the actor, which checks they passed —
    so combinations that differ only in values no key reads merge as they go, and the work grows
    with the classes, not with the 11^n combinations. None when the live states exceed `limit`;
    `OverBudget` when the `guard`'s time or memory runs out, or more rollers than
    `PLACEMENT_BUDGET` allows could share one value (their subsets would be listed).
    """
    guard = guard or Guard(None)
    n = len(per_call) - 1
    at: dict[int, list[tuple[int, tuple, int]]] = {}
    lowest = [min(t for t, _f, _c in o) for o in per_call]
    for e, o in enumerate(per_call):
        for t, f, c in o:
            at.setdefault(t, []).append((e, f, c))
    full = (1 << (n + 1)) - 1
    # (placed bit mask, counters in placement order, (side, checks) of each, actor's checks or None)
    states: dict[tuple, list] = {(0, (), (), None): [1, (None,) * (n + 1)]}
    for v in sorted(at, reverse=True):
        here = at[v]
        must = 0
        for e in range(n + 1):
            if lowest[e] == v:
                must |= 1 << e
        ocheck = [tuple(v >= k for k in ks) for ks in cnt_consts]
        acheck = tuple(v >= k for k in act_consts)
        new: dict[tuple, list] = {}
        # The ways the rollers not placed yet can take this value depend only on who is placed:
        # worked out once per mask (which counters, their weight, their annotation parts).
        ways: dict[int, list] = {}
        for (mask, order, ann, af), (w, faces) in states.items():
            guard.check()
            options = ways.get(mask)
            if options is None:
                options = ways[mask] = _placements(here, mask, must & ~mask, ocheck)
                guard.check()
            for cmask, actor_here, mult, placed, counters in options:
                if not cmask:
                    key, nw, nf = (mask, order, ann, af), w, faces
                else:
                    side = 0 if actor_here else (1 if af is None else -1)
                    fl = list(faces)
                    for e, f in placed:
                        fl[e] = f
                    key = (mask | cmask, order + tuple(j for j, _ch in counters),
                           ann + tuple((side, ch) for _j, ch in counters), acheck if actor_here else af)
                    nw, nf = w * mult, tuple(fl)
                g = new.get(key)
                if g is None:
                    new[key] = [nw, nf]
                else:
                    g[0] += nw
        states = new
        if len(states) > limit:
            return None
    groups: dict[tuple, list] = {}
    for (mask, order, ann, af), (w, faces) in states.items():
        if mask != full:
            continue
        sides = [0] * n
        checks: list[tuple] = [()] * n
        for j, (s, ch) in zip(order, ann):
            sides[j], checks[j] = s, ch
        cls = ((tuple(order), tuple(x for ch in checks for x in ch)), tuple(sides), af)
        g = groups.get(cls)
        if g is None:
            groups[cls] = [[list(f) for f in faces], w]
        else:
            g[1] += w
    return groups


def _placements(here: list[tuple], mask: int, need: int, ocheck: list[tuple]) -> list[tuple]:
    """Every subset of the not yet placed rollers that can take this value (those whose lowest
    total it is must): (mask, actor among them, product of their counts, (roller, faces) each,
    (counter index, its checks) in file order)."""
    cand = [x for x in here if not mask >> x[0] & 1]
    if 1 << len(cand) > PLACEMENT_BUDGET:
        raise OverBudget("placements")
    out = []
    for bits in range(1 << len(cand)):
        chosen = [cand[i] for i in range(len(cand)) if bits >> i & 1]
        cmask = 0
        mult = 1
        for e, _f, c in chosen:
            cmask |= 1 << e
            mult *= c
        if need & ~cmask:
            continue
        out.append((cmask, bool(cmask & 1), mult, tuple((e, f) for e, f, _c in chosen),
                    tuple((e - 1, ocheck[e - 1]) for e, _f, _c in chosen if e)))
    return out


def _key_function(rec: dict, step: Any, consts: list[int], calls: list) -> Any:
    """How to tell two dice combinations apart for this step (see `odds_for`), or None for "by sums"."""
    kind = rec["kind"]
    if kind in ("test", "challenge"):
        return lambda totals: tuple(t >= c for t in totals for c in consts)
    spec = getattr(step, "contest", None)
    actor = getattr(getattr(spec, "action", None), "actor", None)
    counters = [getattr(c, "actor", None) for c in (getattr(spec, "counters", None) or [])]
    whos = [c[1] for c in calls]
    if spec is None:
        return lambda totals: _pattern(totals, consts)
    plain = (kind == "contest" and not any(getattr(c, "area", False) for c in spec.counters)
             and len(set(whos)) == len(whos) and set(whos) <= {actor, *counters})
    if not plain:
        return lambda totals: _pattern(totals, consts)
    # A core contest (no plugin resolver): its pairs are settled by (highest of the pair, then
    # lowest, then file order), which for one actor is simply the counters by their totals,
    # highest first, ties in file order; each pair is won by comparing the two totals. A total
    # meets the target only in the test within the contest (targets that did not react, an
    # obstacle) and in a winning counter's own obstacle. Nothing else reads a total.
    reacting = set(counters)
    a = spec.action
    act_consts = consts if (a.obstacle or a.area or a.zone or not set(_ids(a.targets)) <= reacting) else []
    cnt_consts = [consts if c.obstacle else [] for c in spec.counters]
    n = len(counters)
    if whos != [actor, *counters]:
        # Some totals are given in the file: the full order pattern is still exact.
        return lambda totals: _pattern(totals, consts)
    perms: dict[tuple, tuple] = {}

    def inner(cs: tuple) -> tuple:
        """What the counters' totals decide by themselves: settling order, their obstacles."""
        perm = perms.get(cs)
        if perm is None:
            perm = perms[cs] = (tuple(sorted(range(n), key=lambda j: (-cs[j], j))),
                                tuple(c >= k for c, ks in zip(cs, cnt_consts) for k in ks))
        return perm

    def key(av: int, cs: tuple) -> tuple:
        return (inner(cs), tuple([(c > av) - (c < av) for c in cs]), tuple([av >= k for k in act_consts]))

    key.split = True  # type: ignore[attr-defined]
    key.inner = inner  # type: ignore[attr-defined]
    key.act_consts = act_consts  # type: ignore[attr-defined]
    key.cnt_consts = cnt_consts  # type: ignore[attr-defined]
    return key


def _compress(per_call: list[list[tuple]], fixed: list[int]) -> list[list[tuple]]:
    """Merges a roller's totals that compare alike with every total the others can roll and
    with the fixed numbers (targets, given totals): no key used here can tell them apart."""
    out = []
    for j, vals in enumerate(per_call):
        others = sorted({t for i, o in enumerate(per_call) if i != j for t, _, _ in o} | set(fixed))
        merged: dict[tuple, list] = {}
        for t, f, c in vals:
            sig = tuple((t > u) - (t < u) for u in others)
            m = merged.get(sig)
            if m is None:
                merged[sig] = [t, f, c]
            else:
                m[2] += c
        out.append([tuple(m) for m in merged.values()])
    return out


def _given_totals(rec: dict, rolled: list[str]) -> list[int]:
    return [r["total"] for pid, r in rec.get("rolls", {}).items() if pid not in rolled and r.get("total") is not None]


def _ids(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _targets(step: Any) -> set[int]:
    """Target numbers that appear in the step spec (výzva's own `target`)."""
    found: set[int] = set()

    def walk(v: Any) -> None:
        if hasattr(v, "model_dump"):
            v = v.model_dump()
        if isinstance(v, dict):
            for k, x in v.items():
                if k == "target" and isinstance(x, int):
                    found.add(x)
                else:
                    walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(step)
    return found


def _pattern(totals: list[int], consts: list[int]) -> tuple:
    """How the totals compare with each other and with the constants: dense ranks of all of them."""
    allv = sorted(set(totals) | set(consts))
    rank = {v: i for i, v in enumerate(allv)}
    return tuple(rank[t] for t in totals) + tuple(rank[c] for c in consts)
