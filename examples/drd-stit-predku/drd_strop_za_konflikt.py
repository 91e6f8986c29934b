"""Strop za konflikt (`strop-za-konflikt`): nobody exhausts for more than N points per conflict.

Past the cap the loser must accept: a written `exhaust` is refused, `--choose` and `drd play` accept.
"""

from drd_cli.plugin import hookimpl

ID = "strop-za-konflikt"
PARAM = "strop_za_konflikt"


@hookimpl
def drd_plugin_info():
    return {"title": "Strop za konflikt", "kind": "house rule", "api_version": 3,
            "enabled_by_default": False, "rules": ["R-EXH-1"],
            "description": "nikdo nevyčerpá za konflikt víc než strop_za_konflikt bodů",
            "params": {PARAM: {"default": 4, "type": "int", "rule": "R-EXH-1",
                               "help": "the most points of exhaustion one participant pays per conflict"}}}


@hookimpl
def drd_may_exhaust(payer, exhaustion, history, params):
    cap, spent = params[PARAM], history.conflict.exhausted
    if spent + exhaustion.cost <= cap:
        return None
    return {"allow": False, "note": f"{payer.name}: {spent} + {exhaustion.cost} > {cap}"}
