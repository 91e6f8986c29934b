"""Builds the read-only views (drd_cli.views) that hooks are shown, from the engine's own state.

Views are built only for a hook that some enabled plugin implements (the façade checks first),
so a run without such plugins pays nothing for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import views
from ..views import ReadOnly, _ro

if TYPE_CHECKING:     # the classes are made on first use (drd_cli.views); named here for checkers
    from ..views._action import ActionView, PairView
    from ..views._exhaustion import ExhaustionView
    from ..views._history import ConflictView, HistoryView, Tally
    from ..views._participant import ParticipantView
    from ..views._records import BreakdownEntry


def participant(p: Any) -> ParticipantView:
    """The view of a PState as it is now."""
    items = tuple(views.ItemView(i.name, i.armour, i.free, i.per, tuple(i.needs), tuple(i.enables), p.item_works(i))
                  for i in p.equipment)
    by_source = ((("armour", p.armour_base),) if p.armour_base else ()) + tuple(
        (i.name, i.armour) for i in p.equipment if i.armour and p.item_works(i))
    working = tuple(a for a in p.abilities if p.has_ability(a))
    return views.ParticipantView(
        id=p.id, name=p.name, side=p.side, is_hero=p.is_hero, pools=_ro(p.pools), sudba=p.sudba,
        maxima=_ro(p.maxima), ohrozeni=p.ohrozeni, vyhody=p.vyhody, armour=p.armour, armour_by_source=by_source,
        abilities=working, ability_options=_ro({k: _ro(v) for k, v in getattr(p, "ability_options", {}).items()}),
        equipment=items, conditions=tuple(c.name for c in p.conditions), jizvy=tuple(p.jizvy), levels=_ro(p.levels),
        charakteristika=p.charakteristika, covers=tuple(p.covers) if p.covers is not None else None,
        suspicion=tuple(p.suspicion), zone=p.zone, count=p.count, traits=tuple(getattr(p, "traits", ())),
        events=tuple(getattr(p, "events", ())), in_conflict=p.in_conflict,
        suroviny=getattr(p, "suroviny", None))


def action(ctx: Any, w: Any, prep: Any) -> ActionView | None:
    """The view of a Prepared action (or any object with its fields); none for no action."""
    return None if prep is None else _action(ctx, w, prep)


def _action(ctx: Any, w: Any, prep: Any) -> ActionView:
    spec = prep.spec
    targets = tuple(getattr(prep, "targets", ()) or ())
    states = tuple(participant(w.peek(t)) for t in targets if t in w)
    area = bool(getattr(spec, "area", False))
    activated = tuple(a if isinstance(a, str) else a.id for a in (getattr(spec, "activate", None) or ()))
    rec = getattr(ctx, "record", None)
    roll = getattr(prep, "roll", None)
    return views.ActionView(
        actor=prep.actor, kind=getattr(prep, "kind", "action"), label=getattr(spec, "label", None),
        skill=getattr(spec, "skill", None), means=getattr(prep, "means", None) or getattr(spec, "means", None),
        pool=prep.pool,
        threat_pool=prep.threat_pool, targets=targets, target_states=states, area=area,
        area_via=getattr(spec, "area_via", None), zone=getattr(spec, "zone", None),
        group=getattr(spec, "group", None), group_size=sum(s.count for s in states) if area else None,
        manoeuvres=tuple(prep.manoeuvres), from_=getattr(prep, "source", None) or getattr(spec, "from_", None),
        round=ctx.round.number, step=rec.data.get("id") if rec is not None else None,
        long=getattr(spec, "long", None), activated=activated, protects=tuple(getattr(prep, "protects", ()) or ()),
        roll=roll.total if roll is not None else None, spec=ReadOnly(spec),
        **_opponents_of(ctx, w, prep.actor))


def _opponents_of(ctx: Any, w: Any, pid: str | None) -> dict[str, Any]:
    """`opponents` and `opponent_beings` of an ActionView (round context)."""
    if pid is None or pid not in w or getattr(ctx, "round", None) is None:
        return {}
    ids, beings = opponents(ctx, w, pid)
    return {"opponents": ids, "opponent_beings": beings}


def opponents(ctx: Any, w: Any, pid: str) -> tuple[tuple[str, ...], int]:
    """The other-side participants `pid` faces in the current round, and how many beings they are.

    Read from the round's steps as the scenario declares them (earlier and later ones alike): the
    actor of every action or counter of a `test`, `contest` or `declare` step whose targets
    (`targets`, a plošná action's zone, `threatens`; a harming counter aims at the action's
    actor) include `pid`, and everyone such an action of `pid` itself aims at. "Other side": a
    different `side`, or no side given for either. Beings: their `count` summed. Steps of plugin
    step types (`hide`), races and výzvy do not count (docs/rules.md "Ability readings").
    """
    cache = getattr(ctx.round, "opponents", None)
    if cache is None:
        cache = {}
    got: tuple[tuple[str, ...], int] | None = cache.get(pid)
    if got is not None:
        return got
    me = w.peek(pid)

    def foe(x: str) -> bool:
        if x == pid or x not in w:
            return False
        side = w.peek(x).side
        return me.side is None or side is None or side != me.side

    def aims(spec: Any, actor: str, answered: str | None) -> list[str]:
        raw = getattr(spec, "targets", None)
        ids = [raw] if isinstance(raw, str) else list(raw or ())
        ids += list(getattr(spec, "threatens", None) or ())
        if getattr(spec, "area", False) and getattr(spec, "zone", None) is not None:
            ids += [q for q in w.ids() if q != actor and w.peek(q).zone == spec.zone]
        if answered is not None and getattr(spec, "kind", "harm") != "protect":
            ids.append(answered)
        return ids

    found: list[str] = []
    for step in getattr(ctx.round, "steps", None) or ():
        acts: list[tuple[Any, str | None]] = []
        for spec in (getattr(step, "test", None), getattr(step, "declare", None)):
            if spec is not None:
                acts.append((spec, None))
        contest = getattr(step, "contest", None)
        if contest is not None:
            main = contest.action
            acts.append((main, None))
            acts += [(c, getattr(c, "answers", None) or main.actor) for c in contest.counters]
        for spec, answered in acts:
            actor = getattr(spec, "actor", None)
            if actor is None or actor not in w:
                continue
            ids = aims(spec, actor, answered)
            if actor == pid:
                found += [x for x in ids if foe(x)]
            elif pid in ids and foe(actor):
                found.append(actor)
    uniq = tuple(dict.fromkeys(found))
    got = cache[pid] = (uniq, sum(w.peek(x).count for x in uniq))
    return got


class _Side:
    """A stand-in Prepared for a view of a výzva or test that has no prepared action."""

    def __init__(self, actor: str | None, spec: Any, pool: str, kind: str):
        self.actor, self.spec, self.pool, self.threat_pool, self.kind = actor, spec, pool, pool, kind
        self.manoeuvres: list[str] = []
        self.targets: list[str] = []
        self.roll = None


def bare_action(actor: str | None, spec: Any, pool: str, kind: str) -> _Side:
    return _Side(actor, spec, pool, kind)


def pair(ctx: Any, w: Any, act: Any, c: Any, ra: int, rc: int) -> PairView:
    # Both sides of a pair have a prepared action: each was rolled before the pair is decided.
    return views.PairView(actor=participant(w.peek(act.pid)), counter=participant(w.peek(c.pid)),
                    actor_action=_action(ctx, w, act.prep), counter_action=_action(ctx, w, c.prep),
                    actor_total=ra, counter_total=rc, tie_rule=str(ctx.param("tie")))


def exhaustion(ctx: Any, w: Any, *, payer: str, protected: list[str], vs: str, winner: Any, pool: str,
               kind: str, rule: str, breakdown: tuple[BreakdownEntry, ...], paid_by: str | None) -> ExhaustionView:
    win_pid = winner.actor if winner is not None and vs != "test" else None
    return views.ExhaustionView(
        payer=participant(w.peek(payer)), protected=tuple(participant(w.peek(x)) for x in protected if x in w),
        vs=vs, winner=participant(w.peek(win_pid)) if win_pid and win_pid in w else None,
        action=action(ctx, w, winner), pool=pool, kind=kind, rule=rule, breakdown=breakdown,
        paid_by=participant(w.peek(paid_by)) if paid_by else None)


# --------------------------------------------------------------------------- history (API 3)

def _pools_of(p: Any) -> dict[str, int]:
    return dict(p.pools) if p.pools is not None else {"sudba": p.sudba or 0}


def _accepted_now(rec: Any, pid: str) -> int:
    """Consequences that landed on `pid` so far in the step being resolved (its record)."""
    return accepted_in(rec.data, pid) if rec is not None else 0


def accepted_in(data: dict[str, Any], pid: str) -> int:
    """Consequences that landed on `pid` in a finished step's record (see `_accepted_now`)."""
    return sum(1 for actor, a in data.get("actions", {}).items() if actor != pid and pid in a.get("affected", ())) \
        + (1 if pid in (data.get("affected") or ()) else 0)


def _minus(now: dict[str, int], then: dict[str, int]) -> Any:
    return _ro({k: n - then.get(k, 0) for k, n in now.items() if n - then.get(k, 0)})


def _gone(then: Any, now: Any) -> tuple[str, ...]:
    held = [i.name for i in now.equipment]
    out = []
    for item in then.equipment:
        if item.name in held:
            held.remove(item.name)
        else:
            out.append(item.name)
    return tuple(out)


def _tally(then: Any, now: Any, accepted: int) -> Tally:
    """What happened to a participant between two of its states (`then` earlier)."""
    return views.Tally(paid=_minus(now.paid, then.paid), exhausted=now.exhausted - then.exhausted,
                       exhaustions=now.exhaustions - then.exhaustions, gained=_minus(now.gained, then.gained),
                       accepted=accepted, jizvy=tuple(now.jizvy[len(then.jizvy):]), items=_gone(then, now))


def history(ctx: Any, w: Any, pid: str) -> HistoryView | None:
    """`pid`'s history in this conflict and in the current step (docs/plugins.md "History")."""
    if w is None or pid not in w:
        return None
    now = w.peek(pid)
    start = (getattr(w, "start", None) or {}).get(pid, now)
    before = w.before(pid)
    here = _accepted_now(getattr(ctx, "record", None), pid)
    return views.HistoryView(participant=pid, start=_ro(_pools_of(start)), start_ohrozeni=start.ohrozeni,
                             conflict=_tally(start, now, now.accepted + here), step=_tally(before, now, here))


def conflict(ctx: Any, w: Any) -> ConflictView | None:
    """The conflict as it stands (round, step, starting pools) with each participant's history."""
    if w is None:
        return None
    start = getattr(w, "start", None) or {}
    rec = getattr(ctx, "record", None)
    return views.ConflictView(round=ctx.round.number, step=rec.data.get("id") if rec is not None else None,
                              start=_ro({pid: _ro(_pools_of(p)) for pid, p in start.items()}),
                              _history=lambda pid: history(ctx, w, pid))
