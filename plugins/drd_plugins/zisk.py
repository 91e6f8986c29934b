"""Zisk zdrojů (R-ABIL-GAIN): resources gained when an event the scenario states (`events:`) happens.

Events (spelled in Czech or as the slug): `větší protivník` — Takový prcek!: 2 Výhody on entering a
melee against a much bigger foe (`takovy_prcek: once` [default] once per conflict however many
times listed — told apart by the event's `data["index"]`, its place in `events:`; `per-foe` for
each listing); `přepaden` — Skvělý taktik: 1 Výhoda when ambushed;
`zničená improvizovaná zbraň` — Hlava nehlava: 1 point of the action's pool (Tělo unless the
event says otherwise) for wrecking the improvised weapon he fights with.
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import Ability, slug


class Zisk(Ability):
    """`gain` (``{"vyhody": n}`` or ``{"pool": …, "amount": n}``) when an event named in `events` happens."""

    family = "gain-resources"
    rules = ("R-ABIL-GAIN",)

    def __init__(self, *args: Any, events: tuple[str, ...], gain: dict, once_param: str | None = None, **kw: Any):
        super().__init__(*args, **kw)
        self.events = tuple(slug(e) for e in events)
        self.gain = gain
        self.once_param = once_param

    def is_mine(self, name: str) -> bool:
        return slug(name) in self.events

    @hookimpl
    def drd_resource_gain(self, participant: Any, event: Any, params: Any) -> Any:
        if self.options(participant) is None or not self.is_mine(event.name):
            return None
        if self.once_param and (params or {}).get(self.once_param, "once") == "once":
            listed = [i for i, e in enumerate(getattr(participant, "events", ()) or ()) if self.is_mine(e)]
            index = (event.data or {}).get("index")
            if listed and index is not None and index != listed[0]:
                return None     # one gain per conflict: only the first listing counts
        gain = dict(self.gain)
        if "pool" in gain and (event.data or {}).get("pool"):
            gain["pool"] = event.data["pool"]
        return gain


takovy_prcek = Zisk("takovy-prcek", "Takový prcek!", "hobit", "Tělo", "A",
                    "v boji zblízka s mnohem větším protivníkem vstupuje hrdina do boje se 2 Výhodami (událost "
                    "`větší protivník`)", events=("vetsi-protivnik", "mnohem-vetsi-protivnik", "much-bigger-foe"),
                    gain={"vyhody": 2}, once_param="takovy_prcek", scope={"event": "větší protivník"},
                    reading="takovy_prcek: once | per-foe")
skvely_taktik = Zisk("skvely-taktik", "Skvělý taktik", "Bojovník", "Duše", "A",
                     "když je hrdina přepaden, získá 1 Výhodu (událost `přepaden`); přístupy zdarma podle bitevního "
                     "plánu engine nemodeluje", events=("prepaden", "prepadeni", "ambushed"), gain={"vyhody": 1},
                     family="gain-resources + free-manoeuvre", scope={"event": "přepaden"})
hlava_nehlava = Zisk("hlava-nehlava", "Hlava nehlava", "Bojovník", "Tělo", "A",
                     "když v boji zblízka zničí improvizovanou zbraň, kterou bojuje, získá 1 bod (událost `zničená "
                     "improvizovaná zbraň`; předmět ztratí)",
                     events=("znicena-improvizovana-zbran", "znicil-improvizovanou-zbran", "improvised-weapon-wrecked"),
                     gain={"pool": "telo", "amount": 1}, scope={"event": "zničená improvizovaná zbraň", "means": ["melee"]})

ALL = (takovy_prcek, skvely_taktik, hlava_nehlava)
