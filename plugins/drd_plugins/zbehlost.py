"""Zběhlost (R-ABIL-ZB): on an action of the ability's skill(s), the basic manoeuvres cost nothing.

An action without `skill` but with `means: melee` / `shooting` / `throwing` counts as Běžný boj
zblízka / Běžná střelba / Běžný vrh. Reading (parameter `zbehlost`, declared by the `schopnosti` plugin): `basic-free-once` [default]
— přesně, rozsáhle, obrana, mocně and lstivě are each free once per action (the first of its
name); `basic-free-all` — every basic manoeuvre of the action is free. Free ones still count as
used (R-MAN-2). Two abilities add a free rozsáhle of their own (Průvodce, Komediant).
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl, manoeuvre_name

from ._schopnost import Ability, _

BASIC = ("presne", "rozsahle", "obrana", "mocne", "lstive")
SKILL_NAMES = {
    "bezny-boj-zblizka": "Běžný boj zblízka", "sila": "Síla", "bojovnicke-znalosti": "Bojovnické znalosti",
    "sebeduvera": "Sebedůvěra", "bezna-strelba": "Běžná střelba", "tabornictvi": "Tábornictví",
    "orientace-v-divocine": "Orientace v divočině", "cestovani": "Cestování",
    "lovecke-znalosti": "Lovecké znalosti", "ovlivnovani-zvirat": "Ovlivňování zvířat",
    "pohyblivost": "Pohyblivost", "bezny-vrh": "Běžný vrh", "triky-a-kejkle": "Triky a kejkle",
    "orientace-ve-meste": "Orientace ve městě", "umeni": "Umění", "charisma": "Charisma",
    "prevleky-a-predstirani": "Převleky a předstírání", "masti-a-jedy": "Masti a jedy",
    "osetrovani-lidskeho-tela": "Ošetřování lidského těla", "znalost-lidi": "Znalost lidí",
    "vyjednavani-s-lidmi": "Vyjednávání s lidmi", "ucenost": "Učenost",
    "znalost-nadprirozena": "Znalost nadpřirozena", "osetrovani-lidske-duse": "Ošetřování lidské duše",
    "zarikani": "Zaříkání", "vyjednavani-s-nadprirozenem": "Vyjednávání s nadpřirozenem",
}


# Without a `skill`, a fight, a shot or a throw is taken as the profession's ordinary skill for it.
MEANS_SKILL = {"melee": "bezny-boj-zblizka", "shooting": "bezna-strelba", "throwing": "bezny-vrh"}


class Zbehlost(Ability):
    """Zběhlost in `skills`; optionally a free rozsáhle for `area_skills` (plošně, or the party)."""

    family = "skill-level"
    rules = ("R-ABIL-ZB",)

    def __init__(self, id: str, name: str, owner: str, category: str, skills: tuple[str, ...], mechanic: str,
                 *, free_rozsahle: tuple[str, ...] = (), rozsahle_when: str | None = None, **kw: Any):
        scope = {"skill": list(skills)}
        if free_rozsahle:
            scope["rozsahle"] = {"skill": list(free_rozsahle), "when": rozsahle_when}
        family = "skill-level + free-manoeuvre" if free_rozsahle else kw.pop("family", None)
        if kw.get("activation"):
            family = (family or "skill-level") + " + " + kw.pop("second", "activation-only")
        super().__init__(id, name, owner, category, "A", mechanic, family=family, scope=scope, **kw)
        self.skills = tuple(skills)
        self.free_rozsahle = tuple(free_rozsahle)
        self.rozsahle_when = rozsahle_when
        if free_rozsahle:
            self.rules = ("R-ABIL-ZB", "R-ABIL-FREE", "CS-RANGE-3")

    @hookimpl
    def drd_manoeuvre_price(self, participant: Any, action: Any, manoeuvre: Any, params: Any) -> dict | None:
        if self.options(participant) is None or action is None:
            return None
        skill = getattr(action, "skill", None) or MEANS_SKILL.get(getattr(action, "means", None))
        if skill in self.skills and manoeuvre.name in BASIC:
            reading = (params or {}).get("zbehlost", "basic-free-once")
            if reading == "basic-free-all" or manoeuvre.occurrence == 0:
                return {"free": True, "via": self.name, "rule": "R-ABIL-ZB",
                        "note": self.say(participant, _("zběhlost in {skill}: {manoeuvre} is free").format(
                            skill=SKILL_NAMES.get(skill, skill),
                            manoeuvre=manoeuvre_name(manoeuvre.name)))}
        if manoeuvre.name == "rozsahle" and skill in self.free_rozsahle:
            if self._rozsahle_applies(participant, action):
                return {"free": True, "via": self.name, "rule": "R-ABIL-FREE",
                        "note": self.say(participant, _("rozsáhle is free ({when})").format(
                            when=self.rozsahle_when_text()))}
        return None

    def _rozsahle_applies(self, participant: Any, action: Any) -> bool:
        if self.rozsahle_when == "area":
            return bool(getattr(action, "area", False))
        if self.rozsahle_when == "party":
            targets = getattr(action, "target_states", ()) or ()
            return bool(targets) and all(t.side is not None and t.side == participant.side for t in targets)
        return False

    def rozsahle_when_text(self) -> str:
        return (_("a plošná action") if self.rozsahle_when == "area"
                else _("the targets are the hero's own party travelling with him"))


def _z(id: str, name: str, owner: str, category: str, skills: tuple[str, ...], mechanic: str, **kw: Any) -> Zbehlost:
    return Zbehlost(id, name, owner, category, skills, mechanic, **kw)


# Bojovník
gladiator = _z("gladiator", "Gladiátor", "Bojovník", "Tělo", ("bezny-boj-zblizka",),
               "zběhlost v Běžném boji zblízka: základní manévry takové akce jsou zdarma")
silak = _z("silak", "Silák", "Bojovník", "Tělo", ("sila",), "zběhlost v Síle: základní manévry zdarma")
skald = _z("skald", "Skald", "Bojovník", "Duše", ("bojovnicke-znalosti",),
           "zběhlost v Bojovnických znalostech: základní manévry zdarma")
sampion = _z("sampion", "Šampión", "Bojovník", "Vliv", ("sebeduvera",), "zběhlost v Sebedůvěře: základní manévry zdarma")
# Lovec
ostrostrelec = _z("ostrostrelec", "Ostrostřelec", "Lovec", "Tělo", ("bezna-strelba",),
                  "zběhlost v Běžné střelbě: základní manévry zdarma")
zalesak = _z("zalesak", "Zálesák", "Lovec", "Duše", ("tabornictvi",), "zběhlost v Tábornictví: základní manévry zdarma")
pruzkumnik = _z("pruzkumnik", "Průzkumník", "Lovec", "Duše", ("orientace-v-divocine",),
                "zběhlost v Orientaci v divočině: základní manévry zdarma")
pruvodce = _z("pruvodce", "Průvodce", "Lovec", "Duše", ("cestovani",),
              "zběhlost v Cestování; rozsáhle zdarma pro Cestování či Orientaci v divočině, když cíli jsou "
              "jen členové vlastní družiny", free_rozsahle=("cestovani", "orientace-v-divocine"),
              rozsahle_when="party")
lovci = _z("lovci", "Lovčí", "Lovec", "Duše", ("lovecke-znalosti",),
           "zběhlost v Loveckých znalostech; za 1 Duši odhad zvířete prozradí i jeho zvláštní schopnosti "
           "(zapíše se do poznámky)", activation=(1, "duse"), part="odhad zvířete")
krotitel = _z("krotitel", "Krotitel", "Lovec", "Vliv", ("ovlivnovani-zvirat",),
              "zběhlost v Ovlivňování zvířat: základní manévry zdarma")
# Kejklíř
akrobat = _z("akrobat", "Akrobat", "Kejklíř", "Tělo", ("pohyblivost",), "zběhlost v Pohyblivosti: základní manévry zdarma")
vrhac = _z("vrhac", "Vrhač", "Kejklíř", "Tělo", ("bezny-vrh",), "zběhlost v Běžném vrhu: základní manévry zdarma")
zlodej = _z("zlodej", "Zloděj", "Kejklíř", "Duše", ("triky-a-kejkle",), "zběhlost v Tricích a kejklích: základní manévry zdarma")
speh = _z("speh", "Špeh", "Kejklíř", "Duše", ("orientace-ve-meste",),
          "zběhlost v Orientaci ve městě: základní manévry zdarma")
psi_oci = _z("psi-oci", "Psí oči", "Kejklíř", "Vliv", ("charisma", "prevleky-a-predstirani"),
             "zběhlost v Charismatu a v Převlecích a předstírání: základní manévry zdarma")
komediant = _z("komediant", "Komediant", "Kejklíř", "Vliv", ("umeni",),
               "zběhlost v Umění; rozsáhle zdarma, když Uměním plošně poutá pozornost všech kolem (bez omezení "
               "velikosti skupiny)", free_rozsahle=("umeni",), rozsahle_when="area")
# Mastičkář
dryjacnik = _z("dryjacnik", "Dryjáčník", "Mastičkář", "Duše", ("masti-a-jedy",),
               "zběhlost v Mastech a jedech: základní manévry zdarma")
ranhojic = _z("ranhojic", "Ranhojič", "Mastičkář", "Duše", ("osetrovani-lidskeho-tela",),
              "zběhlost v Ošetřování lidského těla: základní manévry zdarma")
cteni_v_dusi = _z("cteni-v-dusi", "Čtení v duši", "Mastičkář", "Duše", ("znalost-lidi",),
                  "zběhlost ve Znalosti lidí; za 1 Duši odhad člověka prozradí i jeho zvláštní schopnosti "
                  "(zapíše se do poznámky)", activation=(1, "duse"), part="odhad člověka")
vyjednavac = _z("vyjednavac", "Vyjednavač", "Mastičkář", "Vliv", ("vyjednavani-s-lidmi",),
                "zběhlost ve Vyjednávání s lidmi: základní manévry zdarma")
# Zaříkávač
knihomol = _z("knihomol", "Knihomol", "Zaříkávač", "Duše", ("ucenost", "znalost-nadprirozena"),
              "zběhlost v Učenosti a ve Znalosti nadpřirozena: základní manévry zdarma")
sila_osobnosti = _z("sila-osobnosti", "Síla osobnosti", "Zaříkávač", "Duše", ("osetrovani-lidske-duse",),
                    "zběhlost v Ošetřování lidské duše; za 1 Duši léčí Jizvy na Duši, jako by byl magický okamžik "
                    "o 1 silnější (léčení se řeší mimo konflikt)", activation=(1, "duse"),
                    part="silnější léčení", second="healing")
divoky_talent = _z("divoky-talent", "Divoký talent", "Zaříkávač", "Vliv", ("zarikani",),
                   "zběhlost v Zaříkání: základní manévry zdarma")
povolavac = _z("povolavac", "Povolávač", "Zaříkávač", "Vliv", ("vyjednavani-s-nadprirozenem",),
               "zběhlost ve Vyjednávání s nadpřirozenem: základní manévry zdarma")

ALL = (gladiator, silak, skald, sampion, ostrostrelec, zalesak, pruzkumnik, pruvodce, lovci, krotitel, akrobat,
       vrhac, zlodej, speh, psi_oci, komediant, dryjacnik, ranhojic, cteni_v_dusi, vyjednavac, knihomol,
       sila_osobnosti, divoky_talent, povolavac)
