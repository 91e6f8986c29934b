"""Pádný úder (`padny-uder`): against his bodily attacks, the armour discount of whoever exhausts
is 1 lower (RULES.md §3, R-EXH-3); worn armour only, unless `padny_uder_natural` (R-ABIL-PROT)."""

from __future__ import annotations

from drd_cli.plugin import hookimpl

ID = "padny-uder"


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Pádný úder", "kind": "ability", "rules": ["R-EXH-3", "R-ABIL-PROT"], "api_version": 2,
            "description": "zbroj cíle proti jeho tělesným útokům sníží cenu vyčerpání o 1 méně",
            "params": {"padny_uder_natural": {
                "default": False, "type": "bool", "rule": "R-ABIL-PROT",
                "help": "Pádný úder also lowers a natural protection (Zubří kůže), not only worn armour"}}}


@hookimpl
def drd_exhaustion_cost(exhaustion, entry, params):
    """+1 to the cost for one protected whose worn armour (or, with `padny_uder_natural`, natural
    protection) discounts it against a bodily attack of the ability's holder."""
    winner, action = exhaustion.winner, exhaustion.action
    if winner is None or action is None or not winner.has_ability(ID) or action.threat_pool != "telo":
        return None
    # Natural protection is another plugin's adjustment, decided in the same pass: the family of
    # natural protections reads `padny_uder_natural` itself and gives 1 less against this attacker.
    worn = -sum(amount for _source, amount in entry.armour)
    return 1 if worn > 0 else None
