"""The fast exact method of `drd odds FILE STEP` for a core contest: one actor against any number
of harming counters, and a few protecting counters or counters with an obstacle, settled by the
totals alone (docs/odds.md, "The fast method"; a test of several actors: `fast_test`, a race:
`fast_race`).

Once the actor's total is fixed, every counter either beats it or not, each independently of the
others (their dice are independent). Who beats the actor decides the step: the pairs are settled
from the highest total down, so every winner comes before every loser, and the first winner stops
the action. The method learns from the engine what each winner changes — the step resolved with
nobody winning, then with each counter alone winning — and models a set S of winners as:
  * each participant's Ohrožení: its value before the step plus the sum of what each winner in S
    changed (the value with nobody winning when S is empty);
  * an action's success and who is hit: whether any winner in S brought it about.
The model is checked against the engine on the step with every possible winner at once and on a
few random sets of winners; when the engine disagrees anywhere (an exhaustion, a rule refusing,
a re-roll, effects that do not add up), the method steps aside and the class method answers.

A few *special* counters (protecting, or with an obstacle of their own: at most `MAX_SPECIAL`,
and at most `MAX_STATES` combinations of their states per class of the actor's total)
are not modelled this way: each of their states (won or lost, which checks its total passed) is
taken as it is, and the model above is learnt for every combination of their states (whether a
target is shielded depends on which protectors won, not on a sum). With both winning, the
contributions of two harming counters are measured against the outcome with the two together,
which gives what the special counters' states alone change.

With the model the numbers are sums over the actor's totals (11 values) and the special
counters' states of products over the harming counters: per actor total a polynomial
convolution, no enumeration of the 11^n combinations. Counts are integers over 6^dice until the
end, so every number is an exact `Fraction`.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from .budget import Guard
from .classes import _classes
from .estimate import planned_run, summarize
from . import fast_alike
from .fast_alike import alike_of  # noqa: F401 - the step reads it here
from .fast_numbers import _numbers

METHOD = "independent"
#: Random sets of winners the model is checked on, per class of the actor's total.
CHECKS = 3


class Model:
    """What the engine showed about a step: per class of the actor's total and combination of the
    special counters' states, the outcome with no harming counter winning and each one's
    contribution as the only winner."""

    def __init__(self, actor: str, counters: list[str], pre: dict[str, int], specials: list[int]):
        self.actor, self.counters, self.pre, self.specials = actor, counters, pre, specials
        self.groups: dict[tuple, dict] = {}
        self.resolutions = 0
        #: Every action the engine recorded in any resolution (a follow-up's výzva adds those it
        #: reached): each has a chance of success, 0 where it never succeeds.
        self.names: dict[str, None] = {}


#: Most stories learnt for combinations of the special counters' states (protecting, or with an
#: obstacle) per class of the actor's total: six that each win or lose and are not alike make
#: 2^6 of them; alike counters share one story per family (`fast_alike`: k of them, k + 1), and a
#: counter that always wins or loses at some total leaves room. At most `MAX_SPECIAL` of them
#: (the arithmetic walks every combination: `fast_alike.MAX_WALKED`).
MAX_STATES = 64
MAX_SPECIAL = 10

#: Why the fast method did not answer a step (`why_not_fast` in the JSON; the words are in
#: cli/odds_cmd.py): a plugin hook that may decide from the dice, protecting counters, a plošná
#: counter, an obstacle, `tie: reroll`, `long` (no longer given: long actions are modelled; kept for
#: readers of older JSON), a follow-up whose výzva rolls dice (`rolled_followup`), totals the file gives (or a
#: roller rolling twice), another kind of step, the engine disagreeing with the model on
#: a checked configuration, the exhaust/cheapest policy and a written exhaustion (payments that
#: depend on their order), and a rule refusing some of the dice.
WHY = ("hooks", "protect", "area", "obstacle", "reroll", "long", "followup", "totals", "kind", "model", "policy",
       "exhaustion", "refused")


def specials_of(spec: Any) -> list[int]:
    """The counters the model takes state by state: protecting ones and those with an obstacle."""
    return [j for j, c in enumerate(spec.contest.counters)
            if c.kind != "harm" or getattr(c, "protects", None) or c.obstacle is not None]


def why_not(spec: Any, step_rec: dict, keyfn: Any, profile: Any, open_calls: list, offsets: list) -> str | None:
    """None when the step has the shape the fast contest method models, else why not (`WHY`)."""
    contest = getattr(spec, "contest", None)
    if contest is None or step_rec.get("kind") != "contest":
        return "kind"
    if any(c.area for c in contest.counters):
        return "area"
    specials = specials_of(spec)
    if len(specials) > MAX_SPECIAL:
        return "protect" if any(contest.counters[j].obstacle is None for j in specials) else "obstacle"
    tie = profile.params.get("tie", "actor")
    if tie not in ("actor", "counter") and (tie != "reroll" or specials):
        return "reroll"     # re-rolls beside protecting counters or obstacles: not modelled
    if any(rolled_followup(x) for x in (contest.action, *contest.counters)):
        return "followup"
    if keyfn is None or not getattr(keyfn, "split", False) or None in offsets:
        return "totals"
    return None if len(open_calls) >= 2 else "totals"


def rolled_followup(action: Any) -> bool:
    """Whether an action's follow-up (CS-FOL-1) rolls dice the file does not give: a reaction or a
    protecting counter of its výzva. Those dice are rolled only when the action gets through, so
    how many dice the step takes depends on who won (long actions and follow-ups whose rolls are
    given or that nobody reacts to are modelled like any other step, checked on the engine)."""
    fol = getattr(action, "followup", None)
    if fol is None:
        return False
    ch = fol.challenge
    given = set(ch.rolls or {}) | set(ch.dice or {})
    return any(pid not in given for pid in ch.react) or any(c.roll is None and c.dice is None for c in ch.counters)


def applies(spec: Any, keyfn: Any, profile: Any, hooks: Any, open_calls: list, offsets: list,
            step_rec: dict | None = None) -> bool:
    """Whether the step has the shape the fast method models (else the class method answers)."""
    from .hooks import deciding_hooks

    if deciding_hooks(hooks):
        return False
    return why_not(spec, step_rec or {"kind": "contest"}, keyfn, profile, open_calls, offsets) is None


class _Step:
    """The step's rollers and how a counter's total meets the actor's: won or lost, and which of its
    own checks (its obstacle's target) it passes; `sigma` fixes each special counter's state."""

    def __init__(self, open_calls: list, offsets: list, tie: str, cnt_consts: list, specials: list[int]):
        self.rollers = [[(k + off, tuple(f), c) for k, f, c in _classes(call[0])]
                        for call, off in zip(open_calls, offsets)]
        self.sizes = [6 ** call[0] for call in open_calls]
        self.n = len(self.rollers) - 1
        self.cnt_consts = cnt_consts
        self.specials = specials
        self.harmers = [j for j in range(self.n) if j not in specials]
        self.wins = (lambda c, a: c >= a) if tie == "counter" else (lambda c, a: c > a)
        #: `tie: reroll`: the learnt configurations have no ties (a tie is a state of its own,
        #: `fast_reroll`), so a losing counter's total is below the actor's.
        self.strict = tie == "reroll"

    def state(self, j: int, t: int, a: int) -> tuple:
        return (self.wins(t, a), tuple(t >= k for k in self.cnt_consts[j]))

    def sigmas(self, a: int) -> dict[tuple, int]:
        """Each combination of the special counters' states at actor total `a`, with its weight."""
        out: dict[tuple, int] = {(): 1}
        for k in self.specials:
            per: dict[tuple, int] = {}
            for t, _f, c in self.rollers[k + 1]:
                st = self.state(k, t, a)
                per[st] = per.get(st, 0) + c
            out = {sig + (st,): w * c for sig, w in out.items() for st, c in per.items()}
        return out

    def can_win(self, j: int, a: int) -> bool:
        return any(self.wins(t, a) for t, _f, _c in self.rollers[j + 1])


def fast_odds(run: Callable, open_calls: list, offsets: list, pre_state: Any, tie: str, act_consts: list[int],
              guard: Guard, model: Model | None = None, cnt_consts: list | None = None,
              specials: list[int] | None = None, alike: list[list[int]] | None = None) -> tuple[dict, Model] | None:
    """The step's numbers by the model (`Model`, learnt here or reused from an earlier variant of
    the same step and checked again), or None when the engine disagrees with the model."""
    n = len(open_calls) - 1
    st = _Step(open_calls, offsets, tie, cnt_consts or [[] for _ in range(n)], specials or [])
    group_of = lambda a: tuple(a >= k for k in act_consts)  # noqa: E731
    fams = fast_alike.families(alike or [], st.specials, open_calls, offsets, pre_state)
    groups: dict[tuple, list[int]] = {}
    walked = 0
    for t in sorted({t for t, _f, _c in st.rollers[0]}):
        sigmas = st.sigmas(t)
        walked = max(walked, len(sigmas))
        for states in sigmas:
            groups.setdefault((group_of(t), states), []).append(t)
    canon = {key: (key[0], fast_alike.canonical(key[1], fams)[0]) for key in groups}
    if len(set(canon.values())) > MAX_STATES * (len(act_consts) + 1) or walked > fast_alike.MAX_WALKED:
        # Too many combinations of the special counters' states: said as their kind.
        pure = any(not (cnt_consts or [[]] * n)[j] for j in st.specials)
        guard.why = "protect" if pure else "obstacle"
        return None
    if st.strict:
        model = None        # ties are learnt per variant of the step (its dice change the chains)
    learn = model is None
    if model is None:
        pre = {pid: ps.ohrozeni for pid, ps in pre_state.participants.items()}
        model = Model(open_calls[0][1], [c[1] for c in open_calls[1:]], pre, st.specials)
    run = _naming(run, model.names)
    rng = random.Random(1)
    if st.strict:
        return _reroll_odds(run, st, groups, group_of, model, offsets, guard)
    refs: dict[tuple, dict] = {}
    for key, avals in groups.items():
        sig: dict[int, tuple] = dict(zip(st.specials, key[1]))
        if learn and canon[key] != key:
            continue        # told by an alike combination's story, renamed (below)
        if learn:
            # Another state of the special counters: the harming counters' contributions learnt
            # for the first state are reused, only what the states change is asked (and checked).
            ref = refs.get(key[0])
            got = _transplant(run, st, avals, sig, model, ref, guard) if ref is not None else None
            if got is not None and _check(run, st, avals, sig, model, got, rng, guard, always=True):
                model.groups[key] = got
                continue
            got = _learn(run, st, avals, sig, model, guard)
            if got is None:
                return None
            model.groups[key] = got
            if len(got["each"]) >= 2:
                refs.setdefault(key[0], got)
        elif key not in model.groups:
            return None
        if not _check(run, st, avals, sig, model, model.groups[key], rng, guard, always=not learn,
                      reused=not learn):
            return None
    if learn and not _renamed(run, st, groups, canon, fams, model, rng, guard):
        return None
    return _numbers(st, group_of, model), model


def _renamed(run: Callable, st: _Step, groups: dict, canon: dict, fams: list[list[int]], model: Model,
             rng: random.Random, guard: Guard) -> bool:
    """The stories of combinations whose alike counters only swapped states (`fast_alike`), read from
    the story learnt for the sorted combination; `CHECKS` of them per class of the actor's total
    checked on the engine."""
    derived: dict[tuple, list[tuple]] = {}
    for key in groups:
        if canon[key] == key:
            continue
        _c, moved = fast_alike.canonical(key[1], fams)
        rename = {model.counters[st.specials[p]]: model.counters[st.specials[q]] for p, q in moved}
        model.groups[key] = fast_alike.relabel(model.groups[canon[key]], rename)
        derived.setdefault(key[0], []).append(key)
    for keys in derived.values():
        for key in rng.sample(keys, min(CHECKS, len(keys))):
            if not _check(run, st, groups[key], dict(zip(st.specials, key[1])), model, model.groups[key], rng,
                          guard, always=True):
                return False
    return True


def _reroll_odds(run: Callable, st: _Step, groups: dict, group_of: Callable, model: Model, offsets: list,
                 guard: Guard) -> tuple[dict, Model] | None:
    """`tie: reroll` (`fast_reroll`): per class of the actor's total the model learnt without ties,
    then what ties change, each checked on the engine with re-rolls that keep the bonuses."""
    from . import fast_reroll

    chain = fast_reroll.chains(st)
    rng = random.Random(1)
    bad: list[str] = []
    run = _same_bonus_rerolls(run, dict(zip([model.actor, *model.counters], offsets)), bad)

    def resolve(plan: list | None) -> dict | None:
        if plan is None:
            return None
        model.resolutions += 1
        return _outcome(run, plan, guard)

    for key, avals in groups.items():
        g = _learn(run, st, avals, {}, model, guard)
        if g is None or not _check(run, st, avals, {}, model, g, rng, guard, always=True):
            return None
        model.groups[key] = g
        if not fast_reroll.learn(resolve, st, avals, model, g, rng, chain) or bad:
            guard.why = guard.why or "model"
            return None
    return fast_reroll.numbers(st, group_of, model, chain), model


def _same_bonus_rerolls(run: Callable, bonus: dict[str, int], bad: list[str]) -> Callable:
    """`run` noting (in `bad`) a re-roll whose bonus differs from its roller's first roll: the
    chances of winning a tie's re-rolls are reckoned with the first roll's bonus."""
    def checked(dice: Any) -> tuple[dict, Any]:
        rec, state = run(dice)
        for p in rec.get("pairs", []):
            for r in p.get("rerolls", []):
                for side in ("actor", "counter"):
                    roll = r[side]
                    d = roll.get("dice") or []
                    kept = sum(sorted(d, reverse=True)[:2]) if len(d) > 2 else sum(d)
                    if roll.get("dice") is None or roll["total"] - kept != bonus.get(p[side]):
                        bad.append(p[side])
        return rec, state
    return checked


def _naming(run: Callable, names: dict[str, None]) -> Callable:
    """`run` noting the actions each resolution recorded."""
    def named(dice: Any) -> tuple[dict, Any]:
        rec, state = run(dice)
        for pid in rec.get("actions", {}):
            names.setdefault(pid)
        return rec, state
    return named


def _plan(st: _Step, a: int, winners: set[int], sig: dict, rng: random.Random | None = None) -> list[list[int]] | None:
    """Dice with which the actor rolls `a`, the special counters are in their states `sig` and
    exactly the harming counters `winners` (indices) beat it: each counter's total nearest the
    actor's, or (`rng`) any that fits, so the checks also try totals the model was not learnt from."""
    plan = None
    for t, f, _c in st.rollers[0]:
        if t == a:
            plan = [list(f)]
            break
    if plan is None:
        return None
    for j, vals in enumerate(st.rollers[1:]):
        if j in sig:
            fit = [(t, f) for t, f, _c in vals if st.state(j, t, a) == sig[j]]
            want = sig[j][0]
        else:
            want = j in winners
            fit = [(t, f) for t, f, _c in vals if st.wins(t, a) == want and not (st.strict and t == a)]
        if not fit:
            return None
        if rng is not None:
            plan.append(list(rng.choice(fit)[1]))
        else:   # the total nearest the actor's: a winner just above it, a loser just below
            plan.append(list(min(fit)[1] if want else max(fit)[1]))
    return plan


def _outcome(run: Callable, plan: list, guard: Guard, keep_exh: bool = False) -> dict | None:
    """What one resolution showed (Ohrožení, success, who is hit, pair winners; with `keep_exh`
    the exhaustions too, else None when there was one), or None when the dice do not do."""
    got = planned_run(run, plan, guard)
    if got is None:
        return None
    ohr, actions, hit, exh, pairs = summarize(*got)
    if exh and not keep_exh:
        guard.why = "exhaustion"
        return None
    return {"ohr": dict(ohr), "success": dict(actions), "hit": set(hit), "pairs": dict(pairs),
            "exh": tuple(sorted(exh, key=repr))}


def _first_plan(st: _Step, avals: list[int], winners: set[int], sig: dict) -> list | None:
    for a in reversed(avals):
        plan = _plan(st, a, winners, sig)
        if plan is not None:
            return plan
    return None


def _learn(run: Callable, st: _Step, avals: list[int], sig: dict, model: Model, guard: Guard) -> dict | None:
    """The outcome with no harming counter winning, each one's contribution as the only winner, and
    (two of them winning together) the outcome their contributions add to."""
    out: dict[str, Any] = {"none": None, "each": {}, "base": dict(model.pre)}
    plan = _first_plan(st, avals, set(), sig)
    if plan is not None:
        model.resolutions += 1
        out["none"] = _outcome(run, plan, guard)
        if out["none"] is None:
            return None
    alone: dict[int, dict] = {}
    for j in st.harmers:
        if not any(st.can_win(j, a) for a in avals):
            continue        # never beats the actor here: its contribution is never used
        plan = _first_plan(st, avals, {j}, sig)
        if plan is None:
            return None     # only wins together with another: not modelled
        model.resolutions += 1
        got = _outcome(run, plan, guard)
        if got is None:
            return None
        alone[j] = got
    if sig and len(alone) >= 2:
        # What the special counters' states change when the action is stopped: alone_i + alone_j − both.
        i, j = sorted(alone)[:2]
        plan = _first_plan(st, avals, {i, j}, sig)
        if plan is not None:
            model.resolutions += 1
            both = _outcome(run, plan, guard)
            if both is None:
                return None
            out["base"] = {pid: alone[i]["ohr"][pid] + alone[j]["ohr"][pid] - both["ohr"][pid] for pid in model.pre}
    # What every single winner brings (the special counters' states, or all winners alike) and
    # what each one brings of its own.
    wins = {j: {pid for pid, ok in got["success"].items() if ok} for j, got in alone.items()}
    out["s_sig"] = set.intersection(*wins.values()) if wins else set()
    out["h_sig"] = set.intersection(*(set(got["hit"]) for got in alone.values())) if alone else set()
    for j, got in alone.items():
        out["each"][j] = {"d": {pid: v - out["base"].get(pid, 0) for pid, v in got["ohr"].items()},
                          "success": wins[j] - out["s_sig"], "hit": set(got["hit"]) - out["h_sig"]}
    return out


def _transplant(run: Callable, st: _Step, avals: list[int], sig: dict, model: Model, ref: dict,
                guard: Guard) -> dict | None:
    """The model of another state of the special counters from `ref` (learnt for one state): the
    same contributions of the harming counters; the outcome with none of them winning, and what
    the states change when the action is stopped (two winners alone and together), asked anew."""
    plan = _first_plan(st, avals, set(), sig)
    none = None
    if plan is not None:
        model.resolutions += 1
        none = _outcome(run, plan, guard)
        if none is None:
            return None
    pick = None
    for a in reversed(avals):
        can = [j for j in ref["each"] if st.can_win(j, a)]
        if len(can) >= 2:
            pick = (a, can[0], can[1])
            break
    if pick is None:
        return None
    a, i, k = pick
    got: dict[Any, dict] = {}
    for w in ({i}, {k}, {i, k}):
        plan = _plan(st, a, w, sig)
        if plan is None:
            return None
        model.resolutions += 1
        o = _outcome(run, plan, guard)
        if o is None:
            return None
        got[frozenset(w)] = o
    ai, ak, both = got[frozenset({i})], got[frozenset({k})], got[frozenset({i, k})]
    base = {pid: ai["ohr"][pid] + ak["ohr"][pid] - both["ohr"][pid] for pid in model.pre}
    succ = lambda o: {pid for pid, ok in o["success"].items() if ok}  # noqa: E731
    each = ref["each"]
    s_sig = (succ(ai) - each[i]["success"]) | (succ(ak) - each[k]["success"])
    h_sig = (ai["hit"] - each[i]["hit"]) | (ak["hit"] - each[k]["hit"])
    return {"none": none, "each": each, "base": base, "s_sig": s_sig, "h_sig": h_sig}


def _predict(model: Model, g: dict, winners: set[int], sig: dict) -> dict:
    won = {j for j, s in sig.items() if s[0]}
    pairs = {f"{model.actor} vs {c}": (c if j in winners or j in won else model.actor)
             for j, c in enumerate(model.counters)}
    if not winners:
        return {**g["none"], "pairs": pairs}
    ohr = dict(g["base"])
    success: set[str] = set(g["s_sig"])
    hit: set[str] = set(g["h_sig"])
    for j in winners:
        e = g["each"][j]
        for pid, d in e["d"].items():
            ohr[pid] = ohr.get(pid, 0) + d
        success |= e["success"]
        hit |= e["hit"]
    names = g["names"]
    return {"ohr": ohr, "success": {pid: pid in success for pid in names}, "hit": hit, "pairs": pairs}


def _check(run: Callable, st: _Step, avals: list[int], sig: dict, model: Model, g: dict,
           rng: random.Random, guard: Guard, always: bool, reused: bool = False) -> bool:
    """Compares the model with the engine: every possible winner at once, a few random sets of
    winners (none for a `reused` model), and (`always`) nobody winning; True when they all agree."""
    # The actions of the step (nobody winning never happens here: the actor's and the counters').
    g["names"] = list(g["none"]["success"]) if g["none"] is not None else [model.actor, *model.counters]
    sets: list[tuple[int, set[int]]] = []
    lo = avals[0]
    every = {j for j in st.harmers if st.can_win(j, lo)}
    if every:
        sets.append((lo, every))
    # A model reused for a variant of the step (what-if: one roller's bonus or dice differ) was
    # checked on the step itself, random sets of winners included: per class again only every
    # possible winner at once and nobody winning.
    for _ in range(0 if reused else CHECKS):
        a = rng.choice(avals)
        can = [j for j in st.harmers if st.can_win(j, a)]
        must = {j for j in can if all(st.wins(t, a) for t, _f, _c in st.rollers[j + 1])}
        pick = {j for j in can if rng.random() < 0.5} | must
        if pick:
            sets.append((a, pick))
    if always and g["none"] is not None:
        sets.append((avals[-1], set()))
    for a, winners in sets:
        if any(j not in g["each"] for j in winners):
            return False
        plan = _plan(st, a, winners, sig, rng)
        if plan is None:
            continue
        model.resolutions += 1
        got = _outcome(run, plan, guard)
        if got is None:
            return False
        want = _predict(model, g, winners, sig)
        if (got["ohr"] != want["ohr"] or _won(got) != _won(want) or got["hit"] != want["hit"]
                or got["pairs"] != want["pairs"]):
            return False
    return True


def _won(o: dict) -> set[str]:
    """The actions that succeeded (an action not recorded, like one that failed, did not)."""
    return {pid for pid, ok in o["success"].items() if ok}
