"""Střet (contest): R-CONT, R-ORDER, CS-MULTI-3..5, CS-FOR-1..2, CS-SEQ-1, CS-DUR-2.

Pairs (the action against each counter) are resolved from the highest roll down; each pair's
exhaustions, denials and effects apply at once, so later pairs see the new Ohrožení. After the
pairs, the winner's roll meets 9 for targets that did not react and for an obstacle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..awareness import RULE as AWARE, sleep_condition
from ..i18n import _
from . import events as ev
from ..scenario.models import ActionSpec, ContestSpec, CounterSpec, as_list, effects_of, norm_pool
from .actions import Prepared, Roll, apply_effects, bonus_for, exhaust, has_effect, make_roll, prepare
from .context import Answer, Choices, Ctx, StepRecord, enable_hint, violation
from .initiative import counter_source, main_action
from .state import Working


def action_targets(ctx: Ctx, w: Working, spec: ActionSpec, actor: str, path: tuple, *,
                   counter: bool = False) -> list[str]:
    """Who the action is aimed at: `targets`, or everyone in `zone` for a plošná action (CS-RANGE)."""
    targets = [t for t in as_list(spec.targets)]
    names = [m if isinstance(m, str) else m.name for m in spec.manoeuvres]
    rozsahle = any(n in ("rozsahle", "rozsáhle") for n in names)
    if spec.area:
        via = spec.area_via or ("rozsahle" if rozsahle else None)
        if via is None:
            raise violation(_("a plošná action needs rozsáhle, or `area_via: environment` or `skill`"), "CS-RANGE-2",
                            path + ("area",))
        if via == "rozsahle" and not rozsahle:
            raise violation(_("area_via: rozsahle needs the manoeuvre rozsáhle"), "CS-RANGE-2", path + ("area_via",))
        if spec.zone is not None:
            members = [pid for pid in w.in_conflict() if w.peek(pid).zone == spec.zone and pid != actor]
            if targets and sorted(targets) != sorted(members):
                raise violation(_("a plošná action hits everyone in zone {zone} ({members}), not a chosen few").format(
                    zone=repr(spec.zone), members=", ".join(members)), "CS-RANGE-2", path + ("targets",))
            targets = members
    elif spec.zone is not None and not targets:
        raise violation(_("`zone` makes an action plošná: add `area: true`"), "CS-RANGE-2", path + ("zone",))
    if len(targets) > 1 and not (rozsahle or spec.area):
        raise violation(_("{name}'s action has {n} targets: more than one needs rozsáhle or a plošná action").format(
            name=w.peek(actor).name, n=len(targets)), "CS-RANGE-1", path + ("targets",))
    for i, t in enumerate(targets):
        if t == actor and not spec.area:
            raise violation(_("an action does not target its own actor (use self_effect)"), "R-THR",
                            path + ("targets", i))
    return targets


def _named_in_to(effect: Any) -> set[str]:
    """Participant ids a harming part of an effect sends itself to (`to`, without actor/payer)."""
    out: set[str] = set()
    for eff in effects_of(effect):
        if eff.to is not None and not _only_helps(eff):
            out.update(t for t in as_list(eff.to) if t not in ("actor", "payer"))
    return out


def _only_helps(eff: Any) -> bool:
    """R-THR: an effect item that only helps its recipients (lower Ohrožení, Výhody gained, a
    condition removed) and harms nothing (no Ohrožení up, Výhody lost, Jizva, condition imposed,
    item lost, ability disabled). A note or suspicion alone says nothing, so it does not count as help."""
    harms = ((eff.ohrozeni or 0) > 0 or (eff.vyhody or 0) < 0 or eff.jizva is not None
             or eff.condition is not None or bool(as_list(eff.lose)) or bool(as_list(eff.disable)))
    helps = (eff.ohrozeni or 0) < 0 or (eff.vyhody or 0) > 0 or bool(as_list(eff.remove_condition))
    return helps and not harms


def threatened_targets(effect: Any, targets: list[str], actor: str) -> set[str]:
    """R-THR: the targets an action's `effect` threatens. A target is threatened unless every part
    of the effect that would land on it only helps; an action that declares no effect threatens all
    its targets (the scenario did not say it helps)."""
    items = effects_of(effect)
    if not items:
        return set(targets)
    out: set[str] = set()
    for eff in items:
        if _only_helps(eff):
            continue
        if eff.to is None:
            out.update(targets)
        else:
            out.update(t for t in as_list(eff.to) if t in targets and t != actor)
    return out


@dataclass
class Side:
    """One participant's action or counter in the contest."""

    pid: str
    spec: ActionSpec
    path: tuple
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


def resolve_contest(ctx: Ctx, w: Working, rec: StepRecord, spec: ContestSpec, choices: Choices,
                    path: tuple) -> None:
    """Resolves one contest step into `rec` (the state changes go to `w`)."""
    a = spec.action
    apath = path + ("action",)
    if a.actor is None:
        raise violation(_("a contest's action needs an `actor`"), "R-CONT", apath)
    actor = a.actor
    rec.data.setdefault("pairs", [])
    if any(c.area for c in spec.counters):
        # CS-OPT-AREA (plugin) takes every plošná counter when enabled; without it, a plošná counter
        # that only protects targets of the action is a helping counter of CS-OPT-AID (the book
        # lets it be "rozsáhlá or plošná"), resolved here by the core.
        if ctx.profile.is_on("plosna-protiakce"):
            if ctx.hooks.resolve_contest(ctx, w, rec, spec, choices, path):
                return
        else:
            for i, c in enumerate(spec.counters):
                if c.area and (c.kind != "protect" or not ctx.profile.is_on("rozsahla-protiakce")):
                    helping = c.kind == "protect"
                    raise violation(
                        _("a plošná counter-action that protects needs the optional rule rozsahla-protiakce "
                          "(or plosna-protiakce)") if helping else
                        _("a counter-action that is plošná by nature needs the optional rule plosna-protiakce"),
                        "CS-OPT-AID" if helping else "CS-OPT-AREA", path + ("counters", i, "area"),
                        hint=enable_hint("rozsahla-protiakce" if helping else "plosna-protiakce"))
    targets = action_targets(ctx, w, a, actor, apath)
    threatened = threatened_targets(a.effect, targets, actor) | set(ctx.hooks.indirect_threats(ctx, w, a, apath))
    main_action(ctx, w, rec, actor, a.from_, apath)
    sides = [Side(actor, a, apath, prepare(ctx, w, rec, actor, a, apath, targets=targets))]
    long_state = w.longs.get(a.long) if a.long else None
    seen = {actor}
    for i, c in enumerate(spec.counters):
        sides.append(_prepare_counter(ctx, w, rec, c, i, path, targets, threatened, seen, long_state, sides[0].prep))
    roll_sides(ctx, w, rec, sides)
    out = Outcome(targets, threatened)
    # CS-FOR-2: one exhaustion covers several losers of the action, a counter-actor whose own pair
    # comes later included. Pairs go from the highest roll down, so when a counter loses, every
    # pair still to come is a loss too — except a tie that a reroll may still decide.
    ra = sides[0].prep.roll.total
    out.doomed = [s.pid for s in sides[1:] if s.prep.roll.total < ra
                  or (s.prep.roll.total == ra and ctx.param("tie") == "actor")]
    participants = [s.pid for s in sides]
    refuse_outsiders(w, choices, participants, targets, followup=a.followup is not None)
    act = sides[0]
    pairs = sorted(sides[1:], key=lambda s: (-max(act.prep.roll.total, s.prep.roll.total),
                                             -min(act.prep.roll.total, s.prep.roll.total), s.index))
    rec.action(actor)
    for s in sides[1:]:
        rec.action(s.pid)
    for c in pairs:
        winner = pair_winner(ctx, w, rec, act, c)
        if winner is c:
            _counter_wins(ctx, w, rec, act, c, out, choices, participants)
        else:
            _actor_wins(ctx, w, rec, act, c, out, choices, participants)
    obstacle_ok, obstacle = True, None
    if out.stopped_by is None:
        obstacle = _test_within_contest(ctx, w, rec, act, out, choices, participants)
        obstacle_ok = obstacle != "failed"
    # §4.3: an action that reached a target is a success even when it then took its obstacle's
    # consequence; without targets the obstacle is its purpose.
    success = out.stopped_by is None and (bool(out.reached) if targets else obstacle_ok)
    rec.action(actor)["success"] = success
    if obstacle is not None:
        rec.action(actor)["obstacle"] = obstacle
    if success and has_effect(a.self_effect):
        if out.actor_denied:
            rec.event("CS-MULTI-5", "contest.gain_denied", name=ev.who(actor))
        else:
            apply_effects(ctx, w, rec, a.self_effect, [actor], actor=actor, lstive=act.prep.lstive,
                          source=ev.phrase("src.own_gain"), rule="CS-MULTI-5")
    if a.long:
        _long_status(ctx, w, rec, act, out, obstacle_ok, pairs)
    for c in pairs:
        if c.kind == "harm" or c.kind == "protect":
            _counter_obstacle(ctx, w, rec, c, choices)
    if out.stopped_by is None and a.followup is not None:
        affects = [t for t in out.reached] if targets else None
        ctx.hooks.run_followup(ctx, w, rec, act.pid, a.followup, affects, choices, apath + ("followup",))


def check_counter_actor(w: Working, c: CounterSpec, cpath: tuple, acting: Any) -> None:
    """R-CONT: a counter names its actor, and nobody acts twice in one contest (`acting`: who already does)."""
    if c.actor is None:
        raise violation(_("a counter-action needs an `actor`"), "R-CONT", cpath)
    if c.actor in acting:
        raise violation(_("{name} already acts in this contest").format(name=w.peek(c.actor).name), "R-CONT",
                        cpath + ("actor",))


def check_awake(ctx: Ctx, w: Working, rec: StepRecord, c: CounterSpec, cpath: tuple, action: Any,
                threatened: Any) -> None:
    """R-AWARE: a participant holding a sleep condition (`spí`, drd_cli.awareness) is not aware and
    cannot react to `action` (a Prepared) — no counter, no action from obrana — unless a plugin
    lets it react as if awake (`drd_may_react_asleep`: Jedno oko otevřené). `threatened`: the ids
    the action threatens (R-THR). Exit 1 at the counter's actor otherwise."""
    if sleep_condition(w.peek(c.actor).conditions) is None:
        return
    from . import viewbuild

    declared = viewbuild.bare_action(c.actor, c, norm_pool(c.pool) or "telo",
                                     "protect" if c.kind == "protect" else "harm")
    check_awake_reaction(
        ctx, w, rec, c.actor, declared, action, threatened, cpath + ("actor",),
        _("{name} is asleep (condition {condition}): not aware, it cannot react to the action (no counter-action, "
          "no action from obrana)"),
        _("leave the counter out (someone else may protect it or exhaust for it), remove the condition with an "
          "earlier effect (`remove_condition`), or activate an ability that lets it react (`activate: "
          "[jedno-oko-otevrene]`)"))


def check_awake_reaction(ctx: Ctx, w: Working, rec: StepRecord, pid: str, declared: Any, action: Any,
                         threatened: Any, path: tuple, text: str, hint: str, **fields: Any) -> None:
    """R-AWARE for any reaction of `pid` — a counter, undergoing a výzva: nothing when awake; asleep,
    allowed only when a plugin lets him react as if awake (`drd_may_react_asleep`, shown `declared`,
    his reaction as declared, and `action`, what he reacts to; None: nothing to ask about), else
    exit 1 at `path`. `text` is the refusal with `{name}`, `{condition}` and any `fields`; `hint` its hint."""
    p = w.peek(pid)
    cond = sleep_condition(p.conditions)
    if cond is None:
        return
    allowed, plugin, note = (ctx.hooks.may_react_asleep(ctx, w, pid, action, sorted(threatened), declared)
                             if action is not None else (False, None, ""))
    if allowed:
        ctx.hooks.acted.add(plugin)
        rec.event(AWARE, "aware.asleep_reacts", name=ev.who(pid), condition=cond, source=ctx.hooks.title(plugin),
                  tail=note or "")
        return
    raise violation(text.format(name=p.name, condition=repr(cond), **fields) + (f" — {note}" if note else ""), AWARE, path,
                    hint=hint)


def _refuse_sleeper(w: Working, who: str, path: tuple) -> None:
    """R-AWARE: a sleeper does not react, so it cannot exhaust (nor deny a gain) in a contest."""
    cond = sleep_condition(w.peek(who).conditions)
    if cond is not None:
        raise violation(_("{name} is asleep (condition {condition}): it did not react, so it cannot exhaust; "
                          "someone in the contest may exhaust for it").format(name=w.peek(who).name,
                                                                             condition=repr(cond)),
                        AWARE, path)


def _prepare_counter(ctx: Ctx, w: Working, rec: StepRecord, c: CounterSpec, i: int, path: tuple,
                     targets: list[str], threatened: set[str], seen: set[str], long_state: dict | None,
                     main: Prepared | None = None) -> Side:
    cpath = path + ("counters", i)
    check_counter_actor(w, c, cpath, seen)
    check_awake(ctx, w, rec, c, cpath, main, threatened)
    seen.add(c.actor)
    kind = "protect" if c.kind == "protect" else "harm"
    protects = list(c.protects or [c.actor]) if kind == "protect" else []
    if c.protects and kind != "protect":
        raise violation(_("`protects` belongs to a counter of kind protect"), "CS-MULTI-4", cpath + ("protects",))
    if c.area:
        # CS-OPT-AID: a plošná protecting counter shields those in its area the action threatens,
        # and may pull nobody new into the contest (that is CS-OPT-AREA's plošná counter).
        members = action_targets(ctx, w, c, c.actor, cpath, counter=True)
        if c.zone is not None and w.peek(c.actor).zone == c.zone and c.actor not in members:
            members = [c.actor] + members
        new = [m for m in members if m not in threatened and m not in targets and m != c.actor]
        if new:
            raise violation(_("{name}'s plošná counter reaches {others}, who are not in the contest: pulling new "
                              "participants in needs the optional rule plosna-protiakce").format(
                                name=w.peek(c.actor).name, others=", ".join(w.peek(m).name for m in new)),
                            "CS-OPT-AID", cpath + ("area",), hint=enable_hint("plosna-protiakce", cli=False))
        if not c.protects:
            protects = [m for m in members if m in threatened]
    for j, pid in enumerate(protects):
        if pid not in threatened:
            raise violation(_("{name} protects {other}, whom the action does not threaten").format(
                name=w.peek(c.actor).name, other=w.peek(pid).name), "CS-MULTI-4", cpath + ("protects", j))
    names = [m if isinstance(m, str) else m.name for m in c.manoeuvres]
    wide = len(protects) > 1 or c.area or any(n in ("rozsahle", "rozsáhle") for n in names)
    if wide and not ctx.profile.is_on("rozsahla-protiakce"):
        raise violation(_("a counter-action that protects several (or is rozsáhlá) needs the optional rule "
                          "rozsahla-protiakce"), "CS-OPT-AID", cpath, hint=enable_hint("rozsahla-protiakce"))
    if wide and kind == "harm":
        raise violation(_("a rozsáhlá counter-action may only help several targets, not harm"), "CS-OPT-AID", cpath)
    from_obrana = c.from_ == "obrana" or (c.from_ is None and c.actor in ctx.round.used)
    # R-ABIL-DEF: an ability may let its holder react from defence to an action harming others.
    guard = None
    if from_obrana and c.actor not in threatened:
        harmed = [t for t in targets if t in threatened and t != c.actor]
        if harmed:
            from . import viewbuild

            declared = viewbuild.bare_action(c.actor, c, norm_pool(c.pool) or "telo",
                                             "protect" if c.kind == "protect" else "harm")
            guard = ctx.hooks.may_react(ctx, w, c.actor, main, harmed, declared) if main is not None else None
    if from_obrana and c.actor in targets and c.actor not in threatened and guard is None:
        raise violation(_("{name} is a target of an action that only helps it: it is not threatened, so it has no "
                          "right to react from defence (obrana)").format(name=w.peek(c.actor).name), "R-THR",
                        cpath + (("from",) if c.from_ else ()),
                        hint=_("a target it only helps may still counter with its unused (or delayed) initiative"))
    src = counter_source(ctx, w, rec, c.actor, c.from_, c.actor in threatened or guard is not None, cpath)
    if guard is not None and src == "obrana":
        ctx.hooks.acted.add(guard[0])
        rec.event("R-ABIL-DEF", "defence.for_others", name=ev.who(c.actor), source=ctx.hooks.title(guard[0]),
                  tail=guard[1] or "")
    if src == "obrana" and kind == "protect" and protects != [c.actor] and guard is None:
        raise violation(_("{name} acts from defence (obrana) and can protect only itself").format(
                            name=w.peek(c.actor).name),
                        "R-MAN-3", cpath + ("protects",))
    if long_state and c.actor in long_state.get("barred", []):
        rec.event("CS-DUR-2", "long.barred", name=ev.who(c.actor))
    prep = prepare(ctx, w, rec, c.actor, c, cpath, from_obrana=src == "obrana",
                   implied=("obrana",) if src == "obrana" else (), kind=kind)
    prep.protects = list(protects)
    return Side(c.actor, c, cpath, prep, kind, protects, i)


def roll_sides(ctx: Ctx, w: Working, rec: StepRecord, sides: list, heading: str | None = None) -> None:
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
    rerolls: list[dict] = []
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
                rerolls: list[dict], rule: str, decided_by: str | None = None) -> None:
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


def _answer(choices: Choices, who: str, vs: str) -> Answer:
    return choices.get(who, vs)


def pay_for(ctx: Ctx, w: Working, rec: StepRecord, payer: str, vs: Any, answer: Answer, at_stake: list[str],
            out: Outcome, participants: list[str], *, may_name: set[str], rule: str) -> list[str]:
    """One payer's exhaustion against `vs` for those of `answer.exhaust_for` still at stake."""
    wanted = answer.exhaust_for if answer.exhaust_for is not None else [payer]
    if payer not in participants and answer.explicit:
        _refuse_sleeper(w, payer, answer.path)
        if payer in out.targets:
            raise violation(_("{name} did not react, so it cannot exhaust for itself; someone in the contest may "
                              "exhaust for it").format(name=w.peek(payer).name), "CS-MULTI-4", answer.path)
        raise violation(_("{name} is not part of this contest and cannot exhaust in it").format(
                            name=w.peek(payer).name), "CS-FOR-1", answer.path)
    _check_named(w, payer, vs, answer, wanted, may_name)
    protected = [pid for pid in wanted if pid in at_stake and pid not in out.settled and pid not in out.shielded]
    if not protected:
        return []
    # CS-FOR-2 is exhausting for several; for exactly one other participant it is CS-FOR-1.
    if len(protected) > 1:
        rule = "CS-FOR-2"
    elif protected != [payer]:
        rule = "CS-FOR-1"
    entry = exhaust(ctx, w, rec, payer=payer, vs=vs.pid, pool=vs.prep.threat_pool, protected=protected,
                    answer=answer, winner=vs.prep, rule=rule)
    if entry is None:
        return []
    out.consumed.add((payer, vs.pid))
    return protected


def _check_named(w: Working, payer: str, vs: Any, answer: Answer, wanted: list[str], may_name: set[str]) -> None:
    """CS-FOR-1: one may exhaust only for someone the winner's action threatens."""
    for pid in wanted:
        if pid not in w:
            raise violation(_("unknown participant {id} in exhaust").format(id=repr(pid)), "CS-FOR-1", answer.path)
        if pid not in may_name and answer.explicit:
            raise violation(_("{name} cannot protect {other}: {winner}'s action does not threaten them").format(
                name=w.peek(payer).name, other=w.peek(pid).name, winner=w.peek(vs.pid).name), "CS-FOR-1",
                answer.path)


def others_exhaust(ctx: Ctx, w: Working, rec: StepRecord, vs: Any, out: Outcome, choices: Choices,
                   participants: list[str], protectable: list[str], *, may_name: set[str],
                   skip: set[str] | frozenset = frozenset(), named_from: list[str] | None = None) -> None:
    """CS-FOR-1/2: everyone in the contest (listing order, except `skip`) who answered
    `{exhaust: [ids]}` against the winner `vs` pays once for those it names among `protectable`.
    With `named_from`, only an answer naming one of those counts now (it may be meant for later)."""
    for payer in participants:
        if payer in skip:
            continue
        written = choices.peek(payer, vs.pid)
        if written is not None and (not written.exhaust or written.exhaust_for is None):
            continue   # not an answer for others: left for the payer's own decision (or logged unused)
        ans = choices.explicit(payer, vs.pid)
        if ans is None or not ans.exhaust or ans.exhaust_for is None or (payer, vs.pid) in out.consumed:
            continue
        # Checked before waiting for a later pair, so a wrong name is refused, never silently unused.
        _check_named(w, payer, vs, ans, ans.exhaust_for, may_name)
        if named_from is not None and not set(ans.exhaust_for) & set(named_from):
            continue
        got = pay_for(ctx, w, rec, payer, vs, ans, protectable, out, participants, may_name=may_name,
                      rule="CS-FOR-1")
        mark_exhausted(ctx, w, rec, out, got, vs, payer)


def _counter_wins(ctx: Ctx, w: Working, rec: StepRecord, act: Side, c: Side, out: Outcome, choices: Choices,
                  participants: list[str]) -> None:
    rec.action(c.pid)["success"] = True
    if c.kind == "harm":
        if out.stopped_by is None:
            out.stopped_by = c.pid
            rec.event("CS-MULTI-4", "contest.stopped", name=ev.who(c.pid), actor=ev.who(act.pid))
    else:
        newly = [p for p in c.protects if p not in out.shielded]
        out.shielded.update(c.protects)
        if newly:
            others = [p for p in newly if p != c.pid]
            # Reflexive wording: "Bořek se ochránil", never "Bořek ochránil Bořek".
            rec.event("CS-MULTI-4", "protected.self" if not others else
                      "protected.self_and" if c.pid in newly else "protected.others",
                      name=ev.who(c.pid), who=ev.joined(ev.who(p) for p in others))
    # The winner's consequence for the actor: the counter's effect (harm, or a protect that has one).
    loser_answer = _answer(choices, act.pid, c.pid)
    threatens_actor = act.pid in threatened_targets(c.spec.effect, [act.pid], c.pid) and has_effect(c.spec.effect)
    if has_effect(c.spec.effect) and not threatens_actor:
        # R-THR: a counter effect that only helps the actor lands with nothing to exhaust against.
        for t in apply_effects(ctx, w, rec, c.spec.effect, [act.pid], actor=c.pid, lstive=c.prep.lstive,
                               source=ev.phrase("src.victory", name=ev.who(c.pid)), rule="R-THR"):
            rec.affected(c.pid, t)
    exhausted = False
    if threatens_actor:
        payers = [act.pid] + [p for p in participants if p != act.pid]
        for payer in payers:
            if payer != act.pid and choices.peek(payer, c.pid, include_global=False) is None:
                bare = choices.peek(payer, c.pid)
                if bare is not None and act.pid not in (bare.exhaust_for or ()):
                    # §5: a bare answer that protects nobody this winner threatens is no decision
                    # about it: left unused (the log says it was ignored), never refused here.
                    continue
            ans = loser_answer if payer == act.pid else choices.explicit(payer, c.pid)
            if ans is None or not ans.exhaust or (payer, c.pid) in out.consumed:
                continue
            if payer != act.pid and ans.exhaust_for is None:
                continue
            got = pay_for(ctx, w, rec, payer, c, ans, [act.pid], out, participants, may_name={act.pid},
                          rule="R-EXH-2")
            if act.pid in got:
                exhausted = True
                out.actor_exhausted_vs.add(c.pid)
                break
        if exhausted:
            if has_effect(c.spec.softened):
                apply_effects(ctx, w, rec, c.spec.softened, [act.pid], actor=c.pid, payer=act.pid,
                              lstive=c.prep.lstive, source=ev.phrase("src.softened"), rule="R-EXH-2")
        else:
            landed = apply_effects(ctx, w, rec, c.spec.effect, [act.pid], actor=c.pid, lstive=c.prep.lstive,
                                   source=ev.phrase("src.victory", name=ev.who(c.pid)), rule="R-CONT")
            for t in landed:
                rec.affected(c.pid, t)
    deny = loser_answer.deny or (loser_answer.exhaust and not threatens_actor and loser_answer.explicit
                                 and loser_answer.exhaust_for is None)
    if has_effect(c.spec.self_effect):
        if deny:
            if exhaust(ctx, w, rec, payer=act.pid, vs=c.pid, pool=c.prep.threat_pool, protected=[],
                       answer=loser_answer, winner=c.prep, denied=c.pid, rule="CS-MULTI-5",
                       why=ev.phrase("why.denies_gain")) is not None:
                return
        apply_effects(ctx, w, rec, c.spec.self_effect, [c.pid], actor=c.pid, lstive=c.prep.lstive,
                      source=ev.phrase("src.own_gain"), rule="CS-MULTI-5")


def _actor_wins(ctx: Ctx, w: Working, rec: StepRecord, act: Side, c: Side, out: Outcome, choices: Choices,
                participants: list[str]) -> None:
    rec.action(c.pid)["success"] = False
    if out.stopped_by is not None:
        rec.event("CS-MULTI-4", "contest.already_stopped", name=ev.who(c.pid), actor=ev.who(act.pid))
        return
    at_stake = []
    if c.pid in out.targets and c.pid not in out.shielded and c.pid not in out.settled:
        if c.pid in out.threatened:
            at_stake.append(c.pid)
        else:
            # R-THR: an effect that only helps the loser lands with no decision to make (nothing to exhaust against).
            out.settled.add(c.pid)
            out.reached.append(c.pid)
            for t in apply_effects(ctx, w, rec, act.spec.effect, [c.pid], actor=act.pid, lstive=act.prep.lstive,
                                   spare=out.spared,
                                   source=ev.phrase("src.action", name=ev.who(act.pid)), rule="R-THR"):
                rec.affected(act.pid, t)
    for p in c.protects:
        if p != c.pid and p in out.targets and p not in out.shielded and p not in out.settled:
            at_stake.append(p)
    # R-THR / CS-IND-1: a counter-actor the action threatens without being its target (`threatens`)
    # whom a harming part of the effect names in `to`: losing the pair, it may exhaust against that
    # part for itself (SCENARIO-FORMAT §5 `exhaust`); it is then left out of that part's `to`.
    if (c.pid not in out.targets and c.pid in out.threatened and c.pid not in out.spared
            and c.pid in _named_in_to(act.spec.effect)):
        own = _answer(choices, c.pid, act.pid)
        if own.exhaust and own.exhaust_for in (None, [c.pid]) and exhaust(
                ctx, w, rec, payer=c.pid, vs=act.pid, pool=act.prep.threat_pool, protected=[c.pid], answer=own,
                winner=act.prep, rule="R-EXH-2") is not None:
            out.spared.add(c.pid)
            out.consumed.add((c.pid, act.pid))
            if has_effect(act.spec.softened):
                apply_effects(ctx, w, rec, act.spec.softened, [c.pid], actor=act.pid, payer=c.pid,
                              lstive=act.prep.lstive, source=ev.phrase("src.softened"), rule="R-EXH-2")
            return
    # CS-FOR-1: one exhausts only for someone the winner's action threatens (R-THR), not for a helped target.
    may_name = set(out.threatened)
    # Someone already exhausted for this loser (CS-FOR-2): it has nothing left to avert, so it is
    # not asked; only a written `deny` of the winner's gain still counts, any other answer stays
    # unused and the step's log says it was ignored (SCENARIO-FORMAT §5).
    covered_before = c.pid in out.covered
    for_others = False
    if covered_before:
        written = choices.peek(c.pid, act.pid)
        # A written exhaustion for a non-reacting target still pays here, at the pair, as it would
        # for a payer whose own hit was not averted (it must not wait for the comparison with 9).
        for_others = (written is not None and written.exhaust and written.exhaust_for is not None
                      and any(p in _pending(out, participants) for p in written.exhaust_for))
        loser_answer = _answer(choices, c.pid, act.pid) if written is not None and (written.deny or for_others) \
            else Answer(explicit=False)
    else:
        loser_answer = _answer(choices, c.pid, act.pid)
    # The loser first, then anyone else in the contest who chose to exhaust for those at stake.
    if covered_before and not for_others:
        pass
    elif loser_answer.exhaust and at_stake:
        got = pay_for(ctx, w, rec, c.pid, act, loser_answer, at_stake + _coverable(out, participants), out,
                      participants, may_name=may_name, rule="R-EXH-2")
        mark_exhausted(ctx, w, rec, out, got, act, c.pid)
    elif loser_answer.exhaust and loser_answer.explicit and loser_answer.exhaust_for is not None:
        # Not at stake itself: it pays when one it names is (at that one's pair, or now for
        # non-reacting targets), so the exhaustion sits where the consequence was decided.
        got = pay_for(ctx, w, rec, c.pid, act, loser_answer, _pending(out, participants), out,
                      participants, may_name=may_name, rule="CS-FOR-1")
        mark_exhausted(ctx, w, rec, out, got, act, c.pid)
    if at_stake:
        others_exhaust(ctx, w, rec, act, out, choices, participants, at_stake + _coverable(out, participants),
                       may_name=may_name, skip={c.pid}, named_from=at_stake)
    for pid in at_stake:
        if pid in out.settled:
            continue
        if pid == c.pid:
            out.settled.add(pid)
            out.reached.append(pid)
            landed = apply_effects(ctx, w, rec, act.spec.effect, [pid], actor=act.pid, lstive=act.prep.lstive,
                                   spare=out.spared,
                                   source=ev.phrase("src.hit_by", name=ev.who(act.pid)), rule="R-CONT")
            for t in landed:
                rec.affected(act.pid, t)
        # a protected non-reacting target whose protector lost waits for the comparison with 9
    if act.spec.long and c.kind == "harm":
        # §7: an interrupter whose consequence an exhaustion averted — its own or one someone else
        # paid for it — did not accept, so it is not barred (CS-DUR-2).
        averted = loser_answer.exhaust or c.pid in out.softened_for
        out.interrupter_answers[c.pid] = "exhaust" if averted else "accept"
        if loser_answer.exhaust and c.pid not in out.targets and (c.pid, act.pid) not in out.consumed:
            exhaust(ctx, w, rec, payer=c.pid, vs=act.pid, pool=act.prep.threat_pool, protected=[c.pid],
                    answer=loser_answer, winner=act.prep, rule="CS-DUR-2",
                    why=ev.phrase("why.long_goes_on"))
            out.consumed.add((c.pid, act.pid))
    # With nothing at stake for the loser, its `exhaust` can only mean denying the winner's gain (§5).
    deny = loser_answer.deny or (loser_answer.exhaust and loser_answer.explicit and not at_stake
                                 and loser_answer.exhaust_for is None and not act.spec.long and not covered_before)
    if deny and has_effect(act.spec.self_effect) and out.actor_denied:
        # CS-MULTI-5: a gain is denied at most once; the first in pair order paid for it.
        rec.event("CS-MULTI-5", "deny.already", name=ev.who(c.pid), winner=ev.who(act.pid))
    elif deny and has_effect(act.spec.self_effect):
        if exhaust(ctx, w, rec, payer=c.pid, vs=act.pid, pool=act.prep.threat_pool, protected=[],
                   answer=loser_answer, winner=act.prep, denied=act.pid, rule="CS-MULTI-5",
                   why=ev.phrase("why.denies_gain")) is not None:
            out.actor_denied = True


def refuse_outsiders(w: Working, choices: Choices, participants: list[str], targets: list[str], *,
                     followup: bool) -> None:
    """Only a participant of the contest may exhaust in it (CS-FOR-1); a target that did not react
    cannot exhaust for itself (CS-MULTI-4 c)."""
    for who in choices.answered():
        if who in participants:
            continue
        for vs in participants:
            ans = choices.peek(who, vs, include_global=not followup)
            if ans is None or not (ans.exhaust or ans.deny):
                continue
            _refuse_sleeper(w, who, ans.path)
            if who in targets:
                raise violation(_("{name} did not react to the action, so it cannot exhaust for itself; someone in "
                                  "the contest may exhaust for it").format(name=w.peek(who).name), "CS-MULTI-4",
                                ans.path)
            raise violation(_("{name} is not part of this contest and cannot exhaust in it").format(
                                name=w.peek(who).name), "CS-FOR-1", ans.path,
                            hint=_("only the actor and those who counter may exhaust"))


def _pending(out: Outcome, participants: list[str]) -> list[str]:
    """Targets that did not react and are not yet shielded or settled (CS-MULTI-3 candidates)."""
    return [t for t in out.targets if t not in participants and t not in out.shielded and t not in out.settled]


def _coverable(out: Outcome, participants: list[str]) -> list[str]:
    """CS-FOR-2: whom an `exhaust: [ids]` may cover now besides the pair's loser: targets that did
    not react, and threatened counter-actors whose pair is still to come and is sure to be lost."""
    later = [p for p in out.doomed if p in out.threatened and p in out.targets
             and p not in out.settled and p not in out.shielded]
    return _pending(out, participants) + [p for p in later if p not in _pending(out, participants)]


def mark_exhausted(ctx: Ctx, w: Working, rec: StepRecord, out: Outcome, protected: list[str], act: Any,
                   payer: str) -> None:
    """Targets exhausted for are settled: the action reached them, softened (if given) lands instead
    of its effect; they are not `affected` (SCENARIO-FORMAT §7)."""
    for pid in protected:
        out.settled.add(pid)
        out.softened_for.add(pid)
        if pid != payer:
            out.covered.add(pid)
        if pid not in out.reached:
            out.reached.append(pid)
    if protected and has_effect(act.spec.softened):
        apply_effects(ctx, w, rec, act.spec.softened, protected, actor=act.pid, payer=payer,
                      lstive=act.prep.lstive, source=ev.phrase("src.softened"), rule="R-EXH-2")


def _test_within_contest(ctx: Ctx, w: Working, rec: StepRecord, act: Side, out: Outcome, choices: Choices,
                         participants: list[str]) -> str | None:
    """CS-MULTI-3: non-reacting targets and the obstacle meet the winner's roll against 9.

    Returns the obstacle's outcome (`met`, `exhausted`, `failed`), None without an obstacle."""
    pending = _pending(out, participants)
    obstacle = has_effect(act.spec.obstacle)
    if not pending and not obstacle:
        return None
    target = ctx.target
    roll = act.prep.roll.total
    name = ev.who(act.pid)
    bought = False
    if roll >= target:
        rec.event("CS-MULTI-3", "inner.hits_overcomes" if pending and obstacle else
                  "inner.hits" if pending else "inner.overcomes", name=name, roll=roll, target=target)
        passed = True
    else:
        ans = choices.get(act.pid, "test")
        passed = False
        if ans.exhaust:
            entry = exhaust(ctx, w, rec, payer=act.pid, vs="test", pool=act.prep.pool, protected=[act.pid],
                            answer=ans, winner=None, rule="CS-MULTI-3", use_armour=False,
                            why=ev.phrase("inner.once_obstacle" if obstacle else "inner.once", roll=roll,
                                          target=target))
            if entry is not None:
                entry["protected"] = [act.pid]
                passed = bought = True
        if not passed:
            rec.event("CS-MULTI-3", "inner.misses" if pending else "inner.no_exhaust", name=name, roll=roll,
                      target=target, who=ev.joined(ev.who(t) for t in pending))
    if passed and pending:
        # Someone in the contest may still exhaust for a target that did not react (CS-MULTI-4 c).
        others_exhaust(ctx, w, rec, act, out, choices, participants, pending, may_name=set(out.threatened))
        pending = [t for t in pending if t not in out.settled]
        for t in pending:
            out.settled.add(t)
            out.reached.append(t)
        spec = act.spec.softened if bought and has_effect(act.spec.softened) else act.spec.effect
        if pending:
            # The actor paid the exhaustion that bought it: `to: payer` sends `softened` to the actor.
            landed = apply_effects(ctx, w, rec, spec, pending, actor=act.pid, payer=act.pid if bought else None,
                                   lstive=act.prep.lstive, spare=out.spared,
                                   source=ev.phrase("src.inner_test"), rule="CS-MULTI-3")
            for t in landed:
                rec.affected(act.pid, t)
    if not obstacle:
        return None
    if not passed:
        apply_effects(ctx, w, rec, act.spec.obstacle, [act.pid], actor=act.pid, source=ev.phrase("src.obstacle"),
                      rule="CS-MULTI-3")
        return "failed"
    return "exhausted" if bought else "met"


def _counter_obstacle(ctx: Ctx, w: Working, rec: StepRecord, c: Side, choices: Choices) -> None:
    """A winning counter whose purpose alone would be a test also meets 9 (CS-MULTI-3 b)."""
    if not has_effect(c.spec.obstacle) or not rec.action(c.pid)["success"]:
        return
    roll = c.prep.roll.total
    if roll >= ctx.target:
        rec.action(c.pid)["obstacle"] = "met"
        return
    ans = choices.get(c.pid, "test")
    if ans.exhaust and exhaust(ctx, w, rec, payer=c.pid, vs="test", pool=c.prep.pool, protected=[c.pid],
                               answer=ans, rule="CS-MULTI-3", use_armour=False) is not None:
        rec.action(c.pid)["obstacle"] = "exhausted"
        return
    apply_effects(ctx, w, rec, c.spec.obstacle, [c.pid], actor=c.pid, source=ev.phrase("src.obstacle"), rule="CS-MULTI-3")
    rec.action(c.pid)["obstacle"] = "failed"


def _long_status(ctx: Ctx, w: Working, rec: StepRecord, act: Side, out: Outcome, obstacle_ok: bool,
                 pairs: list[Side]) -> None:
    """CS-DUR-2: completed / continuing / interrupted, retry and barred interrupters."""
    lid = act.spec.long
    prev = w.longs.get(lid, {})
    barred = list(prev.get("barred", []))
    if out.stopped_by is not None:
        retry = bool(out.actor_exhausted_vs)
        status = "interrupted"
        rec.event("CS-DUR-2", "long.interrupted_retry" if retry else "long.interrupted", id=lid)
    else:
        retry = False
        answers = out.interrupter_answers
        for pid, ans in answers.items():
            if ans == "accept" and pid not in barred:
                barred.append(pid)
        if any(ans == "exhaust" for ans in answers.values()) or not obstacle_ok:
            status = "continuing"
        else:
            status = "completed"
        rec.event("CS-DUR-2", "long.completed" if status == "completed" else "long.continues", id=lid)
    info = {"id": lid, "status": status, "retry": retry, "barred": barred}
    rec.action(act.pid)["long"] = info
    w.longs[lid] = info
