"""Střet (contest): R-CONT, R-ORDER, CS-MULTI-3..5, CS-FOR-1..2, CS-SEQ-1, CS-DUR-2.

Pairs (the action against each counter) are resolved from the highest roll down; each pair's
exhaustions, denials and effects apply at once, so later pairs see the new Ohrožení. After the
pairs, the winner's roll meets 9 for targets that did not react and for an obstacle.
"""

from __future__ import annotations

from typing import Any

from ..errors import DocPath, Message
from ..i18n import N_
from . import events as ev
from ..scenario.models import ContestSpec, CounterSpec, norm_pool
from .actions import Prepared, apply_effects, has_effect, prepare
from .context import Choices, Ctx, StepRecord, enable_hint, violation
from .initiative import counter_source, main_action
from .state import Working

from .aware import _refuse_sleeper, check_awake, check_awake_reaction, check_counter_actor
from .outcomes import (_actor_wins, _answer, _check_named, _counter_obstacle, _counter_wins, _coverable, _long_status,
                       _pending, _test_within_contest, mark_exhausted, others_exhaust, pay_for, refuse_outsiders)
from .pairs import Outcome, Side, _shown, pair_winner, record_pair, reroll, roll_sides
from .targets import _named_in_to, _only_helps, action_targets, threatened_targets


def resolve_contest(ctx: Ctx, w: Working, rec: StepRecord, spec: ContestSpec, choices: Choices,
                    path: DocPath) -> None:
    """Resolves one contest step into `rec` (the state changes go to `w`)."""
    a = spec.action
    apath = path + ("action",)
    if a.actor is None:
        raise violation(Message(N_("a contest's action needs an `actor`")), "R-CONT", apath)
    actor = a.actor
    rec.data.setdefault("pairs", [])
    if any(c.area for c in spec.counters) and _area_counters_taken(ctx, w, rec, spec, choices, path):
        return
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
    ra = sides[0].prep.rolled.total
    out.doomed = [s.pid for s in sides[1:] if s.prep.rolled.total < ra
                  or (s.prep.rolled.total == ra and ctx.param("tie") == "actor")]
    participants = [s.pid for s in sides]
    refuse_outsiders(w, choices, participants, targets, followup=a.followup is not None)
    act = sides[0]
    pairs = sorted(sides[1:], key=lambda s: (-max(act.prep.rolled.total, s.prep.rolled.total),
                                             -min(act.prep.rolled.total, s.prep.rolled.total), s.index))
    rec.action(actor)
    for s in sides[1:]:
        rec.action(s.pid)
    for side in pairs:
        winner = pair_winner(ctx, w, rec, act, side)
        if winner is side:
            _counter_wins(ctx, w, rec, act, side, out, choices, participants)
        else:
            _actor_wins(ctx, w, rec, act, side, out, choices, participants)
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
        _long_status(ctx, w, rec, act, out, obstacle_ok, pairs, a.long)
    for side in pairs:
        if side.kind == "harm" or side.kind == "protect":
            _counter_obstacle(ctx, w, rec, side, choices)
    if out.stopped_by is None and a.followup is not None:
        affects = [t for t in out.reached] if targets else None
        from .steps import resolve_followup

        resolve_followup(ctx, w, rec, act.pid, a.followup, affects, choices, apath + ("followup",),
                         shielded=frozenset(out.shielded))
    if a.followup is not None:
        from .outcomes import refuse_unused_outsiders

        refuse_unused_outsiders(w, choices, participants, targets)


def _area_counters_taken(ctx: Ctx, w: Working, rec: StepRecord, spec: ContestSpec, choices: Choices,
                         path: DocPath) -> bool:
    """Plošná counters: CS-OPT-AREA (plugin) takes every plošná counter when enabled (True: a plugin
    resolved the contest); without it, a plošná counter that only protects targets of the action is
    a helping counter of CS-OPT-AID (the book lets it be "rozsáhlá or plošná"), resolved here by
    the core; any other is refused."""
    if ctx.profile.is_on("plosna-protiakce"):
        return ctx.hooks.resolve_contest(ctx, w, rec, spec, choices, path)
    for i, c in enumerate(spec.counters):
        if c.area and (c.kind != "protect" or not ctx.profile.is_on("rozsahla-protiakce")):
            helping = c.kind == "protect"
            raise violation(
                Message(N_("a plošná counter-action that protects needs the optional rule rozsahla-protiakce "
                           "(or plosna-protiakce)")) if helping else
                Message(N_("a counter-action that is plošná by nature needs the optional rule plosna-protiakce")),
                "CS-OPT-AID" if helping else "CS-OPT-AREA", path + ("counters", i, "area"),
                hint=enable_hint("rozsahla-protiakce" if helping else "plosna-protiakce"))
    return False


def _prepare_counter(ctx: Ctx, w: Working, rec: StepRecord, c: CounterSpec, i: int, path: DocPath,
                     targets: list[str], threatened: set[str], seen: set[str], long_state: dict[str, Any] | None,
                     main: Prepared | None = None) -> Side:
    cpath = path + ("counters", i)
    actor = check_counter_actor(w, c, cpath, seen)
    check_awake(ctx, w, rec, c, cpath, main, threatened)
    seen.add(actor)
    kind = "protect" if c.kind == "protect" else "harm"
    protects = list(c.protects or [actor]) if kind == "protect" else []
    if c.protects and kind != "protect":
        raise violation(Message(N_("`protects` belongs to a counter of kind protect")), "CS-MULTI-4", cpath + ("protects",))
    if c.area:
        # CS-OPT-AID: a plošná protecting counter shields those in its area the action threatens,
        # and may pull nobody new into the contest (that is CS-OPT-AREA's plošná counter).
        members = action_targets(ctx, w, c, actor, cpath, counter=True)
        if c.zone is not None and w.peek(actor).zone == c.zone and actor not in members:
            members = [actor] + members
        new = [m for m in members if m not in threatened and m not in targets and m != actor]
        if new:
            raise violation(Message(N_("{name}'s plošná counter reaches {others}, who are not in the contest: pulling new "
                                       "participants in needs the optional rule plosna-protiakce"),
                                name=w.peek(actor).name, others=", ".join(w.peek(m).name for m in new)),
                            "CS-OPT-AID", cpath + ("area",), hint=enable_hint("plosna-protiakce", cli=False))
        if not c.protects:
            protects = [m for m in members if m in threatened]
    for j, pid in enumerate(protects):
        if pid not in threatened:
            raise violation(Message(N_("{name} protects {other}, whom the action does not threaten"),
                name=w.peek(actor).name, other=w.peek(pid).name), "CS-MULTI-4", cpath + ("protects", j))
    names = [m if isinstance(m, str) else m.name for m in c.manoeuvres]
    wide = len(protects) > 1 or c.area or any(n in ("rozsahle", "rozsáhle") for n in names)
    if wide and not ctx.profile.is_on("rozsahla-protiakce"):
        raise violation(Message(N_("a counter-action that protects several (or is rozsáhlá) needs the optional rule "
                                   "rozsahla-protiakce")), "CS-OPT-AID", cpath, hint=enable_hint("rozsahla-protiakce"))
    if wide and kind == "harm":
        raise violation(Message(N_("a rozsáhlá counter-action may only help several targets, not harm")), "CS-OPT-AID", cpath)
    from_obrana = c.from_ == "obrana" or (c.from_ is None and actor in ctx.round.used)
    # R-ABIL-DEF: an ability may let its holder react from defence to an action harming others.
    guard = None
    refusal = ""
    if from_obrana and actor not in threatened:
        harmed = [t for t in targets if t in threatened and t != actor]
        if harmed and main is not None:
            from . import viewbuild

            declared = viewbuild.bare_action(actor, c, norm_pool(c.pool) or "telo",
                                             "protect" if c.kind == "protect" else "harm")
            verdict = ctx.hooks.may_react(ctx, w, actor, main, harmed, declared)
            guard, refusal = ((verdict.plugin or "", verdict.note) if verdict.allowed else None), verdict.note
    if from_obrana and actor in targets and actor not in threatened and guard is None:
        raise violation(Message(N_("{name} is a target of an action that only helps it: it is not threatened, so it has no "
                                   "right to react from defence (obrana)"), name=w.peek(actor).name), "R-THR",
                        cpath + (("from",) if c.from_ else ()),
                        hint=Message(N_("a target it only helps may still counter with its unused (or delayed) initiative")))
    if from_obrana and actor not in threatened and guard is None and refusal:
        # R-ABIL-DEF: an ability of the reactor's answered why it does not allow this reaction.
        raise violation(Message(N_("{name} may react from defence (obrana) only against an action that threatens it "
                                   "directly or through an immediate follow-up"), name=w.peek(actor).name),
                        "CS-IND-1", cpath, hint=refusal)
    src = counter_source(ctx, w, rec, actor, c.from_, actor in threatened or guard is not None, cpath)
    if guard is not None and src == "obrana":
        ctx.hooks.acted.add(guard[0])
        rec.event("R-ABIL-DEF", "defence.for_others", name=ev.who(actor), source=ctx.hooks.title(guard[0]),
                  tail=guard[1] or "")
    if src == "obrana" and kind == "protect" and protects != [actor] and guard is None:
        raise violation(Message(N_("{name} acts from defence (obrana) and can protect only itself"),
                            name=w.peek(actor).name),
                        "R-MAN-3", cpath + ("protects",))
    if long_state and actor in long_state.get("barred", []):
        rec.event("CS-DUR-2", "long.barred", name=ev.who(actor))
    prep = prepare(ctx, w, rec, actor, c, cpath, from_obrana=src == "obrana",
                   implied=("obrana",) if src == "obrana" else (), kind=kind)
    prep.protects = list(protects)
    return Side(actor, c, cpath, prep, kind, protects, i)


__all__ = ["Outcome", "Side", "_actor_wins", "_answer", "_check_named", "_counter_obstacle", "_counter_wins",
           "_coverable", "_long_status", "_named_in_to", "_only_helps", "_pending", "_prepare_counter",
           "_refuse_sleeper", "_shown", "_test_within_contest", "action_targets", "check_awake",
           "check_awake_reaction", "check_counter_actor", "mark_exhausted", "others_exhaust", "pair_winner",
           "pay_for", "record_pair", "refuse_outsiders", "reroll", "resolve_contest", "roll_sides",
           "threatened_targets"]
