"""Exact odds for DrD2 rolls (R-ROLL, R-TEST, R-CONT, R-EXH) as `fractions.Fraction`.

Everything here is pure: dice are histograms {value: count} built by enumerating faces, and
probabilities are integer counts divided at the end, so results are exact (rpg-tools-anchors §4–5).
`step_odds` is the exception that reuses the engine: it resolves a scenario up to one step once,
then that step alone once per class of its open dice, and weights the outcomes.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

from .i18n import _

PRESNE_MODES = ("plus-one", "keep-best-2-of-3")
TIES = ("actor", "counter", "reroll")


@lru_cache(maxsize=None)
def _kept_hist(n: int, keep: int) -> tuple[tuple[int, int], ...]:
    """Histogram (as sorted pairs) of the sum of the best `keep` of `n` six-sided dice."""
    h: Counter = Counter()
    for faces in product(range(1, 7), repeat=n):
        h[sum(sorted(faces, reverse=True)[:keep])] += 1
    return tuple(sorted(h.items()))


def roll_distribution(bonus: int = 0, presne: int = 0, presne_mode: str = "plus-one") -> dict[int, Fraction]:
    """Distribution of a roll's total: 2k6 + bonus with `presne` uses of přesně (R-ROLL-1/3).

    `plus-one` adds 1 per use; `keep-best-2-of-3` rolls 2 + presne dice and keeps the best two.
    """
    if presne_mode not in PRESNE_MODES:
        raise ValueError(_("presne_mode must be one of {choices}, not {value}").format(
            choices=", ".join(PRESNE_MODES), value=repr(presne_mode)))
    if presne < 0:
        raise ValueError(_("presne cannot be negative"))
    if presne_mode == "plus-one":
        hist, shift = _kept_hist(2, 2), bonus + presne
    else:
        hist, shift = _kept_hist(2 + presne, 2), bonus
    total = sum(c for _, c in hist)
    return {v + shift: Fraction(c, total) for v, c in hist}


def test_odds(bonus: int = 0, presne: int = 0, presne_mode: str = "plus-one", target: int = 9) -> dict[str, Fraction]:
    """R-TEST: P(success) = P(total ≥ target) and P(failure) for one roll."""
    dist = roll_distribution(bonus, presne, presne_mode)
    win = sum((p for v, p in dist.items() if v >= target), Fraction(0))
    return {"success": win, "failure": 1 - win}


# pytest would otherwise collect `test_odds` as a test when a test module imports it by name.
test_odds.__test__ = False  # type: ignore[attr-defined]


def contest_odds(bonus: int = 0, vs: int = 0, tie: str = "actor", presne: int = 0, vs_presne: int = 0,
                 presne_mode: str = "plus-one") -> dict[str, Fraction]:
    """R-CONT: one pair, actor (2k6 + bonus) against counter (2k6 + vs).

    Returns win/lose for the actor plus the raw tie chance. A tie goes to the actor (`actor`),
    to the counter (`counter`), or is rolled again (`reroll`), which is the same as conditioning
    on the rolls not being equal.
    """
    if tie not in TIES:
        raise ValueError(_("tie must be one of {choices}, not {value}").format(choices=", ".join(TIES), value=repr(tie)))
    a = roll_distribution(bonus, presne, presne_mode)
    c = roll_distribution(vs, vs_presne, presne_mode)
    win = lose = draw = Fraction(0)
    for va, pa in a.items():
        for vc, pc in c.items():
            if va > vc:
                win += pa * pc
            elif va < vc:
                lose += pa * pc
            else:
                draw += pa * pc
    if tie == "actor":
        return {"win": win + draw, "lose": lose, "tie": draw}
    if tie == "counter":
        return {"win": win, "lose": lose + draw, "tie": draw}
    if draw == 1:  # cannot happen with dice, but keeps the division honest
        raise ZeroDivisionError("every roll ties")
    return {"win": win / (1 - draw), "lose": lose / (1 - draw), "tie": draw}


def exhaustion_cost(ohrozeni: int, armour: int = 0, mocne: int = 0, bodily: bool = True) -> int:
    """R-EXH-1/3: what one exhaustion costs: Ohrožení, minus armour against bodily actions, plus mocně."""
    if not bodily:
        return ohrozeni
    return max(0, ohrozeni - armour + mocne)


def expected_exhaustion_cost(ohrozeni: int, bonus: int | None = None, armour: int = 0, mocne: int = 0,
                             bodily: bool = True, presne: int = 0, presne_mode: str = "plus-one",
                             target: int = 9) -> dict[str, Any]:
    """The cost of exhausting at this Ohrožení and, given a `bonus`, the expected cost of a test
    whose failure is always bought off: P(failure) × cost (rpg-tools-anchors §4.2).
    """
    cost = exhaustion_cost(ohrozeni, armour, mocne, bodily)
    out: dict[str, Any] = {"cost": cost, "ohrozeni_after": ohrozeni + 1}
    if bonus is not None:
        fail = test_odds(bonus, presne, presne_mode, target)["failure"]
        out["p_failure"] = fail
        out["expected"] = fail * cost
    return out


# --------------------------------------------------------------------------- step_odds

class _NeedDice(Exception):
    """Raised by `_PlanDice` when the engine asks for a die the plan has not fixed yet."""

    def __init__(self, n: int):
        self.n = n


class _RecordingDice:
    """Seeded dice that remember every request (n, who, purpose, values)."""

    name = "seeded"

    def __init__(self, seed: int):
        import random

        self._rng = random.Random(seed)
        self.calls: list[tuple[int, str, str, list[int]]] = []

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        vals = [self._rng.randint(1, 6) for _ in range(n)]
        self.calls.append((n, who, purpose, vals))
        return vals


class _PlanDice:
    """Fixed answers for the first requests; beyond them, raises _NeedDice (a branch point)."""

    name = "entered"

    def __init__(self, answers: list[list[int]]):
        self._answers = answers
        self._i = 0

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        if self._i >= len(self._answers):
            raise _NeedDice(n)
        vals = self._answers[self._i]
        self._i += 1
        if len(vals) != n:
            raise _NeedDice(n)
        return list(vals)


@lru_cache(maxsize=None)
def _classes(n: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """For a request of n dice: (kept value, representative faces, count) per kept value.

    The engine uses dice only through their kept sum (all of them, or the best two when
    `keep-best-2-of-3` asks for more than two), so one representative per sum is enough.
    """
    seen: dict[int, list] = {}
    for faces in product(range(1, 7), repeat=n):
        key = sum(sorted(faces, reverse=True)[:2])
        if key in seen:
            seen[key][1] += 1
        else:
            seen[key] = [faces, 1]
    return tuple((k, f, c) for k, (f, c) in sorted(seen.items()))


def _find_step(scenario: Any, step_id: str) -> tuple[int, int]:
    ids = []
    for ri, rnd in enumerate(scenario.rounds):
        for si, step in enumerate(rnd.steps):
            sid = step.id or f"{ri + 1}.{si + 1}"
            ids.append(sid)
            if sid == step_id:
                return ri, si
    raise KeyError(_("no step {id}; steps are {ids}").format(id=repr(step_id), ids=", ".join(ids)))


def step_odds(loaded: Any, step_id: str, choose: str = "accept", *, seed: int = 0, params: dict | None = None,
              enable: tuple[str, ...] = (), disable: tuple[str, ...] = (), group: str | None = None,
              classes: bool = True, max_extra: int = 4) -> dict[str, Any]:
    """Exact outcome distribution of one step over the dice the file leaves open in it.

    The scenario is resolved up to the step once (open dice of earlier steps fixed by `seed`);
    then only the step is resolved, from that state, once per class of its open dice, and the
    outcomes are weighted by how many dice faces fall into the class (1/36 per pair of dice,
    1/6^n for n dice), exactly, as Fractions. With `classes`, combinations that every decision
    of the engine treats alike are resolved once: for a test or výzva, whether each total reaches
    the target; for a contest, the order in which its pairs are settled, who wins each pair and
    which totals reach the target; otherwise the full order pattern of the totals. Extra dice the
    engine asks for (a `tie: reroll` re-roll) are branched over as well, up to `max_extra`
    requests; deeper branches are dropped and the rest renormalised, which is exact for one
    re-rolled pair (conditioning on a non-tie) and reported as `dropped` otherwise.
    """
    from .api import setup_rules
    from .dice import SeededDice
    from .engine.hooks import Hooks
    from .engine.run import resolve_step_from, resolve_to
    from .errors import RuleViolation

    setup = setup_rules(loaded, params=params, enable=enable, disable=disable, group=group)
    hooks = Hooks(setup.pm, setup.profile.enabled)
    scn = loaded.scenario
    ri, si = _find_step(scn, step_id)
    # The state before the step does not depend on the step's dice: resolve it once.
    cp = resolve_to(scn, setup.profile, SeededDice(seed), hooks, ri, si, choose=choose)

    def run(dice: Any) -> dict:
        return resolve_step_from(cp, scn, setup.profile, dice, hooks, choose=choose)[0]

    # Probe once: which dice the step asks for, and each roller's bonus (record total − kept dice).
    # Dice with which a rule refuses the step teach nothing: try other dice (a few) first.
    for attempt in range(50):
        probe = _RecordingDice(seed + attempt)
        try:
            step_rec = run(probe)
            break
        except RuleViolation:
            if attempt == 49:
                raise
    # A re-roll seen in the probe is not an open roller: it is branched over on demand.
    open_calls = [c for c in probe.calls if c[2] != "reroll"]
    keep_best = setup.profile.params.get("presne") == "keep-best-2-of-3"
    offsets: list[int | None] = []
    for n, who, _, vals in open_calls:
        r = step_rec["rolls"].get(who)
        kept = sum(sorted(vals, reverse=True)[:2]) if keep_best else sum(vals)
        known = r is not None and r.get("dice") == vals and r.get("total") is not None
        offsets.append(r["total"] - kept if known else None)
    whos = [c[1] for c in open_calls]
    if len(set(whos)) != len(whos):  # one participant rolling twice: its record shows only the last roll
        offsets = [None] * len(open_calls)
    target = setup.profile.params.get("target", 9)
    consts = sorted({9, target if isinstance(target, int) else 9} | _targets(scn.rounds[ri].steps[si]))
    # Totals the file gives are compared with the open ones like the targets are.
    consts = sorted(set(consts) | set(_given_totals(step_rec, whos)))
    keyfn = _key_function(step_rec, scn.rounds[ri].steps[si], consts, open_calls) if classes and None not in offsets \
        else None

    # Per roller: (total or kept sum, representative faces, how many faces give it).
    per_call = [[(k + (off or 0), f, c) for k, f, c in _classes(call[0])] for call, off in zip(open_calls, offsets)]
    if keyfn is not None:
        per_call = _compress(per_call, consts)
    groups: dict[Any, list] = {}
    if keyfn is not None and getattr(keyfn, "split", False):
        # A contest: the actor's total outside, the counters' combinations (with their order,
        # which does not depend on the actor) built once inside.
        # Counters' combinations that compare alike with every total the actor can roll (and
        # settle in the same order) give the same key for every actor total: merge them first.
        from bisect import bisect_left

        actor_totals = sorted(t for t, _, _ in per_call[0])
        aset = set(actor_totals)
        pos = {t: (bisect_left(actor_totals, t), t in aset) for o in per_call[1:] for t, _, _ in o}
        inner: dict[tuple, list] = {}
        for combo in product(*per_call[1:]):
            w = 1
            for _, _, cnt in combo:
                w *= cnt
            cs = tuple(t for t, _, _ in combo)
            sig = (keyfn.inner(cs), tuple(pos[t] for t in cs))
            m = inner.get(sig)
            if m is None:
                inner[sig] = [cs, [f for _, f, _ in combo], w]
            else:
                m[2] += w
        for at, af, aw in per_call[0]:
            for cs, faces, w in inner.values():
                key = keyfn(at, cs)
                g = groups.get(key)
                if g is None:
                    groups[key] = [[af, *faces], aw * w]
                else:
                    g[1] += aw * w
    else:
        for combo in product(*per_call):
            w = 1
            for _, _, cnt in combo:
                w *= cnt
            key = keyfn([t for t, _, _ in combo]) if keyfn is not None else tuple(t for t, _, _ in combo)
            g = groups.get(key)
            if g is None:
                groups[key] = [[f for _, f, _ in combo], w]
            else:
                g[1] += w
    groups = {k: [[list(f) for f in faces], w] for k, (faces, w) in groups.items()}
    denom = 1
    for c in open_calls:
        denom *= 6 ** c[0]

    agg = _Agg()
    dropped = refused = Fraction(0)
    resolutions = 0
    for answers, w in groups.values():
        stack: list[tuple[list[list[int]], Fraction]] = [(answers, Fraction(w, denom))]
        while stack:
            plan, p = stack.pop()
            try:
                resolutions += 1
                rec, state = resolve_step_from(cp, scn, setup.profile, _PlanDice(plan), hooks, choose=choose)
            except RuleViolation:
                # A written answer the payer cannot afford with these dice (R-EXH-4): an outcome too.
                refused += p
                continue
            except _NeedDice as need:
                if len(plan) - len(answers) >= max_extra:
                    dropped += p
                    continue
                tot = 6 ** need.n
                for _, faces, cnt in _classes(need.n):
                    stack.append((plan + [list(faces)], p * Fraction(cnt, tot)))
                continue
            agg.add(rec, state, p)
    out = agg.result(1 - dropped)
    out.update({"step": step_id, "kind": step_rec["kind"], "choose": choose,
                "open_rolls": [{"who": c[1], "dice": c[0]} for c in open_calls],
                "combinations": denom, "classes": len(groups), "resolutions": resolutions, "dropped": dropped,
                "refused": refused / (1 - dropped) if dropped != 1 else refused})
    return out


def _key_function(rec: dict, step: Any, consts: list[int], calls: list) -> Any:
    """How to tell two dice combinations apart for this step (see `step_odds`), or None for "by sums"."""
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


class _Agg:
    """Weighted aggregation of one step's outcomes: pair winners, who is hit, action success,
    Ohrožení after the step, exhaustions."""

    def __init__(self) -> None:
        self.pairs: dict[str, dict[str, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        self.ohrozeni: dict[str, dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        self.success: dict[str, Fraction] = defaultdict(Fraction)
        self.hit: dict[str, Fraction] = defaultdict(Fraction)
        self.exhausts: dict[str, Fraction] = defaultdict(Fraction)

    def add(self, rec: dict, state: Any, p: Fraction) -> None:
        for pid, ps in state.participants.items():
            self.ohrozeni[pid][ps.ohrozeni] += p
        hit: set[str] = set()
        for pid, a in rec.get("actions", {}).items():
            self.success[pid] += p if a.get("success") else 0
            hit.update(a.get("affected") or [])
        for pid in hit:
            self.hit[pid] += p
        for pid in {e["by"] for e in rec.get("exhaustions", [])}:
            self.exhausts[pid] += p
        for pair in rec.get("pairs", []):
            key = f"{pair['actor']} vs {pair['counter']}"
            self.pairs[key][pair["winner"]] += p

    def result(self, norm: Fraction) -> dict[str, Any]:
        n = norm if norm else Fraction(1)
        return {
            "pairs": {k: {w: v / n for w, v in sorted(d.items())} for k, d in self.pairs.items()},
            "ohrozeni": {pid: {o: v / n for o, v in sorted(d.items())} for pid, d in self.ohrozeni.items()},
            "success": {pid: v / n for pid, v in self.success.items()},
            "hit": {pid: v / n for pid, v in sorted(self.hit.items())},
            "exhausts": {pid: v / n for pid, v in sorted(self.exhausts.items())},
        }


def fmt(p: Fraction) -> str:
    """'13/18 (72,2 %)' in Czech, '13/18 (72.2 %)' in English (drd_cli.i18n.fmt_fraction)."""
    from .i18n import fmt_fraction

    return fmt_fraction(p)


def as_json(obj: Any) -> Any:
    """Fractions become {'fraction': 'a/b', 'p': float} recursively (for --json)."""
    if isinstance(obj, Fraction):
        return {"fraction": f"{obj.numerator}/{obj.denominator}", "p": float(obj)}
    if isinstance(obj, dict):
        return {str(k): as_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [as_json(v) for v in obj]
    return obj

