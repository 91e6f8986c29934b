"""Abilities whose mechanics live outside the conflict engine (class B): healing costs and
strength, crafting with Suroviny, an animal helper's stat block. They are known ids (a
participant may list them); where part of one costs Duše or Vliv, naming it in `activate:` pays
that part like any activation (R-ABIL-ACT); costs in Suroviny are not modelled.
"""

from __future__ import annotations

from .narativni import Narativni, Stupnovana


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
neco_z_niceho = _h("neco-z-niceho", "Něco z ničeho", "Lovec", "Duše",
                   "za 1 Duši postaví základ jednoduché pasti z improvizovaných surovin; další improvizované suroviny "
                   "po 1 Duši", family="crafting", activation=(1, "duse"), part="základ pasti")
umeni_improvizace = _h("umeni-improvizace", "Umění improvizace", "Mastičkář", "Duše",
                       "za 1 Duši připraví základ běžného jedu z improvizovaných surovin; posílí jed či protijed "
                       "improvizovanými surovinami po 1 Duši", family="crafting", activation=(1, "duse"),
                       part="základ jedu")
dar_tvoreni = _h("dar-tvoreni", "Dar tvoření", "Zaříkávač", "Duše",
                 "nabije rituální předmět improvizovanými surovinami zdarma; ochranné obrazce z nich tvoří po 1 Duši "
                 "za surovinu", family="crafting")
cvicitel = _h("cvicitel", "Cvičitel", "Lovec", "Vliv",
              "zvířecí pomocník má o jednu dovednost v rozsahu charakteristiky nebo o jednu zvláštní schopnost víc "
              "(zapiš ji do jeho popisu ve scénáři)", family="narrative-authority")
neobvykle_jedy = Stupnovana("neobvykle-jedy", "Neobvyklé jedy", "Mastičkář", "Duše", "B",
                            "posílené jedy: okamžitý nebo dvoufázový (1 Surovina), velmi dlouhý s potlačující "
                            "činností (3 Suroviny); suroviny engine nemodeluje", family="crafting",
                            activation=(1, "suroviny"), variants={"rychly": 1, "dvoufazovy": 1, "dlouhy": 3},
                            keys={"variant": {"choices": ["rychly", "dvoufazovy", "dlouhy"], "default": "rychly",
                                              "help": "rychly / dvoufazovy: 1 Surovina; dlouhy: 3 Suroviny"}})
carovne_straze = Stupnovana("carovne-straze", "Čarovné stráže", "Zaříkávač", "Duše", "B",
                            "posílené obrazce: „chytrý“ spící za dané podmínky (1 Surovina), trvalý vázaný na místo či "
                            "předmět (3 Suroviny); suroviny engine nemodeluje", family="crafting",
                            activation=(1, "suroviny"), variants={"chytry": 1, "trvaly": 3},
                            keys={"variant": {"choices": ["chytry", "trvaly"], "default": "chytry",
                                              "help": "chytry: 1 Surovina; trvaly: 3 Suroviny"}})
for _a in (neobvykle_jedy, carovne_straze):
    _a.rules = ("R-ABIL-ACT",)

ALL = (vznesenost, nezdolnost, dobra_nalada, hojivy_dotek, neco_z_niceho, umeni_improvizace, dar_tvoreni, cvicitel,
       neobvykle_jedy, carovne_straze)
