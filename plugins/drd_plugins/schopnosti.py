"""Schopnosti (`schopnosti`): the parameters the ability families share, and the catalogue cards of
the six abilities that have modules of their own (kruhovy-sek, dest-strel, smrst-dyk,
pusobivy-recnik, rodova-zbran, padny-uder).

Each parameter is a reading of RULES.md §3.1 the group may switch (docs/rules.md "Ability
readings"). The families read them with their default when this plugin is off.
"""

from __future__ import annotations

from drd_cli.plugin import hookimpl

from ._schopnost import localise_card

PARAMS = {
    "zbehlost": {"default": "basic-free-once", "choices": ["basic-free-once", "basic-free-all"], "rule": "R-ABIL-ZB",
                 "help": "zběhlost: each basic manoeuvre free once per action, or every basic manoeuvre free"},
    "nadani": {"default": "two-free", "choices": ["two-free", "allowance-2"], "rule": "R-ABIL-NAD",
               "help": "nadání: two manoeuvres of the action free, or two manoeuvres more than max_manoeuvres"},
    "lvi_srdce": {"default": "vliv", "choices": ["vliv", "vliv-duse"], "rule": "R-ABIL-PROT",
                  "help": "Lví srdce protects against Vliv actions, or against Vliv and Duše actions"},
    "takovy_prcek": {"default": "once", "choices": ["once", "per-foe"], "rule": "R-ABIL-GAIN",
                     "help": "Takový prcek!: 2 Výhody once per conflict, or for every bigger foe listed"},
    "kluzky_jako_uhor": {"default": "dealing", "choices": ["dealing", "any"], "rule": "R-ABIL-FREE",
                         "help": "Kluzký jako úhoř: the free obrana only in dealings (Vliv), or in any action"},
}


def _card(name: str, owner: str, category: str, family: str, scope: dict, mechanic: str) -> dict:
    return {"name": name, "owner": owner, "category": category, "family": family, "class": "A", "scope": scope,
            "activation": None, "mechanic": mechanic, "status": "shipped", "keys": {}}


#: Cards of the abilities whose modules predate the catalogue (their plugin info has no card).
CARDS = {
    "rodova-zbran": _card("Rodová zbraň", "any race", "Tělo", "free-manoeuvre",
                          {"means": ["melee", "shooting", "throwing"], "item": "a held weapon of the chosen type", "per": "round"},
                          "jednou za kolo manévr obrana zdarma v akci se zvoleným typem zbraně (klíč `weapon`)"),
    "kruhovy-sek": _card("Kruhový sek", "Bojovník", "Tělo", "free-manoeuvre",
                         {"means": ["melee"], "area": True, "group": "≤ sevřená hrstka"},
                         "útok zblízka plošně na nejvýše sevřenou hrstku: rozsáhle zdarma"),
    "padny-uder": _card("Pádný úder", "Bojovník", "Tělo", "discount", {"threat_pool": ["telo"]},
                        "zbroj cíle proti jeho tělesným útokům sníží cenu vyčerpání o 1 méně"),
    "dest-strel": _card("Déšť střel", "Lovec", "Tělo", "free-manoeuvre",
                        {"means": ["shooting"], "area": True, "group": "≤ sevřená hrstka", "item": "enables"},
                        "střelba plošně na nejvýše sevřenou hrstku s municí po ruce: rozsáhle zdarma"),
    "smrst-dyk": _card("Smršť dýk", "Kejklíř", "Tělo", "free-manoeuvre",
                       {"means": ["throwing"], "area": True, "group": "≤ sevřená hrstka"},
                       "vrh plošně na nejvýše sevřenou hrstku: rozsáhle zdarma"),
    "pusobivy-recnik": _card("Působivý řečník", "Mastičkář", "Vliv", "free-manoeuvre",
                             {"means": ["dealing"], "area": True, "group": "≤ sevřená hrstka"},
                             "jednání plošně s nejvýše sevřenou hrstkou: rozsáhle zdarma"),
}


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Schopnosti", "kind": "rule area",
            "rules": ["R-ABIL-ZB", "R-ABIL-NAD", "R-ABIL-PROT", "R-ABIL-GAIN", "R-ABIL-FREE"], "api_version": 2,
            "description": "parametry rodin zvláštních schopností (zběhlost, nadání, přirozená ochrana, …)",
            "params": PARAMS, "catalogue": _catalogue}


def _catalogue() -> dict:
    """The cards of the six older ability modules, in drd's language now. Handed over as a
    function: a run reads this plugin's info every time, its cards only where cards are shown or
    an ability's keys are checked (putting them into words parses drd's catalogue)."""
    from .rodova_zbran import weapons

    cards = dict(CARDS, **{"rodova-zbran": dict(CARDS["rodova-zbran"], keys={"weapon": {
        "required": True, "choices": list(weapons()),
        "help": "the chosen weapon type (the action's means fits it and he holds such a weapon)"}})})
    from .priklady import examples

    return {aid: localise_card(dict(card, example=list(examples()[aid]))) for aid, card in cards.items()}
