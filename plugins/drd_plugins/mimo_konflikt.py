"""Abilities whose mechanics live outside the conflict engine (class B): healing costs and
strength, crafting with Suroviny, an animal helper's stat block. They are known ids (a
participant may list them); naming one in `activate:` pays its activation before the roll
(R-ABIL-ACT) and notes the fact established; no number of the conflict changes.

Crafting (docs/rules.md "Suroviny"): Neobvyklé jedy and Čarovné stráže cost Suroviny by variant
(own key `variant`, chosen per activation), paid from the crafter's `suroviny`; Něco z ničeho,
Umění improvizace and Dar tvoření improvise Suroviny at 1 Duše each (own key `improvised`), and
improvised Suroviny of the same kind (trap, poison, symbol) pay the action's Suroviny costs first.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from drd_cli.plugin import hookimpl, translator

from ._schopnost import field_of
from .narativni import Narativni, Stupnovana

_, ngettext = translator()


def _with_note(made: str, action: Any, ability: str) -> str:
    """The fact an activation establishes: what was made, and the action's `note` if it has one
    (with the action's first activation only, so that an action activating two says it once)."""
    note = field_of(action, "note")
    activated = tuple(getattr(action, "activated", None) or ())
    first = not activated or activated[0] == ability
    return f"{made} — {note}" if note and first else made


class MimoKonflikt(Narativni):
    family = "healing"
    rules = ("R-ABIL-ACT",)


def _h(id: str, name: str, owner: str, category: str, mechanic: str, **kw) -> MimoKonflikt:
    return MimoKonflikt(id, name, owner, category, "B", mechanic, **kw)


vznesenost = _h("vznesenost", "Vznešenost", "elf", "Vliv", "léčení Jizvy na Vlivu stojí 4 Zdroje místo 5")
nezdolnost = _h("nezdolnost", "Nezdolnost", "trpaslík", "Tělo", "léčení Jizvy na Těle stojí 4 Zdroje místo 5")
dobra_nalada = _h("dobra-nalada", "Dobrá nálada", "hobit", "Duše", "léčení Jizvy na Duši stojí 4 Zdroje místo 5")
hojivy_dotek = _h("hojivy-dotek", "Hojivý dotek", "Mastičkář", "Vliv",
                  "za 1 Duši léčí Jizvy na Těle, jako by byl magický okamžik o 1 silnější", activation=(1, "duse"))
class Improvizace(MimoKonflikt):
    """Improvised Suroviny at `per` Duše each (own key `improvised`), and a base that costs `base`
    Duše (own key `base`, true by default) where the ability has one. `crafts` is what they make
    (per variant where the ability has variants); `made` words the facts."""

    family = "crafting"
    rules = ("R-ABIL-ACT", "R-ABIL-FACT")

    def __init__(self, *args: Any, crafts: Mapping[str, str], made: Mapping[str, Callable[[int], str]],
                 per: Mapping[str, int], base: int = 0, base_made: Callable[[], str] | None = None, **kw: Any):
        super().__init__(*args, **kw)
        self.crafts, self.made, self.per, self.base, self.base_made = dict(crafts), dict(made), dict(per), base, \
            base_made

    @hookimpl
    def drd_activation(self, participant: Any, ability: str, action: Any, options: Any) -> dict | None:
        if ability != self.id or self.activation is None:
            return None
        opts = self.chosen(participant, options)
        variant = str(opts.get("variant") or next(iter(self.crafts)))
        count = int(opts.get("improvised") or 0)
        with_base = bool(self.base) and opts.get("base", True) is not False
        facts = [self.base_made()] if with_base and self.base_made else []
        if count:
            facts.append(self.made[variant](count))
        cost = (self.base if with_base else 0) + count * self.per[variant]
        out = {"cost": cost, "pool": "duse", "crafts": self.crafts[variant]}
        if count:
            out["improvised"] = count
        if facts:
            out["fact"] = _with_note("; ".join(facts), action, self.id)
        return out


_IMPROVISED = {"type": "int", "per_use": True,
               "help": "improvised Suroviny made for this activation, 1 Duše each"}
_BASE = {"type": "bool", "default": True, "per_use": True,
         "help": "false: only the improvised Suroviny, without the base (1 Duše)"}

neco_z_niceho = Improvizace(
    "neco-z-niceho", "Něco z ničeho", "Lovec", "Duše", "B",
    "za 1 Duši postaví základ jednoduché pasti z improvizovaných surovin; další improvizované suroviny do pasti "
    "po 1 Duši (klíč `improvised`)", family="crafting", activation=(1, "duse"),
    part="základ pasti; +1 Duše za improvizovanou surovinu",
    keys={"improvised": dict(_IMPROVISED, default=0), "base": _BASE},
    crafts={"past": "past"}, per={"past": 1}, base=1,
    base_made=lambda: _("the base of a simple trap, from improvised Suroviny"),
    made={"past": lambda n: ngettext("{n} improvised Surovina built into a trap",
                                     "{n} improvised Suroviny built into a trap", n).format(n=n)})
umeni_improvizace = Improvizace(
    "umeni-improvizace", "Umění improvizace", "Mastičkář", "Duše", "B",
    "za 1 Duši připraví základ běžného jedu z improvizovaných surovin; posílí jed či protijed improvizovanými "
    "surovinami po 1 Duši (klíč `improvised`; zaplatí i suroviny Neobvyklých jedů)", family="crafting",
    activation=(1, "duse"), part="základ jedu; +1 Duše za improvizovanou surovinu",
    keys={"improvised": dict(_IMPROVISED, default=0), "base": _BASE},
    crafts={"jed": "jed"}, per={"jed": 1}, base=1,
    base_made=lambda: _("the base of an ordinary poison, from improvised Suroviny"),
    made={"jed": lambda n: ngettext("{n} improvised Surovina strengthens a poison or antidote",
                                    "{n} improvised Suroviny strengthen a poison or antidote", n).format(n=n)})
dar_tvoreni = Improvizace(
    "dar-tvoreni", "Dar tvoření", "Zaříkávač", "Duše", "B",
    "nabije rituální předmět improvizovanými surovinami zdarma; ochranné obrazce z nich tvoří po 1 Duši za surovinu "
    "(klíče `variant`, `improvised`; zaplatí i suroviny Čarovných stráží)", family="crafting",
    activation=(1, "duse"), part="ochranné obrazce, za improvizovanou surovinu; nabití předmětu zdarma",
    keys={"variant": {"choices": ["obrazce", "predmet"], "default": "obrazce", "per_use": True,
                      "help": "obrazce: protective symbols, 1 Duše per improvised Surovina; predmet: the ritual "
                              "item, free"},
          "improvised": dict(_IMPROVISED, help="improvised Suroviny made for this activation")},
    crafts={"obrazce": "obrazec", "predmet": "predmet"}, per={"obrazce": 1, "predmet": 0},
    made={"obrazce": lambda n: ngettext("{n} improvised Surovina made into protective symbols",
                                        "{n} improvised Suroviny made into protective symbols", n).format(n=n),
          "predmet": lambda n: ngettext("the ritual item charged with {n} improvised Surovina, at no cost",
                                        "the ritual item charged with {n} improvised Suroviny, at no cost",
                                        n).format(n=n)})
cvicitel = _h("cvicitel", "Cvičitel", "Lovec", "Vliv",
              "zvířecí pomocník má o jednu dovednost v rozsahu charakteristiky nebo o jednu zvláštní schopnost víc "
              "(zapište ji do jeho popisu ve scénáři)", family="narrative-authority")
class Vyroba(Stupnovana):
    """Crafting paid in Suroviny by variant (own key `variant`, chosen per activation, no default):
    the cost is paid from the crafter's `suroviny` (or improvised ones of the same kind), the fact
    noted is what was made (`made`)."""

    family = "crafting"
    rules = ("R-ABIL-ACT", "R-ABIL-FACT")

    def __init__(self, *args: Any, crafts: str, made: Mapping[str, Callable[[], str]], **kw: Any):
        super().__init__(*args, **kw)
        self.crafts, self.made = crafts, dict(made)

    @hookimpl
    def drd_activation(self, participant: Any, ability: str, action: Any, options: Any) -> dict | None:
        if ability != self.id or self.activation is None:
            return None
        variant = self.variant(participant, options)
        return {"cost": self.variants.get(variant, self.activation[0]), "pool": "suroviny", "crafts": self.crafts,
                "fact": _with_note(self.made[variant]() if variant in self.made else variant, action, self.id)}


neobvykle_jedy = Vyroba("neobvykle-jedy", "Neobvyklé jedy", "Mastičkář", "Duše", "B",
                        "posílené jedy za Suroviny (klíč `variant`): okamžitý nebo dvoufázový (1 Surovina), velmi "
                        "dlouhý s potlačující činností (3 Suroviny); placeno ze `suroviny` účastníka, improvizované "
                        "suroviny (Umění improvizace) je mohou nahradit", family="crafting",
                        activation=(1, "suroviny"), variants={"rychly": 1, "dvoufazovy": 1, "dlouhy": 3},
                        keys={"variant": {"choices": ["rychly", "dvoufazovy", "dlouhy"], "per_use": True,
                                          "help": "rychly / dvoufazovy: 1 Surovina; dlouhy: 3 Suroviny"}},
                        crafts="jed",
                        made={"rychly": lambda: _("a fast poison that acts at once"),
                              "dvoufazovy": lambda: _("a two-part poison, dormant until the victim eats or drinks "
                                                      "again"),
                              "dlouhy": lambda: _("a very long-lasting poison, held back by a natural activity")})
carovne_straze = Vyroba("carovne-straze", "Čarovné stráže", "Zaříkávač", "Duše", "B",
                        "posílené obrazce za Suroviny (klíč `variant`): „chytrý“ spící za dané podmínky (1 Surovina), "
                        "trvalý vázaný na místo či předmět (3 Suroviny); placeno ze `suroviny` účastníka, improvizované "
                        "suroviny (Dar tvoření) je mohou nahradit", family="crafting",
                        activation=(1, "suroviny"), variants={"chytry": 1, "trvaly": 3},
                        keys={"variant": {"choices": ["chytry", "trvaly"], "per_use": True,
                                          "help": "chytry: 1 Surovina; trvaly: 3 Suroviny"}},
                        crafts="obrazec",
                        made={"chytry": lambda: _("a “smart” symbol, dormant while its condition holds (a password, "
                                                  "a person)"),
                              "trvaly": lambda: _("a permanent symbol bound to a place or an item")})

ALL = (vznesenost, nezdolnost, dobra_nalada, hojivy_dotek, neco_z_niceho, umeni_improvizace, dar_tvoreni, cvicitel,
       neobvykle_jedy, carovne_straze)
