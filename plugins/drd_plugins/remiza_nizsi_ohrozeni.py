"""House rule `remiza-nizsi-ohrozeni` (off by default): a tie of a contest pair goes to the side
with the lower Ohrožení; equal Ohrožení → as the `tie` parameter says (R-CONT).

The parameter `remiza_vyhrava` turns it around: `vyssi` gives the tie to the higher Ohrožení
(the one with more at stake fights harder)."""

from __future__ import annotations

from drd_cli.plugin import hookimpl

ID = "remiza-nizsi-ohrozeni"


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Remíza: nižší Ohrožení", "kind": "house rule", "rules": ["R-CONT"], "api_version": 2,
            "enabled_by_default": False,
            "description": "při shodě hodů vyhrává dvojici strana s nižším Ohrožením (při shodě Ohrožení "
                           "rozhoduje parametr tie)",
            "params": {"remiza_vyhrava": {"default": "nizsi", "choices": ["nizsi", "vyssi"], "rule": "R-CONT",
                                          "help": "whose Ohrožení wins a tie: the lower (nizsi) or the higher (vyssi)"}}}


@hookimpl
def drd_pair_winner(pair, params):
    if not pair.tie or pair.actor.ohrozeni == pair.counter.ohrozeni:
        return None
    lower = "actor" if pair.actor.ohrozeni < pair.counter.ohrozeni else "counter"
    if params["remiza_vyhrava"] == "nizsi":
        return lower
    return "counter" if lower == "actor" else "actor"
