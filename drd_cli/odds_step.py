"""`drd odds FILE STEP`: the outcome of one step over the dice the file leaves open in it.

Exact while the classes of dice the engine can tell apart fit a budget, otherwise a clearly
labelled estimate by sampling (docs/odds.md). Exact numbers are `Fraction`s; estimated ones are
`Estimate`s (a share of samples with its 95 % Wilson interval). `drd_cli.odds.step_odds` is the
public entry; `drd_cli.odds.what_if` reuses `StepPrep` to compare variants of the same step.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any, Callable

from .odds import compare_totals

#: Most classes (distinct engine resolutions) an exact answer may resolve; beyond: estimate.
DEFAULT_BUDGET = 4000
#: Most live states of the contest enumeration (`_contest_classes`); beyond: estimate.
STATE_BUDGET = 12000
#: Most dice-sum combinations enumerated one by one (steps other than a core contest).
COMBO_BUDGET = 250000
#: Seconds an estimate samples for when no sample count is given.
DEFAULT_TIME = 1.5
MAX_SAMPLES = 1_000_000


def time_budget(factor: float = 3.0, low: float = 0.25, high: float = 4.0) -> float:
    """Seconds an estimate of a command may sample: `factor` × how long this process has run so
    far (start-up, reading and checking the file: about what `drd resolve` of it costs), within
    [low, high]. So the whole command stays a few times `drd resolve` on a fast machine and on a
    slow one alike (#14). Where the process's age cannot be read: DEFAULT_TIME."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        import os

        age = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return DEFAULT_TIME
    return min(high, max(low, factor * age))
Z95 = 1.959963984540054


class Estimate:
    """An estimated probability (k of n samples) or mean, with its 95 % interval."""

    __slots__ = ("value", "low", "high", "n")

    def __init__(self, value: float, low: float, high: float, n: int):
        self.value, self.low, self.high, self.n = value, low, high, n

    @classmethod
    def share(cls, k: int, n: int) -> "Estimate":
        """Wilson score interval: honest near 0 and 1, where the normal one is not."""
        if n == 0:
            return cls(0.0, 0.0, 1.0, 0)
        p = k / n
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        low = 0.0 if k == 0 else max(0.0, centre - half)
        high = 1.0 if k == n else min(1.0, centre + half)
        return cls(p, low, high, n)

    @classmethod
    def mean(cls, s1: float, s2: float, n: int) -> "Estimate":
        """The mean of a quantity from its sum and sum of squares (normal interval)."""
        if n == 0:
            return cls(0.0, 0.0, 0.0, 0)
        m = s1 / n
        var = max(0.0, s2 / n - m * m) * n / max(1, n - 1)
        half = Z95 * math.sqrt(var / n)
        return cls(m, m - half, m + half, n)

    def __float__(self) -> float:
        return self.value

    def __sub__(self, other: Any) -> float:
        return self.value - float(other)

    def __rsub__(self, other: Any) -> float:
        return float(other) - self.value

    def __bool__(self) -> bool:
        return self.value != 0

    def __repr__(self) -> str:
        return f"Estimate({self.value:.4f}, [{self.low:.4f}, {self.high:.4f}], n={self.n})"


# --------------------------------------------------------------------------- dice sources

class _NeedDice(Exception):
    """Raised by `_PlanDice` when the engine asks for a die the plan has not fixed yet."""

    def __init__(self, n: int):
        self.n = n


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

    def __init__(self, answers: list[list[int]], rng: random.Random | None = None):
        self._answers = answers
        self._i = 0
        self._rng = rng

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        if self._i >= len(self._answers):
            if self._rng is not None:
                return [self._rng.randint(1, 6) for _ in range(n)]
            raise _NeedDice(n)
        vals = self._answers[self._i]
        self._i += 1
        if len(vals) != n:
            raise _NeedDice(n)
        return list(vals)


_CLASSES: dict[int, tuple] = {}


def _classes(n: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """For a request of n dice: (kept value, representative faces, count) per kept value.

    The engine uses dice only through their kept sum (all of them, or the best two when
    `keep-best-2-of-3` asks for more than two), so one representative per sum is enough.
    """
    got = _CLASSES.get(n)
    if got is None:
        seen: dict[int, list] = {}
        for faces in product(range(1, 7), repeat=n):
            key = sum(sorted(faces, reverse=True)[:2])
            if key in seen:
                seen[key][1] += 1
            else:
                seen[key] = [faces, 1]
        got = _CLASSES[n] = tuple((k, f, c) for k, (f, c) in sorted(seen.items()))
    return got


# --------------------------------------------------------------------------- preparing a step

def find_step(scenario: Any, step_id: str) -> tuple[int, int]:
    """(round index, step index) of a step id (or `R.S`); KeyError naming the steps there are."""
    from .i18n import _

    ids = []
    for ri, rnd in enumerate(scenario.rounds):
        for si, step in enumerate(rnd.steps):
            sid = step.id or f"{ri + 1}.{si + 1}"
            ids.append(sid)
            if sid == step_id:
                return ri, si
    raise KeyError(_("no step {id}; steps are {ids}").format(id=repr(step_id), ids=", ".join(ids)))


class StepPrep:
    """One step of a loaded scenario, ready to be resolved many times: the rules set up once,
    the state before the step resolved once per answer policy (open dice before it by `seed`)."""

    def __init__(self, loaded: Any, step_id: str, *, seed: int = 0, params: dict | None = None,
                 enable: tuple[str, ...] = (), disable: tuple[str, ...] = (), group: str | None = None):
        from .api import setup_rules
        from .engine.hooks import Hooks

        self.loaded, self.step_id, self.seed = loaded, step_id, seed
        self.setup = setup_rules(loaded, params=params, enable=enable, disable=disable, group=group)
        self.hooks = Hooks(self.setup.pm, self.setup.profile.enabled)
        self.scn = loaded.scenario
        self.ri, self.si = find_step(self.scn, step_id)
        self.step = self.scn.rounds[self.ri].steps[self.si]
        self._cps: dict[str, Any] = {}

    @property
    def profile(self) -> Any:
        return self.setup.profile

    def checkpoint(self, choose: str) -> Any:
        """The engine's position before the step; earlier decisions answered by `choose`."""
        cp = self._cps.get(choose)
        if cp is None:
            from .dice import SeededDice
            from .engine.run import resolve_to

            cp = self._cps[choose] = resolve_to(self.scn, self.profile, SeededDice(self.seed), self.hooks,
                                                self.ri, self.si, choose=choose)
        return cp

    def with_step(self, step: Any) -> Any:
        """A shallow stand-in scenario whose step at this position is `step` (for what-if)."""
        rnd = self.scn.rounds[self.ri]
        steps = list(rnd.steps)
        steps[self.si] = step
        rounds = list(self.scn.rounds)
        rounds[self.ri] = rnd.model_copy(update={"steps": steps})
        return self.scn.model_copy(update={"rounds": rounds})


# --------------------------------------------------------------------------- the odds of a step

def step_odds(loaded: Any, step_id: str, choose: str = "accept", *, seed: int = 0, params: dict | None = None,
              enable: tuple[str, ...] = (), disable: tuple[str, ...] = (), group: str | None = None,
              **kwargs: Any) -> dict[str, Any]:
    """The outcome distribution of one step (see `odds_for`)."""
    prep = StepPrep(loaded, step_id, seed=seed, params=params, enable=enable, disable=disable, group=group)
    return odds_for(prep, choose, **kwargs)


def odds_for(prep: StepPrep, choose: str = "accept", *, step: Any = None, step_choose: str | None = None,
             classes: bool = True, max_extra: int = 4,
             budget: int = DEFAULT_BUDGET, samples: int | None = None, time_limit: float | None = DEFAULT_TIME,
             progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The outcome of the prepared step (or of `step`, a variant of it at the same place).

    `choose` answers the decisions before the step and, unless `step_choose` is given, in it.

    Exact when the classes fit `budget` (0 forces an estimate): each class of dice combinations
    the engine cannot tell apart is resolved once from the checkpoint and weighted by its share
    of the dice faces, as Fractions. Otherwise the open dice are sampled (`samples`, or as many
    as `time_limit` seconds allow), each class met resolved once and cached; every number is
    then an `Estimate` and `exact` is False. `progress(done, total)` reports resolutions (exact)
    or samples (estimate).
    """
    from .engine.run import resolve_step_from
    from .errors import RuleViolation

    started = time.perf_counter()
    scn = prep.scn if step is None else prep.with_step(step)
    spec = prep.step if step is None else step
    cp = prep.checkpoint(choose)
    profile, hooks = prep.profile, prep.hooks
    choose = step_choose or choose

    def run(dice: Any) -> tuple[dict, Any]:
        return resolve_step_from(cp, scn, profile, dice, hooks, choose=choose)

    # Probe once: which dice the step asks for, and each roller's bonus (record total − kept dice).
    # Dice with which a rule refuses the step teach nothing: try other dice (a few) first.
    for attempt in range(50):
        probe = _RecordingDice(prep.seed + attempt)
        try:
            step_rec = run(probe)[0]
            break
        except RuleViolation:
            if attempt == 49:
                raise
    # A re-roll seen in the probe is not an open roller: it is branched over on demand.
    open_calls = [c for c in probe.calls if c[2] != "reroll"]
    keep_best = profile.params.get("presne") == "keep-best-2-of-3"
    offsets: list[int | None] = []
    for n, who, _p, vals in open_calls:
        r = step_rec["rolls"].get(who)
        kept = sum(sorted(vals, reverse=True)[:2]) if keep_best else sum(vals)
        known = r is not None and r.get("dice") == vals and r.get("total") is not None
        offsets.append(r["total"] - kept if known else None)
    whos = [c[1] for c in open_calls]
    if len(set(whos)) != len(whos):  # one participant rolling twice: its record shows only the last roll
        offsets = [None] * len(open_calls)
    target = profile.params.get("target", 9)
    consts = sorted({9, target if isinstance(target, int) else 9} | _targets(spec))
    # Totals the file gives are compared with the open ones like the targets are.
    consts = sorted(set(consts) | set(_given_totals(step_rec, whos)))
    keyfn = _key_function(step_rec, spec, consts, open_calls) if classes and None not in offsets else None
    denom = 1
    for c in open_calls:
        denom *= 6 ** c[0]
    base = {"step": prep.step_id, "kind": step_rec["kind"], "choose": choose,
            "open_rolls": [{"who": c[1], "dice": c[0]} for c in open_calls], "combinations": denom, "budget": budget,
            # Manoeuvres are paid before the roll, so how they are paid does not depend on the dice.
            "manoeuvres": step_rec.get("manoeuvres", [])}

    groups = None
    if budget > 0:
        # Per roller: (total or kept sum, representative faces, how many faces give it).
        per_call = [[(k + (off or 0), f, c) for k, f, c in _classes(call[0])] for call, off in zip(open_calls, offsets)]
        hopeless = False
        if keyfn is not None and getattr(keyfn, "split", False):
            # When n+1 totals lie in every roller's range, every order of the actor and its n
            # counters happens, and each order is a class of its own: (n+1)! classes at least;
            # n totals common to the counters give every settling order, n! classes at least.
            ranges = [{t for t, _f, _c in o} for o in per_call]
            n = len(ranges) - 1
            least = 0
            if len(set.intersection(*ranges)) >= n + 1:
                least = math.factorial(n + 1)
            elif n and len(set.intersection(*ranges[1:])) >= n:
                least = math.factorial(n)
            hopeless = least > budget
        if keyfn is not None:
            per_call = _compress(per_call, consts)
        groups = None if hopeless else _exact_groups(per_call, keyfn, budget)
        if groups is not None and len(groups) > budget:
            groups = None
    split = keyfn is not None and getattr(keyfn, "split", False)
    if groups is None:
        if time_limit is not None:
            # The time limit is for the whole answer: what trying the exact way took comes off it.
            time_limit = max(min(0.25, time_limit), time_limit - (time.perf_counter() - started))
        out = _estimate(run, open_calls, offsets, keyfn, split, keep_best, prep.seed, samples, time_limit, progress)
        if split and profile.params.get("tie") in ("actor", "counter"):
            # Who wins a pair depends only on its two totals and the tie rule: exact even here.
            out["pairs"] = _exact_pairs(open_calls, offsets, step_rec, profile.params["tie"])
            out["pairs_exact"] = True
        out.update(base)
        return out

    agg = _Agg()
    dropped = refused = Fraction(0)
    resolutions = 0
    total = len(groups)
    # Weights are counted in units of 1/denom (integers, until a re-roll branches) and summed
    # per distinct outcome first: many classes end alike, and Fraction arithmetic is slow.
    by_outcome: dict[tuple, Any] = {}
    for done, (answers, w) in enumerate(groups.values()):
        stack: list[tuple[list[list[int]], Any]] = [(answers, w)]
        while stack:
            plan, p = stack.pop()
            try:
                resolutions += 1
                rec, state = run(_PlanDice(plan))
            except RuleViolation:
                # A written answer the payer cannot afford with these dice (R-EXH-4): an outcome too.
                refused += p
                continue
            except _NeedDice as need:
                if len(plan) - len(answers) >= max_extra:
                    dropped += p
                    continue
                tot = 6 ** need.n
                for _k, faces, cnt in _classes(need.n):
                    stack.append((plan + [list(faces)], p * Fraction(cnt, tot)))
                continue
            key = summarize(rec, state)
            by_outcome[key] = by_outcome.get(key, 0) + p
        if progress is not None and (done % 64 == 63 or done == total - 1):
            progress(done + 1, total)
    for key, p in by_outcome.items():
        agg.add(key, p)
    dropped = Fraction(dropped) / denom
    refused = Fraction(refused) / denom
    norm = 1 - dropped
    n = (norm if norm else Fraction(1)) * denom
    out = agg.result(lambda v: Fraction(v) / n)
    out.update(base)
    out.update({"exact": True, "samples": None, "classes": len(groups), "resolutions": resolutions,
                "dropped": dropped, "refused": refused / (1 - dropped) if dropped != 1 else refused})
    return out


def _exact_groups(per_call: list[list[tuple]], keyfn: Any, budget: int = DEFAULT_BUDGET) -> dict | None:
    """Classes of dice combinations: key → [representative faces per roller, number of faces];
    None when enumerating them is over budget."""
    if keyfn is not None and getattr(keyfn, "split", False):
        return _contest_classes(per_call, keyfn.act_consts, keyfn.cnt_consts, STATE_BUDGET)
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
        else:
            g[1] += w
    return groups


def _contest_classes(per_call: list[list[tuple]], act_consts: list[int], cnt_consts: list[list[int]],
                     limit: int) -> dict | None:
    """The classes of a core contest without enumerating every combination of totals.

    A class is (the order in which the pairs are settled, each counter's side of the actor's
    total, the counters' obstacle checks, the actor's checks), as `_key_function` keys it. The
    totals are placed from the highest value down: at each value some of the rollers not placed
    yet take it, counters in file order (R-ORDER's tie-break). A state is what the key can still
    see — who is placed, in which order, on which side of the actor, which checks they passed —
    so combinations that differ only in values no key reads merge as they go, and the work grows
    with the classes, not with the 11^n combinations. None when the live states exceed `limit`.
    """
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
            options = ways.get(mask)
            if options is None:
                options = ways[mask] = _placements(here, mask, must & ~mask, ocheck)
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
        key = ((tuple(order), tuple(x for ch in checks for x in ch)), tuple(sides), af)
        g = groups.get(key)
        if g is None:
            groups[key] = [[list(f) for f in faces], w]
        else:
            g[1] += w
    return groups


def _placements(here: list[tuple], mask: int, need: int, ocheck: list[tuple]) -> list[tuple]:
    """Every subset of the not yet placed rollers that can take this value (those whose lowest
    total it is must): (mask, actor among them, product of their counts, (roller, faces) each,
    (counter index, its checks) in file order)."""
    cand = [x for x in here if not mask >> x[0] & 1]
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
    from .errors import RuleViolation

    rng = random.Random(f"drd-odds|{seed}")
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
                rec, state = run(_PlanDice(faces, rng if got is _EXTRA else None))
                got = summarize(rec, state)
                cache[key] = got
            except RuleViolation:
                got = cache[key] = _REFUSED
            except _NeedDice:
                # A re-roll: this class's outcome depends on more dice; roll them for each sample.
                cache[key] = _EXTRA
                try:
                    rec, state = run(_PlanDice(faces, rng))
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
            d = self.pairs.setdefault(key, {})
            d[winner] = d.get(winner, 0) + p

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


# --------------------------------------------------------------------------- classes

def _key_function(rec: dict, step: Any, consts: list[int], calls: list) -> Any:
    """How to tell two dice combinations apart for this step (see `odds_for`), or None for "by sums"."""
    kind = rec["kind"]
    if kind in ("test", "challenge"):
        return lambda totals: tuple(t >= c for t in totals for c in consts)
    spec = getattr(step, "contest", None)
    actor = getattr(getattr(spec, "action", None), "actor", None)
    counters = [getattr(c, "actor", None) for c in (getattr(spec, "counters", None) or [])]
    whos = [c[1] for c in calls]
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
