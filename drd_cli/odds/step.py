"""`drd odds FILE STEP`: the outcome of one step over the dice the file leaves open in it.

Exact while the classes of dice the engine can tell apart fit a budget, otherwise a clearly
labelled estimate by sampling (docs/odds.md). Exact numbers are `Fraction`s; estimated ones are
`Estimate`s (a share of samples with its 95 % Wilson interval). `drd_cli.odds.step_odds` is the
public entry; `drd_cli.odds.what_if` reuses `StepPrep` to compare variants of the same step.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any, Callable

from .budget import (COMBO_BUDGET, DEFAULT_BUDGET, DEFAULT_TIME, MAX_SAMPLES, STATE_BUDGET,  # noqa: F401
                     Estimate, Guard, OverBudget, time_budget)

#: Seconds an exact answer of the command may work at least before it gives way to the estimate
#: (4 × the estimate's time when that is longer): `exact_deadline`.
EXACT_TIME = 10.0


def exact_deadline(time_limit: float | None) -> float:
    """How long the command lets an exact answer work: 4 × the estimate's time, at least 10 s."""
    return max(EXACT_TIME, 4 * (time_limit or 0))
from .classes import (_classes, _compress, _contest_classes, _exact_groups, _given_totals,  # noqa: F401
                      _key_function, _pattern, _placements, _targets)
from . import fast, fast_race, fast_race_seq, fast_seq, fast_seq_types, fast_test
from .estimate import (_EXTRA, _REFUSED, _Agg, _estimate, _exact_pairs, _NeedDice, _PlanDice,  # noqa: F401
                       _RecordingDice, roller_keys, summarize)

# --------------------------------------------------------------------------- preparing a step

def find_step(scenario: Any, step_id: str) -> tuple[int, int]:
    """(round index, step index) of a step id (or `R.S`); KeyError naming the steps there are."""
    from ..i18n import _

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
        from ..api import setup_rules
        from ..engine.hooks import Hooks

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
            from ..dice import SeededDice
            from ..engine.run import resolve_to

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
             classes: bool = True, max_extra: int = 4, fast_method: bool = True, exact_time: float | None = None,
             budget: int = DEFAULT_BUDGET, samples: int | None = None, time_limit: float | None = DEFAULT_TIME,
             progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The outcome of the prepared step (or of `step`, a variant of it at the same place).

    `choose` answers the decisions before the step and, unless `step_choose` is given, in it.

    Exact when the classes fit `budget` (0 forces an estimate): each class of dice combinations
    the engine cannot tell apart is resolved once from the checkpoint and weighted by its share
    of the dice faces, as Fractions. Otherwise the open dice are sampled (`samples`, or as many
    as `time_limit` seconds allow), each class met resolved once and cached; every number is
    then an `Estimate` and `exact` is False. `progress(done, total)` reports resolutions (exact)
    or samples (estimate). An exact attempt gives way to the estimate past `exact_time` seconds
    (None: no deadline; the command sets one, `exact_deadline`) or past `budget.MEMORY_MB`.
    """
    from ..engine.run import resolve_step_from

    started = time.perf_counter()
    scn = prep.scn if step is None else prep.with_step(step)
    spec = prep.step if step is None else step
    cp = prep.checkpoint(choose)
    profile, hooks = prep.profile, prep.hooks
    choose = step_choose or choose

    def run(dice: Any) -> tuple[dict, Any]:
        return resolve_step_from(cp, scn, profile, dice, hooks, choose=choose)

    step_rec, open_calls, offsets = _probe(run, prep.seed, profile)
    keep_best = profile.params.get("presne") == "keep-best-2-of-3"
    consts, keyfn = _keys(step_rec, spec, profile, hooks, open_calls, offsets, classes)
    denom = 1
    for c in open_calls:
        denom *= 6 ** c[0]
    base = {"step": prep.step_id, "kind": step_rec["kind"], "choose": choose,
            "open_rolls": [{"who": c[1], "dice": c[0]} for c in open_calls], "combinations": denom, "budget": budget,
            # Manoeuvres are paid before the roll, so how they are paid does not depend on the dice.
            "manoeuvres": step_rec.get("manoeuvres", [])}

    # Every exact attempt works within a time and memory budget; past it: the labelled estimate.
    guard = Guard(exact_time)
    base["why_not_fast"] = None
    if budget > 0 and classes and fast_method:
        got = _fast_methods(prep, run, spec, step_rec, open_calls, offsets, cp, keyfn, guard, choose, step is None,
                            base)
        if got is not None:
            got.update(base)
            if progress is not None:
                progress(got["resolutions"], got["resolutions"])
            return got
    groups = _class_groups(open_calls, offsets, keyfn, consts, budget, guard) if budget > 0 else None
    split = keyfn is not None and getattr(keyfn, "split", False)

    def estimate(time_limit: float | None) -> dict[str, Any]:
        if time_limit is not None:
            # The time limit is for the whole answer: what trying the exact way took comes off it.
            time_limit = max(min(0.25, time_limit), time_limit - (time.perf_counter() - started))
        out = _estimate(run, open_calls, offsets, keyfn, split, keep_best, prep.seed, samples, time_limit, progress)
        if split and profile.params.get("tie") in ("actor", "counter"):
            # Who wins a pair depends only on its two totals and the tie rule: exact even here.
            out["pairs"] = _exact_pairs(open_calls, offsets, step_rec, profile.params["tie"])
            out["pairs_exact"] = True
        out.update(base)
        out["method"] = "estimate"
        return out

    if groups is None:
        return estimate(time_limit)
    try:
        return _resolve_classes(run, groups, denom, base, max_extra, progress, guard, roller_keys(open_calls))
    except OverBudget:
        return estimate(time_limit)


def _keys(step_rec: dict, spec: Any, profile: Any, hooks: Any, open_calls: list, offsets: list,
          classes: bool) -> tuple[list[int], Any]:
    """The numbers the totals are compared with, and how the class method tells them apart."""
    from .hooks import deciding_hooks, reads_totals

    whos = [c[1] for c in open_calls]
    target = profile.params.get("target", 9)
    consts = sorted({9, target if isinstance(target, int) else 9} | _targets(spec))
    # Totals the file gives are compared with the open ones like the targets are.
    consts = sorted(set(consts) | set(_given_totals(step_rec, whos)))
    keyfn = _key_function(step_rec, spec, consts, open_calls) if classes and None not in offsets else None
    if keyfn is not None and reads_totals(hooks, deciding_hooks(hooks)):
        # A plugin may read the totals in its own way (how far apart they are, not only which is
        # higher): only combinations of equal sums are alike then.
        keyfn = None
    return consts, keyfn


def _probe(run: Callable, seed: int, profile: Any) -> tuple[dict, list, list]:
    """Resolves the step once with recording dice: its record, the open rolls (n, who, purpose,
    values) and each roller's bonus (record total − kept dice; None where it cannot be read).
    Dice with which a rule refuses the step teach nothing: other dice (a few) are tried first."""
    from ..errors import RuleViolation

    for attempt in range(50):
        probe = _RecordingDice(seed + attempt)
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
    for _n, who, _p, vals in open_calls:
        r = step_rec["rolls"].get(who)
        kept = sum(sorted(vals, reverse=True)[:2]) if keep_best else sum(vals)
        known = r is not None and r.get("dice") == vals and r.get("total") is not None
        offsets.append(r["total"] - kept if known else None)
    whos = [c[1] for c in open_calls]
    if len(set(whos)) != len(whos):  # one participant rolling twice: its record shows only the last roll
        offsets = [None] * len(open_calls)
    return step_rec, open_calls, offsets


def _fast_methods(prep: StepPrep, run: Callable, spec: Any, step_rec: dict, open_calls: list, offsets: list,
                  cp: Any, keyfn: Any, guard: Guard, choose: str, is_base: bool, note: dict) -> dict | None:
    """The fast method of a contest or of a test where the step has that shape, else None and
    `note["why_not_fast"]` says why (a code of `fast.WHY`; `deciding_hooks` names the plugins' hooks)."""
    from .hooks import deciding_hooks

    profile = prep.profile
    if len(open_calls) < 1:
        return None
    deciding = deciding_hooks(prep.hooks)
    if deciding:
        note.update(why_not_fast="hooks", deciding_hooks=deciding)
        return None
    why = fast.why_not(spec, step_rec, keyfn, profile, open_calls, offsets)
    if why is None:
        got = _fast(prep, run, spec, open_calls, offsets, cp, keyfn, guard, choose, is_base)
        if got is not None:
            return got
        why = "model"
    if why == "kind":
        why_t = fast_test.why_not(spec, step_rec, open_calls, offsets)
        if why_t is None:
            got = _fast_test(run, open_calls, offsets, fast_test.target_of(spec, profile), guard, spec, profile)
            if got is not None:
                return got
            why_t = "model"
        why = why_t
    if why == "kind":
        why = fast_race.why_not(spec, step_rec, open_calls, offsets)
        if why is None:
            target = profile.params.get("target", 9)
            got = _counted(fast_race.fast_race_odds, run, open_calls, offsets, target if isinstance(target, int) else 9,
                           guard)
            if got is not None:
                return got
            why = "model"
    if why == "model":
        why = guard.why or "model"
    if (why in ("exhaustion", "refused") and step_rec.get("kind") == "contest"
            and getattr(spec, "contest", None) is not None and not fast.specials_of(spec)
            and profile.params.get("tie", "actor") in ("actor", "counter")):
        # (Under `tie: reroll` a tied pair is rolled again: the sequence model has no such pair.)
        # Payments in sequence (CS-SEQ-1): the winners' order matters, not only who won.
        guard.why = None
        got = _seq(prep, run, spec, open_calls, offsets, keyfn, guard, choose, is_base)
        if got is not None:
            return got
        why = guard.why if guard.why in ("refused", "reroll") else why
    if why == "exhaustion" and step_rec.get("kind") == "race" and [c[1] for c in open_calls] == list(spec.race.actors):
        # Each racer pays against the obstacle, then the faster racers in turn (CS-RACE-1).
        guard.why = None
        target = profile.params.get("target", 9)
        got = _race_seq(run, open_calls, offsets, target if isinstance(target, int) else 9, guard, cp.state,
                        getattr(spec, "choices", None) or {})
        if got is not None:
            return got
        why = guard.why if guard.why in ("refused", "reroll") else why
    if why in ("exhaustion", "refused") and profile.params.get("tie") == "reroll":
        why = "reroll"      # payments in sequence beside re-rolled ties: not modelled
    if why == "exhaustion" and choose != "accept":
        why = "policy"
    note["why_not_fast"] = why
    return None


def _class_groups(open_calls: list, offsets: list, keyfn: Any, consts: list[int], budget: int,
                  guard: Guard) -> dict | None:
    """The classes to resolve (`classes._exact_groups`), or None when they cannot fit the budget."""
    # Per roller: (total or kept sum, representative faces, how many faces give it).
    per_call = [[(k + (off or 0), f, c) for k, f, c in _classes(call[0])] for call, off in zip(open_calls, offsets)]
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
        if least > budget:
            return None
    if keyfn is not None:
        per_call = _compress(per_call, consts)
    groups = _exact_groups(per_call, keyfn, budget, guard)
    return None if groups is None or len(groups) > budget else groups


def _resolve_classes(run: Callable, groups: dict, denom: int, base: dict, max_extra: int,
                     progress: Callable | None, guard: Guard, whos: list[tuple[str, bool]]) -> dict[str, Any]:
    """Resolves one representative per class and adds up the outcomes as exact Fractions; the
    dice go to the rollers by who rolls them (`whos`: the open rolls' rollers, `roller_keys`), a
    roll nobody planned for is branched over on demand."""
    from ..errors import RuleViolation

    agg = _Agg()
    dropped = refused = Fraction(0)
    resolutions = 0
    total = len(groups)
    # Weights are counted in units of 1/denom (integers, until a re-roll branches) and summed
    # per distinct outcome first: many classes end alike, and Fraction arithmetic is slow.
    by_outcome: dict[tuple, Any] = {}
    for done, (answers, w) in enumerate(groups.values()):
        stack: list[tuple[list[list[int]], list[tuple[str, bool]], Any]] = [(answers, whos, w)]
        while stack:
            guard.check()
            plan, keys, p = stack.pop()
            try:
                resolutions += 1
                rec, state = run(_PlanDice(plan, whos=keys))
            except RuleViolation:
                # A written answer the payer cannot afford with these dice (R-EXH-4): an outcome too.
                refused += p
                continue
            except _NeedDice as need:
                if len(plan) - len(answers) >= max_extra:
                    dropped += p
                    continue
                tot = 6 ** need.n
                extra = keys + [need.key or ("", False)]
                for _k, faces, cnt in _classes(need.n):
                    stack.append((plan + [list(faces)], extra, p * Fraction(cnt, tot)))
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
    out.update({"exact": True, "method": "classes", "samples": None, "classes": len(groups), "resolutions": resolutions,
                "dropped": dropped, "refused": refused / (1 - dropped) if dropped != 1 else refused})
    return out



def _fast(prep: StepPrep, run: Callable, spec: Any, open_calls: list, offsets: list, cp: Any, keyfn: Any,
          guard: Guard, choose: str, is_base: bool) -> dict | None:
    """The fast exact method (`odds.fast`), or None when the engine disagrees with its model. A
    variant of the step (what-if) reuses the model learnt on the step itself and only checks it."""
    tie = prep.profile.params.get("tie", "actor")
    shape = {"cnt_consts": keyfn.cnt_consts, "specials": fast.specials_of(spec), "alike": fast.alike_of(spec)}

    def compute(**reuse: Any) -> Any:
        return fast.fast_odds(run, open_calls, offsets, cp.state, tie, keyfn.act_consts, guard, **reuse, **shape)

    return _reusing(prep.__dict__.setdefault("_fast_models", {}), choose, is_base, compute, fast.METHOD,
                    refused=Fraction(0))


def _fast_test(run: Callable, open_calls: list, offsets: list, target: int, guard: Guard, spec: Any = None,
               profile: Any = None) -> dict | None:
    """The fast exact method of a test (`odds.fast_test`), or of a výzva with protecting counters
    (`odds.fast_vyzva`), or None when no shape explains the step."""
    challenge = getattr(spec, "challenge", None)
    if challenge is not None and challenge.counters:
        from functools import partial

        from . import fast_vyzva

        keep_best = profile is not None and profile.params.get("presne") == "keep-best-2-of-3"
        method = partial(fast_vyzva.fast_vyzva_odds, spec=spec, keep_best=keep_best)
        return _counted(method, run, open_calls, offsets, target, guard)
    return _counted(fast_test.fast_test_odds, run, open_calls, offsets, target, guard)


def _counted(method: Callable, run: Callable, open_calls: list, offsets: list, target: int,
             guard: Guard) -> dict | None:
    """A fast method of the tests or races, its resolutions counted; None when it does not answer."""
    calls = [0]

    def counted(dice: Any) -> Any:
        calls[0] += 1
        return run(dice)

    try:
        out = method(counted, open_calls, offsets, target, guard)
    except OverBudget:
        return None
    if out is None:
        return None
    out.update({"exact": True, "method": fast_test.METHOD, "samples": None, "classes": calls[0],
                "resolutions": calls[0], "dropped": Fraction(0), "refused": Fraction(0)})
    return out


def _seq(prep: StepPrep, run: Callable, spec: Any, open_calls: list, offsets: list, keyfn: Any, guard: Guard,
         choose: str, is_base: bool) -> dict | None:
    """The fast exact method of a contest with payments in sequence (`odds.fast_seq`), or None. A
    variant of the step (what-if) reuses the model learnt on the step itself and checks it."""
    counters = spec.contest.counters
    if len(counters) != len(open_calls) - 1 or any(c.actor != o[1] for c, o in zip(counters, open_calls[1:])):
        return None
    choices = getattr(spec, "choices", None) or {}
    if any(_for_others(payer, answer) for payer, answer in choices.items()):
        # One loser paying for another (CS-FOR-2): what the losers pay then depends on the order
        # their pairs are settled in (a loser settled first pays for itself before the other's
        # payment covers it), which the sequence model does not follow.
        return None
    written = choices.get(open_calls[0][1])
    types = [(_type_of(c), repr(written.get(c.actor)) if isinstance(written, dict) else None) for c in counters]
    args = (run, open_calls, offsets, prep.profile.params.get("tie", "actor"), keyfn.act_consts, types, guard)
    # Counters of several types: the actor's side by the sequence of the winners' types.
    method: Callable = fast_seq.seq_odds if len(set(types)) < 2 else fast_seq_types.types_odds
    return _reusing(prep.__dict__.setdefault("_seq_models", {}), choose, is_base,
                    lambda **reuse: method(*args, **reuse), fast_seq.METHOD)


def _reusing(models: dict, choose: str, is_base: bool, compute: Callable[..., Any], method: str,
             **fields: Any) -> dict | None:
    """A fast method's answer, `compute(model=…)`: a variant of the step (what-if) reuses the model
    learnt on the step itself and checks it, learning afresh when it does not fit; None when the
    method steps aside."""
    reuse = None if is_base else models.get(choose)
    try:
        got = compute(model=reuse)
        if got is None and reuse is not None:
            got = compute()
    except OverBudget:
        return None
    if got is None:
        return None
    out, model = got
    if is_base:
        models[choose] = model
    out.update({"exact": True, "method": method, "samples": None, "classes": model.resolutions,
                "resolutions": model.resolutions, "dropped": Fraction(0), **fields})
    model.resolutions = 0
    return out


def _for_others(payer: str, answer: Any) -> bool:
    """Whether a written answer (`choices`) has `payer` exhaust for somebody else (CS-FOR-2)."""
    if isinstance(answer, dict):
        listed = answer.get("exhaust")
        if isinstance(listed, (list, tuple)) and any(pid != payer for pid in listed):
            return True
        return any(_for_others(payer, v) for k, v in answer.items() if k != "exhaust")
    return False


def _type_of(counter: Any) -> str:
    """What a counter does to the actor, apart from who acts and its roll: přesně, paid before the
    roll, changes only the dice (which the sequence method reads per counter)."""
    d = counter.model_dump(exclude={"actor", "label", "roll", "dice", "bonus_from", "roll_beyond_dice"})
    d["manoeuvres"] = [m for m in d.get("manoeuvres") or [] if m != "presne" and not
                       (isinstance(m, dict) and m.get("name") == "presne" and not m.get("paid_by"))]
    return repr(d)


def _race_seq(run: Callable, open_calls: list, offsets: list, target: int, guard: Guard, pre: Any,
              written: dict) -> dict | None:
    """The fast exact method of a race whose racers pay in sequence (`odds.fast_race_seq`), or None.
    Racers alike (their state before the step but id, name and charakteristika, and the answers the
    file writes for them) are learnt once."""
    sigs = [repr(({k: v for k, v in sorted(vars(pre.participants[c[1]]).items())
                   if k not in ("id", "name", "charakteristika")}, written.get(c[1]))) for c in open_calls]
    try:
        got = fast_race_seq.race_seq_odds(run, open_calls, offsets, target, guard, sigs)
    except OverBudget:
        return None
    if got is None:
        return None
    out, resolutions = got
    out.update({"exact": True, "method": fast_race_seq.METHOD, "samples": None, "classes": resolutions,
                "resolutions": resolutions, "dropped": Fraction(0)})
    return out
