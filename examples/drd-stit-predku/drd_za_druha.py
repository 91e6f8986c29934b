"""Za druha (`za-druha`): a house rule, off until a group enables it.

Exhausting for a comrade — another participant of the payer's own side — costs
`za_druha_sleva` points less per comrade protected (1 by default). The core floors the cost at 0.
"""

from drd_cli.plugin import hookimpl

ID = "za-druha"
PARAM = "za_druha_sleva"


@hookimpl
def drd_plugin_info():
    return {
        "title": "Za druha",
        "kind": "house rule",
        "api_version": 2,
        "enabled_by_default": False,          # installed, it still waits for `enable: [za-druha]`
        "rules": ["CS-FOR-2"],
        "description": "vyčerpání za spolubojovníka stojí o za_druha_sleva méně",
        "params": {PARAM: {"default": 1, "type": "int", "rule": "CS-FOR-2",
                           "help": "how much cheaper exhausting is per comrade protected"}},
    }


@hookimpl
def drd_exhaustion_cost(exhaustion, entry, params):
    payer = exhaustion.payer
    comrade = next((p for p in exhaustion.protected if p.id == entry.protected), None)
    if comrade is None or comrade.id == payer.id or payer.side is None or comrade.side != payer.side:
        return None                           # for oneself, a denial, or someone of another side
    return -params[PARAM]
