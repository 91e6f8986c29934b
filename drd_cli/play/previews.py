"""Previews: what the table is shown before it types — odds, costs, the decider's state.

Nothing is computed here that the engine computes: an option's price is read from the engine's
own run of the scenario with everything entered so far plus that option (`Previewer`), so it
includes armour, mocně, plugins and the order of payments. The odds come from `drd_cli.odds`;
`what_if_lines` adds what přesně would change for the roller (`odds.what_if` of the game so far, #15).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, Callable

from ..dice import SeededDice
from ..engine.actions import POOL_CS, bonus_for
from ..engine.context import Answer
from ..errors import DrdError
from ..i18n import _


class Stop(Exception):
    """Raised inside a preview run once it has gone past the step being decided."""


def pct(p: Fraction) -> str:
    """'13/18 = 72,2 %' — exact fraction and percent (decimal point in English: i18n.fmt_fraction)."""
    from ..i18n import fmt_fraction

    return fmt_fraction(p, sep="=")


@dataclasses.dataclass
class Seen:
    """The roll the engine is about to make (from its `see` call): who rolls what, where in the file."""

    ctx: Any
    w: Any
    pid: str
    spec: Any
    path: tuple
    presne: int
    total: int | None
    dice: Any


def name_of(w: Any, pid: str) -> str:
    """A participant's name for display (its id when the state cannot say)."""
    try:
        return w.peek(pid).name
    except Exception:  # noqa: BLE001 - a name is only for display
        return pid


class _PreviewDice:
    """Replays the live session's dice, then rolls throwaway dice; stops after the decided step."""

    name = "entered"

    def __init__(self, calls: list):
        self._calls = list(calls)
        self._spare = SeededDice(0)
        self.record = None
        self.stop_at = None

    def see(self, ctx: Any, w: Any, pid: str, spec: Any, path: tuple, **_: Any) -> None:
        self.record = ctx.record
        if self.stop_at is not None and ctx.record is not self.stop_at:
            raise Stop

    def roll(self, n: int, who: str, purpose: str) -> Any:
        if self._calls:
            got = self._calls.pop(0)
            return list(got) if isinstance(got, list) else got
        return self._spare.roll(n, who, purpose)


class _PreviewPolicy:
    """Gives the live answers in order, then `candidate`, then the defaults (accept / nobody)."""

    def __init__(self, answers: list, candidate: Answer | None, dice: _PreviewDice):
        self._answers = list(answers)
        self._candidate = candidate
        self._dice = dice
        self._i = 0

    def decide(self, choices: Any, who: str, vs: str, *, optional: bool) -> Answer | None:
        i, self._i = self._i, self._i + 1
        if i < len(self._answers):
            a = self._answers[i]
            return dataclasses.replace(a) if a is not None else None
        if i == len(self._answers):
            self._dice.stop_at = self._dice.record
            return dataclasses.replace(self._candidate) if self._candidate is not None else None
        if self._dice.record is not self._dice.stop_at:
            raise Stop
        return None


@dataclasses.dataclass
class Preview:
    """What the engine did in the decided step with one candidate answer."""

    entries: list[dict]          # exhaustion entries the answer caused (by who, vs)
    error: DrdError | None       # the engine refused the answer


class Previewer:
    """Resolves the scenario again with the session's dice and answers so far plus one candidate
    answer, and reads what the engine did in the step being decided."""

    def __init__(self, resolve: Callable[..., dict]):
        self._resolve = resolve

    def run(self, calls: list, answers: list, candidate: Answer | None) -> tuple[dict | None, DrdError | None]:
        """(the decided step's record data, the engine's refusal or None) with `candidate` as the next answer."""
        pd = _PreviewDice(calls)
        policy = _PreviewPolicy(answers, candidate, pd)
        error = None
        try:
            self._resolve(dice=pd, choose=policy)
        except Stop:
            pass
        except DrdError as exc:
            error = exc
        rec = pd.stop_at
        return (rec.data if rec is not None else None), error

    def preview(self, calls: list, answers: list, who: str, vs: str, candidate: Answer, base: tuple) -> Preview:
        """The exhaustions `candidate` (an answer of `who` against `vs`) causes, or the refusal;
        `base` is `run(…, None)`, the step without that answer."""
        data, error = self.run(calls, answers, candidate)
        bdata, berror = base
        if error is not None and (berror is None or str(error) != str(berror)):
            return Preview([], error)
        before = (bdata or {}).get("exhaustions", [])
        after = (data or {}).get("exhaustions", [])
        k = 0
        while k < min(len(before), len(after)) and before[k] == after[k]:
            k += 1
        new = []
        for e in after[k:]:
            if e["by"] == who and e["vs"] == vs:
                new.append(e)
            elif new:
                break
        return Preview(new, None)


# --------------------------------------------------------------------------- odds before a roll

def odds_lines(scenario: Any, s: Seen, n: int, bonus: int) -> list[str]:
    """Exact chances before the roll (drd_cli.odds): P(success) against a number, P(win) a pair."""
    from ..odds import contest_odds, roll_distribution

    ctx, w = s.ctx, s.w
    dist = roll_distribution(bonus, n - 2, "keep-best-2-of-3") if n > 2 else roll_distribution(bonus)
    mine = dist

    def at_least(t: int) -> Fraction:
        return sum((p for v, p in mine.items() if v >= t), Fraction(0))

    def vs_total(t: int, tie_mine: bool, reroll_q: Fraction | None) -> Fraction:
        win = sum((p for v, p in mine.items() if v > t), Fraction(0))
        eq = mine.get(t, Fraction(0))
        if reroll_q is not None:
            return win + eq * reroll_q
        return win + (eq if tie_mine else 0)

    step, kind, rest = step_of(scenario, s.path)
    tie = ctx.param("tie")
    out: list[str] = []
    if kind == "contest" and step is not None and rest and rest[0] == "action":
        counters = step.counters
        acting = {c.actor for c in counters}
        for i, c in enumerate(counters):
            name = name_of(w, c.actor)
            if c.roll is not None:
                q = contest_odds(bonus, 0, tie="reroll")["win"] if tie == "reroll" else None
                p = vs_total(c.roll, tie == "actor", q)
                out.append(_("against {name} (roll {roll}): win {p}").format(name=name, roll=c.roll, p=pct(p)))
                continue
            cb = _bonus(ctx, w, c, s.path[:-1] + ("counters", i))
            if cb is None:
                continue
            p = contest_odds(bonus, cb, tie=tie)["win"] if n == 2 else _pair(mine, roll_distribution(cb), tie)
            out.append(_("against {name} ({bonus}): win {p}").format(name=name, bonus=f"{cb:+d}", p=pct(p)))
        quiet = [t for t in (s.spec.targets if isinstance(s.spec.targets, list) else
                             [s.spec.targets] if s.spec.targets else []) if t not in acting]
        if quiet or getattr(s.spec, "obstacle", None):
            out.append(_("against {target} (whoever does not react, an obstacle): {p}").format(
                target=ctx.target, p=pct(at_least(ctx.target))))
    elif kind == "contest" and step is not None and rest and rest[0] == "counters":
        actor = step.action.actor
        r = ctx.record.data["rolls"].get(actor)
        if r is not None:
            ab = r.get("bonus") or 0
            q = contest_odds(ab, bonus, tie="reroll")["lose"] if tie == "reroll" else None
            p = vs_total(r["total"], tie == "counter", q)
            out.append(_("against {name} (roll {roll}): win {p}").format(name=name_of(w, actor), roll=r["total"],
                                                                         p=pct(p)))
    elif kind in ("test", "challenge") and step is not None:
        target = getattr(step, "target", None) or ctx.target
        out.append(_("success (≥ {target}): {p}").format(target=target, p=pct(at_least(target))))
    elif kind == "race" and step is not None:
        if getattr(step, "obstacle", None):
            out.append(_("obstacle (≥ {target}): {p}").format(target=ctx.target, p=pct(at_least(ctx.target))))
        for q in step.actors:
            r = ctx.record.data["rolls"].get(q)
            if q != s.pid and r is not None:
                out.append(_("faster than {name} (roll {roll}): {p}").format(
                    name=name_of(w, q), roll=r["total"], p=pct(vs_total(r["total"], False, None))))
    return out


#: The what-if odds before a roll share the table's patience: at most this many classes resolved
#: exactly (the 4-roller Hanuš escape needs 98 per run), else an estimate sampled for PLAY_TIME
#: seconds per run (docs/play.md, "What-if odds").
PLAY_BUDGET = 600
PLAY_TIME = 0.1
#: With more rollers still to roll in the step, the exact attempt is skipped: building the classes
#: of 5 open rollers alone takes the odds engine ≈ 0.7 s before it finds them over the budget.
PLAY_EXACT_ROLLERS = 4


def what_if_lines(scenario: Any, s: Seen, n: int, bonus: int, *, so_far: Callable[[], Any] | None = None,
                  group: str | None = None, budget: int = PLAY_BUDGET, time_limit: float = PLAY_TIME) -> list[str]:
    """The what-if lines under the odds (#15 item 2): what `drd odds FILE STEP --what-if --who ID`
    prints for the game so far (`so_far()`: the scenario with everything entered, as the replay
    file would be) and the roller about to roll — only the manoeuvres it can afford that change
    its odds. `group`: the session's `--group` again, for the plugin folders it names (its settings
    are already in the replay's rules and merge to the same profile). No `so_far` (nothing to read
    the game from), no line; where the odds engine cannot answer, one short note instead of
    stopping the table."""
    step, kind, _rest = step_of(scenario, s.path)
    if so_far is None or step is None or not (kind == "contest" or (kind == "test" and step.actor is not None)):
        return []       # only a core contest and a one-actor test have a manoeuvre list per roller
    if kind == "contest" and _still_open(step, s.ctx.record.data["rolls"]) > PLAY_EXACT_ROLLERS:
        budget = 0
    from ..odds import what_if, what_if_lines as lines

    try:
        loaded = so_far()
        data = what_if(loaded, s.ctx.record.data["id"], "accept", seed=getattr(loaded.scenario, "seed", 0) or 0,
                       group=group, budget=budget, time_limit=time_limit, only=s.pid)
    except (DrdError, KeyError, ValueError):
        return [_("(no what-if odds for this roll: the odds engine cannot answer it)")]
    data = affordable(data)
    if not any(ro["options"] for ro in data["rollers"]):
        return []
    names = {pid: (p.name or pid) for pid, p in loaded.scenario.participants.items()}
    return lines(data, names)


def _still_open(contest: Any, rolled: dict) -> int:
    """How many of a contest's rollers have neither a roll in the file nor one in the step so far."""
    specs = [contest.action, *contest.counters]
    return sum(1 for c in specs if c.roll is None and getattr(c, "dice", None) is None and c.actor not in rolled)


def affordable(data: dict) -> dict:
    """`what_if` data with only what the table can use: options that change the roller's odds (or,
    for a counter, the actor's chance to exhaust); the refused ones (`unavailable`) left out."""
    rollers = []
    for ro in data["rollers"]:
        opts = [o for o in ro["options"]
                if float(o["delta"]) != 0 or (ro["role"] == "counter" and o["actor_exhausts"] != ro["actor_exhausts"])]
        rollers.append({**ro, "options": opts, "unavailable": []})
    return {**data, "rollers": rollers}


def game_so_far(text: str, path: str) -> Any:
    """The scenario `text` (the replay so far) loaded and validated like a file at `path`."""
    from ..api import LoadedScenario
    from ..scenario.load import load_text
    from ..scenario.models import build_scenario_model
    from ..scenario.validate import validate_model

    data, source = load_text(text, path)
    return LoadedScenario(path, validate_model(build_scenario_model({}), data, source, path), source, data)


def _bonus(ctx: Any, w: Any, spec: Any, path: tuple) -> int | None:
    try:
        b = bonus_for(ctx, w.peek(spec.actor), spec, path, needed=False)
    except DrdError:
        return None
    names = [m if isinstance(m, str) else m.name for m in spec.manoeuvres]
    if ctx.param("presne") != "keep-best-2-of-3":
        b += sum(1 for m in names if m in ("presne", "přesně"))
    return b


def step_of(scenario: Any, path: tuple) -> tuple[Any, str | None, tuple]:
    """(the step-kind spec, its kind, the rest of the path) for a path into a step."""
    if len(path) >= 5 and path[0] == "rounds" and path[2] == "steps":
        try:
            step = scenario.rounds[path[1]].steps[path[3]]
        except (IndexError, TypeError):
            return None, None, ()
        kind = path[4]
        return getattr(step, kind, None), kind, tuple(path[5:])
    if path and path[-1] == "challenge":
        return None, "challenge", ()
    return None, None, ()


def _pair(a: dict, c: dict, tie: str) -> Fraction:
    win = sum((pa * pc for va, pa in a.items() for vc, pc in c.items() if va > vc), Fraction(0))
    draw = sum((pa * pc for va, pa in a.items() for vc, pc in c.items() if va == vc), Fraction(0))
    if tie == "actor":
        return win + draw
    if tie == "counter":
        return win
    return win / (1 - draw)


# --------------------------------------------------------------------------- costs and state

def state_line(w: Any, who: str) -> str:
    """The decider's resources, shown beside a decision."""
    if w is None:
        return ""
    p = w.peek(who)
    res = (f"Tělo {p.pools.get('telo', 0)}, Duše {p.pools.get('duse', 0)}, Vliv {p.pools.get('vliv', 0)}"
           if p.is_hero else f"Sudba {p.resource('sudba')}")
    return f"Ohrožení {p.ohrozeni}, {res}"

def describe(pv: Preview, w: Any) -> str:
    """What an option does, in the engine's own numbers: cost, pool, Ohrožení before→after, whom it protects."""
    if pv.error is not None:
        return _("not possible: {reason}").format(reason=reason(pv.error))
    if not pv.entries:
        return ""
    parts = []
    for e in pv.entries:
        pool = POOL_CS.get(e["pool"], e["pool"])
        before, after = e["ohrozeni"]
        whom = ", ".join(name_of(w, x) for x in e["protected"]) if e["protected"] else ""
        txt = _("{cost} {pool}, Ohrožení {before}→{after}").format(cost=e["cost"], pool=pool, before=before,
                                                                   after=after)
        if whom:
            txt += _("; protects: {whom}").format(whom=whom)
        if e.get("denied"):
            txt += _("; denies the gain of: {name}").format(name=name_of(w, e["denied"]))
        g = e.get("gained") or {}
        if g.get("jizva"):
            txt += _("; Jizva “{name}” (+{gain})").format(name=g["jizva"]["name"], gain=g["jizva"]["gain"])
        if g.get("sacrifice"):
            txt += _("; sacrifices {name} (+{gain})").format(name=g["sacrifice"]["name"], gain=g["sacrifice"]["gain"])
        if e.get("payers"):
            txt += "; " + payers_text(e, lambda pid: name_of(w, pid))
        parts.append(txt)
    return " + ".join(parts)


def payers_text(e: dict, name: Callable[[Any], str]) -> str:
    """Who paid an exhaustion's points when someone else did (R-ABIL-SHARE): every payer with its
    points for a part payment (`payers`), else the helper and its pool; "" when the payer paid."""
    from ..render.text import pool_name

    payers = e.get("payers")
    if isinstance(payers, list) and payers:
        return _("paid by: {payers} (R-ABIL-SHARE)").format(payers=", ".join(
            f"{name(p.get('id'))} {p.get('amount')} {pool_name(p.get('pool', '?'))}" for p in payers))
    helper = e.get("paid_by")
    if isinstance(helper, dict):
        return _("paid by {who} from {pool} (R-ABIL-SHARE)").format(who=name(helper.get("id")),
                                                                    pool=pool_name(helper.get("pool", "?")))
    return ""


def reason(error: DrdError | None) -> str:
    """The engine's reason for refusing an option, short (the R-EXH-4 shortage in Czech); empty
    when the engine gave none."""
    if error is None:
        return ""
    p = error.problems[0] if error.problems else None
    if p is None:
        return str(error)
    short = p.data if p.rule == "R-EXH-4" and "missing" in p.data else None
    if short:
        from ..engine.actions import pool_cs

        return _("cannot afford it: costs {cost} {pool}, has {have}, missing {missing} [R-EXH-4]").format(
            cost=short["cost"], pool=pool_cs(short["pool"]), have=short["have"], missing=short["missing"])
    return p.message + (f" [{p.rule}]" if p.rule else "")

