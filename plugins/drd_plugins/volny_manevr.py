"""Manévr zdarma (R-ABIL-FREE, R-MAN-2): Plášť (an improvised cloth used as a shield: one free
obrana per round in a bodily action) and Kluzký jako úhoř (one free obrana per round in dealings
while facing several opponents). Free uses still count as used.

Kluzký jako úhoř's reading (`kluzky_jako_uhor`, declared by `schopnosti`): `dealing` [default] —
only a vlivová action (or `means: dealing`); `any` — any action. "Several opponents" [default]: the
opponents he faces this round — the other-side participants whose actions in the round's steps
target or threaten him, or whom his own actions target (the view's `opponent_beings`, their
`count` summed) — are at least two beings, or his action itself targets two; the trait `více
protivníků` always counts as several (an override for what the steps do not show).
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import Ability, _, field_of, held_item, marks

CLOTHS = ("plášť", "ubrus", "závěs", "deka", "pokrývka", "přikrývka", "houně", "plachta", "pelerína", "šátek")


class ObranaZdarma(Ability):
    family = "free-manoeuvre"
    rules = ("R-ABIL-FREE", "R-MAN-2")

    def applies(self, participant: Any, opts: Any, action: Any, params: Any) -> tuple[bool, str | None]:
        raise NotImplementedError

    @hookimpl
    def drd_free_manoeuvre(self, participant: Any, action: Any, manoeuvre: str, params: Any) -> dict | None:
        opts = self.options(participant)
        if manoeuvre != "obrana" or opts is None:
            return None
        ok, why = self.applies(participant, opts, action, params)
        if not ok:
            return {"free": False, "rule": "R-ABIL-FREE", "note": self.say(participant, why)} if why else None
        return {"free": True, "via": self.name, "key": self.id, "per": "round"}


class Plast(ObranaZdarma):
    def applies(self, participant: Any, opts: Any, action: Any, params: Any) -> tuple[bool, str | None]:
        if field_of(action, "pool") not in (None, "telo"):
            return False, None
        kinds = [opts["item"]] if opts.get("item") else list(CLOTHS)
        if any(held_item(participant, k) for k in kinds):
            return True, None
        return False, _("holds no cloak or cloth to use as a shield")


class KluzkyJakoUhor(ObranaZdarma):
    def applies(self, participant: Any, opts: Any, action: Any, params: Any) -> tuple[bool, str | None]:
        if (params or {}).get("kluzky_jako_uhor", "dealing") == "dealing":
            if field_of(action, "pool") != "vliv" and field_of(action, "means") != "dealing":
                return False, None
        # "Several opponents": those he faces this round (the view's round context, R-ABIL-FREE
        # [default]), or at least the beings his action itself targets; the trait overrides.
        beings = sum(getattr(t, "count", 1) for t in (field_of(action, "target_states") or ()))
        facing = int(field_of(action, "opponent_beings", 0) or 0)
        if max(beings, facing) >= 2 or "vice-protivniku" in marks(participant):
            return True, None
        return False, _("faces only one opponent")


plast = Plast("plast", "Plášť", "Kejklíř", "Tělo", "A",
              "v boji použije plášť, ubrus, závěs či deku jako štít: jednou za kolo manévr obrana zdarma",
              scope={"pool": ["telo"], "item": "plášť | ubrus | závěs | deka | …"},
              keys={"item": {"type": "str", "help": "the improvised cloth he uses (default: any cloak or cloth held)"}})
kluzky_jako_uhor = KluzkyJakoUhor("kluzky-jako-uhor", "Kluzký jako úhoř", "Mastičkář", "Vliv", "A",
                                  "při jednání proti více protivníkům jednou za kolo manévr obrana zdarma",
                                  scope={"pool": ["vliv"], "opponents": "≥ 2 this round (or trait více protivníků)"},
                                  reading="kluzky_jako_uhor: dealing | any")

ALL = (plast, kluzky_jako_uhor)
