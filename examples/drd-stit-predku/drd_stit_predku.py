"""Štít předků (`stit-predku`): once per round, one manoeuvre is free for its bearer (R-MAN-2).

Which manoeuvre is the group's choice: the parameter `stit_predku_manoeuvre` (`presne` by
default, or `obrana`).
"""

from drd_cli.hookspecs import hookimpl

ID = "stit-predku"
PARAM = "stit_predku_manoeuvre"


@hookimpl
def drd_plugin_info():
    return {
        "title": "Štít předků",
        "kind": "ability",
        "rules": ["R-MAN-2"],
        "description": "jednou za kolo jeden manévr zdarma",
        "params": {
            PARAM: {"default": "presne", "choices": ["presne", "obrana"], "rule": "R-MAN-2",
                    "help": "which manoeuvre the shield makes free once per round"},
        },
    }


@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre, params):
    if not participant.has_ability(ID) or manoeuvre != params[PARAM]:
        return None
    return {"free": True, "via": "Štít předků", "key": ID, "per": "round"}
