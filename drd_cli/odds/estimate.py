"""Sampling a step's open dice (the labelled estimate of `drd odds FILE STEP`), the dice sources
an odds computation feeds the engine, and the aggregation of outcomes into the numbers shown."""

from __future__ import annotations

import random
import time
from collections import Counter
from fractions import Fraction
from typing import Any, Callable

from .budget import MAX_SAMPLES, Estimate, Guard, OverBudget
from .classes import _classes
from .dice import compare_totals

class _NeedDice(Exception):
    """Raised by `_PlanDice` when the engine asks for a die the plan has not fixed yet; `key`: who
    asked and whether it is a re-roll (for a plan that hands dice out by who rolls them)."""

    def __init__(self, n: int, key: tuple[str, bool] | None = None):
        self.n = n
        self.key = key


class _RecordingDice:
    """Seeded dice that remember every request (n, who, purpose, values)."""

    name = "seeded"

    def __init__(self, seed: int):
        self._rng = random.Random(seed)
        self.calls: list[tuple[int, str, str, list[int]]] = []

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        vals = [self._rng.randint(1, 6) for _ in range(n)]
        self.calls.append((n, who, purpose, vals))
        return vals


class _PlanDice:
    """Fixed answers for the first requests; beyond them, raises _NeedDice (a branch point),
    or, with `rng`, rolls on from it (an estimate's re-rolls)."""

    name = "entered"

    def __init__(self, answers: list[list[int]], rng: random.Random | None = None,
                 whos: list[tuple[str, bool]] | None = None):
        self._answers = answers
        self._i = 0
        self._rng = rng
        # By who rolls (`whos[i]` = (who, re-roll?) of answers[i]) rather than in the order asked:
        # a roller who does not roll with these dice (a výzva's participant its protector shields)
        # must not pass its dice on to the next one.
        self._whos = whos
        self._used = [False] * len(answers)

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        if self._whos is not None:
            return self._roll_by_who(n, (who, purpose == "reroll"))
        if self._i >= len(self._answers):
            if self._rng is not None:
                return [self._rng.randint(1, 6) for _ in range(n)]
            raise _NeedDice(n)
        vals = self._answers[self._i]
        self._i += 1
        if len(vals) != n:
            raise _NeedDice(n)
        return list(vals)

    def _roll_by_who(self, n: int, key: tuple[str, bool]) -> list[int]:
        assert self._whos is not None
        for i, k in enumerate(self._whos):
            if k == key and not self._used[i]:
                self._used[i] = True
                if len(self._answers[i]) != n:
                    raise _NeedDice(n, key)
                return list(self._answers[i])
        if self._rng is not None:
            return [self._rng.randint(1, 6) for _ in range(n)]
        raise _NeedDice(n, key)


def planned_run(run: Callable, plan: list[list[int]], guard: Any) -> tuple[dict, Any] | None:
    """The step resolved with the dice of `plan` (the fast methods' probes), or None when a rule
    refuses them (`guard.why` "refused") or the engine asks for a die the plan lacks ("reroll")."""
    from ..errors import RuleViolation

    guard.check()
    try:
        return run(_PlanDice(plan))
    except RuleViolation:
        guard.why = "refused"
    except _NeedDice:
        guard.why = "reroll"
    return None


def roller_keys(open_calls: list) -> list[tuple[str, bool]]:
    """Who rolls each of the step's open rolls (and whether it is a re-roll), for `_PlanDice`."""
    return [(c[1], c[2] == "reroll") for c in open_calls]


_CLASSES: dict[int, tuple] = {}


def _exact_pairs(open_calls: list, offsets: list, rec: dict, tie: str) -> dict:
    """Each pair of a core contest as R-CONT: the actor's total against the counter's."""
    hists = []
    for call, off in zip(open_calls, offsets):
        tot = 6 ** call[0]
        hists.append([(k + off, Fraction(c, tot)) for k, _f, c in _classes(call[0])])
    actor = open_calls[0][1]
    out: dict[str, dict] = {}
    for call, h in zip(open_calls[1:], hists[1:]):
        win, lose, tie_p = compare_totals(hists[0], h)
        if tie == "actor":
            win += tie_p
        else:
            lose += tie_p
        out[f"{actor} vs {call[1]}"] = dict(sorted({actor: win, call[1]: lose}.items()))
    return out


def _estimate(run: Callable, open_calls: list, offsets: list, keyfn: Any, split: bool, keep_best: bool, seed: int,
              samples: int | None, time_limit: float | None, progress: Callable | None) -> dict[str, Any]:
    """Samples the open dice; each class met is resolved once (its outcome cached)."""
    from ..errors import RuleViolation

    rng = random.Random(f"drd-odds|{seed}")
    whos = roller_keys(open_calls)
    limit = samples if samples is not None else MAX_SAMPLES
    deadline = None if samples is not None or time_limit is None else time.perf_counter() + time_limit
    cache: dict[Any, Any] = {}
    counts: Counter = Counter()
    refused = 0
    resolutions = 0
    shown = limit if samples is not None else None
    done = 0
    ns = [c[0] for c in open_calls]
    offs = [o or 0 for o in offsets]
    randint = rng.randint
    memory = Guard(None)
    while done < limit:
        faces = [[randint(1, 6) for _ in range(n)] for n in ns]
        kept = [sum(sorted(f, reverse=True)[:2]) if keep_best and len(f) > 2 else sum(f) for f in faces]
        if keyfn is None:
            key = tuple(kept)
        else:
            totals = [k + o for k, o in zip(kept, offs)]
            key = keyfn(totals[0], tuple(totals[1:])) if split else keyfn(totals)
        got = cache.get(key)
        if got is None or got is _EXTRA:
            try:
                resolutions += 1
                rec, state = run(_PlanDice(faces, rng if got is _EXTRA else None, whos))
                got = summarize(rec, state)
                cache[key] = got
            except RuleViolation:
                got = cache[key] = _REFUSED
            except _NeedDice:
                # A re-roll: this class's outcome depends on more dice; roll them for each sample.
                cache[key] = _EXTRA
                try:
                    rec, state = run(_PlanDice(faces, rng, whos))
                    got = summarize(rec, state)
                except RuleViolation:
                    got = _REFUSED
        if got is _REFUSED:
            refused += 1
        else:
            counts[got] += 1
        done += 1
        if progress is not None and done % 256 == 0:
            progress(done, shown)       # total None: as many as the time allows
        try:
            memory.check()              # reads the resident size every 64th sample
        except OverBudget:
            # The cache of outcomes outgrew the memory budget: start it afresh (samples stay).
            cache.clear()
            memory = Guard(None)
        if deadline is not None and time.perf_counter() > deadline:
            break
    if progress is not None:
        progress(done, done)
    agg = _Agg()
    for s, k in counts.items():
        agg.add(s, k)
    out = agg.result(lambda k: Estimate.share(k, done), lambda s1, s2: Estimate.mean(s1, s2, done))
    out.update({"exact": False, "samples": done, "confidence": 0.95, "classes": len(cache),
                "resolutions": resolutions, "dropped": Fraction(0), "refused": Estimate.share(refused, done)})
    return out


_REFUSED = object()
_EXTRA = object()


def summarize(rec: dict, state: Any) -> tuple:
    """What the odds read from one resolution, hashable: Ohrožení after the step, each action's
    success, who is hit, each exhaustion (payer, against whom, cost), each pair's winner."""
    hit: set[str] = set()
    actions = []
    for pid, a in rec.get("actions", {}).items():
        actions.append((pid, bool(a.get("success"))))
        hit.update(a.get("affected") or [])
    return (tuple((pid, ps.ohrozeni) for pid, ps in state.participants.items()), tuple(actions),
            tuple(sorted(hit)), tuple((e["by"], e.get("vs"), e.get("cost", 0)) for e in rec.get("exhaustions", [])),
            tuple((f"{p['actor']} vs {p['counter']}", p["winner"]) for p in rec.get("pairs", [])))


class _Agg:
    """Weighted aggregation of outcome summaries (weights: Fractions, or sample counts)."""

    def __init__(self) -> None:
        self.pairs: dict[str, dict[str, Any]] = {}
        self.ohrozeni: dict[str, dict[int, Any]] = {}
        self.success: dict[str, Any] = {}
        self.hit: dict[str, Any] = {}
        self.exhausts: dict[str, Any] = {}
        self.costs: dict[str, list] = {}       # "by vs" → [weight, Σ w·cost, Σ w·cost²]
        self.cost_by: dict[str, list] = {}     # by → [Σ w·cost, Σ w·cost²]

    def add(self, s: tuple, p: Any) -> None:
        ohr, actions, hit, exh, pairs = s
        for pid, o in ohr:
            d = self.ohrozeni.setdefault(pid, {})
            d[o] = d.get(o, 0) + p
        for pid, ok in actions:
            self.success[pid] = self.success.get(pid, 0) + (p if ok else 0)
        for pid in hit:
            self.hit[pid] = self.hit.get(pid, 0) + p
        per_by: dict[str, int] = {}
        per_vs: dict[str, int] = {}
        for by, vs, cost in exh:
            per_by[by] = per_by.get(by, 0) + cost
            k = f"{by} vs {vs}"
            per_vs[k] = per_vs.get(k, 0) + cost
        for by, c in per_by.items():
            self.exhausts[by] = self.exhausts.get(by, 0) + p
            acc = self.cost_by.setdefault(by, [0, 0])
            acc[0] += p * c
            acc[1] += p * c * c
        for k, c in per_vs.items():
            acc = self.costs.setdefault(k, [0, 0, 0])
            acc[0] += p
            acc[1] += p * c
            acc[2] += p * c * c
        for key, winner in pairs:
            won = self.pairs.setdefault(key, {})
            won[winner] = won.get(winner, 0) + p

    def result(self, share: Callable[[Any], Any], mean: Callable[[Any, Any], Any] | None = None) -> dict[str, Any]:
        """Every number through `share` (a weight → a probability); expected costs through `mean`
        (Σ w·cost, Σ w·cost² → a mean), by default share applied to Σ w·cost."""
        mean = mean or (lambda s1, s2: share(s1))
        return {
            "pairs": {k: {w: share(v) for w, v in sorted(d.items())} for k, d in self.pairs.items()},
            "ohrozeni": {pid: {o: share(v) for o, v in sorted(d.items())} for pid, d in self.ohrozeni.items()},
            "success": {pid: share(v) for pid, v in self.success.items()},
            "hit": {pid: share(v) for pid, v in sorted(self.hit.items())},
            "exhausts": {pid: share(v) for pid, v in sorted(self.exhausts.items())},
            "exhaust_cost": {pid: mean(s1, s2) for pid, (s1, s2) in sorted(self.cost_by.items())},
            "exhaust_vs": {k: {"p": share(w), "cost": mean(s1, s2)} for k, (w, s1, s2) in sorted(self.costs.items())},
        }

