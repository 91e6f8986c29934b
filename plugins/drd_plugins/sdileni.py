"""Sdílení zdrojů (R-ABIL-SHARE): the holder may pay, from its own pool, another participant's
aktivace, náročnost, manoeuvres or exhaustion (`paid_by:`) when the ability's condition holds.

Rameno na rameno: a melee action (`means: melee`), helper close by (same `zone`, or no zone given),
Tělo. Moudrý rádce: social dealing (`means: dealing`), helper within earshot (same zone), Vliv.
Mystický kruh: magic (`means: magic`), helper joined the ritual (same zone), the pool of the
magic action. The exhaustion stays the beneficiary's (its Ohrožení prices it and rises), the helper
spends no action [default reading, RULES.md R-ABIL-SHARE].
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl

from ._schopnost import N_, Ability, _, field_of, same_place


class Sdileni(Ability):
    """`payer` with this ability may pay for actions of `means` from `pool` (None: the action's pool)."""

    family = "share-resources"
    rules = ("R-ABIL-SHARE",)

    def __init__(self, *args: Any, means: str, pool: str | None, **kw: Any):
        super().__init__(*args, **kw)
        self.means = means
        self.pool = pool

    @hookimpl
    def drd_may_pay(self, payer: Any, beneficiary: Any, cost: Any, action: Any) -> Any:
        if self.options(payer) is None or beneficiary is None or payer.id == beneficiary.id:
            return None
        why = self.refusal(payer, beneficiary, cost, action)
        if why is not None:
            return {"allow": False, "note": why}      # shown with the refusal (R-ABIL-SHARE)
        exhaustion = getattr(cost, "kind", None) == "exhaustion"
        return {"pool": self.pool or (getattr(cost, "pool", None) if exhaustion else None)
                or field_of(action, "pool") or "telo"}

    def refusal(self, payer: Any, beneficiary: Any, cost: Any, action: Any) -> str | None:
        """Why `payer` may not pay `beneficiary`'s `cost` here — the condition that failed and what
        would be allowed — or None when the ability's condition holds."""
        if not payer.is_hero:
            return self.say(payer, _("only a hero pays for another from his own pools"))
        if not same_place(payer, beneficiary):
            return self.say(payer, _("pays only for someone {near} (the same zone): {payer} is in {zone}, {name} in "
                                     "{other}").format(near=_(NEAR[self.means]), payer=payer.name, name=beneficiary.name,
                                                       zone=payer.zone, other=beneficiary.zone))
        means = field_of(action, "means")
        # An exhaustion is shown with the *winning* action: the helped one is in that fight, so a
        # winner whose means the file leaves out does not rule it out.
        exhaustion = getattr(cost, "kind", None) == "exhaustion"
        if not (means == self.means or (exhaustion and means is None)):
            return self.say(payer, _("pays only in an action with `means: {means}`; this action's means is {actual} "
                                     "— in the same zone, an action with `means: {means}` would be allowed").format(
                                         means=self.means, actual=means or _("not given")))
        return None


#: Who is near enough for each ability (read as the same `zone`, docs/rules.md "Ability readings").
NEAR = {"melee": N_("close by in the fight"), "dealing": N_("within earshot"), "magic": N_("joined in the ritual")}


rameno_na_rameno = Sdileni("rameno-na-rameno", "Rameno na rameno", "Bojovník", "Tělo", "A",
                           "v boji zblízka platí hrdina ze svého Těla aktivaci, náročnost, manévry či vyčerpání "
                           "spolubojovníka poblíž (`paid_by`), bez vlastní akce", means="melee", pool="telo",
                           scope={"means": ["melee"], "near": "same zone"})
moudry_radce = Sdileni("moudry-radce", "Moudrý rádce", "Mastičkář", "Vliv", "A",
                       "při jednání platí hrdina ze svého Vlivu aktivaci, náročnost, manévry či vyčerpání postavy, "
                       "která ho slyší (`paid_by`), bez vlastní akce", means="dealing", pool="vliv",
                       scope={"means": ["dealing"], "near": "same zone"})
mysticky_kruh = Sdileni("mysticky-kruh", "Mystický kruh", "Zaříkávač", "Vliv", "A",
                        "zapojen do rituálu platí hrdina z odpovídající zásoby aktivaci, náročnost, manévry či "
                        "vyčerpání sesilatele magie (`paid_by`), bez vlastní akce", means="magic", pool=None,
                        scope={"means": ["magic"], "near": "same zone"})

ALL = (rameno_na_rameno, moudry_radce, mysticky_kruh)
