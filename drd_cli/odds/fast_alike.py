"""Interchangeable special counters in the fast method of a contest (docs/odds.md, "Protecting
counters …"): counters that protect (or carry an obstacle) alike — the same action apart from who
acts, the same dice and bonus, the same state before the step, and neither a target nor protected
by anybody — change the step alike. Two combinations of their states that differ only in *which*
of them is in which state tell the same story with their names swapped, so the story is learnt
for one combination of each such family (the states sorted within each group) and the others are
read from it by renaming; a few of the renamed stories are checked on the engine per class of the
actor's total. k alike protectors then cost k + 1 stories instead of 2^k.
"""

from __future__ import annotations

from typing import Any

#: Most combinations of the special counters' states the arithmetic walks per total of the actor
#: (each one a few products; the stories learnt are the families above, `fast.MAX_STATES`).
MAX_WALKED = 1024


def alike_of(spec: Any) -> list[list[int]]:
    """Groups (two or more) of special counters, by index among the counters, whose actions are
    the same apart from who acts and who are neither a target nor protected by anybody."""
    contest = spec.contest
    named: set[str] = set()
    for c in contest.counters:
        named.update(c.protects or [])
    targets = contest.action.targets
    named.update([targets] if isinstance(targets, str) else list(targets or []))
    groups: dict[str, list[int]] = {}
    for j, c in enumerate(contest.counters):
        if c.kind == "harm" and c.obstacle is None and not getattr(c, "protects", None):
            continue            # not a special counter
        if c.actor is None or c.actor in named:
            continue
        groups.setdefault(repr(c.model_dump(exclude={"actor"})), []).append(j)
    return [g for g in groups.values() if len(g) >= 2]


def families(alike: list[list[int]], specials: list[int], open_calls: list, offsets: list, pre_state: Any
             ) -> list[list[int]]:
    """The groups of `alike` split further by dice, bonus and state before the step, as positions
    in `specials` (the order of a combination of states)."""
    out = []
    for group in alike:
        split: dict[Any, list[int]] = {}
        for j in group:
            if j not in specials:
                continue
            call, off = open_calls[j + 1], offsets[j + 1]
            ps = pre_state.participants.get(call[1])
            if ps is None:
                continue
            before = repr({k: v for k, v in vars(ps).items() if k not in ("id", "name")})
            split.setdefault((call[0], off, before), []).append(specials.index(j))
        out += [sorted(g) for g in split.values() if len(g) >= 2]
    return out


def canonical(sig: tuple, fams: list[list[int]]) -> tuple[tuple, list[tuple[int, int]]]:
    """The combination of states with each family's states sorted, and which position of `sig`
    took the state of each position of it: [(canonical position, position in sig)]."""
    out = list(sig)
    moved: list[tuple[int, int]] = []
    for fam in fams:
        order = sorted(range(len(fam)), key=lambda i: sig[fam[i]])
        for r, i in enumerate(order):
            out[fam[r]] = sig[fam[i]]
            if r != i:
                moved.append((fam[r], fam[i]))
    return tuple(out), moved


def relabel(g: dict, rename: dict[str, str]) -> dict:
    """A learnt story with participants renamed (`rename`: a permutation of some ids)."""
    r = lambda pid: rename.get(pid, pid)  # noqa: E731

    def outcome(o: dict | None) -> dict | None:
        if o is None:
            return None
        return {**o, "ohr": {r(p): v for p, v in o["ohr"].items()},
                "success": {r(p): v for p, v in o["success"].items()}, "hit": {r(p) for p in o["hit"]}}

    out = {**g, "none": outcome(g["none"]), "base": {r(p): v for p, v in g["base"].items()},
           "s_sig": {r(p) for p in g["s_sig"]}, "h_sig": {r(p) for p in g["h_sig"]},
           "each": {j: {"d": {r(p): v for p, v in e["d"].items()}, "success": {r(p) for p in e["success"]},
                        "hit": {r(p) for p in e["hit"]}} for j, e in g["each"].items()}}
    if "names" in g:
        out["names"] = [r(p) for p in g["names"]]
    return out
