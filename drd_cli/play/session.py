"""The session loop of `drd play` (and `drd resolve --choose ask`).

The engine runs live: every roll the file does not give is asked for (dice typed, a total, or
Enter to let drd roll from the seed) and every decision the file's `choices` leave open is
offered (`offers.Offers`) with its exact price (`previews.Previewer`). Everything entered is kept
in order, so the replay file (`replay.replay_text`) can be written at any moment.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from ..dice import AskedDice, QueuedDice, SeededDice
from ..engine.actions import POOL_CS, bonus_for
from ..engine.context import Answer
from ..i18n import N_, _
from .explain import explain_now, explain_now_empty
from .offers import Offers
from .previews import Previewer, Seen, name_of, odds_lines, what_if_lines
from .reading import Table, control_word, parse_roll, undo_key
from .replay import place_of, replay_text

# Step kinds as the play header names them (the catalogs give zkouška, střet, závod, výzva, ukrývání).
STEP_KINDS = {"test": N_("test"), "contest": N_("contest"), "race": N_("race"), "challenge": N_("challenge"),
              "hide": N_("hiding")}


@dataclasses.dataclass
class Entry:
    """What one engine callback got: a roll (dice, a total, or None = drd rolled from the seed) or a
    decision's answer (None = nothing chosen). `asked` says whether a person answered it (only
    those are undone); the others are replayed as they were, so the engine's callbacks line up."""

    kind: str            # "roll" | "answer"
    value: Any
    asked: bool


class _Rewind(BaseException):
    """Unwinds the live engine run after an undo or redo; the session runs it again from its history.
    (BaseException: no engine `except Exception` may swallow it.)"""


class Session:
    """One interactive resolution of a loaded scenario.

    `resolve(**kw)` is `drd_cli.api.resolve_scenario` with the command line's rules options;
    `ask_rolls=False` (for `drd resolve --choose ask`) leaves the dice to the seed.

    Undo and redo: every callback's result is kept in `history`. Undo drops the last asked entry
    (kept in `redo`) and runs the engine again from the start, fed from the history (quietly),
    until the question that entry answered is asked again — so every pool, Ohrožení, Jizva and
    condition is the engine's own, and what the replay file gets never holds undone entries.
    """

    def __init__(self, loaded: Any, table: Table, seed: int, resolve: Callable[..., dict], *,
                 ask_rolls: bool = True, redo: list[Entry] | None = None, oracle: Any = None,
                 mark: str | None = None):
        self.loaded = loaded
        self.table = table
        self.seed = seed
        self._resolve = resolve
        self.ask_rolls = ask_rolls
        self.previewer = Previewer(resolve)
        self.offers = Offers(self)
        self.offered: dict | None = None     # the decision being asked, for `?` (offers.Offers sets it)
        self.history: list[Entry] = []
        self.redo: list[Entry] = list(reversed(redo or []))     # the next to redo is last
        self._feed: list[Entry] = []
        self._undone: str | None = None
        # `--from STEP` (resume.py): an oracle answers every question from a replay, and where the
        # step `mark` begins is noted (the history index, and the extra dice used until then).
        self._oracle = oracle
        self._mark = mark
        self.mark_at: int | None = None
        self.extra_before = 0
        # The game so far as a loaded scenario (the replay as it would be written now), for the
        # what-if odds before a roll; None shows none (`drd resolve --choose ask` asks no roll).
        self.so_far: Callable[[], Any] | None = None
        self.so_far_group: str | None = None
        self._reset()

    def _reset(self) -> None:
        """A fresh engine run: dice, queue and everything recorded for the replay start empty."""
        self.queue = list(getattr(self.loaded.scenario, "extra_dice", []) or [])
        if self.ask_rolls:
            self.dice: Any = AskedDice(self._ask_roll, self.seed, see=self._see, rolled=self._show_rolled)
            if self._mark is not None:
                self.dice.begin_step = self._begin_step
        else:   # the seed rolls (after the file's extra_dice), as `drd resolve` would
            base: Any = SeededDice(self.seed)
            self.dice = _Recording(QueuedDice(self.queue, base) if self.queue else base, self._see)
        self.places: list[tuple | None] = []           # where each dice call goes in the replay
        self.answers: list[Answer | None] = []         # every decide() in order (None: nothing chosen)
        self.decided: list[tuple[tuple, str, str, Answer, int]] = []   # (choices path, who, vs, answer, round)
        self.seen: Seen | None = None
        self._shown_step = None
        self.entered = 0
        self.history = []

    # ----------------------------------------------------------------- running

    def run(self) -> dict:
        """The live resolution (run again from its history after each undo/redo); the result contract."""
        while True:
            self._reset()
            self.table.quiet = bool(self._feed)
            if not self._feed and self._undone:      # undone back to the very start
                self.table.say(self._undone)
                self._undone = None
            try:
                result = self._resolve(dice=self.dice, choose=self)
            except _Rewind:
                continue
            finally:
                self.table.quiet = False
            return result

    @property
    def answered(self) -> int:
        """How many questions a person has answered (and not undone) in this session."""
        return sum(1 for e in self.history if e.asked)

    def replay_text(self, text: str, rules: dict | None = None) -> str:
        """The scenario `text` with everything entered so far filled in (see `replay.replay_text`)."""
        return replay_text(self.loaded.scenario, text, self.places, self.dice.calls, self.decided, self.seed, rules)

    # ----------------------------------------------------------------- history: feeding, asking, undo, redo

    def _fed(self, kind: str) -> tuple[bool, Any]:
        """(True, value) while the engine is being run again from the history; then live (False)."""
        if self._feed:
            entry = self._feed.pop(0)
            if entry.kind == kind:
                self.history.append(entry)
                return True, entry.value
            self._feed = []          # cannot happen with a deterministic engine; asking is the safe way out
        self._go_live()
        return False, None

    def _go_live(self) -> None:
        if self.table.quiet:
            self.table.quiet = False
            if self._undone:
                self.table.say(self._undone)
                self._undone = None
            if self.seen is not None:
                self._shown_step = None
                self._step_header(self.seen.ctx)

    def _begin_step(self, step_id: str) -> None:
        if step_id == self._mark and self.mark_at is None:
            self.mark_at = len(self.history)
            self.extra_before = self._oracle.used_extra if self._oracle is not None else 0

    def _record(self, kind: str, value: Any, asked: bool) -> None:
        entry = Entry(kind, value, asked)
        self.history.append(entry)
        if not self.redo:
            return
        top = self.redo[-1]
        # A question nobody was asked matches only an entry nobody was asked (from `--from`'s replay).
        same = top.kind == kind and _same(top.value, value) and (asked or not top.asked)
        if same:
            self.redo.pop()        # the same as what was kept for redo: the later entries stay
        elif asked:
            self.redo.clear()      # something different was entered: what was kept is dropped

    def ask(self, prompt: str, taken: tuple[str, ...] = (), usage: str | None = None) -> str:
        """One line from the table; `z`/`u` (undo), `r` (redo) act here unless `taken` (a decision's
        own keys) uses them — the words `zpět`/`undo` and `redo` always work. `?` says what may be
        typed here (`usage`) and explains the step so far."""
        hint = self._hint(taken)
        while True:
            text = self.table.ask(f"  ({hint}) {prompt.lstrip()}" if hint else prompt)
            word = control_word(text, taken)
            if word == "undo":
                self._undo()
            elif word == "redo":
                self._redo()
            elif word == "explain":
                if usage:
                    self.table.say("    " + usage)
                    self.table.say("    " + _("z (or zpět) undoes the last answer, r (or znovu) redoes it; "
                                              "Ctrl-C ends the game and keeps what was entered in the replay."))
                lines = explain_now(self)
                if usage and lines == explain_now_empty():
                    continue
                for line in lines:
                    self.table.say("    " + line)
            else:
                return text

    def _show_rolled(self, dice: list[int], who: str) -> None:
        """After Enter: the dice drd rolled, so the table sees them before the next question."""
        name = name_of(self.seen.w, who) if self.seen is not None else who
        self.table.say(_("  drd rolled for {name}: {dice}").format(name=name, dice=" ".join(map(str, dice))))

    def _hint(self, taken: tuple[str, ...]) -> str:
        parts = []
        if any(e.asked for e in self.history):
            parts.append(_("{key} = undo").format(key=undo_key(taken)))
        if self.redo:
            parts.append(_("{key} = redo").format(key="r"))
        parts.append(_("? = why"))
        return ", ".join(parts)

    def _undo(self) -> None:
        k = next((i for i in range(len(self.history) - 1, -1, -1) if self.history[i].asked), None)
        if k is None:
            self.table.say("  ✗ " + _("nothing to undo"))
            return
        entry = self.history[k]
        self.redo.append(entry)
        self._feed = self.history[:k]
        self._undone = "  ↶ " + _("undone: {what}").format(what=_entry_text(entry))
        raise _Rewind

    def _redo(self) -> None:
        if not self.redo:
            self.table.say("  ✗ " + _("nothing to redo"))
            return
        entry = self.redo.pop()
        self._feed = self.history + [entry]
        self._undone = "  ↷ " + _("redone: {what}").format(what=_entry_text(entry))
        raise _Rewind

    # ----------------------------------------------------------------- rolls

    def _see(self, ctx: Any, w: Any, pid: str, spec: Any, path: tuple, *, presne: int, total: Any,
             dice: Any) -> None:
        self.seen = Seen(ctx, w, pid, spec, path, presne, total, dice)
        self._step_header(ctx)
        if self.ask_rolls and (total is not None or dice is not None):
            what = f"{total}" if total is not None else " ".join(map(str, dice))
            self.table.say(_("  {name}: roll from the file {what}").format(name=name_of(w, pid), what=what))

    def _step_header(self, ctx: Any) -> None:
        rec = ctx.record
        if rec is self._shown_step:
            return
        self._shown_step = rec
        kind = rec.data["kind"]
        kind = _(STEP_KINDS[kind]) if kind in STEP_KINDS else kind
        title = rec.data.get("title")
        if title:   # the step's name, as the transcript heads it (`útěk · kolo 1 · střet`), not its id
            self.table.say("\n── " + _("{title} · round {round} · {kind}").format(
                title=title, round=rec.data["round"], kind=kind) + " ──")
            return
        self.table.say(_("\n── Step {id} (round {round}, {kind}) ──").format(id=rec.data["id"], round=rec.data["round"],
                                                                         kind=kind))

    def _ask_roll(self, n: int, who: str, purpose: str) -> Any:
        s = self.seen
        fresh = s is not None and purpose == "action" and s.pid == who and s.total is None and s.dice is None
        if len(self.queue) >= n:
            got, self.queue = self.queue[:n], self.queue[n:]
            self.places.append(None)
            return got
        place = place_of(self.loaded.scenario, s.path, who) if fresh and s is not None else None
        fed, got = self._fed("roll")
        if not fed:
            if self._oracle is not None:
                got = self._oracle.roll(place, n)
            else:
                got = self._ask_dice(s, n, who, purpose, fresh, allow_total=place is not None)
            self._record("roll", got, True)
        self.places.append(place)
        if got is not None:
            self.entered += 1
        return list(got) if isinstance(got, list) else got

    def _ask_dice(self, s: Seen | None, n: int, who: str, purpose: str, fresh: bool, *, allow_total: bool) -> Any:
        """Shows who rolls what (with the odds) and reads the dice, a total or Enter."""
        if fresh and s is not None:     # fresh: the roll of the step just seen (s)
            ctx, w = s.ctx, s.w
            keep_best = ctx.param("presne") == "keep-best-2-of-3"
            bonus = bonus_for(ctx, w.peek(who), s.spec, s.path, needed=True) + (0 if keep_best else s.presne)
            self._roll_header(s, n, bonus)
        else:
            ctx = s.ctx if s else None
            prev = (ctx.record.data["rolls"].get(who) if ctx else None) or {}
            bonus = prev.get("bonus") or 0
            name = name_of(s.w, who) if s else who
            why = _("a tie, rolls again") if purpose == "reroll" else purpose
            self.table.say(_("  {name}: {why} — {n}d6 {bonus}").format(name=name, why=why, n=n, bonus=f"{bonus:+d}"))
        if n > 2:
            self.table.say(_("  (rolls {n} dice, the best two count)").format(n=n))
        if allow_total:
            usage = _("Type the dice you rolled ({example}), the total with the bonus ({lo}–{hi}), or just Enter: "
                      "drd rolls for you (from the seed, so the replay repeats it).").format(
                example=" ".join(["4", "3", "6"][:n]), lo=2 + bonus, hi=12 + bonus)
        else:
            usage = _("Type the dice you rolled ({example}), or just Enter: drd rolls for you (from the seed, so "
                      "the replay repeats it).").format(example=" ".join(["4", "3", "6"][:n]))
        while True:
            text = self.ask(_("  Dice, a total, or Enter (drd rolls): "), usage=usage)
            got, err = parse_roll(text, n, bonus, allow_total=allow_total)
            if err:
                self.table.say(f"  ✗ {err}")
                continue
            return got

    def _roll_header(self, s: Seen, n: int, bonus: int) -> None:
        ctx, w, pid = s.ctx, s.w, s.pid
        spec = s.spec
        label = getattr(spec, "label", None)
        pool = getattr(spec, "pool", None) or "telo"
        what = " ".join(x for x in (label, f"({POOL_CS.get(pool, pool)})") if x)
        self.table.say(_("  {name} rolls {what}: {n}d6 {bonus}").format(name=name_of(w, pid), what=what, n=n,
                                                                          bonus=f"{bonus:+d}"))
        scenario = self.loaded.scenario
        extra = what_if_lines(scenario, s, n, bonus, so_far=self.so_far, group=self.so_far_group)
        for line in odds_lines(scenario, s, n, bonus) + extra:
            self.table.say("    " + line)

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
        fed, answer = self._fed("answer")
        if fed:
            answer = dataclasses.replace(answer) if answer is not None else None   # the engine marks it
        elif self._oracle is not None:
            rnd = self.seen.ctx.round.number if self.seen else 1
            answer = self._oracle.answer(tuple(choices.path), who, vs, rnd)
            self._record("answer", dataclasses.replace(answer) if answer is not None else None, answer is not None)
        else:
            before = self.table.read
            if optional:
                answer = None if again else self.offers.offer_optional(who, vs)
            else:
                answer = self.offers.offer(who, vs, others=not again)
            self.offered = None
            self._record("answer", dataclasses.replace(answer) if answer is not None else None,
                         self.table.read != before)
        self.answers.append(answer)
        if answer is not None:
            rnd = self.seen.ctx.round.number if self.seen else 1
            self.decided.append((tuple(choices.path), who, vs, answer, rnd))
            self.entered += 1
        return answer


def _same(a: Any, b: Any) -> bool:
    """Whether two entries' values are the same answer: for answers only what was chosen counts
    (not where the engine filed it), and a Jizva by its name and points."""
    if isinstance(a, Answer) and isinstance(b, Answer):
        def key(x: Answer) -> tuple:
            j = x.jizva or {}
            return (x.exhaust, tuple(x.exhaust_for) if x.exhaust_for is not None else None, x.deny, x.sacrifice,
                    (j.get("name"), j.get("gain")) if x.jizva else None)
        return key(a) == key(b)
    return a == b


def _entry_text(entry: Entry) -> str:
    """An entry as the undo/redo note names it: the dice, the total, or the answer's kind."""
    v = entry.value
    if entry.kind == "roll":
        return " ".join(map(str, v)) if isinstance(v, list) else str(v) if v is not None else _("a roll by drd")
    if v is None:
        return _("no")
    if v.jizva:
        return _("exhaust and take a Jizva")
    if v.sacrifice:
        return _("exhaust and sacrifice an item")
    if v.exhaust_for:
        return _("exhaust for others")
    if v.exhaust:
        return _("exhaust")
    return _("deny the gain") if v.deny else _("accept")


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


