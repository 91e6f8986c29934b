"""`tie: reroll` in the fast method of a contest (docs/odds.md, the `reroll` paragraph).

Fix the actor's total. Each counter is then in one of four states, on its own dice: it beat the
actor (`W`), fell short (`L`), or tied — and then won the re-roll (`w`) or lost it (`l`). A tied
pair is rolled again, both sides 2k6 plus the same bonus, until the totals differ; after 20 tied
re-rolls the actor wins (engine: `pairs.pair_winner`). So a tie is won by the counter with the
chance P(c > a) · (1 + t + … + t^19) and by the actor with P(a > c) · (1 + … + t^19) + t^20 (t the
chance of a tie in one re-roll): exact fractions (`chains`).

Pairs are settled from the highest roll down (R-ORDER): counters who beat the actor first, then
the tied ones in file order, then those below. A counter who beat the actor stops the action
before any tied pair, so then everything is as without ties (every winner's consequence lands on
the actor). Without such a counter, a tied counter who lost its re-roll and comes before the
first tied winner (file order) is settled while the action still goes on: the actor's effect
lands on it (`tie_hit`, learnt from the engine: that counter losing its re-roll before another
who wins it, against the other alone). The numbers are then, per actor total, a walk over the
counters in file order carrying whether somebody beat the actor, whether a tied winner came
already, and the sums of what the winners and the hit tied losers change.

Only harming counters (no protecting ones, no obstacles on counters) are modelled; the model is
checked on the engine with random states of every counter, ties and re-rolls included.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import gcd
from typing import Any, Callable

#: Tied re-rolls after which the engine gives the pair to the actor (`engine.pairs.pair_winner`).
CAP = 20
#: Random configurations (every counter in a random state) checked per class of the actor's total.
CHECKS = 4


def chains(st: Any) -> list[tuple[Fraction, Fraction]]:
    """Per counter: the chance that the actor, and that the counter, wins a tie's re-rolls."""
    from .dice import compare_totals

    def dist(k: int) -> list[tuple[int, Fraction]]:
        return [(t, Fraction(c, st.sizes[k])) for t, _f, c in st.rollers[k]]

    out = []
    actor = dist(0)
    for j in range(st.n):
        w, lo, t = compare_totals(actor, dist(j + 1))
        series = sum(t ** k for k in range(CAP))
        out.append((w * series + t ** CAP, lo * series))
    return out


def states(st: Any, j: int, a: int, chain: tuple[Fraction, Fraction]) -> dict[str, Any]:
    """Counter j's states at actor total `a` with their weights (faces; a tie split by its re-roll)."""
    w = lo = tie = 0
    for t, _f, c in st.rollers[j + 1]:
        if t > a:
            w += c
        elif t < a:
            lo += c
        else:
            tie += c
    scale = _scale(chain)
    out = {"W": w * scale, "L": lo * scale, "w": int(tie * chain[1] * scale), "l": int(tie * chain[0] * scale)}
    return {k: v for k, v in out.items() if v}


def _scale(chain: tuple[Fraction, Fraction]) -> int:
    """What a counter's weights are multiplied by to stay whole numbers (its chains' denominators)."""
    a, b = chain[0].denominator, chain[1].denominator
    return a * b // gcd(a, b)


def plan(st: Any, a: int, which: dict[int, str], rng: random.Random | None = None) -> list[list[int]] | None:
    """Dice with which the actor rolls `a` and each counter j is in state `which[j]` (`L` when not
    named); then each tied pair's re-roll (file order: the actor's dice, the counter's) decided
    at once the way its state says."""
    first = [list(f) for t, f, _c in st.rollers[0] if t == a][:1]
    if not first:
        return None
    out, extra = first, []
    for j in range(st.n):
        s = which.get(j, "L")
        fit = [f for t, f, _c in st.rollers[j + 1]
               if (s == "W" and t > a) or (s == "L" and t < a) or (s in "wl" and t == a)]
        if not fit:
            return None
        if rng is not None:
            out.append(list(rng.choice(fit)))
        else:
            out.append(list(fit[0] if s == "W" else fit[-1]))
        if s in "wl":
            pairs = [(fa, fc) for ta, fa, _ca in st.rollers[0] for tc, fc, _cc in st.rollers[j + 1]
                     if (ta > tc if s == "l" else ta < tc)]
            if not pairs:
                return None
            fa, fc = rng.choice(pairs) if rng is not None else pairs[0]
            extra += [list(fa), list(fc)]
    return out + extra


def _won(o: dict) -> set[str]:
    return {pid for pid, ok in o["success"].items() if ok}


def predict(model: Any, g: dict, which: dict[int, str]) -> dict:
    """The outcome the model gives for counters in the states `which`."""
    winners = {j for j, s in which.items() if s in "Ww"}
    pairs = {f"{model.actor} vs {c}": (c if j in winners else model.actor) for j, c in enumerate(model.counters)}
    if not winners:
        return {**g["none"], "pairs": pairs}
    ohr = dict(g["base"])
    success, hit = set(g["s_sig"]), set(g["h_sig"])
    extra = [g["each"][j] for j in winners]
    if not any(s == "W" for s in which.values()):
        first = min(j for j, s in which.items() if s == "w")
        extra += [g["tie_hit"][j] for j, s in which.items() if s == "l" and j < first]
    for e in extra:
        for pid, d in e["d"].items():
            ohr[pid] = ohr.get(pid, 0) + d
        success |= e["success"]
        hit |= e["hit"]
    return {"ohr": ohr, "success": {pid: pid in success for pid in g["names"]}, "hit": hit, "pairs": pairs}


def _same(got: dict, want: dict) -> bool:
    return (got["ohr"] == want["ohr"] and _won(got) == _won(want) and got["hit"] == want["hit"]
            and got["pairs"] == want["pairs"])


def learn(resolve: Callable, st: Any, avals: list[int], model: Any, g: dict, rng: random.Random,
          chain: list[tuple[Fraction, Fraction]]) -> bool:
    """Adds to the group's model `g` (learnt without ties) what ties change: the contribution of a
    counter who can only win by a re-roll, the outcome with nobody winning where only ties make it
    possible, and each tied loser's `tie_hit`; then checks random states of every counter."""
    can = {a: [states(st, j, a, chain[j]) for j in range(st.n)] for a in avals}

    def first(need: Callable[[int, list], dict | None]) -> tuple[int, dict] | None:
        for a in reversed(avals):
            which = need(a, can[a])
            if which is not None and all("L" in p or j in which for j, p in enumerate(can[a])):
                return a, which
        return None

    if g["none"] is None:
        got = first(lambda a, per: {j: ("L" if "L" in p else "l") for j, p in enumerate(per)}
                    if all("L" in p or "l" in p for p in per) else None)
        if got is not None:
            g["none"] = resolve(plan(st, *got))
            if g["none"] is None:
                return False
            g["names"] = list(g["none"]["success"])
    for k in range(st.n):
        if k in g["each"]:
            continue
        got = first(lambda a, per: {k: "w"} if "w" in per[k] else None)
        if got is None:
            continue
        o = resolve(plan(st, *got))
        if o is None:
            return False
        g["each"][k] = {"d": {pid: v - g["base"].get(pid, 0) for pid, v in o["ohr"].items()},
                        "success": _won(o) - g["s_sig"], "hit": set(o["hit"]) - g["h_sig"]}
    g["tie_hit"] = {}
    for j in range(st.n):
        got = first(lambda a, per: next(({j: "l", k: "w"} for k in range(j + 1, st.n)
                                          if "l" in per[j] and "w" in per[k]), None))
        if got is None:
            continue
        a, which = got
        both, alone = resolve(plan(st, a, which)), resolve(plan(st, a, {k: s for k, s in which.items() if k != j}))
        if both is None or alone is None:
            return False
        g["tie_hit"][j] = {"d": {pid: v - alone["ohr"][pid] for pid, v in both["ohr"].items()},
                           "success": _won(both) - _won(alone), "hit": set(both["hit"]) - set(alone["hit"])}
    return _complete(st, avals, g, can) and _check(resolve, st, avals, model, g, rng, can)


def _complete(st: Any, avals: list[int], g: dict, can: dict[int, list[dict]]) -> bool:
    """Whether every part the numbers may need was learnt: each counter who can win, the outcome
    with nobody winning where that can happen, and the hit of each tied loser a tied winner may
    follow (when a configuration needs a part the engine could not be asked about, the class
    method answers)."""
    for a in avals:
        per = can[a]
        if any(("W" in p or "w" in p) and j not in g["each"] for j, p in enumerate(per)):
            return False
        if g["none"] is None and all("L" in p or "l" in p for p in per):
            return False
        if any("l" in per[j] and j not in g["tie_hit"] and any("w" in per[k] for k in range(j + 1, st.n))
               for j in range(st.n)):
            return False
    return True


def _check(resolve: Callable, st: Any, avals: list[int], model: Any, g: dict, rng: random.Random,
           can: dict[int, list[dict]]) -> bool:
    """The model against the engine: each counter alone winning by a re-roll, and random states."""
    configs = [(a, {k: "w"}) for a in avals[-1:] for k in range(st.n) if "w" in can[a][k]]
    for _ in range(CHECKS):
        a = rng.choice(avals)
        configs.append((a, {j: rng.choice(sorted(p)) for j, p in enumerate(can[a])}))
    for a, which in configs:
        p = plan(st, a, which, rng)
        if p is None:
            continue
        if any(s in "Ww" and j not in g["each"] for j, s in which.items()) or (
                g["none"] is None and not any(s in "Ww" for s in which.values())):
            return False
        if any(s == "l" and j not in g["tie_hit"] and any(x == "w" for k, x in which.items() if k > j)
               and not any(x == "W" for x in which.values()) for j, s in which.items()):
            return False
        got = resolve(p)
        if got is None or not _same(got, predict(model, g, which)):
            return False
    return True


def numbers(st: Any, group_of: Callable, model: Any, chain: list[tuple[Fraction, Fraction]]) -> dict:
    """Every number of the step: per actor total, a walk over the counters in file order."""
    from .fast_numbers import _Acc, as_fractions

    sizes = [st.sizes[0]] + [st.sizes[j + 1] * _scale(chain[j]) for j in range(st.n)]
    denom = 1
    for s in sizes:
        denom *= s
    rest = denom // sizes[0]
    acc = _Acc()
    for a, _f, cnt in st.rollers[0]:
        g = model.groups[(group_of(a), ())]
        per = [states(st, j, a, chain[j]) for j in range(st.n)]
        for j, c in enumerate(model.counters):
            d = acc.pairs.setdefault(f"{model.actor} vs {c}", {})
            won = cnt * (per[j].get("W", 0) + per[j].get("w", 0)) * (rest // sizes[j + 1])
            d[c] = d.get(c, 0) + won
            d[model.actor] = d.get(model.actor, 0) + cnt * rest - won
        for pid in model.pre:
            dist = acc.ohr.setdefault(pid, {})
            for v, wt in _walk(g, per, pid, "ohr").items():
                dist[v] = dist.get(v, 0) + cnt * wt
        for key, target, names in (("success", acc.success, model.names), ("hit", acc.hit, model.pre)):
            for pid in names:
                wt = _walk(g, per, pid, key).get(True, 0)
                if key == "success" or wt:
                    target[pid] = target.get(pid, 0) + cnt * wt
    return as_fractions(acc, denom)


def _walk(g: dict, per: list[dict], pid: str, key: str) -> dict:
    """Weights of `pid`'s Ohrožení (`key` "ohr") or of whether it succeeds / is hit, over the
    counters' states in file order; the walk carries (somebody beat the actor, a tied winner came,
    what the winners bring, what the hit tied losers bring)."""
    def part(e: dict | None) -> Any:
        if e is None:
            return 0 if key == "ohr" else False
        if key == "ohr":
            return e["d"].get(pid, 0)
        return pid in e[key]

    add = (lambda x, y: x + y) if key == "ohr" else (lambda x, y: x or y)  # noqa: E731
    zero = 0 if key == "ohr" else False
    walk: dict[tuple, Any] = {(False, False, zero, zero): 1}
    for j, p in enumerate(per):
        new: dict[tuple, Any] = {}
        for (beat, seen, sw, sl), wt in walk.items():
            for s, ws in p.items():
                if s == "W":
                    k = (True, seen, add(sw, part(g["each"].get(j))), sl)
                elif s == "w":
                    k = (beat, True, add(sw, part(g["each"].get(j))), sl)
                elif s == "l" and not seen:
                    k = (beat, seen, sw, add(sl, part(g["tie_hit"].get(j))))
                else:
                    k = (beat, seen, sw, sl)
                new[k] = new.get(k, 0) + wt * ws
        walk = new
    out: dict[Any, Any] = {}
    for (beat, seen, sw, sl), wt in walk.items():
        if not beat and not seen:
            none = g["none"]
            v = none["ohr"][pid] if key == "ohr" else (
                none["success"].get(pid, False) if key == "success" else pid in none["hit"])
        elif key == "ohr":
            v = g["base"].get(pid, 0) + sw + (0 if beat else sl)
        else:
            every = pid in g["s_sig" if key == "success" else "h_sig"]
            v = every or sw or (not beat and sl)
        out[v] = out.get(v, 0) + wt
    return out
