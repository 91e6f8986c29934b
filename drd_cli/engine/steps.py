"""Zkouška (test), závod (race), ohlášení (declare) and výzva (challenge) steps.

R-TEST, CS-MULTI-1/2, CS-COOP-2, CS-RACE-1, CS-PREP-1, R-CHAL, CS-ENV-2/3.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from ..scenario.models import ActionSpec, ChallengeSpec, Pool, RaceSpec, TestSpec, as_list
from . import viewbuild
from . import events as ev
from .events import Event
from .actions import (Prepared, _activate, _Bill, _check_allowed, apply_effects, exhaust, has_effect, make_roll,
                      narocnost, pool_cs, prepare)
from ..errors import Message, ScenarioError
from ..i18n import N_
from .aware import check_awake, check_awake_reaction
from .targets import action_targets, threatened_targets
from .context import Choices, Ctx, StepRecord, enable_hint, violation
from .initiative import check_awake_to_act, counter_source, main_action
from .state import Working


PoolId = Literal["telo", "duse", "vliv"]
_POOL_IDS: dict[str, PoolId] = {"telo": "telo", "tělo": "telo", "duse": "duse", "duše": "duse", "vliv": "vliv"}


def pool_id(value: Pool | None) -> PoolId:
    """The pool a step names (`tělo` → `telo`); tělo when it names none."""
    return _POOL_IDS[value] if value is not None else "telo"


# --------------------------------------------------------------------------- test

def _test_actors(spec: TestSpec) -> list[str]:
    """Who takes the test: `actors`, or the one `actor` (the model requires one of them)."""
    return list(spec.actors) if spec.actors else [spec.actor] if spec.actor is not None else []


def resolve_test(ctx: Ctx, w: Working, rec: StepRecord, spec: TestSpec, choices: Choices, path: tuple) -> None:
    """A test of one or several actors against 9 (or its own `target`)."""
    actors = _test_actors(spec)
    mode = spec.mode if spec.actors else "individual"
    target_no = spec.target if spec.target is not None else ctx.target
    targets = action_targets(ctx, w, spec, actors[0], path) if spec.targets or spec.area else []
    rolls = spec.rolls or {}
    dice = spec.dice if isinstance(spec.dice, dict) else None
    one_dice = None if isinstance(spec.dice, dict) else spec.dice
    for pid in rolls:
        if pid not in actors:
            raise violation(Message(N_("rolls give a roll for {id}, who does not take this test"), id=repr(pid)), "R-TEST",
                            path + ("rolls", pid))
    preps: dict[str, Prepared] = {}
    for i, pid in enumerate(actors):
        main_action(ctx, w, rec, pid, spec.from_, path,
                    actor_path=path + (("actors", i) if spec.actors else ("actor",)))
        preps[pid] = prepare(ctx, w, rec, pid, spec, path, targets=targets, kind="test")
    for pid in actors:
        total: int | None = rolls.get(pid) if spec.actors else spec.roll
        if spec.actors and len(actors) == 1 and total is None:
            total = spec.roll
        given = dice.get(pid) if dice is not None else (one_dice if not spec.actors or len(actors) == 1 else None)
        preps[pid].roll = make_roll(ctx, w, pid, spec, path, total=total, dice=given,
                                    presne=preps[pid].count("presne"), prep=preps[pid])
        rec.data["rolls"][pid] = preps[pid].rolled.as_result()
    rec.data["order"] = sorted(actors, key=lambda p: -preps[p].rolled.total)
    ok = {pid: preps[pid].rolled.total >= target_no for pid in actors}
    for pid in actors:
        r = preps[pid].rolled.total
        rec.event("R-TEST", "test.success" if ok[pid] else "test.below", name=ev.who(pid), roll=r, target=target_no)
    exhausted: list[str] = []

    def try_exhaust(pid: str) -> bool:
        ans = choices.get(pid, "test")
        if not ans.exhaust:
            return False
        entry = exhaust(ctx, w, rec, payer=pid, vs="test", pool=preps[pid].pool, protected=[pid], answer=ans,
                        rule="CS-MULTI-2" if len(targets) > 1 else "R-TEST", use_armour=False,
                        why=ev.phrase("why.several_targets") if len(targets) > 1 else "")
        if entry is None:
            return False
        exhausted.append(pid)
        return True

    if mode == "individual":
        for pid in actors:
            success = ok[pid] or try_exhaust(pid)
            _test_outcome(ctx, w, rec, spec, pid, [pid], success, pid in exhausted, targets, preps[pid], choices=choices)
    elif mode == "any":
        success = any(ok.values())
        if success:
            rec.event("CS-COOP-2", "group.one_success")
        else:
            for pid in actors:
                if try_exhaust(pid):
                    success = True
                    rec.event("CS-COOP-2", "group.one_exhaustion", name=ev.who(pid))
                    break
        _group_outcome(ctx, w, rec, spec, actors, success, exhausted, targets, preps, choices=choices)
    else:  # all
        success = True
        for pid in actors:
            if not ok[pid] and not try_exhaust(pid):
                success = False
        if not success:
            rec.event("CS-MULTI-1", "group.failed")
        _group_outcome(ctx, w, rec, spec, actors, success, exhausted, targets, preps, choices=choices)
    if spec.long:
        for pid in actors:
            info = {"id": spec.long, "status": "completed" if rec.action(pid)["success"] else "interrupted",
                    "retry": pid in exhausted, "barred": list(w.longs.get(spec.long, {}).get("barred", []))}
            rec.action(pid)["long"] = info
            w.longs[spec.long] = info


def _test_outcome(ctx: Ctx, w: Working, rec: StepRecord, spec: TestSpec, pid: str, actors: list[str],
                  success: bool, bought: bool, targets: list[str], prep: Prepared, *,
                  choices: Choices | None = None) -> None:
    rec.action(pid)["success"] = success
    if not success:
        apply_effects(ctx, w, rec, spec.failure, [pid], actor=pid, source=ev.phrase("src.accepted_failure"), rule="R-ACC")
        return
    _land_success(ctx, w, rec, spec, pid, [pid], bought, targets, prep, [pid] if bought else [], choices=choices)


def _group_outcome(ctx: Ctx, w: Working, rec: StepRecord, spec: TestSpec, actors: list[str], success: bool,
                   exhausted: list[str], targets: list[str], preps: dict[str, Prepared], *,
                   choices: Choices | None = None) -> None:
    for pid in actors:
        rec.action(pid)["success"] = success
    if not success:
        for pid in actors:
            apply_effects(ctx, w, rec, spec.failure, [pid], actor=pid, source=ev.phrase("src.group_failure"), rule="CS-MULTI-1")
        return
    _land_success(ctx, w, rec, spec, actors[0], actors, bool(exhausted), targets, preps[actors[0]], exhausted,
                  choices=choices)


def _land_success(ctx: Ctx, w: Working, rec: StepRecord, spec: ActionSpec, lead: str, actors: list[str],
                  bought: bool, targets: list[str], prep: Prepared, exhausted: list[str], *,
                  choices: Choices | None = None) -> None:
    if targets:
        eff = spec.softened if bought and has_effect(spec.softened) else spec.effect
        landed = apply_effects(ctx, w, rec, eff, targets, actor=lead, payer=exhausted[0] if exhausted else None,
                               lstive=prep.lstive, source=ev.phrase("src.softened") if bought else ev.phrase("src.success"),
                               rule="CS-MULTI-2" if len(targets) > 1 else "R-TEST")
        for t in landed:
            for pid in actors:
                rec.affected(pid, t)
    else:
        if has_effect(spec.effect):
            landed = apply_effects(ctx, w, rec, spec.effect, [], actor=lead, lstive=prep.lstive, source=ev.phrase("src.success"),
                                   rule="R-TEST")
            for t in landed:
                rec.affected(lead, t)
        if bought and has_effect(spec.softened):
            for pid in exhausted:
                landed = apply_effects(ctx, w, rec, spec.softened, [pid], actor=pid, payer=pid,
                                       lstive=prep.lstive, source=ev.phrase("src.softened"), rule="R-TEST")
    for pid in actors:
        apply_effects(ctx, w, rec, spec.self_effect, [pid], actor=pid, lstive=prep.lstive, source=ev.phrase("src.own_gain"),
                      rule="R-TEST")
    if spec.followup is not None:
        # CS-FOL-1, §5: the follow-up has no `choices` of its own; the step's answer it.
        resolve_followup(ctx, w, rec, lead, spec.followup, targets or None, choices, ())


# --------------------------------------------------------------------------- declare

def resolve_declare(ctx: Ctx, w: Working, rec: StepRecord, spec: ActionSpec, path: tuple) -> None:
    """An obvious action without a roll (CS-PREP-1); nobody can react to it."""
    if spec.actor is None:
        raise violation(Message(N_("a declare step needs an `actor`")), "CS-PREP-1", path)
    pid = spec.actor
    check_awake_to_act(w, pid, path + ("actor",))      # R-AWARE: even an obvious action needs him awake
    if spec.from_ == "initiative" or spec.from_ == "delayed":
        main_action(ctx, w, rec, pid, spec.from_, path)
    targets = action_targets(ctx, w, spec, pid, path) if spec.targets or spec.area else []
    prep = prepare(ctx, w, rec, pid, spec, path, targets=targets)
    rec.action(pid)["success"] = True
    rec.event("CS-PREP-1", "declare.note" if spec.note else "declare", name=ev.who(pid), note=spec.note)
    if targets:
        for t in apply_effects(ctx, w, rec, spec.effect, targets, actor=pid, lstive=prep.lstive, rule="CS-PREP-1"):
            rec.affected(pid, t)
    apply_effects(ctx, w, rec, spec.self_effect, [pid], actor=pid, lstive=prep.lstive, source=ev.phrase("src.preparation"),
                  rule="CS-PREP-1")
    if spec.long:
        # Nobody can react to a declare (CS-PREP-1), so nothing interrupts it: completed (§7).
        _set_long(w, rec, pid, spec.long, "completed")


def _set_long(w: Working, rec: StepRecord, pid: str, long_id: str, status: str) -> None:
    """Records a long action (CS-DUR) that no contest could interrupt in this step."""
    info = {"id": long_id, "status": status, "retry": False,
            "barred": list(w.longs.get(long_id, {}).get("barred", []))}
    rec.action(pid)["long"] = info
    w.longs[long_id] = info


# --------------------------------------------------------------------------- race

def resolve_race(ctx: Ctx, w: Working, rec: StepRecord, spec: RaceSpec, choices: Choices, path: tuple) -> None:
    """CS-RACE-1: rolls decide who is faster; each roll also meets 9 for the obstacle."""
    actors = list(spec.actors)
    if len(actors) < 2:
        raise violation(Message(N_("a race needs at least two racers")), "CS-RACE-1", path + ("actors",))
    pool = pool_id(spec.pool)
    per_racer = spec.manoeuvres if isinstance(spec.manoeuvres, dict) else None
    for who in (per_racer or ()):
        if who not in actors:
            raise ScenarioError(Message(N_("{id} is not one of the racers"), id=repr(who)),
                                path=path + ("manoeuvres", who), rule="CS-RACE-1")
    preps: dict[str, Prepared] = {}
    for i, pid in enumerate(actors):
        main_action(ctx, w, rec, pid, None, path, actor_path=path + ("actors", i))
        bf = spec.bonus_from.get(pid) if isinstance(spec.bonus_from, dict) else spec.bonus_from
        mans = per_racer.get(pid, []) if per_racer is not None else spec.manoeuvres
        # a race's `means` is free text the action's model checks here (as it always did)
        means = cast(Any, spec.means)
        action = ActionSpec(actor=pid, pool=pool, label=spec.label, bonus_from=bf, means=means,
                            demanding=spec.demanding, manoeuvres=list(mans))
        # Each racer's action: conditions may forbid it or make it demanding (R-NAR, SCENARIO-FORMAT §4.1).
        preps[pid] = prepare(ctx, w, rec, pid, action, path, default_pool=pool, kind="race")
        preps[pid].roll = make_roll(ctx, w, pid, action, path, total=(spec.rolls or {}).get(pid),
                                    dice=(spec.dice or {}).get(pid), presne=preps[pid].count("presne"),
                                    prep=preps[pid])
        rec.data["rolls"][pid] = preps[pid].rolled.as_result()
    total = {pid: preps[pid].rolled.total for pid in actors}
    rec.data["order"] = sorted(actors, key=lambda p: -total[p])
    faster = {pid: [q for q in actors if total[q] > total[pid]] for pid in actors}
    beats = {pid: [q for q in actors if total[pid] > total[q]] for pid in actors}
    rec.data["race"] = {"faster_than": beats}
    for pid in actors:
        for q in actors:
            if q != pid and total[q] == total[pid] and actors.index(q) > actors.index(pid):
                rec.event("CS-RACE-1", "race.same", a=ev.who(pid), b=ev.who(q), total=total[pid])
    target = ctx.target
    for pid in actors:
        name = ev.who(pid)
        passed = True
        if has_effect(spec.obstacle):
            if total[pid] >= target:
                rec.event("CS-RACE-1", "race.overcomes", name=name, total=total[pid], target=target)
            else:
                ans = choices.get(pid, "test")
                entry = None
                if ans.exhaust:
                    entry = exhaust(ctx, w, rec, payer=pid, vs="test", pool=pool, protected=[pid], answer=ans,
                                    rule="CS-RACE-1", use_armour=False, why=ev.phrase("src.obstacle"))
                if entry is None:
                    passed = False
                    apply_effects(ctx, w, rec, spec.obstacle, [pid], actor=pid, source=ev.phrase("src.obstacle"), rule="CS-RACE-1")
                elif has_effect(spec.softened):
                    apply_effects(ctx, w, rec, spec.softened, [pid], actor=pid, payer=pid, source=ev.phrase("src.softened_plain"),
                                  rule="CS-RACE-1")
        kept_up = True
        for q in sorted(faster[pid], key=lambda x: -total[x]):
            rec.event("CS-RACE-1", "race.faster", faster=ev.who(q), a=total[q], name=name, b=total[pid])
            ans = choices.get(pid, q)
            entry = None
            if ans.exhaust:
                entry = exhaust(ctx, w, rec, payer=pid, vs=q, pool=pool, protected=[pid], answer=ans,
                                rule="CS-RACE-1", use_armour=False, why=ev.phrase("why.keeps_up"))
            if entry is None:
                kept_up = False
                for t in apply_effects(ctx, w, rec, spec.effect, [pid], actor=q, source=ev.phrase("src.slower", name=ev.who(q)),
                                       rule="CS-RACE-1"):
                    rec.affected(q, t)
        rec.action(pid)["success"] = passed
        rec.action(pid)["kept_up"] = kept_up
        if spec.long:
            # Nobody interrupts a racer (being slower is not an interruption): SCENARIO-FORMAT §7 gives
            # `completed` when the obstacle was met (or exhausted against), `continuing` when it took
            # the obstacle's consequence.
            _set_long(w, rec, pid, spec.long, "completed" if passed else "continuing")


# --------------------------------------------------------------------------- challenge

def affected_by(ctx: Ctx, w: Working, spec: ChallengeSpec, path: tuple) -> list[str]:
    """Who a výzva affects: `all` (everyone still in the conflict), ids, minus the exempt."""
    aff = spec.affects
    if aff is None:
        named = list(spec.react) + [p for p in spec.rolls if p not in spec.react]
        ids = named or w.in_conflict()
    elif aff == "all":
        ids = w.in_conflict()
    else:
        ids = as_list(aff)
        for i, pid in enumerate(ids):
            if pid not in w:
                raise violation(Message(N_("unknown participant {id} in affects"), id=repr(pid)), "R-CHAL",
                                path + ("affects", i))
    if spec.exempt is not None:
        exempt: Any = spec.exempt    # an ExemptSpec, or a mapping in a follow-up built by a plugin
        cond = exempt.condition if hasattr(exempt, "condition") else exempt.get("condition")
        if cond:
            ids = [p for p in ids if not any(c.name == cond for c in w.peek(p).conditions)]
    return [p for p in ids if w.peek(p).in_conflict]


def resolve_challenge(ctx: Ctx, w: Working, rec: StepRecord, spec: ChallengeSpec, choices: Choices | None,
                      path: tuple, *, affects: list[str] | None = None, followup: bool = False,
                      charge_narocnost: bool = True) -> list[str]:
    """R-CHAL / CS-ENV: each affected participant accepts, or undergoes the výzva if it reacts.

    Returns who suffered the effect.
    """
    choices = choices or Choices({}, path, w.id_set(), ctx.choose)
    pool = pool_id(spec.pool)
    target = spec.target if spec.target is not None else ctx.target
    # A participant out of the conflict (`mimo konflikt`) undergoes no výzva, however it is reached:
    # named in `affects`, `all`, or as a target of the action whose follow-up this is (one reading, §9).
    aff = [p for p in affects if w.peek(p).in_conflict] if affects is not None else affected_by(ctx, w, spec, path)
    title = spec.name or ev.phrase("challenge")
    rec.event("CS-FOL-1" if followup else "R-CHAL", "challenge.for", title=title,
              who=ev.joined(ev.who(p) for p in aff) if aff else ev.phrase("nobody"))
    # `react` of someone the výzva does not affect (not named, exempt, out of the conflict) decides
    # nothing: it does not roll and the log says so (SCENARIO-FORMAT §5, like an unused answer).
    for pid in spec.react:
        if pid not in aff and pid in w:
            rec.event("R-CHAL", "choice.unused", who=ev.who(pid))
    shielded: set[str] = set()
    # What a sleeper would react to (R-AWARE): the výzva itself, authorless, threatening those it affects.
    threat = viewbuild.bare_action(None, spec, pool, "challenge")
    threat.targets = list(aff)
    threatened = threatened_targets(spec.effect, aff, None)
    # Protecting counters first (CS-ENV-3).
    for i, c in enumerate(spec.counters):
        shielded.update(_protect(ctx, w, rec, spec, choices, i, c, path, aff, pool, target, threat, threatened,
                                 shielded))
    suffered: list[str] = []
    for pid in aff:
        if pid not in shielded:
            suffered += _undergo(ctx, w, rec, spec, choices, pid, path, pool, target, threat, threatened, title,
                                 charge_narocnost)
    rec.data.setdefault("affected", [])
    for p in suffered:
        if p not in rec.data["affected"]:
            rec.data["affected"].append(p)
    return suffered


def resolve_followup(ctx: Ctx, w: Working, rec: StepRecord, actor: str, followup: Any,
                     affects: list[str] | None, choices: Choices | None, path: tuple, *,
                     shielded: frozenset[str] = frozenset()) -> None:
    """CS-FOL-1, §4.1 `followup`: the výzvy a follow-up action makes (the plugins give them as specs),
    right after the action of `actor`. An action with targets passes `affects`, those it got through
    to (a follow-up naming others lands only on those of them, on nobody when it reached nobody); an
    action without targets passes None (the follow-up's own `affects`), less `shielded`, whom a
    winning protection shielded (CS-IND-1)."""
    for spec in ctx.hooks.followups(ctx, followup, path):
        rec.event("CS-FOL-1", "followup", title=spec.name or ev.phrase("challenge"), name=ev.who(actor))
        aff = affects
        if aff is not None and spec.affects not in (None, "all"):
            named = [spec.affects] if isinstance(spec.affects, str) else list(spec.affects)
            aff = [p for p in named if p in aff]
        elif aff is None and shielded:
            aff = [p for p in affected_by(ctx, w, spec, path + ("challenge",)) if p not in shielded]
        resolve_challenge(ctx, w, rec, spec, choices, path + ("challenge",), affects=aff, followup=True)


def _protect(ctx: Ctx, w: Working, rec: StepRecord, spec: ChallengeSpec, choices: Choices, i: int, c: Any,
             path: tuple, aff: list[str], pool: PoolId, target: int, threat: Any, threatened: set[str],
             shielded: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """One protecting counter against a výzva (CS-ENV-3, CS-OPT-AID): whom it shields (none when it
    fails); `shielded`: whom earlier counters already shield."""
    cpath = path + ("counters", i)
    if c.actor is None or c.actor not in w:
        raise violation(Message(N_("a protecting counter needs a known `actor`")), "CS-ENV-3", cpath)
    check_awake(ctx, w, rec, c, cpath, threat, threatened)      # R-AWARE: a sleeper protects nobody
    protects = list(c.protects or [c.actor])
    names = [m if isinstance(m, str) else m.name for m in c.manoeuvres]
    wide = len(protects) > 1 or any(n in ("rozsahle", "rozsáhle") for n in names)
    if wide and not ctx.profile.is_on("rozsahla-protiakce"):
        raise violation(Message(N_("protecting several from a výzva needs the optional rule rozsahla-protiakce")),
                        "CS-OPT-AID", cpath, hint=enable_hint("rozsahla-protiakce", cli=False))
    for j, pid in enumerate(protects):
        if pid not in aff:
            raise violation(Message(N_("{name} protects {other}, whom the výzva does not threaten"),
                name=w.peek(c.actor).name, other=w.peek(pid).name), "CS-ENV-3", cpath + ("protects", j))
    src = counter_source(ctx, w, rec, c.actor, c.from_, c.actor in aff, cpath, what="protect")
    if src == "obrana" and protects != [c.actor]:
        raise violation(Message(N_("{name} acts from defence (obrana): it can protect only itself (keep a delayed "
                                   "initiative to protect others)"), name=w.peek(c.actor).name), "CS-ENV-3",
                        cpath + ("protects",))
    prep = prepare(ctx, w, rec, c.actor, c, cpath, from_obrana=src == "obrana",
                   implied=("obrana",) if src == "obrana" else (), default_pool=pool, kind="protect")
    prep.protects = list(protects)
    prep.roll = make_roll(ctx, w, c.actor, c, cpath, total=c.roll if c.roll is not None else spec.rolls.get(c.actor),
                          dice=c.dice, presne=prep.count("presne"), prep=prep)
    rec.data["rolls"][c.actor] = prep.rolled.as_result()
    ok = prep.rolled.total >= target
    bought = False
    if not ok:
        ans = choices.get(c.actor, "test")
        if ans.exhaust:
            per_target = ctx.param("challenge_protect_cost") == "per-target"
            if exhaust(ctx, w, rec, payer=c.actor, vs="test", pool=prep.pool, protected=protects, answer=ans,
                       rule="CS-ENV-3", use_armour=False, once=not per_target,
                       why=ev.phrase("why.each_protected" if per_target else "why.once_protected")) is not None:
                ok = bought = True
    rec.action(c.actor)["success"] = ok
    if ok:
        rec.event("CS-ENV-3", "env.protects", name=ev.who(c.actor), who=ev.joined(ev.who(p) for p in protects))
        if bought and has_effect(spec.softened):
            # §4.1 `softened`: the protector's exhaustion decided the matter for everyone it newly
            # shielded, so the softened consequence lands on each of them instead of `effect`.
            apply_effects(ctx, w, rec, spec.softened, [p for p in protects if p not in shielded], actor=None,
                          payer=c.actor, source=ev.phrase("src.softened_plain"), rule="CS-ENV-3")
        apply_effects(ctx, w, rec, c.self_effect, [c.actor], actor=c.actor, source=ev.phrase("src.own_gain"), rule="CS-ENV-3")
    else:
        rec.event("CS-ENV-3", "env.protected_nobody", name=ev.who(c.actor), roll=prep.rolled.total, target=target)
    return protects if ok else []


def _undergo(ctx: Ctx, w: Working, rec: StepRecord, spec: ChallengeSpec, choices: Choices, pid: str, path: tuple,
             pool: PoolId, target: int, threat: Any, threatened: set[str], title: Any, charge_narocnost: bool) -> list[str]:
    """One affected participant: accepts the výzva, or undergoes it when it reacts (R-CHAL, CS-ENV-2);
    returns [pid] when it suffers the effect."""
    how, activated = _reaction(ctx, pid, spec.react.get(pid))
    rpath = path + ("react", pid)
    if how is not None:
        _check_awake_to_undergo(ctx, w, rec, pid, pool, spec, activated, threat, threatened, rpath, title)
    if how is None:
        if spec.deadly:
            rec.event("CS-ENV-2", "env.deadly_no_react", name=ev.who(pid), title=title)
        return _suffer(ctx, w, rec, spec.effect, pid, ev.phrase("src.no_roll"))
    action = ActionSpec(actor=pid, pool=pool, label=spec.label, bonus_from=spec.bonus_from.get(pid),
                        demanding=spec.demanding, activate=list(activated))
    # Undergoing the výzva is an action (R-CHAL): a condition may forbid it, and a náročná
    # výzva costs its náročnost before the roll like any action (R-NAR).
    _check_allowed(ctx, w.peek(pid), action, rpath)
    naro = narocnost(ctx, w.peek(pid), action) * int(ctx.param("narocnost_cost")) if charge_narocnost else 0
    if not _can_react(ctx, w, rec, pid, how, pool, rpath, spec, extra=naro):
        if spec.deadly:
            rec.event("CS-ENV-2", "env.deadly_cannot", name=ev.who(pid), title=title)
        return _suffer(ctx, w, rec, spec.effect, pid, ev.phrase("src.cannot_react"))
    if naro:
        key = w.peek(pid).pool_for(pool)
        w[pid].change_resource(key, -naro)
        rec.event("R-NAR", "challenge.very" if naro > int(ctx.param('narocnost_cost')) else "challenge.demanding",
                  name=ev.who(pid), cost=naro, pool=pool_cs(key))
    undergo = Prepared(pid, action, path, pool, pool, kind="challenge")
    if activated:
        # R-ABIL-ACT: abilities activated for undergoing it pay before the roll, as on any action.
        bill = _Bill(ctx, w, rec, pid, undergo)
        for i, item in enumerate(activated):
            _activate(ctx, w, rec, w.peek(pid), undergo, item, rpath + ("activate", i), bill)
        bill.pay(rpath)
    roll = make_roll(ctx, w, pid, action, path, total=spec.rolls.get(pid), dice=spec.dice.get(pid), prep=undergo)
    rec.data["rolls"][pid] = roll.as_result()
    if roll.total >= target:
        rec.action(pid)["success"] = True
        rec.event("R-CHAL", "challenge.withstood", name=ev.who(pid), roll=roll.total, target=target)
        return []
    ans = choices.get(pid, "test")
    entry = None
    if ans.exhaust:
        entry = exhaust(ctx, w, rec, payer=pid, vs="test", pool=pool, protected=[pid], answer=ans,
                        rule="R-CHAL", use_armour=pool == "telo",
                        winner=Prepared("", action, path, pool, pool, kind="challenge",
                                        means=getattr(spec, "means", None)),
                        why=f"{roll.total} < {target}")
    rec.action(pid)["success"] = entry is not None
    if entry is None:
        return _suffer(ctx, w, rec, spec.effect, pid, ev.phrase("src.accepts", roll=roll.total, target=target))
    elif has_effect(spec.softened):
        apply_effects(ctx, w, rec, spec.softened, [pid], actor=None, payer=pid, source=ev.phrase("src.softened_plain"), rule="R-CHAL")
    return []


def _reaction(ctx: Ctx, pid: str, value: Any) -> tuple[str | None, list]:
    """A `react` entry as (where from, abilities activated): the plain value (`obrana`) or the
    mapping `{from, activate}`, whose `from` defaults to the initiative while unused, else obrana."""
    if value is None or isinstance(value, str):
        return value, []
    how = value.from_ or ("obrana" if pid in ctx.round.used else "initiative")
    return how, list(value.activate)


def _check_awake_to_undergo(ctx: Ctx, w: Working, rec: StepRecord, pid: str, pool: PoolId, spec: ChallengeSpec,
                            activated: list, threat: Any, threatened: set[str], path: tuple, title: str) -> None:
    """R-AWARE: a sleeper does not react to a výzva either — he suffers it unless someone protects
    him (CS-ENV-2) — unless an ability lets him react as if awake (Jedno oko otevřené, activated in
    his `react` entry, against a výzva threatening him or his party)."""
    declared = viewbuild.bare_action(pid, ActionSpec(actor=pid, pool=pool, label=spec.label,
                                                     activate=list(activated)), pool, "challenge")
    example = f"react: {{{pid}: {{from: obrana, activate: [jedno-oko-otevrene]}}}}"
    check_awake_reaction(
        ctx, w, rec, pid, declared, threat, threatened, path,
        N_("{name} is asleep (condition {condition}): not aware, it cannot react to the výzva „{title}“; it "
           "suffers it unless someone protects it"),
        Message(N_("leave it out of `react` (it accepts the výzva; an awake participant may protect it with a counter), "
                   "remove the condition with an earlier effect (`remove_condition`), or activate an ability that lets it "
                   "react ({example})"), example=example), title=title)


def _suffer(ctx: Ctx, w: Working, rec: StepRecord, effect, pid: str, why: str | Event) -> list[str]:
    rec.action(pid)["success"] = False
    return apply_effects(ctx, w, rec, effect, [pid], actor=None, source=why, rule="R-CHAL")


def _can_react(ctx: Ctx, w: Working, rec: StepRecord, pid: str, how: str, pool: PoolId, path: tuple,
               spec: ChallengeSpec, extra: int = 0) -> bool:
    """Undergoing a výzva is an action: delayed initiative, or obrana paid (or free) — CS-ENV-2.

    `extra` is the náročnost the reaction costs from the pool besides obrana: a participant who
    cannot pay it cannot react either (CS-ENV-2).
    """
    name = w.peek(pid).name
    p = w.peek(pid)
    key = p.pool_for(pool)
    if how in ("delayed", "initiative"):
        if pid in ctx.round.used:
            raise violation(Message(N_("{name} has no initiative action left to undergo the výzva; react with obrana"),
                                name=name),
                            "R-CHAL", path)
        if p.resource(key) < extra:
            rec.event("CS-ENV-2", "challenge.cannot_pay", name=ev.who(pid), cost=extra, pool=pool_cs(key))
            return False
        ctx.round.used.add(pid)
        return True
    if p.resource(key) < extra:
        rec.event("CS-ENV-2", "challenge.cannot_pay", name=ev.who(pid), cost=extra, pool=pool_cs(key))
        return False
    prep = Prepared(pid, ActionSpec(actor=pid, pool=pool), path, pool, pool, ["obrana"])
    from .actions import free_manoeuvre

    via = free_manoeuvre(ctx, w, p, prep, "obrana", None)
    if via:
        rec.data["manoeuvres"].append({"by": pid, "name": "obrana", "paid": "free", "cost": 0, "via": via})
        rec.event("R-MAN-2", "challenge.obrana_free", name=ev.who(pid), via=via)
        return True
    if p.resource(key) >= 1 + extra:
        w[pid].change_resource(key, -1)
        rec.data["manoeuvres"].append({"by": pid, "name": "obrana", "paid": key, "cost": 1, "via": None})
        return True
    if p.vyhody >= 1:
        w[pid].vyhody -= 1
        rec.data["manoeuvres"].append({"by": pid, "name": "obrana", "paid": "vyhoda", "cost": 1, "via": None})
        return True
    return False
