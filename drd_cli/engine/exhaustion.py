"""Exhausting (R-EXH, CS-FOR-2, R-EXH-4): the cost (armour, mocně, plugins' adjustments), a Jizva or
a sacrifice that pays it, and who pays for whom."""

from __future__ import annotations

from typing import Any

from ..errors import DocPath, Message, ScenarioError
from ..i18n import N_
from ..scenario.models import norm_pool
from .. import views
from ..views import BreakdownEntry, JizvaView
from . import events as ev
from .events import Event
from .context import Answer, Ctx, StepRecord, violation
from .state import PState, Working
from .costs import _cap, _cost_word
from .rolls import Prepared, pool_cs


# --------------------------------------------------------------------------- exhaustion

def take_gain(ctx: Ctx, w: Working, rec: StepRecord, pid: str, pool: str | None, jizva: dict[str, Any] | None,
              sacrifice: str | None, path: DocPath, purpose: str = "exhaust",
              extra: list[tuple[str, int]] | None = None) -> dict[str, Any]:
    """R-EXH-4: points from a Jizva or a sacrificed item, added to the pool about to be paid;
    a Jizva yields more where an ability says so (R-ABIL-SCAR, `drd_jizva_yield`)."""
    p = w[pid]
    gained: dict[str, Any] = {"jizva": None, "sacrifice": None}
    if jizva:
        jpool = norm_pool(jizva.get("pool")) or pool
        amount = int(jizva.get("gain", 0))
        if extra is None:
            extra = ctx.hooks.jizva_yield(ctx, p, _jizva_view(p, jizva, jpool or "telo", purpose))
        for plugin, n in extra:
            ctx.hooks.acted.add(plugin)
            rec.event("R-ABIL-SCAR", "jizva.yields_more", name=ev.who(p.id), jizva=jizva["name"], n=n,
                      source=ctx.hooks.title(plugin))
        amount += sum(n for _p, n in extra)
        p.change_resource(p.pool_for(jpool), amount)
        p.jizvy.append(jizva["name"])
        gained["jizva"] = {"name": jizva["name"], "gain": amount}
        if extra:
            gained["jizva"]["extra"] = [{"source": s, "amount": n} for s, n in extra]
        rec.event("R-EXH-4", "jizva.takes", name=ev.who(p.id), jizva=jizva["name"], amount=amount,
                  pool=pool_cs(p.pool_for(jpool)))
    if sacrifice:
        if not p.has_item(sacrifice):
            raise violation(Message(N_("{name} cannot sacrifice {item}: not held"), name=p.name, item=repr(sacrifice)),
                            "R-EXH-4", path + ("sacrifice",))
        amount = int(ctx.param("sacrifice_gain"))
        p.equipment = [i for i in p.equipment if i.name != sacrifice]
        p.change_resource(p.pool_for(pool), amount)
        gained["sacrifice"] = {"name": sacrifice, "gain": amount}
        rec.event("R-EXH-4", "jizva.sacrifices", name=ev.who(p.id), item=sacrifice, amount=amount,
                  pool=pool_cs(p.pool_for(pool)))
    return gained


def armour_against(ctx: Ctx, w: Working, protected: str, winner: Prepared | None) -> int:
    """The armour discount of `protected` against a bodily winning action (R-EXH-3, plugins adjust)."""
    parts, adjust = _armour_parts(ctx, w, protected, winner)
    return max(0, -sum(a for _s, a in parts) - sum(a for _s, a in adjust))


def _armour_parts(ctx: Ctx, w: Working, protected: str, winner: Prepared | None
                  ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """R-EXH-3: ([(item or "armour", −n)], [(plugin, +n)]): worn armour by source, and what the
    API 1 hook `drd_armour_adjustment` takes off it (never below 0), as cost changes."""
    if winner is None or winner.threat_pool != "telo":
        return [], []
    p = w.peek(protected)
    parts = [(src, -n) for src, n in _armour_sources(p)]
    worn = -sum(a for _s, a in parts)
    adjust: list[tuple[str, int]] = []
    left = worn
    for plugin, change in ctx.hooks.armour_adjust(ctx, w, p, winner):
        # A plugin's change to the armour, as a change to the cost: armour −1 → cost +1, floored so
        # the armour never goes below 0 (docs/plugins.md).
        effect = -max(change, -left)
        if effect:
            adjust.append((plugin, effect))
            left += -effect
    return parts, adjust


def _armour_sources(p: PState) -> list[tuple[str, int]]:
    out = [("armour", p.armour_base)] if p.armour_base else []
    return out + [(i.name, i.armour) for i in p.equipment if i.armour and p.item_works(i)]


def exhaustion_breakdown(ctx: Ctx, w: Working, payer: str, protected: list[str], winner: Prepared | None,
                         *, deny: bool = False, use_armour: bool = True, vs: str = "", pool: str = "telo",
                         kind: str = "protect", rule: str = "R-EXH-1", paid_by: str | None = None
                         ) -> list[BreakdownEntry]:
    """R-EXH-1/3, CS-FOR-2 with every plugin's say: per protected Ohrožení − armour + mocně, then
    `drd_exhaustion_cost` adjustments (summed), the floor at 0, and `drd_exhaustion_cap` (the lowest)."""
    ohr = w.peek(payer).ohrozeni
    mocne = winner.mocne if winner else 0
    core: list[BreakdownEntry] = []
    if deny or not protected:
        core.append(BreakdownEntry(None, ohr, (), mocne, (), max(0, ohr + mocne)))
    else:
        for pid in protected:
            parts, adjust = _armour_parts(ctx, w, pid, winner) if use_armour else ([], [])
            raw = ohr + sum(a for _s, a in parts) + mocne + sum(a for _s, a in adjust)
            adj = tuple(adjust) + ((("floor", -raw),) if raw < 0 else ())
            core.append(BreakdownEntry(pid, ohr, tuple(parts), mocne, adj, max(0, raw)))
    hooks = ctx.hooks
    if not hooks.has("drd_exhaustion_cost", "drd_exhaustion_cap"):
        return core
    from . import viewbuild

    view = viewbuild.exhaustion(ctx, w, payer=payer, protected=list(protected), vs=vs, winner=winner, pool=pool,
                                kind="deny" if deny else kind, rule=rule, breakdown=tuple(core), paid_by=paid_by)
    out: list[BreakdownEntry] = []
    rec = getattr(ctx, "record", None)
    for entry in core:
        adds, caps = hooks.exhaustion_adjust(ctx, w, view, entry)
        # R-EXH-3: the floor at 0 is taken once, after every plugin's change (a plugin lowering the
        # armour raises a cost that may still be below 0), so the core's own floor is undone first.
        adjustments = [a for a in entry.adjustments if a[0] != "floor"]
        cost = entry.cost - sum(n for src, n in entry.adjustments if src == "floor")
        for plugin, amount, note in adds:
            adjustments.append((plugin, amount))
            cost += amount
            hooks.acted.add(plugin)
            if note and rec is not None:
                rec.log(plugin, note)
        if cost < 0:
            adjustments.append(("floor", -cost))
            cost = 0
        if caps:
            plugin, cap = min(caps, key=lambda c: (c[1], c[0]))
            if cost > cap:
                adjustments.append((plugin, max(0, cap) - cost))
                cost = max(0, cap)
                hooks.acted.add(plugin)
        out.append(BreakdownEntry(entry.protected, entry.ohrozeni, entry.armour, entry.mocne, tuple(adjustments),
                                  cost))
    return out


def exhaustion_cost(ctx: Ctx, w: Working, payer: str, protected: list[str], winner: Prepared | None,
                    *, deny: bool = False, use_armour: bool = True) -> int:
    """R-EXH-1/3, CS-FOR-2: per protected max(0, Ohrožení − armour + mocně); deny: Ohrožení + mocně
    (plus the plugins' adjustments: `exhaustion_breakdown`)."""
    return sum(e.cost for e in exhaustion_breakdown(ctx, w, payer, protected, winner, deny=deny,
                                                     use_armour=use_armour))


def exhaust(ctx: Ctx, w: Working, rec: StepRecord, *, payer: str, vs: str, pool: str | None,
            protected: list[str], answer: Answer | None, winner: Prepared | None = None,
            denied: str | None = None, rule: str = "R-EXH-1", why: str | Event = "", use_armour: bool = True,
            cost: int | None = None, once: bool = False) -> dict[str, Any] | None:
    """Pays one exhaustion and raises Ohrožení by exactly 1; refuses (exit 1) when unaffordable.

    The cost is `exhaustion_breakdown`'s (the core's with the plugins' adjustments), recorded as the
    entry's `breakdown`; `once`: one payer's Ohrožení for all protected (CS-ENV-3), `cost`: a price
    the caller fixed. `answer.paid_by`: someone else's points pay it — all of it, or the part a
    plugin allows (R-ABIL-SHARE); it stays the payer's exhaustion (its Ohrožení prices it and rises).
    A plugin may forbid it (`drd_may_exhaust`): a written answer is then exit 1, a --choose policy
    accepts instead. Returns the `exhaustions[]` entry, or None when a --choose policy answer cannot
    (or may not) be paid (a policy never forces an illegal payment; written answers do raise).
    """
    p = w.peek(payer)
    key = p.pool_for(pool)
    helper = answer.paid_by if answer is not None else None
    if helper == payer:
        helper = None
    kind = "test" if vs == "test" else "protect"
    if cost is not None or once:
        ohr = p.ohrozeni
        fixed = ohr if cost is None else cost
        adj = (("fixed", fixed - ohr),) if fixed != ohr else ()
        breakdown = [BreakdownEntry(None, ohr, (), 0, adj, fixed)]
    else:
        breakdown = exhaustion_breakdown(ctx, w, payer, protected, winner, deny=denied is not None and not protected,
                                         use_armour=use_armour, vs=vs, pool=key, kind=kind, rule=rule,
                                         paid_by=helper)
    cost = sum(e.cost for e in breakdown)
    if not _may_exhaust(ctx, w, rec, payer, protected, winner, breakdown, answer, vs=vs, key=key,
                        kind="deny" if denied is not None and not protected else kind, rule=rule, helper=helper):
        return None
    jizva = answer.jizva if answer else None
    sacrifice = answer.sacrifice if answer else None
    path = answer.path if answer else ()
    share: tuple[str, str, int] | None = None       # (helper, its pool, points it pays)
    if helper is not None and answer is not None:
        share = _exhaust_helper(ctx, w, rec, payer, helper, key, cost, winner, answer)
    own = cost - (share[2] if share else 0)         # points the payer pays itself
    src, source_key = (w.peek(share[0]), share[1]) if share and not own else (p, key)
    if answer is not None and not answer.explicit:
        if answer.max_cost is not None and cost > answer.max_cost:
            rec.event(rule, "exhaust.too_dear", name=ev.who(payer), cost=cost, pool=pool_cs(key), max=answer.max_cost)
            return None
        if src.resource(source_key) < (own or cost) or (share and w.peek(share[0]).resource(share[1]) < share[2]):
            rec.event(rule, "exhaust.cannot_afford", name=ev.who(payer), cost=cost, pool=pool_cs(key),
                      have=src.resource(source_key))
            return None
    jizva_extra = _afford(ctx, w, p, key, pool, cost, own, share, jizva, sacrifice, path)
    gained = take_gain(ctx, w, rec, payer, key, jizva, sacrifice, path, extra=jizva_extra)
    wp = w[payer]
    before = wp.ohrozeni
    if own:
        wp.change_resource(key, -own)
    if share:
        w[share[0]].change_resource(share[1], -share[2])
    wp.ohrozeni = before + 1
    wp.exhausted += cost
    wp.exhaustions += 1
    entry = {"by": payer, "vs": vs, "pool": key, "cost": cost, "protected": list(protected), "denied": denied,
             "ohrozeni": [before, wp.ohrozeni], "gained": gained, "breakdown": [e.as_result() for e in breakdown]}
    if share is not None:
        paid_by: dict[str, Any] = {"id": share[0], "pool": share[1]}
        entry["paid_by"] = paid_by
        if own:
            # A part payment (API 3): every payer with its points, the payer itself first.
            paid_by["amount"] = share[2]
            entry["payers"] = [{"id": payer, "pool": key, "amount": own},
                               {"id": share[0], "pool": share[1], "amount": share[2]}]
    rec.data["exhaustions"].append(entry)
    _log_exhaustion(rec, rule, entry, why)
    _cap(rec, wp)
    if share is not None:
        _cap(rec, w[share[0]])
    return entry


def _afford(ctx: Ctx, w: Working, p: PState, key: str, pool: str | None, cost: int, own: int,
            share: tuple[str, str, int] | None, jizva: dict[str, Any] | None, sacrifice: str | None,
            path: DocPath) -> list[tuple[str, int]]:
    """R-EXH-4: refuses (exit 1) an exhaustion its payers cannot afford — the payer its own part
    (with a Jizva's or a sacrifice's points), a helper its share; returns the abilities' extra
    yield of the Jizva (asked once: for what is available and for what it yields)."""
    jizva_extra = ctx.hooks.jizva_yield(ctx, p, _jizva_view(p, jizva, norm_pool(jizva.get("pool")) or key,
                                                             "exhaust")) if jizva else []
    jizva_points = 0
    if jizva and (norm_pool(jizva.get("pool")) or pool) in (pool, None, key):
        jizva_points = int(jizva.get("gain", 0)) + sum(n for _p, n in jizva_extra)
    extra = jizva_points + (int(ctx.param("sacrifice_gain")) if sacrifice and p.has_item(sacrifice) else 0)
    checks: list[tuple[PState, str, int, int]] = []
    if share is not None:
        helper = w.peek(share[0])
        checks.append((helper, share[1], share[2], helper.resource(share[1])))
    if own or share is None:
        checks.append((p, key, own, p.resource(key) + extra))
    for who, where, need, available in checks:
        if available < need:
            raise violation(
                Message(N_("{name} cannot afford to exhaust: it costs {cost} {pool}, {name} has {have}; {missing} "
                           "missing"), name=who.name, cost=need, pool=pool_cs(where), have=available,
                        missing=need - available),
                "R-EXH-4", path,
                # drd play shows the shortage in its own words from these numbers, not from the text.
                data={"cost": need, "pool": where, "have": available, "missing": need - available},
                hint=Message(N_("a Jizva (`jizva: {{name, gain}}`) or a sacrificed item (`sacrifice: item`) in the "
                                "answer could cover it")))
    return jizva_extra


def _may_exhaust(ctx: Ctx, w: Working, rec: StepRecord, payer: str, protected: list[str],
                 winner: Prepared | None, breakdown: list[BreakdownEntry], answer: Answer | None, *, vs: str,
                 key: str, kind: str, rule: str, helper: str | None) -> bool:
    """`drd_may_exhaust` (API 3): False when a plugin forbids this exhaustion and the answer came
    from a --choose policy (it accepts instead, logged); a written answer is exit 1 naming the
    plugin and its words."""
    hooks = ctx.hooks
    if not hooks.has("drd_may_exhaust"):
        return True
    from . import viewbuild

    view = viewbuild.exhaustion(ctx, w, payer=payer, protected=list(protected), vs=vs, winner=winner, pool=key,
                                kind=kind, rule=rule, breakdown=tuple(breakdown), paid_by=helper)
    verdict = hooks.may_exhaust(ctx, w, payer, view)
    if verdict.allowed:
        return True
    plugin = verdict.plugin or ""
    hooks.acted.add(plugin)
    if answer is not None and answer.explicit:
        note = verdict.note or Message(N_("no reason given"))
        raise violation(Message(N_("{name} may not exhaust here: {source} forbids it ({note})"),
                                name=w.peek(payer).name, source=hooks.title(plugin), note=note),
                        verdict.rule or plugin, answer.path, data={"forbidden_by": plugin, "note": verdict.note},
                        hint=Message(N_("accept the failure (`accept`), or switch the rule off: --disable {id}"),
                                     id=plugin))
    rec.forbidden[(payer, vs)] = plugin
    rec.event(verdict.rule or plugin, "exhaust.forbidden", name=ev.who(payer), source=hooks.title(plugin),
              note=verdict.note or "")
    return False


def _log_exhaustion(rec: StepRecord, rule: str, entry: dict[str, Any], why: Any) -> None:
    """The event of an exhaustion: who paid, for whom, whose gain it denies, against what."""
    payer, vs, protected, denied = entry["by"], entry["vs"], entry["protected"], entry["denied"]
    whom: list[Any] = []
    if protected and protected != [payer]:
        whom.append(ev.phrase("exhaust.for",
                              who=ev.joined(ev.phrase("itself") if x == payer else ev.who(x) for x in protected)))
    if denied:
        whom.append(ev.phrase("exhaust.denies", name=ev.who(denied)))
    rec.event(rule, "exhaust", name=ev.who(payer), whom=ev.joined(whom, ""),
              vs=ev.phrase("the_test") if vs == "test" else ev.who(vs), cost=entry["cost"], pool=pool_cs(entry["pool"]),
              before=entry["ohrozeni"][0], after=entry["ohrozeni"][1], tail=why)


def _exhaust_helper(ctx: Ctx, w: Working, rec: StepRecord, payer: str, helper: str, key: str, cost: int,
                    winner: Prepared | None, answer: Answer) -> tuple[str, str, int]:
    """R-ABIL-SHARE for an exhaustion: (who pays the points, from which pool, how many), or exit 1.
    A plugin may allow a part (`amount`, API 3): the rest stays the payer's own."""
    path = answer.path + ("paid_by",)
    if helper not in w:
        raise ScenarioError(Message(N_("paid_by names an unknown participant {id}"), id=repr(helper)), path=path,
                            rule="R-ABIL-SHARE")
    got = ctx.hooks.may_pay(ctx, w, helper, payer, views.CostView("exhaustion", cost, key, None), winner)
    if not got.allowed:
        raise violation(Message(N_("{payer} cannot pay for {name}: no ability of theirs allows it here"),
                                payer=w.peek(helper).name, name=w.peek(payer).name), "R-ABIL-SHARE", path,
                        hint=got.note or Message(N_("an ability that shares resources (e.g. Rameno na rameno) "
                                                    "must be listed and its condition hold")))
    plugin = got.plugin or ""
    ctx.hooks.acted.add(plugin)
    q = w.peek(helper)
    source_key = q.pool_for(norm_pool(got.pool) or (key if key != "sudba" else "telo"))
    amount = cost if got.amount is None else min(got.amount, cost)
    rec.event("R-ABIL-SHARE", "share.pays", payer=ev.who(helper), amount=amount, pool=pool_cs(source_key),
              name=ev.who(payer), what=_cost_word("exhaustion", None), source=ctx.hooks.title(plugin))
    return helper, source_key, amount


def _jizva_view(p: PState, jizva: dict[str, Any], pool: str, purpose: str) -> JizvaView:
    return JizvaView(str(jizva.get("name")), p.pool_for(norm_pool(jizva.get("pool")) or pool),
                     int(jizva.get("gain", 0)), purpose, tuple(jizva.get("tags") or ()))
