"""The sides of a contest and its pairs: the roll order (R-ORDER), who wins a pair (R-CONT), a tie's
reroll, and the pair's record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import events as ev
from ..errors import DocPath
from ..scenario.models import ActionSpec
from .actions import Prepared, Roll, bonus_for, make_roll
from .context import Ctx, StepRecord
from .state import Working



@dataclass
class Side:
    """One participant's action or counter in the contest."""

    pid: str
    spec: ActionSpec
    path: DocPath
    prep: Prepared
    kind: str = "action"                 # action | harm | protect
    protects: list[str] = field(default_factory=list)
    index: int = -1


@dataclass
class Outcome:
    """What the pairs decided so far about the action and its targets."""

    targets: list[str]
    threatened: set[str]
    stopped_by: str | None = None
    shielded: set[str] = field(default_factory=set)
    settled: set[str] = field(default_factory=set)     # hit, or exhausted for
    reached: list[str] = field(default_factory=list)
    softened_for: set[str] = field(default_factory=set)
    actor_denied: bool = False
    actor_exhausted_vs: set[str] = field(default_factory=set)
    interrupter_answers: dict[str, str] = field(default_factory=dict)
    consumed: set[tuple[str, str]] = field(default_factory=set)
    doomed: list[str] = field(default_factory=list)    # counter-actors whose pair is a sure loss
    covered: set[str] = field(default_factory=set)     # losers someone else exhausted for (CS-FOR-2)
    spared: set[str] = field(default_factory=set)      # named in an effect's `to`, exhausted against it




def roll_sides(ctx: Ctx, w: Working, rec: StepRecord, sides: list[Any], heading: str | None = None) -> None:
    """Rolls every side (anything with pid, spec, path, prep) and records `rolls` and `order` (R-ORDER)."""
    for s in sides:
        s.prep.roll = make_roll(ctx, w, s.pid, s.spec, s.path, total=s.spec.roll, dice=s.spec.dice,
                                presne=s.prep.count("presne"), prep=s.prep)
        rec.data["rolls"][s.pid] = s.prep.roll.as_result()
    order = sorted(range(len(sides)), key=lambda i: (-sides[i].prep.roll.total, i))
    rec.data["order"] = [sides[i].pid for i in order]
    rec.event("R-ORDER", "order", heading=heading if heading is not None else ev.phrase("order.heading"),
              rolls=ev.joined(ev.phrase("order.roll", name=ev.who(sides[i].pid), total=sides[i].prep.roll.total)
                              for i in order))


def pair_winner(ctx: Ctx, w: Working, rec: StepRecord, act: Any, c: Any, *, rule: str = "R-CONT",
                actor_word: str | None = None) -> Any:
    """R-CONT: which of the pair wins (`act` is the side the tie rule favours as the actor); logged
    and recorded in `pairs` under `rule`. Sides are anything with `pid`, `spec`, `path` and a rolled `prep`."""
    ra, rc = act.prep.roll.total, c.prep.roll.total
    na, nc = ev.who(act.pid), ev.who(c.pid)
    tie = ctx.param("tie")
    word = actor_word if actor_word is not None else ev.phrase("the_actor")
    rerolls: list[dict[str, Any]] = []
    decided = ctx.hooks.pair_winner(ctx, w, act, c, ra, rc)
    if decided is not None:
        side, plugin, overruled = decided
        winner, loser = (act, c) if side == "actor" else (c, act)
        ctx.hooks.acted.add(plugin)
        for other, answer in overruled:
            rec.event(other, "pair.overruled", plugin=other, who=ev.who(act.pid if answer == "actor" else c.pid),
                      first=plugin)
        rec.event("R-CONT", "pair.decided", winner=ev.who(winner.pid), loser=ev.who(loser.pid), ra=ra, rc=rc,
                  source=ctx.hooks.title(plugin))
        record_pair(rec, act.pid, c.pid, winner.pid, (ra, rc), rerolls, rule, decided_by=plugin)
        return winner
    while ra == rc and tie == "reroll" and len(rerolls) < 20:
        xa, xc = reroll(ctx, w, act), reroll(ctx, w, c)
        ra, rc = xa.total, xc.total
        rerolls.append({"actor": xa.as_result(), "counter": xc.as_result()})
        rec.event("R-CONT", "pair.tie_reroll", a=na, c=nc, dice=ctx.dice.name, shown_a=_shown(xa), ra=ra,
                  shown_c=_shown(xc), rc=rc)
    if ra > rc or (ra == rc and tie != "counter"):
        why = (ev.phrase("pair.greater", a=ra, b=rc) if ra > rc else
               ev.phrase("pair.tie", ra=ra, rc=rc, who=word, tie=ev.phrase("tie." + tie)))
        rec.event("R-CONT", "pair.wins", winner=na, loser=nc, why=why)
        record_pair(rec, act.pid, c.pid, act.pid, (ra, rc), rerolls, rule)
        return act
    why = (ev.phrase("pair.greater", a=rc, b=ra) if rc > ra else
           ev.phrase("pair.tie", ra=ra, rc=rc, who=ev.phrase("the_counter_actor"), tie=ev.phrase("tie.counter")))
    rec.event("R-CONT", "pair.wins", winner=nc, loser=na, why=why)
    record_pair(rec, act.pid, c.pid, c.pid, (ra, rc), rerolls, rule)
    return c


def _shown(r: Roll) -> str:
    return f"{r.dice}{r.bonus:+d}" if r.dice is not None and r.bonus else str(r.dice if r.dice is not None else r.total)


def reroll(ctx: Ctx, w: Working, side: Any) -> Roll:
    """R-CONT `tie: reroll`: the side rolls 2k6 again plus the same bonus as a seeded roll of its
    action (R-ROLL-1: profession level or charakteristika, R-ROLL-3: přesně), also when the file
    gave its first roll as a total — the bonus comes from the participant, not from the total."""
    keep_best = ctx.param("presne") == "keep-best-2-of-3"
    presne = side.prep.count("presne")
    n = 2 + (presne if keep_best else 0)
    values = ctx.dice.roll(n, side.pid, "reroll")
    if isinstance(values, int):  # a total typed at the table stands as it is (drd play)
        return Roll(values, None, None, ctx.dice.name)
    bonus = bonus_for(ctx, w.peek(side.pid), side.spec, side.path, needed=True)
    kept = sorted(values, reverse=True)[:2] if keep_best else values
    mods = [("presne", presne)] if presne and not keep_best else []
    mods += [(plugin, amount) for plugin, amount, _note in ctx.hooks.roll_modifiers(ctx, w, w.peek(side.pid), side.prep)]
    return Roll(sum(kept) + bonus + sum(a for _s, a in mods), list(values), bonus, ctx.dice.name, mods)


def record_pair(rec: StepRecord, actor: str, counter: str, winner: str, totals: tuple[int, int],
                rerolls: list[dict[str, Any]], rule: str, decided_by: str | None = None) -> None:
    """Appends one resolved pair to the step's `pairs` (SCENARIO-FORMAT §7 extension), in resolution
    order: `totals` are the compared totals after any reroll, `tie` says the tie rule decided; a
    pair that rolled again lists each reroll (`{actor: roll, counter: roll}`) under `rerolls`."""
    entry = {"actor": actor, "counter": counter, "winner": winner, "totals": [totals[0], totals[1]],
             "tie": totals[0] == totals[1], "reroll": bool(rerolls), "rule": rule}
    if rerolls:
        entry["rerolls"] = rerolls
    if decided_by:
        entry["decided_by"] = decided_by
    rec.data.setdefault("pairs", []).append(entry)
