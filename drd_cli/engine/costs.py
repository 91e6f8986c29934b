"""Paying before the roll (R-MAN-2, R-NAR, R-ABIL-ACT, R-ABIL-SHARE): manoeuvres, náročnost,
activations and who pays them; a pool capped at its maximum."""

from __future__ import annotations

from typing import Any, cast

from ..errors import DocPath, Message, ScenarioError
from ..i18n import N_
from ..scenario.models import norm_pool
from ..terms import MANOEUVRES
from .. import views
from . import events as ev
from .context import Ctx, StepRecord, violation
from .events import Event
from .state import PState, Working
from .rolls import SUROVINY, Prepared, amount_cs, pool_cs


class _Bill:
    """Points to pay before the roll, per payer and pool (R-MAN-2, R-NAR, R-ABIL-ACT, R-ABIL-SHARE)."""

    def __init__(self, ctx: Ctx, w: Working, rec: StepRecord, actor: str, prep: Prepared):
        self.ctx, self.w, self.rec, self.actor, self.prep = ctx, w, rec, actor, prep
        self.costs: dict[tuple[str, str], int] = {}
        self.kinds: dict[tuple[str, str], set[str]] = {}
        self.vyhody_by: dict[str, int] = {}
        # Suroviny (the actor's only): costs [(amount, crafts, ability, result entry)] and the
        # improvised ones this action's activations make [[count, crafts, ability]].
        self.suroviny: list[tuple[int, str | None, str, dict[str, Any], DocPath]] = []
        self.improvised: list[list[Any]] = []

    def add_suroviny(self, amount: int, crafts: str | None, ability: str, entry: dict[str, Any],
                     path: DocPath) -> None:
        self.suroviny.append((amount, crafts, ability, entry, path))

    def improvise(self, count: int, crafts: str | None, ability: str) -> None:
        if count > 0:
            self.improvised.append([count, crafts, ability])

    def _cover_suroviny(self) -> list[tuple[int, int, str, dict[str, Any], list[str], DocPath]]:
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

    def vyhody(self, payer: str, path: DocPath) -> None:
        if payer != self.actor:
            self._allowed(payer, "manoeuvre", 1, "vyhoda", None, path)
        self.vyhody_by[payer] = self.vyhody_by.get(payer, 0) + 1

    def add(self, payer: str, key: str, amount: int, kind: str, what: str | None,
            path: DocPath) -> list[dict[str, Any]]:
        """`amount` points of `key` to pay, by `payer`. Someone else than the actor pays where an
        ability allows it (R-ABIL-SHARE), all of it or a part (API 3: the rest stays the actor's).
        Returns the payers of a part payment `[{id, pool, amount}, …]` (the actor first), else []."""
        if payer == self.actor:
            self._charge(payer, key, amount, kind)
            return []
        paid_from, share = self._allowed(payer, kind, amount, key, what, path)
        self._charge(payer, paid_from, share, kind)
        if share >= amount:
            return []
        own = self.w.peek(self.actor).pool_for(key if key != "vyhoda" else self.prep.pool)
        self._charge(self.actor, own, amount - share, kind)
        return [{"id": self.actor, "pool": own, "amount": amount - share},
                {"id": payer, "pool": paid_from, "amount": share}]

    def _charge(self, payer: str, key: str, amount: int, kind: str) -> None:
        if amount:
            self.costs[(payer, key)] = self.costs.get((payer, key), 0) + amount
            self.kinds.setdefault((payer, key), set()).add(kind)

    def _allowed(self, payer: str, kind: str, amount: int, key: str, what: str | None,
                 path: DocPath) -> tuple[str, int]:
        """R-ABIL-SHARE: someone else pays only where an ability lets them; returns the pool it
        pays from and how many of the points (all, or the part the plugin allows)."""
        w, ctx = self.w, self.ctx
        if payer not in w:
            raise ScenarioError(Message(N_("paid_by names an unknown participant {id}"), id=repr(payer)), path=path,
                                rule="R-ABIL-SHARE")
        got = ctx.hooks.may_pay(ctx, w, payer, self.actor, views.CostView(kind, amount, key, what), self.prep)
        if not got.allowed:
            raise violation(Message(N_("{payer} cannot pay for {name}: no ability of theirs allows it here"),
                                    payer=w.peek(payer).name, name=w.peek(self.actor).name), "R-ABIL-SHARE", path,
                            hint=got.note or Message(N_("an ability that shares resources (e.g. Rameno na rameno) "
                                                        "must be listed and its condition hold")))
        plugin = got.plugin or ""
        ctx.hooks.acted.add(plugin)
        q = w.peek(payer)
        paid_from = "vyhoda" if key == "vyhoda" else q.pool_for(norm_pool(got.pool) or (key if key != "sudba" else
                                                                                         self.prep.pool))
        share = amount if got.amount is None else min(got.amount, amount)
        self.rec.event("R-ABIL-SHARE", "share.pays", payer=ev.who(payer), amount=share,
                       pool=ev.phrase("vyhoda") if paid_from == "vyhoda" else pool_cs(paid_from),
                       name=ev.who(self.actor), what=_cost_word(kind, what), source=ctx.hooks.title(plugin))
        return paid_from, share

    def pay(self, path: DocPath) -> None:
        w = self.w
        for payer, n in self.vyhody_by.items():
            if n > w.peek(payer).vyhody:
                raise violation(Message(N_("{name} pays {n} manoeuvre(s) with Výhody but has {has}"),
                                        name=w.peek(payer).name, n=n, has=w.peek(payer).vyhody),
                                "R-MAN-2", path + ("manoeuvres",))
        for (payer, key), cost in self.costs.items():
            have = w.peek(payer).resource(key)
            if cost > have and "activation" in self.kinds.get((payer, key), ()):
                raise violation(
                    Message(N_("{name} cannot pay {cost} {pool} for the activation (with manoeuvres and náročnost): "
                               "has {have}, missing {missing}"), name=w.peek(payer).name, cost=cost, pool=pool_cs(key),
                            have=have, missing=cost - have),
                    "R-ABIL-ACT", path, data={"cost": cost, "pool": key, "have": have, "missing": cost - have},
                    hint=Message(N_("a Jizva or a sacrificed item (`gain:`) could cover it (R-EXH-4), or someone "
                                    "whose ability allows it may pay (`paid_by`, R-ABIL-SHARE)")))
            if cost > have:
                raise violation(
                    Message(N_("{name} cannot pay {cost} {pool} for manoeuvres/náročnost: has {have}, missing "
                               "{missing}"), name=w.peek(payer).name, cost=cost, pool=pool_cs(key), have=have,
                            missing=cost - have),
                    "R-MAN-2", path, hint=Message(N_("a Jizva or a sacrificed item (`gain:`) could cover it (R-EXH-4)")))
        covered = self._cover_suroviny() if self.suroviny else []
        held = sum(c[0] for c in covered)
        if covered:
            p = w.peek(self.actor)
            have = p.suroviny or 0
            if held > have:
                raise violation(
                    Message(N_("{name} cannot pay {cost} for the activation: has {have}, missing {missing} (Suroviny "
                               "are not points: a Jizva or a sacrificed item cannot replace them)"),
                            name=p.name, cost=amount_cs(held, SUROVINY), have=have, missing=held - have),
                    "R-ABIL-ACT", next(c[5] for c in covered if c[0]), data={"cost": held, "pool": SUROVINY, "have": have, "missing": held - have},
                    hint=Message(N_("improvised Suroviny can stand in for them: an improvising ability (Umění "
                                    "improvizace, Dar tvoření) activated for the same action with `improvised: N`, "
                                    "1 Duše each; or give the participant more `suroviny:` "
                                    "(docs/scenario-format.md §2)")))
        for payer, n in self.vyhody_by.items():
            w[payer].spend_vyhody(n)
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
                    self.rec.event("R-ABIL-ACT", "suroviny.improvised_held", name=ev.who(self.actor), ability=title,
                                   improvised=ev.amount(used, SUROVINY),
                                   sources=ev.joined(self.ctx.hooks.title(x) for x in sources), own=own)
                elif own:
                    self.rec.event("R-ABIL-ACT", "suroviny.spends", name=ev.who(self.actor), cost=ev.amount(own, SUROVINY),
                                   ability=title)
            if actor.suroviny is not None:
                self.rec.event("R-ABIL-ACT", "suroviny.left", name=ev.who(self.actor),
                               left=ev.amount(actor.suroviny or 0, SUROVINY))
        for payer in {p for p, _k in self.costs} | set(self.vyhody_by) | {self.actor}:
            _cap(self.rec, w[payer])


def _cost_word(kind: str, what: str | None) -> Event:
    if kind == "manoeuvre":
        return ev.phrase("cost.manoeuvre", name=ev.manoeuvre(what))
    if kind == "activation":
        return ev.phrase("cost.activation", name=what)
    if kind == "narocnost":
        return ev.phrase("cost.narocnost")
    return ev.phrase("cost.exhaustion")


def _activate(ctx: Ctx, w: Working, rec: StepRecord, p: PState, prep: Prepared, item: Any, path: DocPath,
              bill: _Bill) -> None:
    """R-ABIL-ACT: an ability activated for this action pays its activation before the roll."""
    ability = item if isinstance(item, str) else item.id
    paid_by = None if isinstance(item, str) else item.paid_by
    ipath = path if isinstance(item, str) else path + ("id",)
    if ability not in p.abilities:
        raise violation(Message(N_("{name} activates {ability}, an ability it does not have"),
                                name=p.name, ability=repr(ability)), "R-ABIL-ACT", ipath,
                        hint=Message(N_("list it under the participant's `abilities:`")))
    if not p.has_ability(ability):
        raise violation(Message(N_("{name} cannot activate {ability} now (disabled, or the item it needs is gone)"),
                                name=p.name, ability=repr(ability)), "R-ABIL-ACT", ipath)
    own = {} if isinstance(item, str) else item.options()
    options = _activation_options(ctx, p, ability, own, path)
    got = ctx.hooks.activation(ctx, w, p, ability, prep, options)
    if got is None:
        raise violation(Message(N_("the ability {ability} has no activation (or its plugin is off)"),
                                ability=repr(ability)), "R-ABIL-ACT", ipath,
                        hint=Message(N_("`drd abilities {id}` shows the ability's card"), id=ability))
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
            raise ScenarioError(Message(N_("paid_by names an unknown participant {id}"), id=repr(paid_by)),
                                path=path + ("paid_by",), rule="R-ABIL-SHARE")
        raise violation(Message(N_("{payer} cannot pay {name}'s Suroviny ({ability}): Suroviny are ingredients the "
                                   "crafter holds, and no ability shares them"),
                                payer=w.peek(paid_by).name, name=p.name, ability=ctx.hooks.title(ability)),
                        "R-ABIL-SHARE", path + ("paid_by",),
                        hint=Message(N_("give the crafter the Suroviny (`suroviny:` on the participant, "
                                        "docs/scenario-format.md §2)")))
    if suroviny:
        if cost:
            bill.add_suroviny(cost, crafts, ability, entry, path)
    elif cost:
        payers = bill.add(payer, key, cost, "activation", ability, path + (("paid_by",) if paid_by else ()))
        if payers:
            entry["payers"] = payers
    improvised = int(decl.get("improvised") or 0)
    if improvised:
        bill.improvise(improvised, crafts, ability)
        entry["improvised"] = improvised
    if own:
        entry["options"] = dict(own)
    if paid_by:
        entry["paid_by"] = paid_by
    rec.data.setdefault("activations", []).append(entry)
    if suroviny:
        rec.event("R-ABIL-ACT", "ability.activates", name=ev.who(p.id), ability=ctx.hooks.title(ability),
                  cost=ev.amount(cost, key))
    else:
        rec.event("R-ABIL-ACT", "ability.activates_pool", name=ev.who(p.id), ability=ctx.hooks.title(ability), cost=cost,
                  pool=pool_cs(key))
    if improvised:
        rec.event("R-ABIL-ACT", "suroviny.improvised", name=ev.who(p.id), ability=ctx.hooks.title(ability),
                  improvised=ev.amount(improvised, SUROVINY))
    fact = decl.get("fact") or getattr(prep.spec, "note", None)
    if fact:
        rec.event("R-ABIL-FACT", "ability.fact", name=ev.who(p.id), fact=fact)


def _activation_options(ctx: Ctx, p: PState, ability: str, own: dict[str, Any],
                        path: DocPath) -> dict[str, Any]:
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
                Message(N_("activating {ability} needs its key {key} (for this activation)"),
                        ability=card.get("name") or ability, key=repr(key)), path=path, rule=rule,
                hint=Message(N_("write the item as {{id: {id}, {key}: …}}: {help}"),
                             id=ability, key=key, help=decl.get("help") or (", ".join(map(str, choices)) if choices
                                                                             else key)))
    return options


def _cap(rec: StepRecord, p: PState) -> None:
    """A pool never ends a payment above its maximum (RULES §1.1): a gain's surplus is lost."""
    for key, lost in p.cap_pools().items():
        rec.event("R-EXH-4", "pool.over_max", name=ev.who(p.id), pool=pool_cs(key), max=p.maxima[key], lost=lost)


def _manoeuvre_payment(ctx: Ctx, w: Working, p: PState, prep: Prepared, name: str, pay: str | None,
                       via: str | None, path: DocPath, mview: Any = None) -> tuple[str, int, str | None]:
    """How one manoeuvre is paid: ("telo"/"sudba"/…, 1, None), ("vyhoda", 1, None) or ("free", 0, via)."""
    pool_key = p.pool_for(prep.pool)
    if pay in ("vyhoda", "výhoda"):
        return "vyhoda", 1, None
    if pay in (None, "free"):
        free = free_manoeuvre(ctx, w, p, prep, name, via, mview)
        if free:
            return "free", 0, free
        if pay == "free":
            raise violation(Message(N_("nothing makes {manoeuvre} free for {name} here ({via} is not held or already "
                                       "used this round)") if via else N_("nothing makes {manoeuvre} free for {name} "
                                                                          "here"),
                                    manoeuvre=_manoeuvre_word(name), name=p.name, via=via),
                            "R-MAN-2", path)
        return pool_key, 1, None
    if pay == "pool":
        return pool_key, 1, None
    key = norm_pool(pay)
    if not p.is_hero:
        key = "sudba"
    # The scenario model admits only pool names here (norm_pool gives None for nothing else).
    return cast(str, key), 1, None


def _manoeuvre_word(name: str) -> Message | str:
    """A manoeuvre's word for a message (`presne` → its msgid, worded when shown); another name as it is."""
    return Message(MANOEUVRES[name]) if name in MANOEUVRES else name


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


def _check_allowed(ctx: Ctx, p: PState, spec: Any, path: DocPath) -> None:
    """A condition that forbids the action, or a disabled label, refuses it (R-NAR impossible)."""
    words = {x for x in (getattr(spec, "label", None), getattr(spec, "means", None)) if x}
    for c in p.conditions:
        hit = words & set(c.forbids)
        if hit:
            raise violation(Message(N_("{name} cannot do {what}: condition {condition} forbids it"),
                                    name=p.name, what=repr(sorted(hit)[0]), condition=repr(c.name)), "R-NAR",
                            path + (("label",) if getattr(spec, "label", None) in hit else ()))
    hit = words & set(p.disabled)
    if hit:
        raise violation(Message(N_("{name} can no longer use {what} (disabled by an earlier effect)"),
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
