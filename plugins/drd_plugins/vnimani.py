"""Vnímání (awareness): abilities that change who notices or may react, and unusual senses.

Šestý smysl (1 Duše): awake, the hero counts as already suspecting a hidden danger, so a hiding
step (`ukryvani`, situation `auto`) treats him as situation 2 instead of 1 and he may react.
Jedno oko otevřené (1 Duše): asleep, he reacts as if awake; the engine has no sleep rule of its
own, so the ability is an activation whose fact the transcript notes (docs/abilities.md).
Noční oči, Netopýří sluch, Zřící stráže: unusual senses with no number to change (class D).
"""

from __future__ import annotations

from .narativni import Narativni

ASLEEP = ("spi", "spanek", "spici", "asleep")


class Vnimani(Narativni):
    family = "awareness"
    rules = ("R-ABIL-FACT",)


sesty_smysl = Vnimani("sesty-smysl", "Šestý smysl", "hobit", "Duše", "A",
                      "bdělý hrdina se počítá, jako by už skryté nebezpečí tušil: v kroku `hide` je pro něj situace 2 "
                      "místo 1 a smí reagovat", activation=(1, "duse"),
                      scope={"step": "hide (situation auto)", "awake": "no condition spí"})
jedno_oko_otevrene = Vnimani("jedno-oko-otevrene", "Jedno oko otevřené", "Lovec", "Duše", "A",
                             "v přirozeném spánku reaguje na hrozbu proti sobě či družině, jako by byl vzhůru "
                             "(engine spánek nemodeluje: aktivace a zapsaný fakt)", activation=(1, "duse"),
                             status="narrative", scope={"condition": "spí"})
nocni_oci = Vnimani("nocni-oci", "Noční oči", "trpaslík", "Duše", "D", "vidí ve tmě (bez vlivu na čísla konfliktu)")
netopyri_sluch = Vnimani("netopyri-sluch", "Netopýří sluch", "kroll", "Duše", "D",
                         "slyší velmi slabé zvuky a ve tmě se orientuje sluchem (bez vlivu na čísla konfliktu)")
zrici_straze = Vnimani("zrici-straze", "Zřící stráže", "Zaříkávač", "Duše", "D",
                       "když někdo naruší jeho ochranný obrazec, vnímá okolí obrazce, jako by tam stál (bez vlivu na "
                       "čísla konfliktu)")

ALL = (sesty_smysl, jedno_oko_otevrene, nocni_oci, netopyri_sluch, zrici_straze)
