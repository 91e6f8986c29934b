"""Štít předků (`stit-predku`): once per round, one manoeuvre is free for its bearer (R-MAN-2).

Its scope: bodily actions only (Tělo), and, when the bearer gives the ability the key `means`
(`{id: stit-predku, means: melee}`), only actions of that means. Which manoeuvre is the group's
choice: the parameter `stit_predku_manoeuvre` (`presne` by default, or `obrana`).
"""

from drd_cli.plugin import hookimpl

ID = "stit-predku"
PARAM = "stit_predku_manoeuvre"


@hookimpl
def drd_plugin_info():
    return {
        "title": "Štít předků",
        "kind": "ability",
        "api_version": 2,
        "rules": ["R-MAN-2"],
        "description": "jednou za kolo jeden manévr zdarma v tělesné akci",
        "params": {
            PARAM: {"default": "presne", "choices": ["presne", "obrana"], "rule": "R-MAN-2",
                    "help": "which manoeuvre the shield makes free once per round"},
        },
        "ability": {
            "name": "Štít předků", "owner": "Bojovník", "category": "Tělo", "family": None, "class": "B",
            "scope": {"pool": ["telo"]}, "activation": None, "status": "shipped",
            "mechanic": "jednou za kolo jeden manévr (parametr stit_predku_manoeuvre) zdarma",
            "keys": {"means": {"choices": ["melee", "shooting", "throwing"],
                               "help": "only actions of this means (melee, shooting, throwing)"}},
        },
    }


@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre, params):
    keys = participant.ability(ID)            # None: the participant does not have it (now)
    if keys is None or manoeuvre != params[PARAM] or action.pool != "telo":
        return None
    if "means" in keys and action.means != keys["means"]:
        return None                           # outside the scope its bearer chose
    return {"free": True, "via": "Štít předků", "key": ID, "per": "round"}
