"""Interactive resolution at the table (`drd play`, `drd resolve --choose ask`).

The engine runs once, live: every roll the file does not give is asked for (dice typed, a total,
or Enter to let drd roll from the seed) and every decision the file's `choices` leave open is
offered with its exact price. The price is not computed here: for each option the engine resolves
the scenario again with everything entered so far plus that option (a *preview*), and the option's
exhaustion entry is read from that run. So the numbers shown are the engine's own, including
armour, mocně, plugins and what an answer is not allowed to do (then the option is refused with
the engine's reason).

Everything entered is kept in order and written into a replay file: the scenario with the rolls
and answers filled in where the format has a place for them, the rest under `extra_dice`.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from typing import Any, Callable

from .dice import AskedDice, QueuedDice, SeededDice
from .engine.actions import POOL_CS, bonus_for
from .engine.context import Answer
from .errors import DrdError
from .i18n import N_, _

CORE_KINDS = ("test", "contest", "race", "challenge")


class Stop(Exception):
    """Raised inside a preview run once it has gone past the step being decided."""


# --------------------------------------------------------------------------- input parsing

def parse_roll(text: str, n: int, bonus: int, allow_total: bool) -> tuple[Any, str | None]:
    """What was typed for a roll of `n` dice with `bonus`: (dice list | total | None, error message).

    Enter → None (drd rolls). Dice are 1–6, exactly `n` of them; a total (with the bonus) lies in
    2+bonus … 12+bonus. Messages are short and Czech: they are shown at the table.
    """
    text = text.strip()
    if not text:
        return None, None
    parts = [p for p in re.split(r"[\s,;+]+", text) if p]
    if not all(p.isdigit() for p in parts):
        return None, _("cannot read “{text}”: type {how}").format(text=text, how=_how(n, bonus, allow_total))
    values = [int(p) for p in parts]
    lo, hi = 2 + bonus, 12 + bonus
    if len(values) == 1 and n >= 2:
        v = values[0]
        if not allow_total:
            return None, _("type the dice here ({n} numbers 1–6, e.g. {example}), not a total").format(
                n=n, example=_example(n))
        if lo <= v <= hi:
            return v, None
        hint = _("; separate the dice with spaces: {dice}").format(dice=' '.join(parts[0])) if len(parts[0]) == n and \
            all("1" <= c <= "6" for c in parts[0]) else ""
        return None, _("{value} cannot be rolled: the total with bonus {bonus} is {lo}–{hi}{hint}").format(
            value=v, bonus=f"{bonus:+d}", lo=lo, hi=hi, hint=hint)
    if len(values) != n:
        return None, _("{n} dice are rolled, {given} given: type {how}").format(
            n=n, given=len(values), how=_how(n, bonus, allow_total))
    for v in values:
        if not 1 <= v <= 6:
            return None, _("the die shows 1 to 6, not {value}").format(value=v)
    return values, None


# Step kinds as the play header names them (the catalogs give zkouška, střet, závod, výzva, ukrývání).
STEP_KINDS = {"test": N_("test"), "contest": N_("contest"), "race": N_("race"), "challenge": N_("challenge"),
              "hide": N_("hiding")}


def _example(n: int) -> str:
    return " ".join(["4", "3", "6"][:n])


def _how(n: int, bonus: int, allow_total: bool) -> str:
    total = _(", a total with the bonus ({lo}–{hi})").format(lo=2 + bonus, hi=12 + bonus) if allow_total else ""
    return _("dice (e.g. {example}){total}, or Enter (drd rolls)").format(example=_example(n), total=total)


def pct(p: Fraction) -> str:
    """'13/18 = 72,2 %' — exact fraction and percent (decimal point in English: i18n.fmt_fraction)."""
    from .i18n import fmt_fraction

    return fmt_fraction(p, sep="=")


# --------------------------------------------------------------------------- the table (I/O)

class Table:
    """Prompts and answers: writes to `out`, reads lines from `inp`. EOF raises EOFError."""

    def __init__(self, inp: Any, out: Any):
        self.inp, self.out = inp, out

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")


# --------------------------------------------------------------------------- previews

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


# --------------------------------------------------------------------------- the session

@dataclasses.dataclass
class _Seen:
    ctx: Any
    w: Any
    pid: str
    spec: Any
    path: tuple
    presne: int
    total: int | None
    dice: Any


class Session:
    """One interactive resolution of a loaded scenario.

    `resolve(**kw)` is `drd_cli.api.resolve_scenario` with the command line's rules options;
    `ask_rolls=False` (for `drd resolve --choose ask`) leaves the dice to the seed.
    """

    def __init__(self, loaded: Any, table: Table, seed: int, resolve: Callable[..., dict], *,
                 ask_rolls: bool = True):
        self.loaded = loaded
        self.table = table
        self.seed = seed
        self._resolve = resolve
        self.ask_rolls = ask_rolls
        self.queue = list(getattr(loaded.scenario, "extra_dice", []) or [])
        if ask_rolls:
            self.dice: Any = AskedDice(self._ask_roll, seed, see=self._see)
        else:   # the seed rolls (after the file's extra_dice), as `drd resolve` would
            base: Any = SeededDice(seed)
            self.dice = _Recording(QueuedDice(self.queue, base) if self.queue else base, self._see)
        self.places: list[tuple | None] = []           # where each dice call goes in the replay
        self.answers: list[Answer | None] = []         # every decide() in order (None: nothing chosen)
        self.decided: list[tuple[tuple, str, str, Answer, int]] = []   # (choices path, who, vs, answer, round)
        self.seen: _Seen | None = None
        self._shown_step = None
        self.entered = 0

    # ----------------------------------------------------------------- running

    def run(self) -> dict:
        """The live resolution; returns the result contract."""
        return self._resolve(dice=self.dice, choose=self)

    def _preview(self, candidate: Answer | None) -> tuple[dict | None, DrdError | None]:
        pd = _PreviewDice(self.dice.calls)
        policy = _PreviewPolicy(self.answers, candidate, pd)
        error = None
        try:
            self._resolve(dice=pd, choose=policy)
        except Stop:
            pass
        except DrdError as exc:
            error = exc
        rec = pd.stop_at
        return (rec.data if rec is not None else None), error

    def preview(self, who: str, vs: str, candidate: Answer, base: tuple) -> Preview:
        """The exhaustions `candidate` (an answer of `who` against `vs`) causes, or the refusal."""
        data, error = self._preview(candidate)
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

    # ----------------------------------------------------------------- rolls

    def _see(self, ctx: Any, w: Any, pid: str, spec: Any, path: tuple, *, presne: int, total: Any,
             dice: Any) -> None:
        self.seen = _Seen(ctx, w, pid, spec, path, presne, total, dice)
        self._step_header(ctx)
        if self.ask_rolls and (total is not None or dice is not None):
            what = f"{total}" if total is not None else " ".join(map(str, dice))
            self.table.say(_("  {name}: roll from the file {what}").format(name=self._name(w, pid), what=what))

    def _step_header(self, ctx: Any) -> None:
        rec = ctx.record
        if rec is self._shown_step:
            return
        self._shown_step = rec
        kind = rec.data["kind"]
        kind = _(STEP_KINDS[kind]) if kind in STEP_KINDS else kind
        self.table.say(_("\n── Step {id} (round {round}, {kind}) ──").format(id=rec.data["id"], round=rec.data["round"],
                                                                         kind=kind))

    @staticmethod
    def _name(w: Any, pid: str) -> str:
        try:
            return w.peek(pid).name
        except Exception:  # noqa: BLE001 - a name is only for display
            return pid

    def _ask_roll(self, n: int, who: str, purpose: str) -> Any:
        s = self.seen
        fresh = s is not None and purpose == "action" and s.pid == who and s.total is None and s.dice is None
        if len(self.queue) >= n:
            got, self.queue = self.queue[:n], self.queue[n:]
            self.places.append(None)
            return got
        place = self._place(s.path, who) if fresh else None
        if fresh:
            ctx, w = s.ctx, s.w
            keep_best = ctx.param("presne") == "keep-best-2-of-3"
            bonus = bonus_for(ctx, w.peek(who), s.spec, s.path, needed=True) + (0 if keep_best else s.presne)
            self._roll_header(s, n, bonus)
        else:
            ctx = s.ctx if s else None
            prev = (ctx.record.data["rolls"].get(who) if ctx else None) or {}
            bonus = prev.get("bonus") or 0
            name = self._name(s.w, who) if s else who
            why = _("a tie, rolls again") if purpose == "reroll" else purpose
            self.table.say(_("  {name}: {why} — {n}d6 {bonus}").format(name=name, why=why, n=n, bonus=f"{bonus:+d}"))
        if n > 2:
            self.table.say(_("  (rolls {n} dice, the best two count)").format(n=n))
        while True:
            text = self.table.ask(_("  Dice, a total, or Enter (drd rolls): "))
            got, err = parse_roll(text, n, bonus, allow_total=place is not None)
            if err:
                self.table.say(f"  ✗ {err}")
                continue
            break
        self.places.append(place)
        if got is not None:
            self.entered += 1
        return got

    def _roll_header(self, s: _Seen, n: int, bonus: int) -> None:
        ctx, w, pid = s.ctx, s.w, s.pid
        spec = s.spec
        label = getattr(spec, "label", None)
        pool = getattr(spec, "pool", None) or "telo"
        what = " ".join(x for x in (label, f"({POOL_CS.get(pool, pool)})") if x)
        self.table.say(_("  {name} rolls {what}: {n}d6 {bonus}").format(name=self._name(w, pid), what=what, n=n,
                                                                          bonus=f"{bonus:+d}"))
        for line in self._odds(s, n, bonus):
            self.table.say("    " + line)

    def _odds(self, s: _Seen, n: int, bonus: int) -> list[str]:
        """Exact chances before the roll (drd_cli.odds): P(success) against a number, P(win) a pair."""
        from .odds import contest_odds, roll_distribution

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

        step, kind, rest = self._step_of(s.path)
        tie = ctx.param("tie")
        out: list[str] = []
        if kind == "contest" and step is not None and rest and rest[0] == "action":
            counters = step.counters
            acting = {c.actor for c in counters}
            for i, c in enumerate(counters):
                name = self._name(w, c.actor)
                if c.roll is not None:
                    q = contest_odds(bonus, 0, tie="reroll")["win"] if tie == "reroll" else None
                    p = vs_total(c.roll, tie == "actor", q)
                    out.append(_("against {name} (roll {roll}): win {p}").format(name=name, roll=c.roll, p=pct(p)))
                    continue
                cb = self._bonus(ctx, w, c, s.path[:-1] + ("counters", i))
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
                out.append(_("against {name} (roll {roll}): win {p}").format(name=self._name(w, actor), roll=r["total"],
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
                        name=self._name(w, q), roll=r["total"], p=pct(vs_total(r["total"], False, None))))
        return out

    @staticmethod
    def _bonus(ctx: Any, w: Any, spec: Any, path: tuple) -> int | None:
        try:
            b = bonus_for(ctx, w.peek(spec.actor), spec, path, needed=False)
        except DrdError:
            return None
        names = [m if isinstance(m, str) else m.name for m in spec.manoeuvres]
        if ctx.param("presne") != "keep-best-2-of-3":
            b += sum(1 for m in names if m in ("presne", "přesně"))
        return b

    def _step_of(self, path: tuple) -> tuple[Any, str | None, tuple]:
        """(the step-kind spec, its kind, the rest of the path) for a path into a step."""
        if len(path) >= 5 and path[0] == "rounds" and path[2] == "steps":
            try:
                step = self.loaded.scenario.rounds[path[1]].steps[path[3]]
            except (IndexError, TypeError):
                return None, None, ()
            kind = path[4]
            return getattr(step, kind, None), kind, tuple(path[5:])
        if path and path[-1] == "challenge":
            return None, "challenge", ()
        return None, None, ()

    # ----------------------------------------------------------------- where a roll goes

    def _place(self, path: tuple, pid: str) -> tuple | None:
        """("direct", path, pid) → `roll`/`dice` on that action; ("per", path, pid) → `rolls`/`dice`
        keyed by the participant; None → no place in the format (`extra_dice`)."""
        if not path or path[0] != "rounds":
            return None
        if len(path) >= 5 and path[2] == "steps" and path[4] not in CORE_KINDS:
            return None          # a plugin's step (hide): its specs are built, not written
        node = self.loaded.scenario
        for part in path:
            try:
                node = node[part] if isinstance(part, int) else getattr(node, part)
            except (IndexError, AttributeError, KeyError, TypeError):
                return None
            if node is None:
                return None
        if getattr(node, "actor", None) == pid and not getattr(node, "actors", None):
            return ("direct", path, pid)
        if hasattr(node, "rolls"):
            return ("per", path, pid)
        return None

    # ----------------------------------------------------------------- decisions

    def decide(self, choices: Any, who: str, vs: str, *, optional: bool) -> Answer | None:
        """The asking policy (engine `Choices`): offer the decision, or None when nothing is at stake."""
        # One answer per (who, vs) in a step, as in a file: once a lookup got no answer, a later
        # question for the same pair must not produce one that the earlier lookup would have seen
        # in the replay (it would be read there too). So such a pair is not asked optionally again,
        # and not offered exhausting for others.
        consulted = choices.__dict__.setdefault("_play_consulted", set())
        again = (who, vs) in consulted
        consulted.add((who, vs))
        if optional:
            answer = None if again else self._offer_optional(who, vs)
        else:
            answer = self._offer(who, vs, others=not again)
        self.answers.append(answer)
        if answer is not None:
            rnd = self.seen.ctx.round.number if self.seen else 1
            self.decided.append((tuple(choices.path), who, vs, answer, rnd))
            self.entered += 1
        return answer

    def _context(self, who: str, vs: str) -> tuple[Any, str, str]:
        s = self.seen
        w = s.w if s else None
        name = self._name(w, who) if w else who
        rolls = s.ctx.record.data["rolls"] if s else {}
        mine = rolls.get(who, {}).get("total")
        if vs == "test":
            target = s.ctx.target if s else 9
            return w, name, (_("{name}: roll {roll} < {target}").format(name=name, roll=mine, target=target)
                             if mine is not None else _("{name} under {target}").format(name=name, target=target))
        theirs = rolls.get(vs, {}).get("total")
        return w, name, _("{name} ({mine}) lost against {other} ({theirs})").format(
            name=name, mine=mine, other=self._name(w, vs), theirs=theirs)

    def _state_line(self, w: Any, who: str) -> str:
        if w is None:
            return ""
        p = w.peek(who)
        res = (f"Tělo {p.pools.get('telo', 0)}, Duše {p.pools.get('duse', 0)}, Vliv {p.pools.get('vliv', 0)}"
               if p.is_hero else f"Sudba {p.resource('sudba')}")
        return f"Ohrožení {p.ohrozeni}, {res}"

    def _describe(self, pv: Preview, w: Any) -> str:
        if pv.error is not None:
            return _("not possible: {reason}").format(reason=_reason(pv.error))
        if not pv.entries:
            return ""
        parts = []
        for e in pv.entries:
            pool = POOL_CS.get(e["pool"], e["pool"])
            before, after = e["ohrozeni"]
            whom = ", ".join(self._name(w, x) for x in e["protected"]) if e["protected"] else ""
            txt = _("{cost} {pool}, Ohrožení {before}→{after}").format(cost=e["cost"], pool=pool, before=before,
                                                                       after=after)
            if whom:
                txt += _("; protects: {whom}").format(whom=whom)
            if e.get("denied"):
                txt += _("; denies the gain of: {name}").format(name=self._name(w, e["denied"]))
            g = e.get("gained") or {}
            if g.get("jizva"):
                txt += _("; Jizva “{name}” (+{gain})").format(name=g["jizva"]["name"], gain=g["jizva"]["gain"])
            if g.get("sacrifice"):
                txt += _("; sacrifices {name} (+{gain})").format(name=g["sacrifice"]["name"], gain=g["sacrifice"]["gain"])
            parts.append(txt)
        return " + ".join(parts)

    def _offer(self, who: str, vs: str, *, others: bool = True) -> Answer | None:
        base = self._preview(None)
        w, name, head = self._context(who, vs)
        ex = self.preview(who, vs, Answer(exhaust=True), base)
        de = self.preview(who, vs, Answer(deny=True), base) if vs != "test" else Preview([], None)
        short = ex.error is not None and ex.error.problems and ex.error.problems[0].rule == "R-EXH-4"
        # Where nothing is at stake for the loser, `exhaust` only means denying (SCENARIO-FORMAT §5):
        # then it is offered once, as the denial.
        own = [e for e in ex.entries if e.get("protected")]
        useful_ex = bool(own) or short
        if not own:
            ex = Preview([], ex.error)
        useful_de = bool(de.entries) and all(e.get("denied") for e in de.entries)
        prefix = [who] if own else []
        candidates = [p for p in (w.ids() if w is not None else []) if p not in (who, vs) and _allies(w, who, p)] \
            if others else []
        helps = [p for p in candidates
                 if self.preview(who, vs, Answer(exhaust=True, exhaust_for=prefix + [p]), base).entries]
        if not useful_ex and not useful_de and not helps:
            return None
        self.table.say(_("  Decision: {head}.  [{state}]").format(head=head, state=self._state_line(w, who)))
        # The keys stay the Czech initials in both languages: replay files and muscle memory keep working.
        options: dict[str, tuple[str, Any]] = {"p": (_("accept the failure (R-ACC)"), Answer())}
        if ex.entries:
            options["v"] = (_("exhaust (R-EXH): ") + self._describe(ex, w), Answer(exhaust=True))
        elif short:
            self.table.say(_("    exhaust: {reason}").format(reason=_reason(ex.error)))
        if useful_de:
            options["u"] = (_("deny the winner the gain (CS-MULTI-5): ") + self._describe(de, w), Answer(deny=True))
        if useful_ex:
            options["j"] = (_("exhaust and take a Jizva (R-EXH-4)"), "jizva")
            items = [i.name for i in w.peek(who).equipment] if w is not None else []
            if items:
                options["o"] = (_("exhaust and sacrifice an item (R-EXH-4): ") + ", ".join(items), "sacrifice")
        if helps:
            options["z"] = ((_("exhaust for others too (CS-FOR-2): ") if own else _("exhaust for others (CS-FOR-1): "))
                            + ", ".join(self._name(w, p) for p in helps), "others")
        for key, (text, _answer) in options.items():
            self.table.say(f"    [{key}] {text}")
        keys = "/".join(options)
        while True:
            # Enter accepts: the answer a file without `choices` would give (SCENARIO-FORMAT §5).
            choice = self.table.ask(_("  Choice [{keys}, Enter = p]: ").format(keys=keys)).strip().lower() or "p"
            if choice not in options:
                self.table.say(_("  ✗ type one of: {keys}").format(keys=keys))
                continue
            answer = options[choice][1]
            if answer == "jizva":
                answer = self._ask_jizva(w, who)
            elif answer == "sacrifice":
                answer = self._ask_item(w, who)
            elif answer == "others":
                answer = self._ask_ids(w, helps, prefix=prefix)
            if answer is None:
                continue
            if (answer.exhaust or answer.deny) and not self._confirm(who, vs, answer, base, w):
                continue
            return answer

    def _offer_optional(self, who: str, vs: str) -> Answer | None:
        """A participant of the contest may exhaust for others threatened (CS-FOR-1/2)."""
        if who == vs or self.seen is None:
            return None
        base = self._preview(None)
        w = self.seen.w
        helps = [(p, pv) for p in w.ids() if p not in (who, vs) and _allies(w, who, p)
                 for pv in [self.preview(who, vs, Answer(exhaust=True, exhaust_for=[p]), base)] if pv.entries]
        if not helps:
            return None
        self.table.say(_("  {name} may exhaust for others against {other} (CS-FOR-1):  [{state}]").format(
            name=self._name(w, who), other=self._name(w, vs), state=self._state_line(w, who)))
        for i, (p, pv) in enumerate(helps, 1):
            self.table.say(_("    [{i}] for {name}: {what}").format(i=i, name=self._name(w, p), what=self._describe(pv, w)))
        while True:
            text = self.table.ask(_("  Numbers (e.g. 1 2), or Enter = no: ")).strip()
            if not text:
                return None
            parts = text.replace(",", " ").split()
            if not all(x.isdigit() and 1 <= int(x) <= len(helps) for x in parts):
                self.table.say(_("  ✗ type numbers 1–{n} or Enter").format(n=len(helps)))
                continue
            ids = list(dict.fromkeys(helps[int(x) - 1][0] for x in parts))
            answer = Answer(exhaust=True, exhaust_for=ids)
            if not self._confirm(who, vs, answer, base, w):
                continue
            return answer

    def _confirm(self, who: str, vs: str, answer: Answer, base: Any, w: Any) -> bool:
        """Says what `answer` would do (cost, Ohrožení after, whom it protects), or why it cannot be."""
        pv = self.preview(who, vs, answer, base)
        if pv.error is not None or not pv.entries:
            self.table.say("  ✗ " + (_reason(pv.error) if pv.error else _("this choice changes nothing")))
            return False
        self.table.say("  → " + self._describe(pv, w))
        return True

    def _ask_jizva(self, w: Any, who: str) -> Answer | None:
        name = self.table.ask(_("  Name of the Jizva (Enter = back): ")).strip()
        if not name:
            return None
        while True:
            text = self.table.ask(_("  How many points the Jizva gives: ")).strip()
            if text.isdigit() and 1 <= int(text) <= 99:
                return Answer(exhaust=True, jizva={"name": name, "gain": int(text)})
            self.table.say(_("  ✗ type the number of points (1–99)"))

    def _ask_item(self, w: Any, who: str) -> Answer | None:
        items = [i.name for i in w.peek(who).equipment]
        for i, item in enumerate(items, 1):
            self.table.say(f"    [{i}] {item}")
        while True:
            text = self.table.ask(_("  Which item (a number, Enter = back): ")).strip()
            if not text:
                return None
            if text.isdigit() and 1 <= int(text) <= len(items):
                return Answer(exhaust=True, sacrifice=items[int(text) - 1])
            self.table.say(_("  ✗ type a number 1–{n}").format(n=len(items)))

    def _ask_ids(self, w: Any, helps: list[str], prefix: list[str]) -> Answer | None:
        for i, p in enumerate(helps, 1):
            self.table.say(f"    [{i}] {self._name(w, p)}")
        while True:
            text = self.table.ask(_("  For whom besides (numbers, Enter = back): ")).strip()
            if not text:
                return None
            parts = text.replace(",", " ").split()
            if all(x.isdigit() and 1 <= int(x) <= len(helps) for x in parts):
                return Answer(exhaust=True, exhaust_for=prefix + list(dict.fromkeys(helps[int(x) - 1] for x in parts)))
            self.table.say(_("  ✗ type numbers 1–{n}").format(n=len(helps)))

    # ----------------------------------------------------------------- the replay file

    def replay_text(self, text: str, rules: dict | None = None) -> str:
        """The scenario `text` with everything entered so far filled in (ruamel round trip, comments kept).

        `rules` ({enable, disable, params}, from `replay_rules`) is the session's effective rules
        block: the group's and the command line's settings merged over the file's own `rules:`.
        """
        from io import StringIO

        from ruamel.yaml import YAML
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        yaml = YAML(typ="rt")
        # Never fold a line: a flow mapping broken mid-value (`effect: {ohrozeni:⏎ 2}`) reads badly.
        yaml.width = 4096
        yaml.indent(mapping=2, sequence=4, offset=2)     # the style of the book scenarios
        yaml.preserve_quotes = True
        doc = yaml.load(text)

        def flow(values: list) -> CommentedSeq:
            seq = CommentedSeq(values)
            seq.fa.set_flow_style()
            return seq

        extra: list[int] = []
        for place, got in zip(self.places, self.dice.calls):
            if place is None:
                extra += list(got) if isinstance(got, list) else []
                continue
            how, path, pid = place
            node = _walk(doc, self.loaded.scenario, path)
            if node is None:
                extra += list(got) if isinstance(got, list) else []
                continue
            target, model = node
            if how == "direct":
                if isinstance(got, list):
                    target[_key(target, model, "dice")] = flow(got)
                else:
                    target[_key(target, model, "roll")] = got
            else:
                field = "dice" if isinstance(got, list) else "rolls"
                key = _key(target, model, field)
                if not isinstance(target.get(key), dict):
                    m = CommentedMap()
                    m.fa.set_flow_style()
                    target[key] = m
                target[key][pid] = flow(got) if isinstance(got, list) else got
        if extra:
            doc["extra_dice"] = flow(extra)
        elif "extra_dice" in doc:
            del doc["extra_dice"]
        if "seed" in doc:
            doc["seed"] = self.seed
        else:
            doc.insert(1, "seed", self.seed)
        if rules is not None:
            _write_rules(doc, self.loaded.scenario, rules)
        for cpath, who, vs, answer, rnd in self.decided:
            holder = _choices_holder(doc, self.loaded.scenario, cpath, rnd)
            if holder is None:
                continue
            key = next((k for k in ("choices", "volby") if k in holder), "choices")
            if not isinstance(holder.get(key), dict):
                holder[key] = CommentedMap()
            mine = holder[key].get(who)
            if not isinstance(mine, dict) or set(mine) <= {"exhaust", "deny", "jizva", "sacrifice", "accept"}:
                mine = CommentedMap()
                mine.fa.set_flow_style()
                holder[key][who] = mine
            mine[vs] = _answer_yaml(answer)
        out = StringIO()
        yaml.dump(doc, out)
        return out.getvalue()


def replay_rules(loaded: Any, *, group: str | None = None, params: dict | None = None,
                 enable: tuple[str, ...] = (), disable: tuple[str, ...] = ()) -> tuple[dict | None, list[str]]:
    """The `rules:` block that makes a replay resolve under the session's rules without options.

    `drd play --group/--set/--enable/--disable` layer over the file's `rules:` exactly as for
    `drd resolve` (SCENARIO-FORMAT §6: defaults ← group ← scenario ← command line). A scenario
    cannot name a group, so its settings are inlined: the layers group, scenario, command line are
    merged in that order (a later layer's enable/disable of an id replaces an earlier one's; within
    a layer disable wins, as in `rules.build_profile`), and with the defaults underneath the block
    gives the same profile. Parameter values are the checked ones (`--set sacrifice_gain=2` → 2).

    Returns (block or None when there are no options, the group's plugin folders): those cannot go
    into a scenario, so the command that replays it must name them (`drd --plugins-dir D resolve`).
    Bad options raise ScenarioError, as `drd resolve` would.
    """
    if not (group or params or enable or disable):
        return None, []
    from .api import setup_rules
    from .groups import group_layer

    # Checks every id and value (and gives the parsed values) before anything is written.
    profile = setup_rules(loaded, params=params, enable=enable, disable=disable, group=group).profile
    layers: list[tuple[list, list, dict]] = []
    dirs: list[str] = []
    if group:
        glayer, dirs = group_layer(group)
        layers.append((glayer.enable, glayer.disable, glayer.params))
    r = loaded.scenario.rules
    layers.append((list(r.enable), list(r.disable), dict(r.params)))
    layers.append((list(enable), list(disable), dict(params or {})))
    on: list[str] = []
    off: list[str] = []
    merged: dict[str, Any] = {}
    for en, dis, ps in layers:
        for pid in en:
            off = [x for x in off if x != pid]
            on = on if pid in on else on + [pid]
        for pid in dis:
            on = [x for x in on if x != pid]
            off = off if pid in off else off + [pid]
        merged.update(ps)
    values = {**profile.inactive, **profile.params}
    return {"enable": on, "disable": off, "params": {k: values.get(k, v) for k, v in merged.items()}}, dirs


def _write_rules(doc: Any, scenario: Any, rules: dict) -> None:
    """Puts `rules` into the document's `rules:` (or `pravidla:`), editing the existing block in
    place so its comments and the order of its entries stay; a new block goes before `participants`."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    key = _key(doc, scenario, "rules")
    node = doc.get(key)
    if not isinstance(node, dict):
        if not (rules["enable"] or rules["disable"] or rules["params"]):
            return
        node = CommentedMap()
        at = list(doc).index(_key(doc, scenario, "participants")) if _key(doc, scenario, "participants") in doc \
            else len(doc)
        doc.insert(at, key, node)
    for field in ("enable", "disable"):
        want = rules[field]
        seq = node.get(field)
        if isinstance(seq, list):
            for i in reversed(range(len(seq))):
                if seq[i] not in want:
                    del seq[i]
            seq.extend(x for x in want if x not in seq)
        elif want:
            seq = CommentedSeq(want)
            seq.fa.set_flow_style()
            # In the order of SCENARIO-FORMAT §6 (enable, disable, params), before a later key.
            later = [k for k in ("disable", "params") if k in node and k != field]
            node.insert(list(node).index(later[0]) if later else len(node), field, seq)
    if rules["params"]:
        ps = node.get("params")
        if not isinstance(ps, dict):
            ps = CommentedMap()
            ps.fa.set_flow_style()
            node["params"] = ps
        for name, value in rules["params"].items():
            ps[name] = value


def _pair(a: dict, c: dict, tie: str) -> Fraction:
    win = sum((pa * pc for va, pa in a.items() for vc, pc in c.items() if va > vc), Fraction(0))
    draw = sum((pa * pc for va, pa in a.items() for vc, pc in c.items() if va == vc), Fraction(0))
    if tie == "actor":
        return win + draw
    if tie == "counter":
        return win
    return win / (1 - draw)


class _Recording:
    """A dice source that keeps what it gave (`drd resolve --choose ask`: previews replay it)."""

    def __init__(self, base: Any, see: Callable[..., None]):
        self._base = base
        self.calls: list = []
        self.see = see

    @property
    def name(self) -> str:
        return self._base.name

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        got = self._base.roll(n, who, purpose)
        self.calls.append(got)
        return got


def _allies(w: Any, a: str, b: str) -> bool:
    """Whom exhausting for is offered to: not across different `side` labels (an ogre does not pay
    for the hero it fights); a file may still write such an answer into `choices`."""
    sa, sb = w.peek(a).side, w.peek(b).side
    return sa is None or sb is None or sa == sb


def _reason(error: DrdError) -> str:
    """The engine's reason for refusing an option, short (the R-EXH-4 shortage in Czech)."""
    p = error.problems[0] if error.problems else None
    if p is None:
        return str(error)
    short = p.data if p.rule == "R-EXH-4" and "missing" in p.data else None
    if short:
        from .engine.actions import pool_cs

        return _("cannot afford it: costs {cost} {pool}, has {have}, missing {missing} [R-EXH-4]").format(
            cost=short["cost"], pool=pool_cs(short["pool"]), have=short["have"], missing=short["missing"])
    return p.message + (f" [{p.rule}]" if p.rule else "")


def _answer_yaml(a: Answer) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    plain_ex = a.exhaust and a.exhaust_for is None and not a.jizva and not a.sacrifice
    if not a.exhaust and not a.deny:
        return "accept"
    if plain_ex and not a.deny:
        return "exhaust"
    if a.deny and not a.exhaust and not a.jizva and not a.sacrifice:
        return "deny"
    m = CommentedMap()
    if a.exhaust:
        if a.exhaust_for is not None:
            seq = CommentedSeq(a.exhaust_for)
            seq.fa.set_flow_style()
            m["exhaust"] = seq
        else:
            m["exhaust"] = True
    if a.deny:
        m["deny"] = True
    if a.jizva:
        j = CommentedMap(a.jizva)
        j.fa.set_flow_style()
        m["jizva"] = j
    if a.sacrifice:
        m["sacrifice"] = a.sacrifice
    m.fa.set_flow_style()
    return m


def _aliases(model: Any, field: str) -> list[str]:
    info = type(model).model_fields.get(field) if hasattr(type(model), "model_fields") else None
    names = [field]
    alias = getattr(info, "validation_alias", None) if info else None
    for choice in getattr(alias, "choices", []) or []:
        if isinstance(choice, str) and choice not in names:
            names.append(choice)
    if field == "from_":
        names.append("from")
    return names


def _key(mapping: Any, model: Any, field: str) -> str:
    """The key `field` has in `mapping` (its Czech alias if the file uses it), else `field`."""
    for name in _aliases(model, field):
        if name in mapping:
            return name
    return field


def _walk(doc: Any, model: Any, path: tuple) -> tuple[Any, Any] | None:
    """(the ruamel node, the model) at a model path, following Czech aliases; None if absent."""
    node = doc
    for part in path:
        if isinstance(part, int):
            if not isinstance(node, list) or part >= len(node):
                return None
            node, model = node[part], model[part]
            continue
        if not isinstance(node, dict):
            return None
        key = _key(node, model, part)
        if key not in node:
            return None
        node, model = node[key], getattr(model, part)
    return node, model


def _choices_holder(doc: Any, scenario: Any, cpath: tuple, rnd: int) -> Any:
    """The mapping whose `choices` the answer goes into. A file-level environment entry repeats
    every round, so its answers go into this round's entry with the same id (prostredi merges it)."""
    holder_path = cpath[:-1]
    if holder_path and holder_path[0] == "environment":
        entry = scenario.environment[holder_path[1]]
        if entry.id is None:
            got = _walk(doc, scenario, holder_path)
            return got[0] if got else None
        from ruamel.yaml.comments import CommentedMap

        rounds = doc[_key(doc, scenario, "rounds")]
        rdoc = rounds[rnd - 1]
        rmodel = scenario.rounds[rnd - 1]
        ekey = _key(rdoc, rmodel, "environment")
        if ekey not in rdoc:
            rdoc[ekey] = []
        for e in rdoc[ekey]:
            if isinstance(e, dict) and e.get("id") == entry.id:
                return e
        new = CommentedMap()
        new["id"] = entry.id
        rdoc[ekey].append(new)
        return new
    got = _walk(doc, scenario, holder_path)
    return got[0] if got else None
