"""Protiakce plošná z principu (`plosna-protiakce`, CS-OPT-AREA), an optional rule.

A counter-action that is plošná by nature (cutting the rope bridge, detonating a charge) hits
everyone in its area; beings it pulls in answer it as if it were an action (`answers: ID`). The
whole contest is then resolved as a general contest: every pair — an answer and the action or
counter it answers — from the highest roll down (R-ORDER; pairs sharing a roll in listed order),
the answered side counting as the actor for the tie rule. An action stopped by a winning `harm`
earlier in that order neither lands nor stops anything later, but its roll still defends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from drd_cli.plugin import hookimpl, translator

_, ngettext = translator()      # drd's own catalog

ID = "plosna-protiakce"


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Protiakce plošná z principu", "kind": "rule area", "rules": ["CS-OPT-AREA"],
            "description": "plošná protiakce vtáhne do střetu nové bytosti, které na ni reagují jako na akci"}


@dataclass
class _Side:
    """One action or counter of the general contest; `out` is what its pairs decided about it
    (the core's `Outcome`: stopped_by, shielded, settled, consumed exhaustions)."""

    pid: str
    spec: Any
    path: tuple
    prep: Any
    kind: str                      # action | harm | protect
    answers: str | None            # pid of the side it answers (None: the main action itself)
    index: int
    out: Any
    protects: list[str] = field(default_factory=list)
    denied: bool = False

    @property
    def targets(self) -> list[str]:
        return self.out.targets


@hookimpl
def drd_resolve_contest(engine: Any, spec: Any, choices: Any, path: tuple) -> bool | None:
    if not any(c.area for c in spec.counters):
        return None
    _resolve(engine, spec, choices, path)
    return True


def _resolve(api: Any, spec: Any, choices: Any, path: tuple) -> None:
    from drd_cli.plugin import toolkit as tk

    prepare, violation, Outcome, roll_sides = tk.prepare, tk.violation, tk.Outcome, tk.roll_sides
    action_targets, check_counter_actor = tk.action_targets, tk.check_counter_actor
    refuse_outsiders, threatened_targets = tk.refuse_outsiders, tk.threatened_targets
    counter_source, main_action = tk.counter_source, tk.main_action

    ctx, w, rec = api.ctx, api.w, api.rec
    a = spec.action
    apath = path + ("action",)
    if a.actor is None:
        raise violation(_("a contest's action needs an `actor`"), "R-CONT", apath)
    targets = action_targets(ctx, w, a, a.actor, apath)
    main_action(ctx, w, rec, a.actor, a.from_, apath)
    sides: dict[str, _Side] = {}
    act = _Side(a.actor, a, apath, prepare(ctx, w, rec, a.actor, a, apath, targets=targets), "action", None, -1,
                Outcome(targets, threatened_targets(a.effect, targets, a.actor) | set(a.threatens or [])))
    sides[a.actor] = act
    for i, c in enumerate(spec.counters):
        cpath = path + ("counters", i)
        check_counter_actor(w, c, cpath, sides)
        answered = c.answers or a.actor
        if answered not in sides:
            raise violation(_("{name} answers {id}, who has no action or counter listed before it in this "
                              "contest").format(name=w.peek(c.actor).name, id=repr(answered)), "CS-OPT-AREA",
                            cpath + ("answers",))
        other = sides[answered]
        tk.check_awake(ctx, w, rec, c, cpath, other.prep, other.out.threatened)   # R-AWARE: a sleeper cannot react
        if c.area and c.answers is not None:
            raise violation(_("only a counter to the action itself can be plošná by nature here"), "CS-OPT-AREA",
                            cpath + ("area",))
        ctargets = action_targets(ctx, w, c, c.actor, cpath, counter=True) if (c.area or c.targets) else []
        kind = "protect" if c.kind == "protect" else "harm"
        protects = list(c.protects or [c.actor]) if kind == "protect" else []
        # R-THR: only what would harm it (not an effect that only helps) lets one react from obrana.
        threatened = c.actor in other.out.threatened
        for j, pid in enumerate(protects):
            if pid not in other.out.threatened:
                raise violation(_("{name} protects {other}, whom the action of {actor} does not threaten").format(
                                    name=w.peek(c.actor).name, other=w.peek(pid).name, actor=w.peek(answered).name),
                                "CS-MULTI-4",
                                cpath + ("protects", j))
        src = counter_source(ctx, w, rec, c.actor, c.from_, threatened, cpath)
        prep = prepare(ctx, w, rec, c.actor, c, cpath, from_obrana=src == "obrana",
                       implied=("obrana",) if src == "obrana" else (), targets=ctargets)
        threatens = threatened_targets(c.effect, ctargets, c.actor) | ({answered} if kind == "harm" else set())
        sides[c.actor] = _Side(c.actor, c, cpath, prep, kind, answered, i, Outcome(ctargets, threatens), protects)
        if c.area:
            rec.log("CS-OPT-AREA", _("{name}: the counter-action plošná by nature hits {who}").format(
                name=w.peek(c.actor).name, who=", ".join(w.peek(t).name for t in ctargets) or _("nobody")))
    roll_sides(ctx, w, rec, list(sides.values()), _("Roll order (general contest)"))
    participants = list(sides)
    refuse_outsiders(w, choices, participants, sorted({t for s in sides.values() for t in s.targets}),
                     followup=False)
    for s in sides.values():
        rec.action(s.pid)
    pairs = [s for s in sides.values() if s.answers is not None]
    pairs.sort(key=lambda s: (-max(s.prep.roll.total, sides[s.answers].prep.roll.total),
                              -min(s.prep.roll.total, sides[s.answers].prep.roll.total), s.index))
    won_own: dict[str, bool] = {}
    for x in pairs:
        y = sides[x.answers]
        winner, loser = _winner(api, y, x)
        won_own[x.pid] = winner is x and x.out.stopped_by is None
        _pair(api, winner, loser, choices, sides)
    # CS-MULTI-3: targets of a side that did not meet it in a pair meet its roll against 9.
    for s in sides.values():
        if s.out.stopped_by is None:
            _non_reacting(api, s, sides, choices)
    for s in sides.values():
        if s.answers is None:
            success = s.out.stopped_by is None and (not s.targets or bool(s.out.settled - s.out.shielded))
        else:
            success = won_own.get(s.pid, False)
        rec.action(s.pid)["success"] = success
        if s.answers is None and success:
            _self_effect(api, s)


def _winner(api: Any, answered: _Side, answer: _Side) -> tuple[_Side, _Side]:
    """The answered side counts as the actor for the tie rule (CS-OPT-AREA)."""
    from drd_cli.plugin import toolkit

    pair_winner = toolkit.pair_winner

    winner = pair_winner(api.ctx, api.w, api.rec, answered, answer, rule="CS-OPT-AREA",
                         actor_word=_("the one answered"))
    return (answered, answer) if winner is answered else (answer, answered)


def _pending(s: _Side, sides: dict[str, _Side]) -> list[str]:
    """The side's targets that meet it in no pair and are not yet shielded or settled (CS-MULTI-3)."""
    met = {x.pid for x in sides.values() if x.answers == s.pid} | ({s.answers} if s.answers else set())
    return [t for t in s.targets if t not in met and t not in s.out.shielded and t not in s.out.settled]


def _exhaust_for_loser(api: Any, winner: _Side, loser: str, choices: Any, sides: dict[str, _Side]) -> None:
    """R-EXH-2, CS-FOR-1/2 in a pair: the loser exhausts first (for itself, or `{exhaust: [ids]}` for
    itself and the winner's non-reacting targets); then anyone else in the contest who answered
    `{exhaust: [ids]}` against the winner naming the loser pays for those it names."""
    from drd_cli.plugin import toolkit as tk

    mark_exhausted, others_exhaust, pay_for = tk.mark_exhausted, tk.others_exhaust, tk.pay_for

    ctx, w, rec, out = api.ctx, api.w, api.rec, winner.out
    participants = list(sides)
    protectable = [loser] + _pending(winner, sides)
    ans = choices.get(loser, winner.pid)
    if ans.exhaust:
        got = pay_for(ctx, w, rec, loser, winner, ans, protectable, out, participants, may_name=out.threatened,
                      rule="R-EXH-2")
        mark_exhausted(ctx, w, rec, out, got, winner, loser)
    others_exhaust(ctx, w, rec, winner, out, choices, participants, protectable, may_name=out.threatened,
                   skip={loser, winner.pid}, named_from=[loser])


def _pair(api: Any, winner: _Side, loser: _Side, choices: Any, sides: dict[str, _Side]) -> None:
    """One pair's outcome, applied at once (R-ORDER)."""
    from drd_cli.plugin import toolkit as tk

    apply_effects, exhaust, has_effect = tk.apply_effects, tk.exhaust, tk.has_effect

    ctx, w, rec = api.ctx, api.w, api.rec
    wn, ln = w.peek(winner.pid).name, w.peek(loser.pid).name
    if winner.out.stopped_by is not None:
        # A stopped action neither lands nor stops anything; its roll only defended its performer.
        rec.log("CS-OPT-AREA", _("The action of {winner} was already stopped: its roll only defended against {loser}").format(
            winner=wn, loser=ln))
        return
    if winner.kind == "protect":
        for s in (loser,):
            newly = [p for p in winner.protects if p not in s.out.shielded]
            s.out.shielded.update(winner.protects)
            if newly:
                rec.log("CS-MULTI-4", _("{winner} protects {who} from {loser}").format(
                    winner=wn, who=", ".join(w.peek(p).name for p in newly), loser=ln))
    elif winner.kind == "harm" and loser.out.stopped_by is None and winner.answers == loser.pid:
        loser.out.stopped_by = winner.pid
        rec.log("CS-OPT-AREA", _("{winner} stopped the action of {loser}").format(winner=wn, loser=ln))
    # The winner's action lands on the loser if the loser is among its targets (or it answers the loser).
    lands_on_loser = loser.pid in winner.targets or (winner.answers == loser.pid and winner.kind == "harm")
    out = winner.out
    # §5, CS-MULTI-5: with nothing at stake for the loser in this pair, its `exhaust` means `deny`.
    at_stake = (lands_on_loser and loser.pid in out.threatened and loser.pid not in out.shielded
                and loser.pid not in out.settled and has_effect(winner.spec.effect))
    if lands_on_loser and loser.pid not in out.shielded and loser.pid not in out.settled \
            and has_effect(winner.spec.effect):
        if loser.pid in out.threatened:     # R-THR: nothing to exhaust against an effect that only helps
            _exhaust_for_loser(api, winner, loser.pid, choices, sides)
        if loser.pid not in out.settled:
            out.settled.add(loser.pid)
            out.reached.append(loser.pid)
            for t in apply_effects(ctx, w, rec, winner.spec.effect, [loser.pid], actor=winner.pid,
                                   lstive=winner.prep.lstive, source=_("victory of {name}").format(name=wn), rule="CS-OPT-AREA"):
                rec.affected(winner.pid, t)
    elif lands_on_loser and not has_effect(winner.spec.effect):
        out.settled.add(loser.pid)
    # A winning counter's own gain (CS-MULTI-5); the main action gets its gain once, at the end.
    if winner.answers is not None and has_effect(winner.spec.self_effect):
        ans = choices.get(loser.pid, winner.pid)
        if _denies(ans, at_stake) and exhaust(ctx, w, rec, payer=loser.pid, vs=winner.pid, pool=winner.prep.threat_pool,
                                protected=[], answer=ans, winner=winner.prep, denied=winner.pid,
                                rule="CS-MULTI-5", why=_("denies the winner its gain")) is not None:
            return
        apply_effects(ctx, w, rec, winner.spec.self_effect, [winner.pid], actor=winner.pid,
                      lstive=winner.prep.lstive, source=_("own gain"), rule="CS-MULTI-5")
    elif winner.answers is None:
        ans = choices.peek(loser.pid, winner.pid)
        if ans is not None and _denies(ans, at_stake) and has_effect(winner.spec.self_effect) and not winner.denied:
            choices.get(loser.pid, winner.pid)
            if exhaust(ctx, w, rec, payer=loser.pid, vs=winner.pid, pool=winner.prep.threat_pool, protected=[],
                       answer=ans, winner=winner.prep, denied=winner.pid, rule="CS-MULTI-5",
                       why=_("denies the winner its gain")) is not None:
                winner.denied = True


def _denies(ans: Any, at_stake: bool) -> bool:
    """A written `deny`, or a written bare `exhaust` where the pair puts nothing at stake for the loser
    (its only consequence is the winner's own gain: §5, CS-MULTI-5)."""
    return bool(ans.deny or (ans.exhaust and ans.explicit and not at_stake and ans.exhaust_for is None))


def _non_reacting(api: Any, s: _Side, sides: dict[str, _Side], choices: Any) -> None:
    """CS-MULTI-3: the side's targets that met it in no pair meet its roll against 9; someone in the
    contest may exhaust for them (CS-MULTI-4 c, CS-FOR-1/2)."""
    from drd_cli.plugin import toolkit as tk

    apply_effects, exhaust, others_exhaust = tk.apply_effects, tk.exhaust, tk.others_exhaust

    ctx, w, rec = api.ctx, api.w, api.rec
    pending = _pending(s, sides)
    if not pending:
        return
    roll = s.prep.roll.total
    ok = roll >= ctx.target
    bought = False
    if not ok:
        ans = choices.get(s.pid, "test")
        if ans.exhaust and exhaust(ctx, w, rec, payer=s.pid, vs="test", pool=s.prep.pool, protected=[s.pid],
                                   answer=ans, rule="CS-MULTI-3", use_armour=False,
                                   why=_("once for all who did not react")) is not None:
            ok = bought = True
    rec.log("CS-MULTI-3", _("{name}: roll {roll} {cmp} {target} against those who did not react ({who})").format(
        name=w.peek(s.pid).name, roll=roll, cmp="≥" if roll >= ctx.target else "<", target=ctx.target,
        who=", ".join(w.peek(t).name for t in pending)))
    if not ok:
        return
    others_exhaust(ctx, w, rec, s, s.out, choices, list(sides), pending, may_name=s.out.threatened, skip={s.pid})
    pending = [t for t in pending if t not in s.out.settled]
    s.out.settled.update(pending)
    s.out.reached.extend(pending)
    eff = s.spec.softened if bought and s.spec.softened else s.spec.effect
    for t in apply_effects(ctx, w, rec, eff, pending, actor=s.pid, lstive=s.prep.lstive,
                           source=_("test within the contest"), rule="CS-MULTI-3"):
        rec.affected(s.pid, t)


def _self_effect(api: Any, s: _Side) -> None:
    from drd_cli.plugin import toolkit as tk

    apply_effects, has_effect = tk.apply_effects, tk.has_effect

    if has_effect(s.spec.self_effect) and not s.denied:
        apply_effects(api.ctx, api.w, api.rec, s.spec.self_effect, [s.pid], actor=s.pid, lstive=s.prep.lstive,
                      source=_("own gain"), rule="CS-MULTI-5")
