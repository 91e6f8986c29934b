"""Společný měšec (`spolecny-mesec`): a comrade pays part of another's exhaustion from his Duše.

An answer `{exhaust: true, paid_by: ID}` of someone of the same side: the comrade pays up to
`spolecny_mesec_podil` points (and no more than he has); the rest stays the loser's.
"""

from drd_cli.plugin import hookimpl

ID = "spolecny-mesec"
PARAM = "spolecny_mesec_podil"


@hookimpl
def drd_plugin_info():
    return {"title": "Společný měšec", "kind": "house rule", "api_version": 3,
            "enabled_by_default": False, "rules": ["R-ABIL-SHARE"],
            "description": "spolubojovník zaplatí část cizího vyčerpání ze své Duše",
            "params": {PARAM: {"default": 2, "type": "int", "rule": "R-ABIL-SHARE",
                               "help": "the most points a comrade pays of another's exhaustion"}}}


@hookimpl
def drd_may_pay(payer, beneficiary, cost, params):
    if cost.kind != "exhaustion" or payer.side is None or payer.side != beneficiary.side:
        return None
    return {"pool": "duse", "amount": min(params[PARAM], cost.amount, payer.resource("duse"))}
