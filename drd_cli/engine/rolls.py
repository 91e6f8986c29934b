"""Rolling (R-ROLL): the roll's bonus, dice and modifiers, and what a prepared action carries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import DocPath, Message, ScenarioError
from ..i18n import N_
from . import events as ev
from .context import Ctx
from .state import PState, Working


POOL_CS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba", "suroviny": "Suroviny"}
SUROVINY = "suroviny"                 # crafting ingredients: not a pool (R-ABIL-ACT, docs/rules.md)


def pool_cs(pool: str | None) -> str:
    return POOL_CS.get(pool or "telo", pool or "telo")


def amount_cs(amount: int, pool: str | None) -> Message | str:
    """`3 Tělo`, `1 Surovina`, `5 Surovin`: an amount of a pool, or of Suroviny, for a message
    (Suroviny worded when it is shown; the msgids are extracted from drd_cli/wording.py's `_amount`)."""
    if pool == SUROVINY:
        return Message.plural("{n} Surovina", "{n} Suroviny", amount, n=amount)
    return f"{amount} {pool_cs(pool)}"


@dataclass
class Roll:
    total: int
    dice: list[int] | None
    bonus: int | None
    source: str
    # Everything added to the dice besides `bonus` (SCENARIO-FORMAT §7): (source, amount), where
    # source is `presne`, or the id of the plugin that gave it.
    modifiers: list[tuple[str, int]] = field(default_factory=list)

    def as_result(self) -> dict[str, Any]:
        return {"total": self.total, "dice": self.dice, "bonus": self.bonus, "source": self.source,
                "modifiers": [{"source": s, "amount": a} for s, a in self.modifiers]}


@dataclass
class Prepared:
    """An action after its manoeuvres were checked and paid: what later steps need to know."""

    actor: str
    spec: Any
    path: DocPath
    pool: str                         # the action's type (telo/duse/vliv)
    threat_pool: str                  # what its targets pay exhaustion from
    manoeuvres: list[str] = field(default_factory=list)
    roll: Roll | None = None
    targets: list[str] = field(default_factory=list)
    kind: str = "action"              # action | harm | protect | test | race | challenge (views)
    source: str | None = None         # initiative | delayed | obrana, where known
    protects: list[str] = field(default_factory=list)
    means: str | None = None          # where the spec's own `means` does not say it (a výzva's)

    @property
    def rolled(self) -> Roll:
        """Its roll, once rolled (`make_roll`; every step rolls its actions before comparing them)."""
        if self.roll is None:
            raise RuntimeError(f"the action of {self.actor} is compared before it was rolled")
        return self.roll

    def count(self, name: str) -> int:
        return self.manoeuvres.count(name)

    @property
    def lstive(self) -> bool:
        return "lstive" in self.manoeuvres

    @property
    def mocne(self) -> int:
        return self.count("mocne")


# --------------------------------------------------------------------------- rolling

def _check_total(ctx: Ctx, p: PState, spec: Any, path: DocPath, total: int, presne: int, pid: str) -> None:
    """A total the file gives must be one 2k6 plus the roll's bonus and přesně can make (R-ROLL-2),
    unless the action says `roll_beyond_dice: true` (docs/scenario-format.md §4.1)."""
    if getattr(spec, "roll_beyond_dice", False):
        return
    try:
        bonus = bonus_for(ctx, p, spec, path, needed=False)
    except ScenarioError:
        return                       # the bonus itself is wrong: the roll does not need it
    extra = presne if ctx.param("presne") != "keep-best-2-of-3" else 0
    low = 2 + bonus + extra
    high: int | None = 12 + bonus + extra
    if p.is_hero and getattr(spec, "bonus_from", None) is None:
        high = 12 + max(p.levels.values(), default=0) + extra    # not named: any of his levels
    elif not p.is_hero and p.charakteristika is None:
        high = None                     # a creature whose charakteristika the file does not give
    if total < low or (high is not None and total > high):
        raise ScenarioError(Message(N_("{name}: roll {total} cannot come from 2k6 plus this roll's bonus ({low} to {high}); "
                                       "give the dice, or write `roll_beyond_dice: true` beside the roll to keep it"),
                                name=p.name, total=total, low=low, high=high if high is not None else "…"),
                            path=path + (("roll",) if getattr(spec, "roll", None) == total else ("rolls", pid)),
                            rule="R-ROLL-2")


def bonus_for(ctx: Ctx, p: PState, spec: Any, path: DocPath, needed: bool) -> int:
    """R-ROLL-1: a hero's profession level named by `bonus_from`; a creature's charakteristika."""
    src = getattr(spec, "bonus_from", None)
    if p.is_hero:
        if src is None:
            if needed:
                raise ScenarioError(
                    Message(N_("{name} is a hero rolling dice: say which profession adds to the roll with "
                               "`bonus_from:` (or `bonus_from: none`)"), name=p.name), path=path, rule="R-ROLL-1")
            return 0
        if src == "none":
            return 0
        if src == "charakteristika":
            raise ScenarioError(Message(N_("{name} is a hero: bonus_from names a profession, not charakteristika"),
                name=p.name),
                                path=path + ("bonus_from",), rule="R-ROLL-1")
        if src not in p.levels:
            raise ScenarioError(Message(N_("{name} has no profession {profession} (has: {has})"),
                name=p.name, profession=repr(src), has=", ".join(p.levels) or Message(N_("none"))),
                                path=path + ("bonus_from",), rule="R-ROLL-1")
        return p.levels[src]
    if src == "none":
        return 0
    if p.charakteristika is None:
        return 0
    if src == "charakteristika" or p.covers is None:
        return p.charakteristika
    if src is not None:
        raise ScenarioError(Message(N_("{name} is a creature: bonus_from is charakteristika or none"), name=p.name),
                            path=path + ("bonus_from",), rule="R-ROLL-1")
    covered = {getattr(spec, "label", None), getattr(spec, "means", None)} & set(p.covers)
    return p.charakteristika if covered else 0


def make_roll(ctx: Ctx, w: Working, pid: str, spec: Any, path: DocPath, *, total: int | None = None,
              dice: list[int] | None = None, presne: int = 0, purpose: str = "action",
              prep: Prepared | None = None) -> Roll:
    """R-ROLL-2/3: a given total, given dice, or dice from the dice source.

    Rolled dice get the bonus (R-ROLL-1), přesně (R-ROLL-3) and the plugins' roll modifiers
    (`drd_roll_modifier`, for `prep`); a total the file gives is final (R-ROLL-2)."""
    see = getattr(ctx.dice, "see", None)
    if see is not None:  # an interactive source (drd play) shows who rolls what for before asking
        see(ctx, w, pid, spec, path, presne=presne, total=total, dice=dice)
    if total is not None and dice is None:
        _check_total(ctx, w.peek(pid), spec, path, total, presne, pid)
        return Roll(total, None, None, "given")
    keep_best = ctx.param("presne") == "keep-best-2-of-3"
    n = 2 + (presne if keep_best else 0)
    p = w.peek(pid)
    if dice is not None:
        if len(dice) != n:
            raise ScenarioError(Message(N_("{name} rolls {n} dice here, the file gives {given}"),
                name=p.name, n=n, given=len(dice)),
                                path=path + ("dice",), rule="R-ROLL-2")
        for i, d in enumerate(dice):
            if not 1 <= d <= 6:
                raise ScenarioError(Message(N_("a die shows 1 to 6, not {value}"), value=d), path=path + ("dice", i),
                                    rule="R-ROLL-2")
        source, values = "given", list(dice)
    else:
        values, source = ctx.dice.roll(n, pid, purpose), ctx.dice.name
        if isinstance(values, int):  # a total typed at the table stands like a written `roll`
            return Roll(values, None, None, source)
    bonus = bonus_for(ctx, p, spec, path, needed=True)
    kept = sorted(values, reverse=True)[:2] if keep_best else values
    modifiers: list[tuple[str, int]] = []
    if presne and not keep_best:
        modifiers.append(("presne", presne))
    rec = getattr(ctx, "record", None)
    for plugin, amount, note in ctx.hooks.roll_modifiers(ctx, w, p, prep):
        modifiers.append((plugin, amount))
        ctx.hooks.acted.add(plugin)
        if rec is not None:
            rec.event(plugin, "roll.modifier", name=ev.who(pid), amount=amount, source=plugin, tail=note or "")
    added = bonus + sum(a for _s, a in modifiers)
    if total is not None and total != sum(kept) + added:
        # SCENARIO-FORMAT §4.1: a total and dice that disagree are a contradiction, not a choice.
        raise ScenarioError(Message(N_("{name}: roll {total} does not match the dice {dice} plus {bonus} (= {sum}); give "
                                       "one of them, or make them agree"),
                                name=p.name, total=total, dice="+".join(map(str, values)), bonus=added,
                                sum=sum(kept) + added),
                            path=path + (("roll",) if getattr(spec, "roll", None) == total else ("rolls", pid)),
                            rule="R-ROLL-2")
    return Roll(sum(kept) + added, values, bonus, source, modifiers)
