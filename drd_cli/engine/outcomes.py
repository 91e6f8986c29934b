"""What a contest's pairs decide (CS-MULTI-3..5, CS-FOR-1..2, CS-SEQ-1, CS-DUR-2): a counter that
wins, an action that wins, who exhausts and for whom, the test within the contest, a long action."""

from __future__ import annotations

from typing import Any

from ..errors import Message
from ..i18n import N_
from . import events as ev
from .actions import apply_effects, exhaust, has_effect
from .context import Answer, Choices, Ctx, StepRecord, violation
from .state import Working

from .pairs import Outcome, Side
from .aware import _refuse_sleeper
from .targets import _named_in_to, threatened_targets


def _answer(choices: Choices, who: str, vs: str) -> Answer:
    return choices.get(who, vs)


def pay_for(ctx: Ctx, w: Working, rec: StepRecord, payer: str, vs: Any, answer: Answer, at_stake: list[str],
            out: Outcome, participants: list[str], *, may_name: set[str], rule: str) -> list[str]:
    """One payer's exhaustion against `vs` for those of `answer.exhaust_for` still at stake."""
    wanted = answer.exhaust_for if answer.exhaust_for is not None else [payer]
    if payer not in participants and answer.explicit:
        _refuse_sleeper(w, payer, answer.path)
        if payer in out.targets:
            raise violation(Message(N_("{name} did not react, so it cannot exhaust for itself; someone in the contest may "
                                       "exhaust for it"), name=w.peek(payer).name), "CS-MULTI-4", answer.path)
        raise violation(Message(N_("{name} is not part of this contest and cannot exhaust in it"),
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
            raise violation(Message(N_("unknown participant {id} in exhaust"), id=repr(pid)), "CS-FOR-1", answer.path)
        if pid not in may_name and answer.explicit:
            raise violation(Message(N_("{name} cannot protect {other}: {winner}'s action does not threaten them"),
                name=w.peek(payer).name, other=w.peek(pid).name, winner=w.peek(vs.pid).name), "CS-FOR-1",
                answer.path)


def others_exhaust(ctx: Ctx, w: Working, rec: StepRecord, vs: Any, out: Outcome, choices: Choices,
                   participants: list[str], protectable: list[str], *, may_name: set[str],
                   skip: set[str] | frozenset[str] = frozenset(), named_from: list[str] | None = None) -> None:
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
    loser_answer, for_others = _loser_answer(choices, act, c, out, participants)
    # §5, CS-MULTI-5: a losing protector the winner does not threaten itself, answering a bare
    # `exhaust` against a winner with a gain of its own, denies that gain; exhausting for those it
    # protects is written `{exhaust: [ids]}`.
    bare_deny = bool(loser_answer.exhaust and loser_answer.explicit and loser_answer.exhaust_for is None
                     and c.pid not in at_stake and has_effect(act.spec.self_effect) and not act.spec.long
                     and not covered_before)
    # The loser first, then anyone else in the contest who chose to exhaust for those at stake.
    if covered_before and not for_others:
        pass
    elif loser_answer.exhaust and at_stake and not bare_deny:
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
        _interrupter_lost(ctx, w, rec, act, c, out, loser_answer)
    _deny_gain(ctx, w, rec, act, c, out, loser_answer, bool(at_stake) and not bare_deny, covered_before)


def _interrupter_lost(ctx: Ctx, w: Working, rec: StepRecord, act: Side, c: Side, out: Outcome,
                      loser_answer: Answer) -> None:
    """CS-DUR-2: an interrupter of a long action lost its pair."""
    # §7: an interrupter whose consequence an exhaustion averted — its own or one someone else
    # paid for it — did not accept, so it is not barred (CS-DUR-2).
    averted = loser_answer.exhaust or c.pid in out.softened_for
    out.interrupter_answers[c.pid] = "exhaust" if averted else "accept"
    if loser_answer.exhaust and c.pid not in out.targets and (c.pid, act.pid) not in out.consumed:
        exhaust(ctx, w, rec, payer=c.pid, vs=act.pid, pool=act.prep.threat_pool, protected=[c.pid],
                answer=loser_answer, winner=act.prep, rule="CS-DUR-2", why=ev.phrase("why.long_goes_on"))
        out.consumed.add((c.pid, act.pid))


def _loser_answer(choices: Choices, act: Side, c: Side, out: Outcome, participants: list[str]) -> tuple[Answer, bool]:
    """The answer of a pair's loser, and whether it exhausts for others though someone already
    exhausted for it (CS-FOR-2: then only a written `deny`, or an exhaustion for a non-reacting
    target, still counts)."""
    if c.pid not in out.covered:
        return _answer(choices, c.pid, act.pid), False
    written = choices.peek(c.pid, act.pid)
    # A written exhaustion for a non-reacting target still pays here, at the pair, as it would
    # for a payer whose own hit was not averted (it must not wait for the comparison with 9).
    for_others = bool(written is not None and written.exhaust and written.exhaust_for is not None
                      and any(p in _pending(out, participants) for p in written.exhaust_for))
    if written is not None and (written.deny or for_others):
        return _answer(choices, c.pid, act.pid), for_others
    return Answer(explicit=False), for_others


def _deny_gain(ctx: Ctx, w: Working, rec: StepRecord, act: Side, c: Side, out: Outcome, loser_answer: Answer,
               at_stake: bool, covered_before: bool) -> None:
    """CS-MULTI-5: the loser's exhaustion that denies the winner its gain, at most once per action."""
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
            _refuse_outsider(w, who, ans, targets)


def refuse_unused_outsiders(w: Working, choices: Choices, participants: list[str], targets: list[str]) -> None:
    """After an action's follow-up (§5, CS-FOR-1, CS-MULTI-4, R-AWARE): an outsider's general `exhaust`
    or `deny` may have answered the follow-up's výzva; one the follow-up did not use answers the contest,
    so it is refused there exactly as without a follow-up — never silently ignored."""
    for who, vs, _path in choices.unused():
        if vs is not None or who in participants:
            continue
        ans = choices.peek(who, "")
        if ans is not None and (ans.exhaust or ans.deny):
            _refuse_outsider(w, who, ans, targets)


def _refuse_outsider(w: Working, who: str, ans: Any, targets: list[str]) -> None:
    _refuse_sleeper(w, who, ans.path)
    if who in targets:
        raise violation(Message(N_("{name} did not react to the action, so it cannot exhaust for itself; someone in "
                                   "the contest may exhaust for it"), name=w.peek(who).name), "CS-MULTI-4",
                        ans.path)
    raise violation(Message(N_("{name} is not part of this contest and cannot exhaust in it"),
                        name=w.peek(who).name), "CS-FOR-1", ans.path,
                    hint=Message(N_("only the actor and those who counter may exhaust")))


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
    roll = act.prep.rolled.total
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
    roll = c.prep.rolled.total
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
                 pairs: list[Side], lid: str) -> None:
    """CS-DUR-2: completed / continuing / interrupted, retry and barred interrupters of the long
    action `lid` (the action's `long`)."""
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
