"""Exact odds for DrD2 rolls (R-ROLL, R-TEST, R-CONT, R-EXH) as `fractions.Fraction`.

Everything here is pure: dice are histograms {value: count} built by enumerating faces, and
probabilities are integer counts divided at the end, so results are exact (rpg-tools-anchors §4–5).
`step_odds` is the exception that reuses the engine: it resolves one step of a scenario once per
class of open dice and weights the outcomes.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

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
        raise ValueError(f"presne_mode must be one of {PRESNE_MODES}, not {presne_mode!r}")
    if presne < 0:
        raise ValueError("presne cannot be negative")
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
        raise ValueError(f"tie must be one of {TIES}, not {tie!r}")
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


def _truncate(scenario: Any, ri: int, si: int) -> Any:
    """The scenario cut right after step si of round ri (that round's end-of-round environment dropped)."""
    rounds = list(scenario.rounds[:ri])
    last = scenario.rounds[ri]
    upd: dict[str, Any] = {"steps": list(last.steps[: si + 1])}
    if hasattr(last, "environment"):
        upd["environment"] = []
    rounds.append(last.model_copy(update=upd))
    return scenario.model_copy(update={"rounds": rounds})


def _find_step(scenario: Any, step_id: str) -> tuple[int, int]:
    ids = []
    for ri, rnd in enumerate(scenario.rounds):
        for si, step in enumerate(rnd.steps):
            sid = step.id or f"{ri + 1}.{si + 1}"
            ids.append(sid)
            if sid == step_id:
                return ri, si
    raise KeyError(f"no step {step_id!r}; steps are {', '.join(ids)}")


def step_odds(loaded: Any, step_id: str, choose: str = "accept", *, seed: int = 0, params: dict | None = None,
              enable: tuple[str, ...] = (), disable: tuple[str, ...] = (), group: str | None = None,
              classes: bool = True, max_extra: int = 4) -> dict[str, Any]:
    """Exact outcome distribution of one step over the dice the file leaves open in it.

    Steps before it keep their given dice; their open dice (if any) are fixed by `seed`. Every
    combination of the step's open dice is resolved with scripted dice, weights 1/36 per pair
    (1/6^n for n dice). With `classes`, combinations whose totals compare the same way with each
    other and with the target are resolved once (the engine only compares totals). Extra dice the
    engine asks for (a `tie: reroll` re-roll) are branched over as well, up to `max_extra` requests;
    deeper branches are dropped and the rest renormalised, which is exact for one re-rolled pair
    (conditioning on a non-tie) and reported as `dropped` otherwise.
    """
    from .api import setup_rules
    from .engine.hooks import Hooks
    from .engine.run import resolve

    setup = setup_rules(loaded, params=params, enable=enable, disable=disable, group=group)
    hooks = Hooks(setup.pm, setup.profile.enabled)
    scn = loaded.scenario
    ri, si = _find_step(scn, step_id)
    upto = _truncate(scn, ri, si)

    def run(dice: Any) -> dict:
        return resolve(upto, setup.profile, dice, hooks, choose=choose, seed=seed)

    # Probe once: which dice requests come before the step and which belong to it.
    probe = _RecordingDice(seed)
    probe_res = run(probe)
    if si > 0:
        before = _truncate(scn, ri, si - 1)
        pre = _RecordingDice(seed)
        resolve(before, setup.profile, pre, hooks, choose=choose, seed=seed)
        n_pre = len(pre.calls)
    elif ri > 0:
        # Only the initiative of round ri can precede step 0; cut the whole round and count.
        pre = _RecordingDice(seed)
        before = scn.model_copy(update={"rounds": list(scn.rounds[:ri])})
        resolve(before, setup.profile, pre, hooks, choose=choose, seed=seed)
        n_pre = len(pre.calls)
    else:
        n_pre = 0
    prefix = [c[3] for c in probe.calls[:n_pre]]
    open_calls = probe.calls[n_pre:]
    # A re-roll (purpose "reroll") seen in the probe is not an open roller: it is branched on demand.
    open_calls = [c for c in open_calls if c[2] != "reroll"]
    step_rec = probe_res["steps"][-1]

    # Offsets (bonus) per open request, learnt from the probe's record: total − kept sum.
    offsets = []
    for n, who, _, vals in open_calls:
        r = step_rec["rolls"].get(who)
        kept = sum(sorted(vals, reverse=True)[:2])
        offsets.append((r["total"] - kept) if r and r.get("total") is not None else 0)
    consts = sorted({9, int(setup.profile.params.get("target", 9)) if str(setup.profile.params.get("target", 9)).isdigit() else 9}
                    | _targets(step_rec, upto.rounds[-1].steps[-1]))

    groups: dict[Any, list] = {}
    for combo in product(*[_classes(c[0]) for c in open_calls]):
        w = 1
        for _, _, cnt in combo:
            w *= cnt
        if classes:
            totals = [k + off for (k, _, _), off in zip(combo, offsets)]
            # A test or výzva only compares each total with the target; other steps (contest,
            # race) also compare totals with each other, so they need the full order pattern.
            key = (tuple(tuple(t >= c for c in consts) for t in totals) if step_rec["kind"] in ("test", "challenge")
                   else _pattern(totals, consts))
        else:
            key = tuple(k for k, _, _ in combo)
        g = groups.get(key)
        if g is None:
            groups[key] = [[list(f) for _, f, _ in combo], w]
        else:
            g[1] += w
    denom = 1
    for c in open_calls:
        denom *= 6 ** c[0]

    agg = _Agg({pid: (getattr(p, 'name', None) or pid) for pid, p in scn.participants.items()})
    dropped = Fraction(0)
    resolutions = 0
    for answers, w in groups.values():
        stack: list[tuple[list[list[int]], Fraction]] = [(prefix + answers, Fraction(w, denom))]
        while stack:
            plan, p = stack.pop()
            try:
                resolutions += 1
                res = run(_PlanDice(plan))
            except _NeedDice as need:
                if len(plan) - len(prefix) - len(answers) >= max_extra:
                    dropped += p
                    continue
                tot = 6 ** need.n
                for _, faces, cnt in _classes(need.n):
                    stack.append((plan + [list(faces)], p * Fraction(cnt, tot)))
                continue
            agg.add(res, p, step_id)
    out = agg.result(1 - dropped)
    out.update({"step": step_id, "choose": choose, "open_rolls": [{"who": c[1], "dice": c[0]} for c in open_calls],
                "combinations": denom, "classes": len(groups), "resolutions": resolutions, "dropped": dropped})
    return out


def _targets(step_rec: dict, step: Any) -> set[int]:
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
    """Weighted aggregation of step results: pair winners, final Ohrožení, action success."""

    def __init__(self, names: dict[str, str]) -> None:
        self.pairs: dict[str, dict[str, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        self.ohrozeni: dict[str, dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        self.success: dict[str, Fraction] = defaultdict(Fraction)
        self.names = names

    def add(self, res: dict, p: Fraction, step_id: str) -> None:
        rec = res["steps"][-1]
        for pid, f in res["final"].items():
            self.ohrozeni[pid][f.get("ohrozeni", 0)] += p
        for pid, a in rec.get("actions", {}).items():
            self.success[pid] += p if a.get("success") else 0
        for winner, loser in _pair_results(rec, self.names):
            key = " vs ".join(sorted((winner, loser)))
            self.pairs[key][winner] += p

    def result(self, norm: Fraction) -> dict[str, Any]:
        n = norm if norm else Fraction(1)
        return {
            "pairs": {k: {w: v / n for w, v in d.items()} for k, d in self.pairs.items()},
            "ohrozeni": {pid: {o: v / n for o, v in sorted(d.items())} for pid, d in self.ohrozeni.items()},
            "success": {pid: v / n for pid, v in self.success.items()},
        }


def _pair_results(rec: dict, names: dict[str, str]) -> list[tuple[str, str]]:
    """(winner, loser) ids per contest pair, read from the R-CONT log lines ("X vyhrává nad Y: …")."""
    if rec.get("kind") != "contest":
        return []
    by_name = {n: pid for pid, n in names.items()}
    out = []
    for entry in rec.get("log", []):
        text = entry.get("text", "")
        if entry.get("rule") != "R-CONT" or " vyhrává nad " not in text:
            continue
        left, right = text.split(":")[0].split(" vyhrává nad ", 1)
        if left in by_name and right in by_name:
            out.append((by_name[left], by_name[right]))
    return out


def fmt(p: Fraction) -> str:
    """'13/18 (72.2 %)'."""
    return f"{p.numerator}/{p.denominator} ({float(p) * 100:.1f} %)"


def as_json(obj: Any) -> Any:
    """Fractions become {'fraction': 'a/b', 'p': float} recursively (for --json)."""
    if isinstance(obj, Fraction):
        return {"fraction": f"{obj.numerator}/{obj.denominator}", "p": float(obj)}
    if isinstance(obj, dict):
        return {str(k): as_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [as_json(v) for v in obj]
    return obj

