"""Silnější Jizvy (R-ABIL-SCAR): a Jizva its holder takes for points (R-EXH-4) yields 1 point more
when it is on the ability's pool (Zarputilost, Tesknota, Zběsilost) or when the scenario states
the story circumstance in the Jizva's `tags` (Jménem krále: `služba`; Síla přísahy: `přísaha`).
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import Ability, slug


class SilnejsiJizva(Ability):
    """+1 point for a Jizva on `pool`, or one whose tags contain a word of `tags`."""

    family = "stronger-scar"
    rules = ("R-ABIL-SCAR", "R-EXH-4")

    def __init__(self, *args: Any, pool: str | None = None, tags: tuple[str, ...] = (), **kw: Any):
        super().__init__(*args, **kw)
        self.pool = pool
        self.tags = tags

    def applies(self, jizva: Any) -> bool:
        if self.pool is not None:
            return jizva.pool == self.pool
        return any(any(t in slug(tag).split("-") for t in self.tags) for tag in jizva.tags)

    @hookimpl
    def drd_jizva_yield(self, participant: Any, jizva: Any) -> int | None:
        if self.options(participant) is None or not self.applies(jizva):
            return None
        return 1


zarputilost = SilnejsiJizva("zarputilost", "Zarputilost", "člověk", "Vliv", "A",
                            "každá Jizva na Vlivu, kterou si hrdina vezme za body, dá o 1 Vliv víc", pool="vliv",
                            scope={"jizva_pool": ["vliv"]})
tesknota = SilnejsiJizva("tesknota", "Tesknota", "elf", "Duše",
                         "A", "každá Jizva na Duši, kterou si hrdina vezme za body, dá o 1 Duši víc", pool="duse",
                         scope={"jizva_pool": ["duse"]})
zbesilost = SilnejsiJizva("zbesilost", "Zběsilost", "kroll", "Tělo", "A",
                          "každá Jizva na Těle, kterou si hrdina vezme za body, dá o 1 Tělo víc", pool="telo",
                          scope={"jizva_pool": ["telo"]})
jmenem_krale = SilnejsiJizva("jmenem-krale", "Jménem krále", "člověk", "Duše", "A",
                             "Jizva utržená ve službě pánovi či řádu, jemuž hrdina dlouho slouží (štítek `služba` u "
                             "Jizvy), dá o 1 bod víc", tags=("sluzba", "sluzbe", "sluzbu"),
                             scope={"jizva_tags": ["služba"]})
sila_prisahy = SilnejsiJizva("sila-prisahy", "Síla přísahy", "trpaslík", "Duše", "A",
                             "Jizva utržená při plnění přísahy (štítek `přísaha` u Jizvy) dá o 1 bod víc",
                             tags=("prisaha", "prisahy", "prisahu"), scope={"jizva_tags": ["přísaha"]})

ALL = (zarputilost, tesknota, zbesilost, jmenem_krale, sila_prisahy)
