"""Vnímání (awareness): abilities that change who notices or may react, and unusual senses.

Šestý smysl (1 Duše): awake, the hero counts as already suspecting a hidden danger, so a hiding
step (`ukryvani`, situation `auto`) treats him as situation 2 instead of 1 and he may react.
Jedno oko otevřené (1 Duše): asleep (R-AWARE: a sleeper cannot react), he reacts as if awake to a
threat against himself or a member of his party (his `side`): `activate: [jedno-oko-otevrene]` on
his counter pays 1 Duše and lifts the sleep rule (`drd_may_react_asleep`); the usual rules of
reacting still hold. Against an action that threatens nobody of his party it does not help (exit 1).
In a výzva it is activated in his `react` entry (`{from: obrana, activate: [jedno-oko-otevrene]}`)
or on his protecting counter. It never lets him act on his own (a sleeper does nothing, R-AWARE).
Noční oči, Netopýří sluch, Zřící stráže: unusual senses with no number to change (class D).
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import ASLEEP, hookimpl  # noqa: F401 - ASLEEP: the sleep conditions (R-AWARE)

from ._schopnost import _
from .narativni import Narativni


class Vnimani(Narativni):
    family = "awareness"
    rules = ("R-ABIL-FACT",)


class JednoOko(Vnimani):
    """Asleep, reacts as if awake to a threat against himself or his party (R-AWARE)."""

    rules = ("R-AWARE", "R-ABIL-ACT")

    @hookimpl
    def drd_may_react_asleep(self, sleeper: Any, action: Any, threatened: Any, counter: Any) -> Any:
        if not sleeper.has_ability(self.id) or counter is None or self.id not in counter.activated:
            return None
        party = [t for t in threatened if t.id == sleeper.id or (sleeper.side is not None and t.side == sleeper.side)]
        if not party:
            return {"allow": False, "note": self.say(sleeper, _(
                "wakes him only to a threat against himself or his party (his side); this action threatens "
                "neither"))}
        return {"allow": True, "note": _("the action threatens {who}").format(who=", ".join(t.name for t in party))}


sesty_smysl = Vnimani("sesty-smysl", "Šestý smysl", "hobit", "Duše", "A",
                      "bdělý hrdina se počítá, jako by už skryté nebezpečí tušil: v kroku `hide` je pro něj situace 2 "
                      "místo 1 a smí reagovat", activation=(1, "duse"),
                      scope={"step": "hide (situation auto)", "awake": "no condition spí"})
jedno_oko_otevrene = JednoOko("jedno-oko-otevrene", "Jedno oko otevřené", "Lovec", "Duše", "A",
                              "ve spánku (stav spí) reaguje na hrozbu proti sobě či své družině, jako by byl vzhůru: "
                              "aktivace na jeho protiakci", activation=(1, "duse"),
                              scope={"condition": "spí", "threat": "himself or his side"},
                              example=("participants:",
                                       "  hrdina: {name: Hrdina, side: družina, pools: {telo: 5, duse: 5, vliv: 5}, "
                                       "conditions: [spí], abilities: [jedno-oko-otevrene]}",
                                       "…",
                                       "      - contest:",
                                       "          action: {actor: vlk, targets: [hrdina], pool: telo, roll: 9}",
                                       "          counters: [{actor: hrdina, pool: telo, from: obrana, "
                                       "activate: [jedno-oko-otevrene], roll: 10}]"))
nocni_oci = Vnimani("nocni-oci", "Noční oči", "trpaslík", "Duše", "D", "vidí ve tmě (bez vlivu na čísla konfliktu)")
netopyri_sluch = Vnimani("netopyri-sluch", "Netopýří sluch", "kroll", "Duše", "D",
                         "slyší velmi slabé zvuky a ve tmě se orientuje sluchem (bez vlivu na čísla konfliktu)")
zrici_straze = Vnimani("zrici-straze", "Zřící stráže", "Zaříkávač", "Duše", "D",
                       "když někdo naruší jeho ochranný obrazec, vnímá okolí obrazce, jako by tam stál (bez vlivu na "
                       "čísla konfliktu)")

ALL = (sesty_smysl, jedno_oko_otevrene, nocni_oci, netopyri_sluch, zrici_straze)
