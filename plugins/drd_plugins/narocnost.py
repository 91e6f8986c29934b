"""Náročnost (R-ABIL-NAR): Pán symbolů lifts the one-ward limit — creating a ward (an action whose
label names a ward or symbol) is allowed, at +1 náročnost per ward link the hero already holds
(the ability's own key `links`, default 0; the result is kept within 0..2 by the core).
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import Ability, field_of, slug

WARD_STEMS = ("obrazec", "obrazc", "symbol", "stráž", "straz", "ward")


class Narocnost(Ability):
    family = "narocnost"
    rules = ("R-ABIL-NAR", "R-NAR")

    @hookimpl
    def drd_narocnost(self, participant: Any, action: Any, level: int) -> int | None:
        opts = self.options(participant)
        if opts is None:
            return None
        label = slug(field_of(action, "label") or "")
        if not any(stem in label for stem in WARD_STEMS):
            return None
        links = int(opts.get("links", 0) or 0)
        return links or None


pan_symbolu = Narocnost("pan-symbolu", "Pán symbolů", "Zaříkávač", "Duše", "A",
                        "smí držet víc ochranných obrazců: vytvoření dalšího je o 1 náročnější za každé spojení s "
                        "obrazcem, které už drží (klíč `links`)",
                        scope={"label": "ward (obrazec, symbol)"},
                        keys={"links": {"type": "int", "default": 0,
                                        "help": "ward links the hero already holds (each adds 1 náročnost)"}})

ALL = (pan_symbolu,)
