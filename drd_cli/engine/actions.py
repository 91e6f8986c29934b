"""The pieces every resolution shares: rolling (R-ROLL), paying manoeuvres and náročnost
(R-MAN, R-NAR), applying effects (§1.5) and exhausting (R-EXH, CS-FOR-2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import ScenarioError
from ..i18n import _, ngettext
from ..scenario.models import (MANOEUVRE_ALIASES, MANOEUVRES, ActionSpec, ConditionSpec, Effect, JizvaSpec,
                               ManoeuvreSpec, as_list, effects_of, norm_pool)
from ..terms import manoeuvre_name
from .. import views
from ..views import BreakdownEntry, JizvaView, _ro
from .context import Answer, Ctx, StepRecord, violation
from .state import Condition, PState, Working

POOL_CS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba", "suroviny": "Suroviny"}
SUROVINY = "suroviny"                 # crafting ingredients: not a pool (R-ABIL-ACT, docs/rules.md)


def pool_cs(pool: str | None) -> str:
    return POOL_CS.get(pool or "telo", pool or "telo")


def amount_cs(amount: int, pool: str | None) -> str:
    """`3 Tělo`, `1 Surovina`, `5 Surovin`: an amount of a pool, or of Suroviny, in words."""
    if pool == SUROVINY:
        return ngettext("{n} Surovina", "{n} Suroviny", amount).format(n=amount)
    return f"{amount} {pool_cs(pool)}"


@dataclass
class Roll:
    total: int
    dice: list[int] | None
    bonus: int | None
    source: str
    # Everything added to the dice besides `bonus` (SCENARIO-FORMAT §7): (source, amount), where
    # source is `presne`, or the id of the plugin that gave it.
    modifiers: list[tuple[str, int]] = field(default_factory=list)

    def as_result(self) -> dict:
        return {"total": self.total, "dice": self.dice, "bonus": self.bonus, "source": self.source,
                "modifiers": [{"source": s, "amount": a} for s, a in self.modifiers]}


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
    kind: str = "action"              # action | harm | protect | test | race | challenge (views)
    source: str | None = None         # initiative | delayed | obrana, where known
    protects: list[str] = field(default_factory=list)
    means: str | None = None          # where the spec's own `means` does not say it (a výzva's)

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
              dice: list[int] | None = None, presne: int = 0, purpose: str = "action",
              prep: Prepared | None = None) -> Roll:
    """R-ROLL-2/3: a given total, given dice, or dice from the dice source.

    Rolled dice get the bonus (R-ROLL-1), přesně (R-ROLL-3) and the plugins' roll modifiers
    (`drd_roll_modifier`, for `prep`); a total the file gives is final (R-ROLL-2)."""
    see = getattr(ctx.dice, "see", None)
    if see is not None:  # an interactive source (drd play) shows who rolls what for before asking
        see(ctx, w, pid, spec, path, presne=presne, total=total, dice=dice)
    if total is not None and dice is None:
        _check_total(ctx, w.peek(pid), spec, path, total, presne, pid)
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
    modifiers: list[tuple[str, int]] = []
    if presne and not keep_best:
        modifiers.append(("presne", presne))
    rec = getattr(ctx, "record", None)
    for plugin, amount, note in ctx.hooks.roll_modifiers(ctx, w, p, prep):
        modifiers.append((plugin, amount))
        ctx.hooks.acted.add(plugin)
        if rec is not None:
            rec.log(plugin, _("{name}: {amount:+d} to the roll from {source}").format(
                name=p.name, amount=amount, source=plugin) + (f" — {note}" if note else ""))
    added = bonus + sum(a for _s, a in modifiers)
    if total is not None and total != sum(kept) + added:
        # SCENARIO-FORMAT §4.1: a total and dice that disagree are a contradiction, not a choice.
        raise ScenarioError(_("{name}: roll {total} does not match the dice {dice} plus {bonus} (= {sum}); give "
                              "one of them, or make them agree").format(
                                name=p.name, total=total, dice="+".join(map(str, values)), bonus=added,
                                sum=sum(kept) + added),
                            path=path + (("roll",) if getattr(spec, "roll", None) == total else ("rolls", pid)),
                            rule="R-ROLL-2")
    return Roll(sum(kept) + added, values, bonus, source, modifiers)


def _check_total(ctx: Ctx, p: PState, spec: Any, path: tuple, total: int, presne: int, pid: str) -> None:
    """A total the file gives must be one 2k6 plus the roll's bonus and přesně can make (R-ROLL-2),
    unless the action says `roll_beyond_dice: true` (docs/scenario-format.md §4.1)."""
    if getattr(spec, "roll_beyond_dice", False):
        return
    try:
        bonus = bonus_for(ctx, p, spec, path, needed=False)
    except ScenarioError:
        return                       # the bonus itself is wrong: the roll does not need it
    extra = presne if ctx.param("presne") != "keep-best-2-of-3" else 0
    low, high = 2 + bonus + extra, 12 + bonus + extra
    if p.is_hero and getattr(spec, "bonus_from", None) is None:
        high = 12 + max(p.levels.values(), default=0) + extra    # not named: any of his levels
    elif not p.is_hero and p.charakteristika is None:
        high = None                     # a creature whose charakteristika the file does not give
    if total < low or (high is not None and total > high):
        raise ScenarioError(_("{name}: roll {total} cannot come from 2k6 plus this roll's bonus ({low} to {high}); "
                              "give the dice, or write `roll_beyond_dice: true` beside the roll to keep it").format(
                                name=p.name, total=total, low=low, high=high if high is not None else "…"),
                            path=path + (("roll",) if getattr(spec, "roll", None) == total else ("rolls", pid)),
                            rule="R-ROLL-2")


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
            targets: list[str] | None = None, kind: str = "action") -> Prepared:
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
    for index, (name, m, mpath) in enumerate(items):
        pay = (m.pay if m else None)
        via = m.via if m else None
        paid_by = getattr(m, "paid_by", None) if m else None
        mview = views.ManoeuvreView(name, index, seen.get(name, 0), _ro(free_by), paid_by)
        seen[name] = seen.get(name, 0) + 1
        paid, cost, via = _manoeuvre_payment(ctx, w, p, prep, name, pay, via, mpath, mview)
        if paid == "vyhoda":
            bill.vyhody(paid_by or pid, mpath)
        elif paid != "free":
            bill.add(paid_by or pid, paid, 1, "manoeuvre", name, mpath + (("paid_by",) if paid_by else ()))
        else:
            free_by[via] = free_by.get(via, 0) + 1
        entry = {"by": pid, "name": name, "paid": paid if paid != "pool" else pool, "cost": cost, "via": via}
        if paid_by:
            entry["paid_by"] = paid_by
        rec.data["manoeuvres"].append(entry)
        if via:
            rec.log("R-MAN-2", _("{name}: manoeuvre {manoeuvre} for free thanks to {via} (it counts)").format(
                name=p.name, manoeuvre=manoeuvre_name(name), via=ctx.hooks.title(via)))
    for i, act in enumerate(getattr(spec, "activate", None) or ()):
        _activate(ctx, w, rec, p, prep, act, path + ("activate", i), bill)
    level = narocnost(ctx, p, spec)
    for plugin, delta in ctx.hooks.narocnost(ctx, w, p, prep, level):
        new_level = max(0, min(2, level + delta))
        if new_level != level:
            ctx.hooks.acted.add(plugin)
            rec.log(plugin, _("{name}: {source} changes the action's náročnost from {before} to {after}").format(
                name=p.name, source=ctx.hooks.title(plugin), before=level, after=new_level))
            level = new_level
    if level:
        cost = level * int(ctx.param("narocnost_cost"))
        key = p.pool_for(pool)
        nar_payer = getattr(spec, "paid_by", None) or pid
        bill.add(nar_payer, key, cost, "narocnost", None, path + (("paid_by",) if nar_payer != pid else ()))
        text = (_("{name}: the action is very demanding, costs {cost} {pool}") if level > 1
                else _("{name}: the action is demanding, costs {cost} {pool}"))
        rec.log("R-NAR", text.format(name=p.name, cost=cost, pool=pool_cs(key)))
    bill.pay(path)
    return prep


def _check_cap(ctx: Ctx, w: Working, rec: StepRecord, p: PState, prep: Prepared, names: list[str],
               path: tuple) -> None:
    """R-MAN-2 `max_manoeuvres`, plus what plugins allow beyond it (R-ABIL-NAD `allowance-2`)."""
    cap = ctx.param("max_manoeuvres")
    if cap == "none":
        return
    allowed = int(cap)
    extra = ctx.hooks.manoeuvre_allowance(ctx, w, p, prep) if len(names) > allowed else []
    for plugin, n in extra:
        allowed += n
    if len(names) > allowed:
        raise violation(_("{name} uses {n} manoeuvres, the group allows at most {cap}").format(
            name=p.name, n=len(names), cap=allowed), "R-MAN-2", path + ("manoeuvres",))
    if len(names) > int(cap):
        for plugin, n in extra:
            ctx.hooks.acted.add(plugin)
            rec.log(plugin, _("{name}: {source} allows {n} more manoeuvre(s) than the group's cap {cap}").format(
                name=p.name, source=ctx.hooks.title(plugin), n=n, cap=cap))


class _Bill:
    """Points to pay before the roll, per payer and pool (R-MAN-2, R-NAR, R-ABIL-ACT, R-ABIL-SHARE)."""

    def __init__(self, ctx: Ctx, w: Working, rec: StepRecord, actor: str, prep: Prepared):
        self.ctx, self.w, self.rec, self.actor, self.prep = ctx, w, rec, actor, prep
        self.costs: dict[tuple[str, str], int] = {}
        self.kinds: dict[tuple[str, str], set[str]] = {}
        self.vyhody_by: dict[str, int] = {}
        # Suroviny (the actor's only): costs [(amount, crafts, ability, result entry)] and the
        # improvised ones this action's activations make [[count, crafts, ability]].
        self.suroviny: list[tuple[int, str | None, str, dict, tuple]] = []
        self.improvised: list[list] = []

    def add_suroviny(self, amount: int, crafts: str | None, ability: str, entry: dict, path: tuple) -> None:
        self.suroviny.append((amount, crafts, ability, entry, path))

    def improvise(self, count: int, crafts: str | None, ability: str) -> None:
        if count > 0:
            self.improvised.append([count, crafts, ability])

    def _cover_suroviny(self) -> list[tuple[int, int, str, dict, list[str], tuple]]:
        """(held, improvised, ability, entry, improvisers) per Suroviny cost: improvised Suroviny of
        the same kind (or of no kind) pay first, in the order the activations were listed."""
        out = []
        for amount, crafts, ability, entry, where in self.suroviny:
            need, used, sources = amount, 0, []
            for exact in (True, False):
                for supply in self.improvised:
                    if not need or not supply[0]:
                        continue
                    if exact != (supply[1] == crafts) or not (exact or supply[1] is None or crafts is None):
                        continue
                    take = min(need, supply[0])
                    supply[0] -= take
                    need -= take
                    used += take
                    if supply[2] not in sources:
                        sources.append(supply[2])
            out.append((need, used, ability, entry, sources, where))
        return out

    def vyhody(self, payer: str, path: tuple) -> None:
        if payer != self.actor:
            self._allowed(payer, "manoeuvre", 1, "vyhoda", None, path)
        self.vyhody_by[payer] = self.vyhody_by.get(payer, 0) + 1

    def add(self, payer: str, key: str, amount: int, kind: str, what: str | None, path: tuple) -> None:
        if payer != self.actor:
            key = self._allowed(payer, kind, amount, key, what, path)
        self.costs[(payer, key)] = self.costs.get((payer, key), 0) + amount
        self.kinds.setdefault((payer, key), set()).add(kind)

    def _allowed(self, payer: str, kind: str, amount: int, key: str, what: str | None, path: tuple) -> str:
        """R-ABIL-SHARE: someone else pays only where an ability lets them; returns the pool it pays from."""
        w, ctx = self.w, self.ctx
        if payer not in w:
            raise ScenarioError(_("paid_by names an unknown participant {id}").format(id=repr(payer)), path=path,
                                rule="R-ABIL-SHARE")
        got = ctx.hooks.may_pay(ctx, w, payer, self.actor, views.CostView(kind, amount, key, what), self.prep)
        if got is None:
            raise violation(_("{payer} cannot pay for {name}: no ability of theirs allows it here").format(
                payer=w.peek(payer).name, name=w.peek(self.actor).name), "R-ABIL-SHARE", path,
                hint=_("an ability that shares resources (e.g. Rameno na rameno) must be listed and its condition "
                       "hold"))
        plugin, pool = got
        ctx.hooks.acted.add(plugin)
        q = w.peek(payer)
        paid_from = "vyhoda" if key == "vyhoda" else q.pool_for(norm_pool(pool) or (key if key != "sudba" else
                                                                                     self.prep.pool))
        self.rec.log("R-ABIL-SHARE", _("{payer} pays {amount} {pool} for {name} ({what}) thanks to {source}").format(
            payer=q.name, amount=amount, pool=_("Výhoda") if paid_from == "vyhoda" else pool_cs(paid_from),
            name=w.peek(self.actor).name, what=_cost_word(kind, what), source=ctx.hooks.title(plugin)))
        return paid_from

    def pay(self, path: tuple) -> None:
        w = self.w
        for payer, n in self.vyhody_by.items():
            if n > w.peek(payer).vyhody:
                raise violation(_("{name} pays {n} manoeuvre(s) with Výhody but has {has}").format(
                    name=w.peek(payer).name, n=n, has=w.peek(payer).vyhody), "R-MAN-2", path + ("manoeuvres",))
        for (payer, key), cost in self.costs.items():
            have = w.peek(payer).resource(key)
            if cost > have and "activation" in self.kinds.get((payer, key), ()):
                raise violation(
                    _("{name} cannot pay {cost} {pool} for the activation (with manoeuvres and náročnost): has "
                      "{have}, missing {missing}").format(name=w.peek(payer).name, cost=cost, pool=pool_cs(key),
                                                          have=have, missing=cost - have),
                    "R-ABIL-ACT", path, data={"cost": cost, "pool": key, "have": have, "missing": cost - have},
                    hint=_("a Jizva or a sacrificed item (`gain:`) could cover it (R-EXH-4), or someone whose ability "
                           "allows it may pay (`paid_by`, R-ABIL-SHARE)"))
            if cost > have:
                raise violation(
                    _("{name} cannot pay {cost} {pool} for manoeuvres/náročnost: has {have}, missing {missing}").format(
                        name=w.peek(payer).name, cost=cost, pool=pool_cs(key), have=have, missing=cost - have),
                    "R-MAN-2", path, hint=_("a Jizva or a sacrificed item (`gain:`) could cover it (R-EXH-4)"))
        covered = self._cover_suroviny() if self.suroviny else []
        held = sum(c[0] for c in covered)
        if covered:
            p = w.peek(self.actor)
            have = p.suroviny or 0
            if held > have:
                raise violation(
                    _("{name} cannot pay {cost} for the activation: has {have}, missing {missing} (Suroviny are not "
                      "points: a Jizva or a sacrificed item cannot replace them)").format(
                        name=p.name, cost=amount_cs(held, SUROVINY), have=have, missing=held - have),
                    "R-ABIL-ACT", next(c[5] for c in covered if c[0]), data={"cost": held, "pool": SUROVINY, "have": have, "missing": held - have},
                    hint=_("improvised Suroviny can stand in for them: an improvising ability (Umění improvizace, "
                           "Dar tvoření) activated for the same action with `improvised: N`, 1 Duše each; or give "
                           "the participant more `suroviny:` (docs/scenario-format.md §2)"))
        for payer, n in self.vyhody_by.items():
            w[payer].vyhody -= n
        for (payer, key), cost in self.costs.items():
            w[payer].change_resource(key, -cost)
        if covered:
            actor = w[self.actor]
            if held:
                actor.suroviny = (actor.suroviny or 0) - held
            for own, used, ability, entry, sources, _where in covered:
                title = self.ctx.hooks.title(ability)
                if used:
                    entry["from_improvised"] = used
                    self.rec.log("R-ABIL-ACT", _("{name}: {ability} — {improvised} improvised ({sources}), {own} "
                                                 "from the Suroviny held").format(
                        name=actor.name, ability=title, improvised=amount_cs(used, SUROVINY),
                        sources=", ".join(self.ctx.hooks.title(x) for x in sources), own=own))
                elif own:
                    self.rec.log("R-ABIL-ACT", _("{name} spends {cost} on {ability}").format(
                        name=actor.name, cost=amount_cs(own, SUROVINY), ability=title))
            if actor.suroviny is not None:
                self.rec.log("R-ABIL-ACT", _("{name} has {left} left").format(
                    name=actor.name, left=amount_cs(actor.suroviny or 0, SUROVINY)))
        for payer in {p for p, _k in self.costs} | set(self.vyhody_by) | {self.actor}:
            _cap(self.rec, w[payer])


def _cost_word(kind: str, what: str | None) -> str:
    if kind == "manoeuvre":
        return _("manoeuvre {name}").format(name=manoeuvre_name(what))
    if kind == "activation":
        return _("activation of {name}").format(name=what)
    if kind == "narocnost":
        return _("náročnost")
    return _("exhaustion")


def _activate(ctx: Ctx, w: Working, rec: StepRecord, p: PState, prep: Prepared, item: Any, path: tuple,
              bill: _Bill) -> None:
    """R-ABIL-ACT: an ability activated for this action pays its activation before the roll."""
    ability = item if isinstance(item, str) else item.id
    paid_by = None if isinstance(item, str) else item.paid_by
    ipath = path if isinstance(item, str) else path + ("id",)
    if ability not in p.abilities:
        raise violation(_("{name} activates {ability}, an ability it does not have").format(
            name=p.name, ability=repr(ability)), "R-ABIL-ACT", ipath,
            hint=_("list it under the participant's `abilities:`"))
    if not p.has_ability(ability):
        raise violation(_("{name} cannot activate {ability} now (disabled, or the item it needs is gone)").format(
            name=p.name, ability=repr(ability)), "R-ABIL-ACT", ipath)
    own = {} if isinstance(item, str) else item.options()
    options = _activation_options(ctx, p, ability, own, path)
    got = ctx.hooks.activation(ctx, w, p, ability, prep, options)
    if got is None:
        raise violation(_("the ability {ability} has no activation (or its plugin is off)").format(
            ability=repr(ability)), "R-ABIL-ACT", ipath,
            hint=_("`drd abilities {id}` shows the ability's card").format(id=ability))
    plugin, decl = got
    ctx.hooks.acted.add(plugin)
    cost = int(decl.get("cost", 0))
    suroviny = decl.get("pool") == SUROVINY
    key = SUROVINY if suroviny else p.pool_for(norm_pool(decl.get("pool")) or prep.pool)
    payer = paid_by or p.id
    crafts = decl.get("crafts")
    crafts = str(crafts) if crafts is not None else None
    entry = {"by": p.id, "ability": ability, "cost": cost, "pool": key}
    if suroviny and paid_by and paid_by != p.id:
        if paid_by not in w:
            raise ScenarioError(_("paid_by names an unknown participant {id}").format(id=repr(paid_by)),
                                path=path + ("paid_by",), rule="R-ABIL-SHARE")
        raise violation(_("{payer} cannot pay {name}'s Suroviny ({ability}): Suroviny are ingredients the crafter "
                          "holds, and no ability shares them").format(
            payer=w.peek(paid_by).name, name=p.name, ability=ctx.hooks.title(ability)),
            "R-ABIL-SHARE", path + ("paid_by",),
            hint=_("give the crafter the Suroviny (`suroviny:` on the participant, docs/scenario-format.md §2)"))
    if suroviny:
        if cost:
            bill.add_suroviny(cost, crafts, ability, entry, path)
    elif cost:
        bill.add(payer, key, cost, "activation", ability, path + (("paid_by",) if paid_by else ()))
    improvised = int(decl.get("improvised") or 0)
    if improvised:
        bill.improvise(improvised, crafts, ability)
        entry["improvised"] = improvised
    if own:
        entry["options"] = dict(own)
    if paid_by:
        entry["paid_by"] = paid_by
    rec.data.setdefault("activations", []).append(entry)
    rec.log("R-ABIL-ACT", _("{name} activates {ability}: {cost}").format(
        name=p.name, ability=ctx.hooks.title(ability), cost=amount_cs(cost, key)) if suroviny else
        _("{name} activates {ability}: {cost} {pool}").format(
        name=p.name, ability=ctx.hooks.title(ability), cost=cost, pool=pool_cs(key)))
    if improvised:
        rec.log("R-ABIL-ACT", _("{name}: {ability} — {improvised} improvised for this action").format(
            name=p.name, ability=ctx.hooks.title(ability), improvised=amount_cs(improvised, SUROVINY)))
    fact = decl.get("fact") or getattr(prep.spec, "note", None)
    if fact:
        rec.log("R-ABIL-FACT", _("{name} establishes: {fact}").format(name=p.name, fact=fact))


def _activation_options(ctx: Ctx, p: PState, ability: str, own: dict, path: tuple) -> dict:
    """The ability's own keys for this activation: the `abilities:` entry's, the `activate:` item's
    over them — checked against the ability's card (exit 2 at the key), and every `per_use` key
    without a default given one way or the other."""
    from ..abilities import check_keys
    from ..citations import FORMAT_DOC

    listed = dict((getattr(p, "ability_options", None) or {}).get(ability) or {})
    options = {**listed, **own}
    card = ctx.hooks.card(ability)
    if card is None:
        return options
    rule = f"{FORMAT_DOC} §4.1"
    problems = check_keys(ability, card, own, path, rule=rule, also=("paid_by",), required=False)
    if problems:
        raise ScenarioError(problems)
    for key, decl in (card.get("keys") or {}).items():
        if decl.get("per_use") and "default" not in decl and key not in options:
            choices = decl.get("choices")
            raise ScenarioError(
                _("activating {ability} needs its key {key} (for this activation)").format(
                    ability=card.get("name") or ability, key=repr(key)), path=path, rule=rule,
                hint=_("write the item as {{id: {id}, {key}: …}}: {help}").format(
                    id=ability, key=key, help=decl.get("help") or (", ".join(map(str, choices)) if choices else key)))
    return options


def _cap(rec: StepRecord, p: PState) -> None:
    """A pool never ends a payment above its maximum (RULES §1.1): a gain's surplus is lost."""
    for key, lost in p.cap_pools().items():
        rec.log("R-EXH-4", _("{name}: {pool} over the maximum {max}, {lost} is lost").format(
            name=p.name, pool=pool_cs(key), max=p.maxima[key], lost=lost))


def _manoeuvre_payment(ctx: Ctx, w: Working, p: PState, prep: Prepared, name: str, pay: str | None,
                       via: str | None, path: tuple, mview: Any = None) -> tuple[str, int, str | None]:
    """How one manoeuvre is paid: ("telo"/"sudba"/…, 1, None), ("vyhoda", 1, None) or ("free", 0, via)."""
    pool_key = p.pool_for(prep.pool)
    if pay in ("vyhoda", "výhoda"):
        return "vyhoda", 1, None
    if pay in (None, "free"):
        free = free_manoeuvre(ctx, w, p, prep, name, via, mview)
        if free:
            return "free", 0, free
        if pay == "free":
            raise violation((_("nothing makes {manoeuvre} free for {name} here ({via} is not held or already used "
                               "this round)") if via else _("nothing makes {manoeuvre} free for {name} here")).format(
                                manoeuvre=manoeuvre_name(name), name=p.name, via=via),
                            "R-MAN-2", path)
        return pool_key, 1, None
    if pay == "pool":
        return pool_key, 1, None
    key = norm_pool(pay)
    if not p.is_hero:
        key = "sudba"
    return key, 1, None


def free_manoeuvre(ctx: Ctx, w: Working, p: PState, prep: Prepared, name: str, via: str | None,
                   mview: Any = None) -> str | None:
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
    return ctx.hooks.free_manoeuvre(ctx, w, p, prep, name, via, mview)


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
              sacrifice: str | None, path: tuple, purpose: str = "exhaust",
              extra: list[tuple[str, int]] | None = None) -> dict:
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
            rec.log("R-ABIL-SCAR", _("{name}: the Jizva „{jizva}“ yields {n} more thanks to {source}").format(
                name=p.name, jizva=jizva["name"], n=n, source=ctx.hooks.title(plugin)))
        amount += sum(n for _p, n in extra)
        p.change_resource(p.pool_for(jpool), amount)
        p.jizvy.append(jizva["name"])
        gained["jizva"] = {"name": jizva["name"], "gain": amount}
        if extra:
            gained["jizva"]["extra"] = [{"source": s, "amount": n} for s, n in extra]
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
        adds, caps = hooks.exhaustion_adjust(ctx, view, entry)
        adjustments = list(entry.adjustments)
        cost = entry.cost
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
            denied: str | None = None, rule: str = "R-EXH-1", why: str = "", use_armour: bool = True,
            cost: int | None = None, once: bool = False) -> dict | None:
    """Pays one exhaustion and raises Ohrožení by exactly 1; refuses (exit 1) when unaffordable.

    The cost is `exhaustion_breakdown`'s (the core's with the plugins' adjustments), recorded as the
    entry's `breakdown`; `once`: one payer's Ohrožení for all protected (CS-ENV-3), `cost`: a price
    the caller fixed. `answer.paid_by`: someone else's points pay it (R-ABIL-SHARE); it stays the
    payer's exhaustion (its Ohrožení prices it and rises).
    Returns the `exhaustions[]` entry, or None when a --choose policy answer cannot be afforded
    (a policy never forces an illegal payment; written answers do raise).
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
    jizva = answer.jizva if answer else None
    sacrifice = answer.sacrifice if answer else None
    path = answer.path if answer else ()
    source_key = key
    source_pid = payer
    if helper is not None:
        source_pid, source_key = _exhaust_helper(ctx, w, rec, payer, helper, key, cost, winner, answer)
    src = w.peek(source_pid)
    if answer is not None and not answer.explicit:
        if answer.max_cost is not None and cost > answer.max_cost:
            rec.log(rule, _("{name} would have to exhaust for {cost} {pool}, more than {max} (choice cheapest): "
                            "accepts the failure").format(name=p.name, cost=cost, pool=pool_cs(key),
                                                          max=answer.max_cost))
            return None
        if src.resource(source_key) < cost:
            rec.log(rule, _("{name} would have to exhaust for {cost} {pool}, but has only {have}: accepts the "
                            "failure").format(name=p.name, cost=cost, pool=pool_cs(key), have=src.resource(source_key)))
            return None
    jizva_points = 0
    # The abilities' say on the Jizva, asked once: for what is available and for what it yields.
    jizva_extra = ctx.hooks.jizva_yield(ctx, p, _jizva_view(p, jizva, norm_pool(jizva.get("pool")) or key,
                                                             "exhaust")) if jizva else []
    if jizva and (norm_pool(jizva.get("pool")) or pool) in (pool, None, key):
        jizva_points = int(jizva.get("gain", 0)) + sum(n for _p, n in jizva_extra)
    available = src.resource(source_key) + (jizva_points if source_pid == payer else 0) \
        + (int(ctx.param("sacrifice_gain")) if sacrifice and p.has_item(sacrifice) and source_pid == payer else 0)
    if available < cost:
        raise violation(
            _("{name} cannot afford to exhaust: it costs {cost} {pool}, {name} has {have}; {missing} missing").format(
                name=src.name, cost=cost, pool=pool_cs(source_key), have=available, missing=cost - available),
            "R-EXH-4", path,
            # drd play shows the shortage in its own words from these numbers, not from the text.
            data={"cost": cost, "pool": source_key, "have": available, "missing": cost - available},
            hint=_("a Jizva (`jizva: {{name, gain}}`) or a sacrificed item (`sacrifice: item`) in the answer could "
                   "cover it").format())
    gained = take_gain(ctx, w, rec, payer, key, jizva, sacrifice, path, extra=jizva_extra)
    wp = w[payer]
    before = wp.ohrozeni
    w[source_pid].change_resource(source_key, -cost)
    wp.ohrozeni = before + 1
    entry = {"by": payer, "vs": vs, "pool": key, "cost": cost, "protected": list(protected), "denied": denied,
             "ohrozeni": [before, wp.ohrozeni], "gained": gained, "breakdown": [e.as_result() for e in breakdown]}
    if helper is not None:
        entry["paid_by"] = {"id": helper, "pool": source_key}
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
    if source_pid != payer:
        _cap(rec, w[source_pid])
    return entry


def _exhaust_helper(ctx: Ctx, w: Working, rec: StepRecord, payer: str, helper: str, key: str, cost: int,
                    winner: Prepared | None, answer: Answer) -> tuple[str, str]:
    """R-ABIL-SHARE for an exhaustion: (who pays the points, from which pool), or exit 1."""
    path = answer.path + ("paid_by",)
    if helper not in w:
        raise ScenarioError(_("paid_by names an unknown participant {id}").format(id=repr(helper)), path=path,
                            rule="R-ABIL-SHARE")
    got = ctx.hooks.may_pay(ctx, w, helper, payer, views.CostView("exhaustion", cost, key, None), winner)
    if got is None:
        raise violation(_("{payer} cannot pay for {name}: no ability of theirs allows it here").format(
            payer=w.peek(helper).name, name=w.peek(payer).name), "R-ABIL-SHARE", path,
            hint=_("an ability that shares resources (e.g. Rameno na rameno) must be listed and its condition hold"))
    plugin, pool = got
    ctx.hooks.acted.add(plugin)
    q = w.peek(helper)
    source_key = q.pool_for(norm_pool(pool) or (key if key != "sudba" else "telo"))
    rec.log("R-ABIL-SHARE", _("{payer} pays {amount} {pool} for {name} ({what}) thanks to {source}").format(
        payer=q.name, amount=cost, pool=pool_cs(source_key), name=w.peek(payer).name, what=_cost_word("exhaustion", None),
        source=ctx.hooks.title(plugin)))
    return helper, source_key


def _jizva_view(p: PState, jizva: dict, pool: str, purpose: str) -> JizvaView:
    return JizvaView(str(jizva.get("name")), p.pool_for(norm_pool(jizva.get("pool")) or pool),
                     int(jizva.get("gain", 0)), purpose, tuple(jizva.get("tags") or ()))
