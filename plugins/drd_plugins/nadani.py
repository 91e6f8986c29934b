"""Nadání (R-ABIL-NAD, "2 manévry"): on an action within the ability's (narrow) scope, two manoeuvres
cost nothing [default `nadani: two-free`], or the action may use two manoeuvres more than
`max_manoeuvres` (`nadani: allowance-2`). The parameter is declared by the `schopnosti` plugin.

Scopes are narrower than a skill: a chosen weapon type held (Cit pro zbraň, Dobrá muška, Děsivá
přesnost), an art prop (Talent), a kind of target (Idol žen či mužů, Odznaky hrdinství), a skill
(Jsme jedné krve) or a circumstance the scenario states as a trait or condition (Plášť soumraku:
darkness; Tichošlápek: barefoot). docs/rules.md "Ability readings" gives each reading.
"""

from __future__ import annotations

from typing import Any, Callable

from drd_cli.plugin import hookimpl, manoeuvre_name

from ._schopnost import Ability, _, held_item, marks, slug

# Weapon types an ability with a `weapon` key may be given (a held item whose name contains the
# type's words counts as that weapon: `dlouhý meč` is a `meč`).
MELEE = ("meč", "dlouhý meč", "krátký meč", "obouruční meč", "šavle", "kord", "rapír", "tesák", "dýka", "nůž",
         "sekera", "válečná sekera", "obouruční sekera", "kladivo", "válečné kladivo", "palcát", "řemdih", "cep",
         "kopí", "halapartna", "sudlice", "píka", "hůl", "kyj", "obušek", "bič", "trojzubec", "kosa", "srp",
         "štít", "pěsti")
MISSILE = ("luk", "dlouhý luk", "krátký luk", "reflexní luk", "kuše", "lehká kuše", "těžká kuše", "prak",
           "foukačka")
THROWING = ("dýka", "vrhací dýka", "nůž", "vrhací nůž", "sekera", "vrhací sekera", "oštěp", "kopí", "šipka",
            "vrhací hvězdice", "kámen", "bola", "síť", "bumerang")

# Stems of the labels of hiding or sneaking (`ukrýt se`, `plížení`, `schovat se`, …).
HIDING = ("ukry", "ukryv", "skry", "schov", "pliz", "kradm", "hide", "sneak", "tichy-krok")
DARK = {"tma", "sero", "soumrak", "noc", "spatne-svetlo", "prisero"}
BAREFOOT = {"bos", "bosy", "bosa", "naboso", "bez-bot"}
MALE, FEMALE = {"muz", "male"}, {"zena", "female"}
NON_SAPIENT = {"zvire", "nerozumny", "nerozumna", "nerozumna-bytost"}


def hiding_label(action: Any) -> bool:
    label = slug(getattr(action, "label", None) or "")
    return any(stem in label for stem in HIDING)


class Nadani(Ability):
    """Nadání within `applies(ability, participant, options, action) -> (ok, why-not or None)`."""

    family = "skill-level"
    rules = ("R-ABIL-NAD",)

    def __init__(self, id: str, name: str, owner: str, category: str, mechanic: str,
                 applies: Callable[..., bool], *, scope: dict, **kw: Any):
        super().__init__(id, name, owner, category, "A", mechanic, scope=scope, **kw)
        self.applies = applies

    def _within(self, participant: Any, action: Any) -> bool:
        opts = self.options(participant)
        if opts is None or action is None:
            return False
        return bool(self.applies(participant, opts, action))

    @hookimpl
    def drd_manoeuvre_price(self, participant: Any, action: Any, manoeuvre: Any, params: Any) -> dict | None:
        if (params or {}).get("nadani", "two-free") != "two-free" or not self._within(participant, action):
            return None
        used = manoeuvre.free_by.get(self.id, 0)
        if used >= 2:
            return None
        return {"free": True, "via": self.name, "rule": "R-ABIL-NAD",
                "note": self.say(participant, _("nadání: {manoeuvre} is free ({n} of 2)").format(
                    manoeuvre=manoeuvre_name(manoeuvre.name), n=used + 1))}

    @hookimpl
    def drd_manoeuvre_allowance(self, participant: Any, action: Any, params: Any) -> int | None:
        if (params or {}).get("nadani", "two-free") != "allowance-2" or not self._within(participant, action):
            return None
        return 2


def _weapon(means: str, skill: str, kinds: tuple[str, ...]) -> Callable[..., bool]:
    """Within scope: an action of `means` (or, without `means`, of `skill`) while the chosen weapon is
    held — or while no weapon of the kind is listed at all (the scenario does not model the hero's
    weapons, so the chosen one is taken to be the one used)."""
    def applies(participant: Any, opts: Any, action: Any) -> bool:
        kind = opts.get("weapon")
        act_means, act_skill = getattr(action, "means", None), getattr(action, "skill", None)
        if not kind or not (act_means == means or (act_means is None and act_skill == skill)):
            return False
        if held_item(participant, kind) is not None:
            return True
        return not any(held_item(participant, k) for k in kinds)
    return applies


def _prop(participant: Any, opts: Any, action: Any) -> bool:
    kind = opts.get("prop_type")
    if not kind or getattr(action, "skill", None) != "umeni":
        return False
    return held_item(participant, kind) is not None or not getattr(participant, "equipment", ())


def _opposite_sex(participant: Any, opts: Any, action: Any) -> bool:
    own = marks(participant)
    other = FEMALE if own & MALE else MALE if own & FEMALE else None
    targets = getattr(action, "target_states", ()) or ()
    return (other is not None and getattr(action, "pool", None) == "vliv" and bool(targets)
            and all(marks(t) & other for t in targets))


def _sapient(participant: Any, opts: Any, action: Any) -> bool:
    targets = getattr(action, "target_states", ()) or ()
    return (getattr(action, "skill", None) == "sebeduvera" and bool(targets)
            and not any(marks(t) & NON_SAPIENT for t in targets))


def _animals(participant: Any, opts: Any, action: Any) -> bool:
    return getattr(action, "skill", None) == "ovlivnovani-zvirat"


def _hiding_when(circumstance: set[str]) -> Callable[..., bool]:
    def applies(participant: Any, opts: Any, action: Any) -> bool:
        return hiding_label(action) and bool(marks(participant) & circumstance)
    return applies


def _weapon_key(kinds: tuple[str, ...], what: str) -> dict:
    return {"weapon": {"required": True, "choices": list(dict.fromkeys(kinds)), "help": what}}


cit_pro_zbran = Nadani(
    "cit-pro-zbran", "Cit pro zbraň", "Bojovník", "Tělo",
    "nadání pro boj zblízka zvoleným typem zbraně, kterou drží (pěšky i v sedle, proti komukoli)",
    _weapon("melee", "bezny-boj-zblizka", MELEE), scope={"means": ["melee"], "skill": ["bezny-boj-zblizka"]},
    keys=_weapon_key(MELEE, "the melee weapon type (a held item whose name contains it)"))
dobra_muska = Nadani(
    "dobra-muska", "Dobrá muška", "Lovec", "Tělo", "nadání pro střelbu zvoleným typem střelné zbraně, kterou drží",
    _weapon("shooting", "bezna-strelba", MISSILE), scope={"means": ["shooting"], "skill": ["bezna-strelba"]},
    keys=_weapon_key(MISSILE, "the missile weapon type (a held item whose name contains it)"))
desiva_presnost = Nadani(
    "desiva-presnost", "Děsivá přesnost", "Kejklíř", "Tělo", "nadání pro vrh zvoleným typem vrhací zbraně, kterou drží",
    _weapon("throwing", "bezny-vrh", THROWING), scope={"means": ["throwing"], "skill": ["bezny-vrh"]},
    keys=_weapon_key(THROWING, "the throwing weapon type (a held item whose name contains it)"))
talent = Nadani(
    "talent", "Talent", "Kejklíř", "Vliv",
    "nadání pro Umění se zvoleným typem nástroje či rekvizity (maska, loutna, taneční kostým), který drží",
    _prop, scope={"skill": ["umeni"]},
    keys={"prop_type": {"required": True, "type": "str", "help": "the instrument or art prop (a held item)"}})
idol_zen_ci_muzu = Nadani(
    "idol-zen-ci-muzu", "Idol žen či mužů", "člověk", "Vliv",
    "nadání pro vlivové akce vůči opačnému pohlaví (rysy `muž` / `žena` u hrdiny i u cílů)",
    _opposite_sex, scope={"pool": ["vliv"], "traits": "muž | žena (actor and every target)"})
jsme_jedne_krve = Nadani(
    "jsme-jedne-krve", "Jsme jedné krve", "elf", "Vliv", "nadání v Ovlivňování zvířat",
    _animals, scope={"skill": ["ovlivnovani-zvirat"]})
plast_soumraku = Nadani(
    "plast-soumraku", "Plášť soumraku", "elf", "Duše",
    "nadání pro ukrývání ve tmě, šeru či špatném světle (rys nebo stav `tma` / `šero` u hrdiny)",
    _hiding_when(DARK), scope={"label": "hiding (ukrýt se, plížení, …)", "traits": "tma | šero | soumrak | noc"})
tichoslapek = Nadani(
    "tichoslapek", "Tichošlápek", "hobit", "Duše",
    "nadání pro ukrývání a plížení naboso (rys nebo stav `bos` / `naboso` u hrdiny)",
    _hiding_when(BAREFOOT), scope={"label": "hiding (ukrýt se, plížení, …)", "traits": "bos | naboso"})
odznaky_hrdinstvi = Nadani(
    "odznaky-hrdinstvi", "Odznaky hrdinství", "kroll", "Vliv",
    "nadání pro zastrašování rozumných bytostí Sebedůvěrou (cíl bez rysu `zvíře`)",
    _sapient, scope={"skill": ["sebeduvera"], "targets": "sapient (no trait zvíře)"})

ALL = (cit_pro_zbran, dobra_muska, desiva_presnost, talent, idol_zen_ci_muzu, jsme_jedne_krve, plast_soumraku,
       tichoslapek, odznaky_hrdinstvi)
