"""Zisk zdrojů (R-ABIL-GAIN): resources gained when an event the scenario states (`events:`) happens.

Events (spelled in Czech or as the slug): `větší protivník` — Takový prcek!: 2 Výhody on entering a
melee against a much bigger foe (`takovy_prcek: once` [default] once per conflict however many
times listed — told apart by the event's `data["index"]`, its place in `events:`; `per-foe` for
each listing); `přepaden` — Skvělý taktik: 1 Výhoda when ambushed;
`zničená improvizovaná zbraň` — Hlava nehlava: 1 point of the action's pool (Tělo unless the
event says otherwise) for wrecking the improvised weapon he fights with; the weapon leaves his
equipment (the answer's `sacrifice`, applied by the core like a sacrifice, R-EXH-4).

Skvělý taktik's second half (R-ABIL-FREE, R-MAN-2/3): while the hero has the condition
`bitevní plán` (a battle plan he prepared: a starting condition or a preparation's `self_effect`;
it ends when an effect removes it, its `rounds` run out, or the conflict ends), the manoeuvre
obrana — what lets him act without his initiative action (akce z obrany, or a výzva undergone
with obrana) — costs him nothing. Reading `skvely_taktik` (declared by this ability's plugin):
`obrana` [default] every obrana while the plan holds; `obrana-round` once per round; `none` the
plan gives nothing.
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import Ability, _, has_word, slug
from .nadani import MELEE, MISSILE, THROWING


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


PLAN = ("bitevni-plan", "plan", "battle-plan")
PLAN_READINGS = ("obrana", "obrana-round", "none")
REAL_WEAPONS = tuple(dict.fromkeys(MELEE + MISSILE + THROWING))


class SkvelyTaktik(Zisk):
    """Zisk on `přepaden`, and a free obrana while the condition `bitevní plán` holds."""

    rules = ("R-ABIL-GAIN", "R-ABIL-FREE", "R-MAN-2", "R-MAN-3")

    @hookimpl
    def drd_plugin_info(self) -> dict:
        info = super().drd_plugin_info()
        info["params"] = {"skvely_taktik": {
            "default": "obrana", "choices": list(PLAN_READINGS), "rule": "R-ABIL-FREE",
            "help": "Skvělý taktik with a battle plan: every obrana free, once per round, or nothing"}}
        return info

    @hookimpl
    def drd_free_manoeuvre(self, participant: Any, action: Any, manoeuvre: str, params: Any) -> dict | None:
        if manoeuvre != "obrana" or self.options(participant) is None:
            return None
        reading = (params or {}).get("skvely_taktik", "obrana")
        if reading == "none":
            return None
        if not {slug(c) for c in getattr(participant, "conditions", ()) or ()} & set(PLAN):
            return {"free": False, "rule": "R-ABIL-FREE",
                    "note": self.say(participant, _("no battle plan holds (condition „bitevní plán“), obrana is paid"))}
        return {"free": True, "via": self.name, "key": self.id, "per": "round" if reading == "obrana-round" else None}


def improvised(item: Any) -> bool:
    """Can `item` be the improvised weapon Hlava nehlava wrecks? An item marked `enables:
    [hlava-nehlava]` is; otherwise a plain item that works: no armour, no free manoeuvre, enabling
    no ability, and not a weapon type of the catalogue (`meč`, `luk`, `dýka`, …)."""
    enables = tuple(getattr(item, "enables", ()) or ())
    if "hlava-nehlava" in enables:
        return True
    if enables or getattr(item, "armour", 0) or getattr(item, "free", None) or not getattr(item, "works", True):
        return False
    return not any(has_word(item.name, kind) for kind in REAL_WEAPONS)


class HlavaNehlava(Zisk):
    """Zisk on `zničená improvizovaná zbraň`: the wrecked weapon is given up (the answer's `sacrifice`)."""

    rules = ("R-ABIL-GAIN", "R-EXH-4")

    @hookimpl
    def drd_resource_gain(self, participant: Any, event: Any, params: Any) -> Any:
        gain = Zisk.drd_resource_gain(self, participant, event, params)
        if gain is None:
            return None
        item, why = self.weapon(participant)
        if item is None:
            return {"refuse": self.say(participant, why), "rule": "R-ABIL-GAIN"}
        return dict(gain, sacrifice=item)

    def weapon(self, participant: Any) -> tuple[str | None, str]:
        """(the held improvised weapon to wreck, or None and why not)."""
        named = (self.options(participant) or {}).get("weapon")
        items = list(getattr(participant, "equipment", ()) or ())
        if named:
            item = next((i for i in items if i.name == named), None)
            if item is None:
                return None, _("does not hold {item}, so cannot wreck it (already wrecked or lost?)").format(
                    item=repr(named))
            if not improvised(item):
                return None, _("{item} is not an improvised weapon (a weapon, armour or an item with its own use); "
                               "if it is one, mark it `enables: [hlava-nehlava]`").format(item=repr(named))
            return item.name, ""
        candidates = [i.name for i in items if improvised(i)]
        if not candidates:
            return None, _("holds no improvised weapon left to wreck (equipment: {items})").format(
                items=", ".join(i.name for i in items) or "–")
        if len(candidates) > 1:
            return None, _("holds several items that could be the improvised weapon ({items}); name it: "
                           "`{{id: hlava-nehlava, weapon: …}}`").format(items=", ".join(candidates))
        return candidates[0], ""


takovy_prcek = Zisk("takovy-prcek", "Takový prcek!", "hobit", "Tělo", "A",
                    "v boji zblízka s mnohem větším protivníkem vstupuje hrdina do boje se 2 Výhodami (událost "
                    "`větší protivník`)", events=("vetsi-protivnik", "mnohem-vetsi-protivnik", "much-bigger-foe"),
                    gain={"vyhody": 2}, once_param="takovy_prcek", scope={"event": "větší protivník"},
                    reading="takovy_prcek: once | per-foe")
skvely_taktik = SkvelyTaktik("skvely-taktik", "Skvělý taktik", "Bojovník", "Duše", "A",
                             "když je hrdina přepaden, získá 1 Výhodu (událost `přepaden`); dokud platí jeho bitevní "
                             "plán (stav `bitevní plán`), je pro něj manévr obrana zdarma (i vícekrát za kolo, počítá "
                             "se jako použitý)", events=("prepaden", "prepadeni", "ambushed"), gain={"vyhody": 1},
                             family="gain-resources + free-manoeuvre",
                             scope={"event": "přepaden", "condition": "bitevní plán", "manoeuvre": "obrana"},
                             reading="skvely_taktik: obrana | obrana-round | none")
hlava_nehlava = HlavaNehlava("hlava-nehlava", "Hlava nehlava", "Bojovník", "Tělo", "A",
                             "když v boji zblízka zničí improvizovanou zbraň, kterou bojuje, získá 1 bod (událost "
                             "`zničená improvizovaná zbraň`); zbraň mu z vybavení zmizí",
                             events=("znicena-improvizovana-zbran", "znicil-improvizovanou-zbran",
                                     "improvised-weapon-wrecked"),
                             gain={"pool": "telo", "amount": 1},
                             scope={"event": "zničená improvizovaná zbraň", "means": ["melee"], "item": "improvizovaná"},
                             keys={"weapon": {"type": "str", "help": "the held improvised weapon he wrecks (default: "
                                              "the one plain item he holds that is no weapon, armour or tool)"}})

ALL = (takovy_prcek, skvely_taktik, hlava_nehlava)
