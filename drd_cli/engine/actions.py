"""The pieces every resolution shares: rolling (R-ROLL), paying manoeuvres and náročnost
(R-MAN, R-NAR), applying effects (§1.5) and exhausting (R-EXH, CS-FOR-2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import ScenarioError
from ..i18n import _
from ..scenario.models import (MANOEUVRE_ALIASES, MANOEUVRES, ActionSpec, ConditionSpec, Effect, JizvaSpec,
                               ManoeuvreSpec, as_list, effects_of, norm_pool)
from .context import Answer, Ctx, StepRecord, violation
from .state import Condition, PState, Working

POOL_CS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba"}


def pool_cs(pool: str | None) -> str:
    return POOL_CS.get(pool or "telo", pool or "telo")


@dataclass
class Roll:
    total: int
    dice: list[int] | None
    bonus: int | None
    source: str

    def as_result(self) -> dict:
        return {"total": self.total, "dice": self.dice, "bonus": self.bonus, "source": self.source}


@dataclass
class Prepared:
    """An action after its manoeuvres were checked and paid: what later steps need to know."""

    actor: str
    spec: Any
    path: tuple
    pool: str                         # the action's type (telo/duse/vliv)
    threat_pool: str                  # what its targets pay exhaustion from
    manoeuvres: list[str] = field(default_factory=list)
    roll: Roll | None = None
    targets: list[str] = field(default_factory=list)

    def count(self, name: str) -> int:
        return self.manoeuvres.count(name)

    @property
    def lstive(self) -> bool:
        return "lstive" in self.manoeuvres

    @property
    def mocne(self) -> int:
        return self.count("mocne")


# --------------------------------------------------------------------------- rolling

def bonus_for(ctx: Ctx, p: PState, spec: Any, path: tuple, needed: bool) -> int:
    """R-ROLL-1: a hero's profession level named by `bonus_from`; a creature's charakteristika."""
    src = getattr(spec, "bonus_from", None)
    if p.is_hero:
        if src is None:
            if needed:
                raise ScenarioError(
                    _("{name} is a hero rolling dice: say which profession adds to the roll with "
                      "`bonus_from:` (or `bonus_from: none`)").format(name=p.name), path=path, rule="R-ROLL-1")
            return 0
        if src == "none":
            return 0
        if src == "charakteristika":
            raise ScenarioError(_("{name} is a hero: bonus_from names a profession, not charakteristika").format(
                name=p.name),
                                path=path + ("bonus_from",), rule="R-ROLL-1")
        if src not in p.levels:
            raise ScenarioError(_("{name} has no profession {profession} (has: {has})").format(
                name=p.name, profession=repr(src), has=", ".join(p.levels) or _("none")),
                                path=path + ("bonus_from",), rule="R-ROLL-1")
        return p.levels[src]
    if src == "none":
        return 0
    if p.charakteristika is None:
        return 0
    if src == "charakteristika" or p.covers is None:
        return p.charakteristika
    if src is not None:
        raise ScenarioError(_("{name} is a creature: bonus_from is charakteristika or none").format(name=p.name),
                            path=path + ("bonus_from",), rule="R-ROLL-1")
    covered = {getattr(spec, "label", None), getattr(spec, "means", None)} & set(p.covers)
    return p.charakteristika if covered else 0


def make_roll(ctx: Ctx, w: Working, pid: str, spec: Any, path: tuple, *, total: int | None = None,
              dice: list[int] | None = None, presne: int = 0, purpose: str = "action") -> Roll:
    """R-ROLL-2/3: a given total, given dice, or dice from the dice source."""
    see = getattr(ctx.dice, "see", None)
    if see is not None:  # an interactive source (drd play) shows who rolls what for before asking
        see(ctx, w, pid, spec, path, presne=presne, total=total, dice=dice)
    if total is not None and dice is None:
        return Roll(total, None, None, "given")
    keep_best = ctx.param("presne") == "keep-best-2-of-3"
    n = 2 + (presne if keep_best else 0)
    p = w.peek(pid)
    if dice is not None:
        if len(dice) != n:
            raise ScenarioError(_("{name} rolls {n} dice here, the file gives {given}").format(
                name=p.name, n=n, given=len(dice)),
                                path=path + ("dice",), rule="R-ROLL-2")
        for i, d in enumerate(dice):
            if not 1 <= d <= 6:
                raise ScenarioError(_("a die shows 1 to 6, not {value}").format(value=d), path=path + ("dice", i),
                                    rule="R-ROLL-2")
        source, values = "given", list(dice)
    else:
        values, source = ctx.dice.roll(n, pid, purpose), ctx.dice.name
        if isinstance(values, int):  # a total typed at the table stands like a written `roll`
            return Roll(values, None, None, source)
    bonus = bonus_for(ctx, p, spec, path, needed=True)
    kept = sorted(values, reverse=True)[:2] if keep_best else values
    if not keep_best:
        bonus += presne
    if total is not None and total != sum(kept) + bonus:
        # SCENARIO-FORMAT §4.1: a total and dice that disagree are a contradiction, not a choice.
        raise ScenarioError(_("{name}: roll {total} does not match the dice {dice} plus {bonus} (= {sum}); give "
                              "one of them, or make them agree").format(
                                name=p.name, total=total, dice="+".join(map(str, values)), bonus=bonus,
                                sum=sum(kept) + bonus),
                            path=path + (("roll",) if getattr(spec, "roll", None) == total else ("rolls", pid)),
                            rule="R-ROLL-2")
    return Roll(sum(kept) + bonus, values, bonus, source)


# --------------------------------------------------------------------------- manoeuvres

def canon_manoeuvre(name: str, path: tuple) -> str:
    name = MANOEUVRE_ALIASES.get(name, name)
    if name not in MANOEUVRES:
        raise ScenarioError(_("unknown manoeuvre {name}; manoeuvres are {known}").format(
            name=repr(name), known=", ".join(MANOEUVRES)),
                            path=path, rule="R-MAN-1")
    return name


def prepare(ctx: Ctx, w: Working, rec: StepRecord, pid: str, spec: ActionSpec, path: tuple, *,
            from_obrana: bool = False, implied: tuple[str, ...] = (), default_pool: str | None = None,
            targets: list[str] | None = None) -> Prepared:
    """Checks conditions and náročnost, pays gains, manoeuvres and náročnost (before the roll)."""
    p = w.peek(pid)
    pool = norm_pool(spec.pool) or default_pool or "telo"
    threat_pool = norm_pool(getattr(spec, "threat_pool", None)) or pool
    _check_allowed(ctx, p, spec, path)
    items: list[tuple[str, ManoeuvreSpec | None, tuple]] = []
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
            rec.log("R-MAN-3", _("{name} reacts from defence: the manoeuvre obrana is required and counts").format(name=p.name))
    if from_obrana and any(n != "obrana" for n in names):
        raise violation(_("{name} acts from defence (obrana) and may use no other manoeuvre").format(name=p.name),
                        "R-MAN-3",
                        path + ("manoeuvres",))
    cap = ctx.param("max_manoeuvres")
    if cap != "none" and len(names) > int(cap):
        raise violation(_("{name} uses {n} manoeuvres, the group allows at most {cap}").format(
            name=p.name, n=len(names), cap=cap), "R-MAN-2",
                        path + ("manoeuvres",))
    prep = Prepared(pid, spec, path, pool, threat_pool, names, targets=list(targets or []))
    gain = getattr(spec, "gain", None)
    if gain is not None:
        take_gain(ctx, w, rec, pid, pool, gain.jizva.model_dump() if gain.jizva else None, gain.sacrifice,
                  path + ("gain",))
    level = narocnost(ctx, p, spec)
    costs: dict[str, int] = {}
    vyhody_needed = 0
    for name, m, mpath in items:
        pay = (m.pay if m else None)
        via = m.via if m else None
        paid, cost, via = _manoeuvre_payment(ctx, w, p, prep, name, pay, via, mpath)
        if paid == "vyhoda":
            vyhody_needed += 1
        elif paid != "free":
            costs[paid] = costs.get(paid, 0) + 1
        rec.data["manoeuvres"].append({"by": pid, "name": name, "paid": paid if paid != "pool" else pool,
                                       "cost": cost, "via": via})
        if via:
            rec.log("R-MAN-2", _("{name}: manoeuvre {manoeuvre} for free thanks to {via} (it counts)").format(
                name=p.name, manoeuvre=name, via=via))
    if level:
        cost = level * int(ctx.param("narocnost_cost"))
        key = p.pool_for(pool)
        costs[key] = costs.get(key, 0) + cost
        text = (_("{name}: the action is very demanding, costs {cost} {pool}") if level > 1
                else _("{name}: the action is demanding, costs {cost} {pool}"))
        rec.log("R-NAR", text.format(name=p.name, cost=cost, pool=pool_cs(key)))
    wp = w[pid]
    if vyhody_needed > wp.vyhody:
        raise violation(_("{name} pays {n} manoeuvre(s) with Výhody but has {has}").format(
            name=p.name, n=vyhody_needed, has=wp.vyhody),
                        "R-MAN-2", path + ("manoeuvres",))
    for key, cost in costs.items():
        have = wp.resource(key)
        if cost > have:
            raise violation(
                _("{name} cannot pay {cost} {pool} for manoeuvres/náročnost: has {have}, missing {missing}").format(
                    name=p.name, cost=cost, pool=pool_cs(key), have=have, missing=cost - have), "R-MAN-2", path,
                hint=_("a Jizva or a sacrificed item (`gain:`) could cover it (R-EXH-4)"))
    wp.vyhody -= vyhody_needed
    for key, cost in costs.items():
        wp.change_resource(key, -cost)
    _cap(rec, wp)
    return prep


def _cap(rec: StepRecord, p: PState) -> None:
    """A pool never ends a payment above its maximum (RULES §1.1): a gain's surplus is lost."""
    for key, lost in p.cap_pools().items():
        rec.log("R-EXH-4", _("{name}: {pool} over the maximum {max}, {lost} is lost").format(
            name=p.name, pool=pool_cs(key), max=p.maxima[key], lost=lost))


def _manoeuvre_payment(ctx: Ctx, w: Working, p: PState, prep: Prepared, name: str, pay: str | None,
                       via: str | None, path: tuple) -> tuple[str, int, str | None]:
    """How one manoeuvre is paid: ("telo"/"sudba"/…, 1, None), ("vyhoda", 1, None) or ("free", 0, via)."""
    pool_key = p.pool_for(prep.pool)
    if pay in ("vyhoda", "výhoda"):
        return "vyhoda", 1, None
    if pay in (None, "free"):
        free = free_manoeuvre(ctx, w, p, prep, name, via)
        if free:
            return "free", 0, free
        if pay == "free":
            raise violation((_("nothing makes {manoeuvre} free for {name} here ({via} is not held or already used "
                               "this round)") if via else _("nothing makes {manoeuvre} free for {name} here")).format(
                                manoeuvre=name, name=p.name, via=via),
                            "R-MAN-2", path)
        return pool_key, 1, None
    if pay == "pool":
        return pool_key, 1, None
    key = norm_pool(pay)
    if not p.is_hero:
        key = "sudba"
    return key, 1, None


def free_manoeuvre(ctx: Ctx, w: Working, p: PState, prep: Prepared, name: str, via: str | None) -> str | None:
    """An item (once per round while it works) or an ability hook making `name` free; marks it used."""
    for item in p.equipment:
        if item.free != name or (via and item.name != via) or not p.item_works(item):
            continue
        key = (p.id, "item:" + item.name)
        # `per: conflict` is remembered in the state (all rounds), `per: round` in the round.
        used = w.free_used if item.per == "conflict" else ctx.round.free_used
        if key in used:
            continue
        used.add(key)
        return item.name
    return ctx.hooks.free_manoeuvre(ctx, w, p, prep, name, via)


def _check_allowed(ctx: Ctx, p: PState, spec: Any, path: tuple) -> None:
    """A condition that forbids the action, or a disabled label, refuses it (R-NAR impossible)."""
    words = {x for x in (getattr(spec, "label", None), getattr(spec, "means", None)) if x}
    for c in p.conditions:
        hit = words & set(c.forbids)
        if hit:
            raise violation(_("{name} cannot do {what}: condition {condition} forbids it").format(
                name=p.name, what=repr(sorted(hit)[0]), condition=repr(c.name)), "R-NAR",
                            path + (("label",) if getattr(spec, "label", None) in hit else ()))
    hit = words & set(p.disabled)
    if hit:
        raise violation(_("{name} can no longer use {what} (disabled by an earlier effect)").format(
            name=p.name, what=repr(sorted(hit)[0])), "CS-PREP-2",
                        path)


def narocnost(ctx: Ctx, p: PState, spec: Any) -> int:
    """0 possible, 1 náročná, 2 velmi náročná: `demanding` wins over conditions (R-NAR)."""
    d = getattr(spec, "demanding", None)
    if d is not None:
        if isinstance(d, bool):
            return 1 if d else 0
        return max(0, int(d))
    words = {x for x in (getattr(spec, "label", None), getattr(spec, "means", None)) if x}
    return 1 if any(words & set(c.demanding) for c in p.conditions) else 0


# --------------------------------------------------------------------------- effects

def apply_effects(ctx: Ctx, w: Working, rec: StepRecord, spec: Any, default_to: list[str], *, actor: str | None,
                  payer: str | None = None, lstive: bool = False, source: str = "",
                  rule: str = "§1.5", spare: set[str] | frozenset = frozenset()) -> list[str]:
    """Applies an effect (mapping or list) to `default_to` (or its `to`); returns who it landed on.
    `spare`: participants an item's `to` names who exhausted against it (they are left out)."""
    landed: list[str] = []
    for eff in effects_of(spec):
        to = _recipients(eff, default_to, actor, payer, w)
        if eff.to is not None:
            # SCENARIO-FORMAT §4.1: an effect lands on each target reached; `to` only sends it
            # elsewhere, so an item with `to` lands once per default recipient (twice for two targets).
            to = [pid for pid in to if pid not in spare] * max(1, len(default_to))
        for pid in to:
            _apply_one(ctx, w, rec, eff, pid, lstive, source, rule)
            if pid not in landed:
                landed.append(pid)
    return landed


def _recipients(eff: Effect, default_to: list[str], actor: str | None, payer: str | None, w: Working) -> list[str]:
    if eff.to is None:
        return list(default_to)
    out = []
    for t in as_list(eff.to):
        pid = actor if t == "actor" else payer if t == "payer" else t
        if pid and pid in w and pid not in out:
            out.append(pid)
    return out


def _apply_one(ctx: Ctx, w: Working, rec: StepRecord, eff: Effect, pid: str, lstive: bool, source: str,
               rule: str) -> None:
    p = w[pid]
    mult = 2 if lstive else 1
    what = []
    if eff.ohrozeni:
        before = p.ohrozeni
        p.ohrozeni = max(0, p.ohrozeni + eff.ohrozeni * mult)
        what.append(f"Ohrožení {before}→{p.ohrozeni}")
    if eff.vyhody:
        before = p.vyhody
        p.vyhody = max(0, p.vyhody + eff.vyhody * mult)
        what.append(f"Výhody {before}→{p.vyhody}")
    if eff.jizva is not None:
        name = eff.jizva.name if isinstance(eff.jizva, JizvaSpec) else eff.jizva
        p.jizvy.append(name)
        what.append(f"Jizva „{name}“")
    if eff.condition is not None:
        c = eff.condition
        if isinstance(c, ConditionSpec):
            cond = Condition(c.name, list(c.forbids), list(c.demanding),
                             None if c.rounds is None else ctx.round.number + c.rounds)
        else:
            cond = Condition(c)
        p.conditions = [x for x in p.conditions if x.name != cond.name] + [cond]
        what.append(_("condition „{name}“").format(name=cond.name))
    for name in as_list(eff.remove_condition):
        if any(c.name == name for c in p.conditions):
            p.conditions = [c for c in p.conditions if c.name != name]
            what.append(_("no longer „{name}“").format(name=name))
    for name in as_list(eff.lose):
        if p.has_item(name):
            p.equipment = [i for i in p.equipment if i.name != name]
            what.append(_("loses {item}").format(item=name))
        else:
            rec.log("CS-PREP-2", _("{name} does not have {item}, has nothing to lose").format(name=p.name, item=name))
    for name in as_list(eff.disable):
        if name not in p.disabled:
            p.disabled.append(name)
            what.append(_("cannot use {item}").format(item=name))
    for name in as_list(eff.suspicion):
        if name not in p.suspicion:
            p.suspicion.append(name)
            what.append(_("suspicion of {item}").format(item=name))
    if eff.note:
        what.append(eff.note)
    if what:
        rec.log(rule, f"{p.name}: " + ", ".join(what) + (f" ({source})" if source else ""))


def has_effect(spec: Any) -> bool:
    return bool(effects_of(spec))


# --------------------------------------------------------------------------- exhaustion

def take_gain(ctx: Ctx, w: Working, rec: StepRecord, pid: str, pool: str | None, jizva: dict | None,
              sacrifice: str | None, path: tuple) -> dict:
    """R-EXH-4: points from a Jizva or a sacrificed item, added to the pool about to be paid."""
    p = w[pid]
    gained: dict[str, Any] = {"jizva": None, "sacrifice": None}
    if jizva:
        jpool = norm_pool(jizva.get("pool")) or pool
        amount = int(jizva.get("gain", 0))
        p.change_resource(p.pool_for(jpool), amount)
        p.jizvy.append(jizva["name"])
        gained["jizva"] = {"name": jizva["name"], "gain": amount}
        rec.log("R-EXH-4", _("{name} takes the Jizva „{jizva}“ and gains {amount} {pool}").format(
            name=p.name, jizva=jizva["name"], amount=amount, pool=pool_cs(p.pool_for(jpool))))
    if sacrifice:
        if not p.has_item(sacrifice):
            raise violation(_("{name} cannot sacrifice {item}: not held").format(name=p.name, item=repr(sacrifice)),
                            "R-EXH-4", path + ("sacrifice",))
        amount = int(ctx.param("sacrifice_gain"))
        p.equipment = [i for i in p.equipment if i.name != sacrifice]
        p.change_resource(p.pool_for(pool), amount)
        gained["sacrifice"] = {"name": sacrifice, "gain": amount}
        rec.log("R-EXH-4", _("{name} sacrifices {item} and gains {amount} {pool}").format(
            name=p.name, item=sacrifice, amount=amount, pool=pool_cs(p.pool_for(pool))))
    return gained


def armour_against(ctx: Ctx, w: Working, protected: str, winner: Prepared | None) -> int:
    """The armour discount of `protected` against a bodily winning action (R-EXH-3, plugins adjust)."""
    if winner is None or winner.threat_pool != "telo":
        return 0
    p = w.peek(protected)
    armour = p.armour + ctx.hooks.armour_adjust(ctx, w, p, winner)
    return max(0, armour)


def exhaustion_cost(ctx: Ctx, w: Working, payer: str, protected: list[str], winner: Prepared | None,
                    *, deny: bool = False, use_armour: bool = True) -> int:
    """R-EXH-1/3, CS-FOR-2: per protected max(0, Ohrožení − armour + mocně); deny: Ohrožení + mocně."""
    ohr = w.peek(payer).ohrozeni
    mocne = winner.mocne if winner else 0
    if deny or not protected:
        return max(0, ohr + mocne)
    total = 0
    for pid in protected:
        armour = armour_against(ctx, w, pid, winner) if use_armour else 0
        total += max(0, ohr - armour + mocne)
    return total


def exhaust(ctx: Ctx, w: Working, rec: StepRecord, *, payer: str, vs: str, pool: str | None,
            protected: list[str], answer: Answer | None, winner: Prepared | None = None,
            denied: str | None = None, rule: str = "R-EXH-1", why: str = "", use_armour: bool = True,
            cost: int | None = None) -> dict | None:
    """Pays one exhaustion and raises Ohrožení by exactly 1; refuses (exit 1) when unaffordable.

    Returns the `exhaustions[]` entry, or None when a --choose policy answer cannot be afforded
    (a policy never forces an illegal payment; written answers do raise).
    """
    p = w.peek(payer)
    key = p.pool_for(pool)
    if cost is None:
        cost = exhaustion_cost(ctx, w, payer, protected, winner, deny=denied is not None and not protected,
                               use_armour=use_armour)
    jizva = answer.jizva if answer else None
    sacrifice = answer.sacrifice if answer else None
    path = answer.path if answer else ()
    if answer is not None and not answer.explicit:
        if answer.max_cost is not None and cost > answer.max_cost:
            rec.log(rule, _("{name} would have to exhaust for {cost} {pool}, more than {max} (choice cheapest): "
                            "accepts the failure").format(name=p.name, cost=cost, pool=pool_cs(key),
                                                          max=answer.max_cost))
            return None
        if p.resource(key) < cost:
            rec.log(rule, _("{name} would have to exhaust for {cost} {pool}, but has only {have}: accepts the "
                            "failure").format(name=p.name, cost=cost, pool=pool_cs(key), have=p.resource(key)))
            return None
    available = p.resource(key) + (int(jizva.get("gain", 0)) if jizva and
                                   (norm_pool(jizva.get("pool")) or pool) in (pool, None, key) else 0) \
        + (int(ctx.param("sacrifice_gain")) if sacrifice and p.has_item(sacrifice) else 0)
    if available < cost:
        raise violation(
            _("{name} cannot afford to exhaust: it costs {cost} {pool}, {name} has {have}; {missing} missing").format(
                name=p.name, cost=cost, pool=pool_cs(key), have=available, missing=cost - available), "R-EXH-4", path,
            # drd play shows the shortage in its own words from these numbers, not from the text.
            data={"cost": cost, "pool": key, "have": available, "missing": cost - available},
            hint=_("a Jizva (`jizva: {{name, gain}}`) or a sacrificed item (`sacrifice: item`) in the answer could "
                   "cover it").format())
    gained = take_gain(ctx, w, rec, payer, key, jizva, sacrifice, path)
    wp = w[payer]
    before = wp.ohrozeni
    wp.change_resource(key, -cost)
    wp.ohrozeni = before + 1
    entry = {"by": payer, "vs": vs, "pool": key, "cost": cost, "protected": list(protected), "denied": denied,
             "ohrozeni": [before, wp.ohrozeni], "gained": gained}
    rec.data["exhaustions"].append(entry)
    whom = ""
    if protected and protected != [payer]:
        whom = _(" for {who}").format(who=", ".join(_("itself") if x == payer else w.peek(x).name for x in protected))
    if denied:
        whom += _(" (denies {name} its gain)").format(name=w.peek(denied).name)
    text = _("{name} exhausts{whom} against {vs}: {cost} {pool}, Ohrožení {before}→{after}").format(
        name=p.name, whom=whom, vs=_("the test") if vs == "test" else w.peek(vs).name, cost=cost,
        pool=pool_cs(key), before=before, after=wp.ohrozeni)
    rec.log(rule, text + (f" — {why}" if why else ""))
    _cap(rec, wp)
    return entry
