"""Přirozená ochrana / zbroj (R-ABIL-PROT): exhausting to protect the ability's holder against its
kind of threat costs 1 less — bodily (Zubří kůže), social pressure (Lví srdce), poison (Játra ze žuly).

The discount belongs to the *protected* participant, whoever pays (CS-FOR-1); it is not an item,
so losing equipment does not remove it, and it adds to worn armour (R-EXH-3) [default]. With
`padny_uder_natural: true` an attacker's Pádný úder lowers it as well when there is no worn armour
for Pádný úder to lower. Lví srdce's pool is the reading `lvi_srdce` (`vliv` [default] or
`vliv-duse`). `lvi_srdce` is declared by the `schopnosti` plugin, `padny_uder_natural` by `padny-uder`.
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import Ability, _, field_of, slug

POISON_WORDS = ("jed", "jedu", "jedem", "jedy", "jedovaty", "jedovata", "jedovate", "poison")


class Ochrana(Ability):
    """A discount of 1 on exhausting for its holder against `threat` (bodily | social | poison)."""

    family = "discount"
    rules = ("R-ABIL-PROT", "R-EXH-3")

    def __init__(self, *args: Any, threat: str, **kw: Any):
        super().__init__(*args, **kw)
        self.threat = threat

    def matches(self, exhaustion: Any, params: Any) -> bool:
        action = exhaustion.action
        if exhaustion.kind == "deny" or action is None:
            return False
        if exhaustion.kind == "test" and field_of(action, "kind") != "challenge":
            return False      # a test's own 9 threatens nobody; a výzva (its action's kind) does
        threat_pool = field_of(action, "threat_pool") or field_of(action, "pool")
        if self.threat == "bodily":
            return threat_pool == "telo"
        if self.threat == "social":
            pools = ("vliv", "duse") if (params or {}).get("lvi_srdce", "vliv") == "vliv-duse" else ("vliv",)
            return threat_pool in pools
        label = slug(field_of(action, "label") or "").split("-")
        return field_of(action, "means") == "poison" or any(w in POISON_WORDS or w.startswith("otrav") for w in label)

    @hookimpl
    def drd_exhaustion_cost(self, exhaustion: Any, entry: Any, params: Any) -> Any:
        protected = next((p for p in exhaustion.protected if p.id == entry.protected), None)
        if self.options(protected) is None or not self.matches(exhaustion, params):
            return None
        winner = exhaustion.winner
        if (self.threat == "bodily" and (params or {}).get("padny_uder_natural", False) and winner is not None
                and winner.has_ability("padny-uder") and -sum(a for _s, a in entry.armour) <= 0):
            return {"amount": 0, "note": self.say(protected, _("Pádný úder of {attacker} cancels the natural "
                                                               "armour (padny_uder_natural)").format(
                                                                   attacker=winner.name))}
        return {"amount": -1, "rule": "R-ABIL-PROT", "note": self.say(protected, _("natural protection: exhausting for them costs 1 less"))}


zubri_kuze = Ochrana("zubri-kuze", "Zubří kůže", "kroll", "Tělo", "A",
                     "přirozená zbroj: vyčerpání na ochranu hrdiny před tělesnou újmou stojí o 1 méně (sčítá se se "
                     "zbrojí, nelze ji ztratit jako výstroj)", threat="bodily", scope={"threat_pool": ["telo"]},
                     reads=("padny_uder_natural",))
lvi_srdce = Ochrana("lvi-srdce", "Lví srdce", "člověk", "Vliv", "A",
                    "přirozená ochrana: vyčerpání na ochranu hrdiny před zastrašením a psychickým nátlakem (vlivová "
                    "akce; parametr lvi_srdce) stojí o 1 méně", threat="social",
                    scope={"threat_pool": ["vliv"]}, reading="lvi_srdce: vliv | vliv-duse", reads=("lvi_srdce",))
jatra_ze_zuly = Ochrana("jatra-ze-zuly", "Játra ze žuly", "trpaslík", "Tělo", "A",
                        "přirozená ochrana: vyčerpání na ochranu hrdiny před účinky jedů (`means: poison`, i následná "
                        "výzva) stojí o 1 méně", threat="poison", scope={"means": ["poison"]}, reads=())

ALL = (zubri_kuze, lvi_srdce, jatra_ze_zuly)
