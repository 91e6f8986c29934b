"""The session loop of `drd play` (and `drd resolve --choose ask`).

The engine runs live: every roll the file does not give is asked for (dice typed, a total, or
Enter to let drd roll from the seed) and every decision the file's `choices` leave open is
offered (`offers.Offers`) with its exact price (`previews.Previewer`). Everything entered is kept
in order, so the replay file (`replay.replay_text`) can be written at any moment.
"""

from __future__ import annotations

from typing import Any, Callable

from ..dice import AskedDice, QueuedDice, SeededDice
from ..engine.actions import POOL_CS, bonus_for
from ..engine.context import Answer
from ..i18n import N_, _
from .offers import Offers
from .previews import Previewer, Seen, name_of, odds_lines, what_if_lines
from .reading import Table, parse_roll
from .replay import place_of, replay_text

# Step kinds as the play header names them (the catalogs give zkouška, střet, závod, výzva, ukrývání).
STEP_KINDS = {"test": N_("test"), "contest": N_("contest"), "race": N_("race"), "challenge": N_("challenge"),
              "hide": N_("hiding")}


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
        self.seen: Seen | None = None
        self.previewer = Previewer(resolve)
        self.offers = Offers(self)
        self._shown_step = None
        self.entered = 0

    # ----------------------------------------------------------------- running

    def run(self) -> dict:
        """The live resolution; returns the result contract."""
        return self._resolve(dice=self.dice, choose=self)

    def replay_text(self, text: str, rules: dict | None = None) -> str:
        """The scenario `text` with everything entered so far filled in (see `replay.replay_text`)."""
        return replay_text(self.loaded.scenario, text, self.places, self.dice.calls, self.decided, self.seed, rules)

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
        self.table.say(_("\n── Step {id} (round {round}, {kind}) ──").format(id=rec.data["id"], round=rec.data["round"],
                                                                         kind=kind))

    def _ask_roll(self, n: int, who: str, purpose: str) -> Any:
        s = self.seen
        fresh = s is not None and purpose == "action" and s.pid == who and s.total is None and s.dice is None
        if len(self.queue) >= n:
            got, self.queue = self.queue[:n], self.queue[n:]
            self.places.append(None)
            return got
        place = place_of(self.loaded.scenario, s.path, who) if fresh else None
        if fresh:
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

    def _roll_header(self, s: Seen, n: int, bonus: int) -> None:
        ctx, w, pid = s.ctx, s.w, s.pid
        spec = s.spec
        label = getattr(spec, "label", None)
        pool = getattr(spec, "pool", None) or "telo"
        what = " ".join(x for x in (label, f"({POOL_CS.get(pool, pool)})") if x)
        self.table.say(_("  {name} rolls {what}: {n}d6 {bonus}").format(name=name_of(w, pid), what=what, n=n,
                                                                          bonus=f"{bonus:+d}"))
        scenario = self.loaded.scenario
        for line in odds_lines(scenario, s, n, bonus) + what_if_lines(scenario, s, n, bonus):
            self.table.say("    " + line)

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
            answer = None if again else self.offers.offer_optional(who, vs)
        else:
            answer = self.offers.offer(who, vs, others=not again)
        self.answers.append(answer)
        if answer is not None:
            rnd = self.seen.ctx.round.number if self.seen else 1
            self.decided.append((tuple(choices.path), who, vs, answer, rnd))
            self.entered += 1
        return answer



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


