"""Rozšířená obrana (R-ABIL-DEF): the holder may react from defence (obrana, R-MAN-3) against an
action that harms someone else within the ability's range — Osobní strážce (within reach, a
bodily counter), Ostrý jazyk (within earshot, a Vliv counter), Bystrost (in sight, a Duše
counter). Range is read as the same `zone` (or no zone given). Having reacted, the holder is in
the contest and may exhaust for those harmed (CS-FOR-1).
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import N_, Ability, _, same_place


class RozsirenaObrana(Ability):
    """React from defence for another harmed within range, with a counter of type `counter`."""

    family = "extended-defence"
    rules = ("R-ABIL-DEF", "R-MAN-3")

    def __init__(self, *args: Any, counter: str, **kw: Any):
        super().__init__(*args, **kw)
        self.counter = counter

    @hookimpl
    def drd_may_react(self, reactor: Any, action: Any, harmed: Any, counter: Any) -> Any:
        if self.options(reactor) is None:
            return None
        kind = {"telo": _("a bodily counter"), "vliv": _("a Vliv counter"), "duse": _("a Duše counter")}[self.counter]
        if counter is not None and counter.pool != self.counter:
            # Only a counter of the ability's type (bodily / Vliv / Duše): the refusal says which.
            return {"allow": False, "note": self.say(reactor, _(
                "lets him react from defence for another only with {kind} (`pool: {pool}`); this counter's pool is "
                "{actual}").format(kind=kind, pool=self.counter, actual=counter.pool))}
        others = [h for h in harmed or () if h.id != reactor.id]
        near = [h for h in others if same_place(reactor, h)]
        if not near:
            return {"allow": False, "note": self.say(reactor, _(
                "lets him react from defence only for someone in his zone ({range}); {names} stand elsewhere").format(
                    range=_(RANGE[self.counter]), names=", ".join(h.name for h in others)))} if others else None
        return {"allow": True, "rule": "R-ABIL-DEF", "note": self.say(reactor, _(
            "may react from defence for {names} ({kind})").format(names=", ".join(h.name for h in near), kind=kind))}


#: What "in range" means for each ability (read as the same `zone`, docs/rules.md "Ability readings").
RANGE = {"telo": N_("within reach"), "vliv": N_("within earshot"), "duse": N_("in sight")}


osobni_strazce = RozsirenaObrana("osobni-strazce", "Osobní strážce", "Bojovník", "Tělo", "A",
                                 "smí reagovat z obrany (tělesnou protiakcí) i na akci, která škodí komukoli v jeho "
                                 "dosahu, a pak za něj vyčerpat", counter="telo",
                                 scope={"counter_pool": ["telo"], "range": "same zone"})
ostry_jazyk = RozsirenaObrana("ostry-jazyk", "Ostrý jazyk", "Mastičkář", "Vliv", "A",
                              "smí reagovat z obrany (vlivovou protiakcí) i na akci, která škodí postavě, jež ho slyší",
                              counter="vliv", scope={"counter_pool": ["vliv"], "range": "same zone"})
bystrost = RozsirenaObrana("bystrost", "Bystrost", "Zaříkávač", "Duše", "A",
                           "smí reagovat z obrany (duševní protiakcí) i na akci, která škodí postavě, kterou vidí",
                           counter="duse", scope={"counter_pool": ["duse"], "range": "same zone"})

ALL = (osobni_strazce, ostry_jazyk, bystrost)
