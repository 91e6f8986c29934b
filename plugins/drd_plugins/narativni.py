"""Obsahová pravomoc and other narrative abilities (R-ABIL-FACT, R-ABIL-ACT): no number of the
conflict changes; an ability with an activation cost acts when an action names it in `activate:`
(the cost is paid before the roll, R-ABIL-ACT) and the transcript records the fact the player
establishes (the action's `note`). Modlitby a uřknutí has two tiers (its own key `variant`).
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import PAYABLE, Ability


class Narativni(Ability):
    family = "narrative-authority"
    rules = ("R-ABIL-FACT", "R-ABIL-ACT")


class Stupnovana(Narativni):
    """An activation whose cost depends on the variant chosen (the ability's own key `variant`)."""

    family = "activation-only"

    def __init__(self, *args: Any, variants: dict[str, int], **kw: Any):
        super().__init__(*args, **kw)
        self.variants = variants

    def card(self) -> dict:
        out = super().card()
        out["activation"]["tiers"] = dict(self.variants)
        return out

    def variant(self, participant: Any, options: Any) -> str:
        """The variant chosen for this activation (the first one when none is given)."""
        return str(self.chosen(participant, options).get("variant") or next(iter(self.variants)))

    @hookimpl
    def drd_activation(self, participant: Any, ability: str, action: Any, options: Any) -> dict | None:
        if ability != self.id or self.activation is None or self.activation[1] not in PAYABLE:
            return None
        cost = self.variants.get(self.variant(participant, options), self.activation[0])
        return {"cost": cost, "pool": self.activation[1]}


def _c(id: str, name: str, owner: str, category: str, cost: tuple[int, str], mechanic: str) -> Narativni:
    return Narativni(id, name, owner, category, "C", mechanic, activation=cost)


styky = _c("styky", "Styky", "člověk", "Vliv", (1, "vliv"),
           "hráč určí, že mu cizí postava dluží starou laskavost nebo že mají společného známého")
pamet_rodu = _c("pamet-rodu", "Paměť rodu", "elf", "Duše", (1, "duse"),
                "hráč určí starý zvyk spojený s místem či situací, kterého hrdina může využít")
pouto_krve = _c("pouto-krve", "Pouto krve", "trpaslík", "Vliv", (1, "vliv"),
                "hráč určí, že daný trpaslík je hrdinův příbuzný nebo je zavázán jeho rodu")
labuznik = _c("labuznik", "Labužník", "hobit", "Duše", (1, "duse"),
              "hráč určí, že hrdina má u sebe (uvěřitelně) nějakou drobnou pochoutku či pohodlí")
koreny_magie = _c("koreny-magie", "Kořeny magie", "kroll", "Duše", (1, "duse"),
                  "hráč určí vlastnost, okolí nebo chování přírodního zdroje magie")
precteni_soupere = _c("precteni-soupere", "Přečtení soupeře", "Bojovník", "Vliv", (1, "vliv"),
                      "hráč určí slabinu nebo oblíbenou taktiku budoucího soupeře v boji zblízka")
zarikavac_koni = _c("zarikavac-koni", "Zaříkávač koní", "Lovec", "Vliv", (1, "vliv"),
                    "hráč určí povahu nebo náladu zvířete, které není pod vlivem kouzla")
skryta_kapsa = _c("skryta-kapsa", "Skrytá kapsa", "Kejklíř", "Tělo", (1, "telo"),
                  "hráč určí, že hrdinovi i po prohledání zůstal jeden předmět velikosti dlaně")
lazebnik = _c("lazebnik", "Lazebník", "Mastičkář", "Vliv", (1, "vliv"),
              "hráč určí, že o někom koluje fáma či pomluva")
veze_a_chramy = _c("veze-a-chramy", "Věže a chrámy", "Zaříkávač", "Vliv", (1, "vliv"),
                   "hráč určí, že bytost patří ke stejnému okultnímu, náboženskému či magickému společenství")
zmena_tvare = Narativni("zmena-tvare", "Změna tváře", "Kejklíř", "Vliv", "C",
                        "za 1 Vliv zvládne převlek za obecný typ člověka bez času a rekvizit (ne za konkrétní osobu)",
                        family="activation-only", activation=(1, "vliv"))
modlitby_a_urknuti = Stupnovana("modlitby-a-urknuti", "Modlitby a uřknutí", "Zaříkávač", "Vliv", "C",
                                "posílené Zaříkání: dlouho trvající požehnání či kletba (1 Vliv), nebo velmi dlouhá "
                                "kletba s podmínkou zrušení (3 Vliv; klíč `variant`)",
                                activation=(1, "vliv"), variants={"dlouho": 1, "velmi-dlouho": 3},
                                keys={"variant": {"choices": ["dlouho", "velmi-dlouho"], "default": "dlouho",
                                                  "per_use": True,
                                                  "help": "dlouho: 1 Vliv; velmi-dlouho (a curse only): 3 Vliv"}})

ALL = (styky, pamet_rodu, pouto_krve, labuznik, koreny_magie, precteni_soupere, zarikavac_koni, skryta_kapsa,
       lazebnik, veze_a_chramy, zmena_tvare, modlitby_a_urknuti)
