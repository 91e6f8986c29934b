"""The pieces every resolution shares: preparing an action (R-MAN, R-NAR) and, re-exported from
their modules, rolling (rolls.py), paying (costs.py), effects (effects.py) and exhausting
(exhaustion.py).
"""

from __future__ import annotations


from ..errors import DocPath, Message, ScenarioError
from ..i18n import N_
from ..scenario.models import MANOEUVRE_ALIASES, MANOEUVRES, ActionSpec, ManoeuvreSpec, norm_pool
from .. import views
from ..views import _ro
from . import events as ev
from .context import Ctx, StepRecord, violation
from .state import PState, Working
from .costs import (_activate, _activation_options, _Bill, _cap, _check_allowed, _cost_word, _manoeuvre_payment,
                    free_manoeuvre, narocnost)
from .effects import _apply_one, _recipients, apply_effects, has_effect
from .exhaustion import (_armour_parts, _armour_sources, _exhaust_helper, _jizva_view, armour_against, exhaust,
                         exhaustion_breakdown, exhaustion_cost, take_gain)
from .rolls import POOL_CS, SUROVINY, Prepared, Roll, amount_cs, bonus_for, make_roll, pool_cs


# --------------------------------------------------------------------------- manoeuvres

def canon_manoeuvre(name: str, path: DocPath) -> str:
    name = MANOEUVRE_ALIASES.get(name, name)
    if name not in MANOEUVRES:
        raise ScenarioError(Message(N_("unknown manoeuvre {name}; manoeuvres are {known}"),
            name=repr(name), known=", ".join(MANOEUVRES)),
                            path=path, rule="R-MAN-1")
    return name


def prepare(ctx: Ctx, w: Working, rec: StepRecord, pid: str, spec: ActionSpec, path: DocPath, *,
            from_obrana: bool = False, implied: tuple[str, ...] = (), default_pool: str | None = None,
            targets: list[str] | None = None, kind: str = "action") -> Prepared:
    """Checks conditions and náročnost, pays gains, manoeuvres and náročnost (before the roll)."""
    p = w.peek(pid)
    pool = norm_pool(spec.pool) or default_pool or "telo"
    threat_pool = norm_pool(getattr(spec, "threat_pool", None)) or pool
    _check_allowed(ctx, p, spec, path)
    rec.tried(pid, getattr(spec, "label", None) or getattr(spec, "note", None), kind, pool)
    items: list[tuple[str, ManoeuvreSpec | None, DocPath]] = []
    for i, m in enumerate(spec.manoeuvres):
        mpath = path + ("manoeuvres", i)
        if isinstance(m, str):
            items.append((canon_manoeuvre(m, mpath), None, mpath))
        else:
            items.append((canon_manoeuvre(m.name, mpath + ("name",)), m, mpath))
    names = [n for n, _, _ in items]
    for extra in implied:
        if extra not in names:
            items.insert(0, (extra, None, path))
            names.insert(0, extra)
            rec.event("R-MAN-3", "manoeuvre.obrana_required", name=ev.who(pid))
    if from_obrana and any(n != "obrana" for n in names):
        raise violation(Message(N_("{name} acts from defence (obrana) and may use no other manoeuvre"), name=p.name),
                        "R-MAN-3",
                        path + ("manoeuvres",))
    prep = Prepared(pid, spec, path, pool, threat_pool, names, targets=list(targets or []),
                    kind=kind, source="obrana" if from_obrana else getattr(spec, "from_", None))
    _check_cap(ctx, w, rec, p, prep, names, path)
    gain = getattr(spec, "gain", None)
    if gain is not None:
        take_gain(ctx, w, rec, pid, pool, gain.jizva.model_dump() if gain.jizva else None, gain.sacrifice,
                  path + ("gain",), purpose="manoeuvre")
    # What is paid before the roll, per payer and pool: manoeuvres, activations, náročnost.
    bill = _Bill(ctx, w, rec, pid, prep)
    free_by: dict[str, int] = {}
    seen: dict[str, int] = {}
    for index, (name, given, mpath) in enumerate(items):
        pay = (given.pay if given else None)
        via = given.via if given else None
        paid_by = getattr(given, "paid_by", None) if given else None
        mview = views.ManoeuvreView(name, index, seen.get(name, 0), _ro(free_by), paid_by)
        seen[name] = seen.get(name, 0) + 1
        paid, cost, via = _manoeuvre_payment(ctx, w, p, prep, name, pay, via, mpath, mview)
        if paid == "vyhoda":
            bill.vyhody(paid_by or pid, mpath)
        elif paid != "free":
            bill.add(paid_by or pid, paid, 1, "manoeuvre", name, mpath + (("paid_by",) if paid_by else ()))
        elif via is not None:           # free: `via` (a plugin or an ability) made it so
            free_by[via] = free_by.get(via, 0) + 1
        entry = {"by": pid, "name": name, "paid": paid if paid != "pool" else pool, "cost": cost, "via": via}
        if paid_by:
            entry["paid_by"] = paid_by
        rec.data["manoeuvres"].append(entry)
        if via:
            rec.event("R-MAN-2", "manoeuvre.free", name=ev.who(pid), manoeuvre=ev.manoeuvre(name), via=ctx.hooks.title(via))
    for i, act in enumerate(getattr(spec, "activate", None) or ()):
        _activate(ctx, w, rec, p, prep, act, path + ("activate", i), bill)
    level = narocnost(ctx, p, spec)
    for plugin, delta in ctx.hooks.narocnost(ctx, w, p, prep, level):
        new_level = max(0, min(2, level + delta))
        if new_level != level:
            ctx.hooks.acted.add(plugin)
            rec.event(plugin, "narocnost.changed", name=ev.who(pid), source=ctx.hooks.title(plugin), before=level,
                      after=new_level)
            level = new_level
    if level:
        cost = level * int(ctx.param("narocnost_cost"))
        key = p.pool_for(pool)
        nar_payer = getattr(spec, "paid_by", None) or pid
        bill.add(nar_payer, key, cost, "narocnost", None, path + (("paid_by",) if nar_payer != pid else ()))
        rec.event("R-NAR", "narocnost.very" if level > 1 else "narocnost.demanding", name=ev.who(pid), cost=cost,
                  pool=pool_cs(key))
    bill.pay(path)
    return prep


def _check_cap(ctx: Ctx, w: Working, rec: StepRecord, p: PState, prep: Prepared, names: list[str],
               path: DocPath) -> None:
    """R-MAN-2 `max_manoeuvres`, plus what plugins allow beyond it (R-ABIL-NAD `allowance-2`)."""
    cap = ctx.param("max_manoeuvres")
    if cap == "none":
        return
    allowed = int(cap)
    extra = ctx.hooks.manoeuvre_allowance(ctx, w, p, prep) if len(names) > allowed else []
    for plugin, n in extra:
        allowed += n
    if len(names) > allowed:
        raise violation(Message(N_("{name} uses {n} manoeuvres, the group allows at most {cap}"),
            name=p.name, n=len(names), cap=allowed), "R-MAN-2", path + ("manoeuvres",))
    if len(names) > int(cap):
        for plugin, n in extra:
            ctx.hooks.acted.add(plugin)
            rec.event(plugin, "manoeuvre.over_cap", name=ev.who(p.id), source=ctx.hooks.title(plugin), n=n, cap=cap)


__all__ = ["POOL_CS", "SUROVINY", "Prepared", "Roll", "_Bill", "_activate", "_activation_options", "_apply_one",
           "_armour_parts", "_armour_sources", "_cap", "_check_allowed", "_check_cap", "_cost_word",
           "_exhaust_helper", "_jizva_view", "_manoeuvre_payment", "_recipients", "amount_cs", "apply_effects",
           "armour_against", "bonus_for", "canon_manoeuvre", "exhaust", "exhaustion_breakdown", "exhaustion_cost",
           "free_manoeuvre", "has_effect", "make_roll", "narocnost", "pool_cs", "prepare", "take_gain"]
