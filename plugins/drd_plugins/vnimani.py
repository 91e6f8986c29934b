"""Vnímání (awareness): abilities that change who notices or may react, and unusual senses.

Šestý smysl (1 Duše): awake, the hero counts as already suspecting a hidden danger, so a hiding
step (`ukryvani`, situation `auto`) treats him as situation 2 instead of 1 and he may react. The step
takes the activation in its `activate` entry, `activate: {bodlinka: [sesty-smysl]}` (a deceived has
no action of his own to name it on; docs/scenario-format.md §5.7); a step without `activate`
activates it for every awake holder who does not suspect the hidden yet and can pay (the reading
before the entry existed), `activate: {bodlinka: []}` declines it.
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


SESTY = "sesty-smysl"


def hide_activations(api: Any, spec: Any, path: tuple, deceived: list[str], sleepers: list[str]) -> set[str]:
    """The deceived of a `hide` step for whom Šestý smysl is activated: each pays 1 Duše now, is
    logged and recorded in the step's `activations` (R-ABIL-ACT). An entry that cannot be honoured
    is exit 1 naming the condition that failed and what would be allowed."""
    from drd_cli.plugin import toolkit

    on = SESTY in api.ctx.profile.enabled
    if spec.activate is None:       # by default: whoever it helps (no suspicion yet) and can pay
        wanted = {d: [SESTY] for d in deceived if on and d not in sleepers and spec.situation == "auto"
                  and api.w.peek(d).has_ability(SESTY) and spec.hidden not in api.w.peek(d).suspicion
                  and api.w.peek(d).resource("duse") >= 1}
    else:
        wanted = dict(spec.activate)
    out: set[str] = set()
    for pid, abilities in wanted.items():
        where = path + ("activate", pid)
        if pid not in deceived:
            raise toolkit.violation(_("{id} is not one of the deceived: in a hide step only a deceived activates "
                                      "an ability (Šestý smysl)").format(id=repr(pid)), "R-ABIL-ACT", where)
        for i, aid in enumerate(abilities):
            why, rule = _sense_refusal(api, spec, pid, aid, on, sleepers)
            if why:
                raise toolkit.violation(why, rule, where + (i,))
            p = api.w[pid]
            p.change_resource("duse", -1)
            api.rec.data.setdefault("activations", []).append({"by": pid, "ability": SESTY, "cost": 1, "pool": "duse"})
            api.log("R-ABIL-ACT", _("{name}: Šestý smysl (1 Duše) — counts as suspecting a hidden danger").format(
                name=p.name))
            out.add(pid)
    return out


def _sense_refusal(api: Any, spec: Any, pid: str, aid: str, on: bool, sleepers: list[str]) -> tuple[str, str]:
    """Why `pid` cannot activate `aid` in this hide step ("" when he can), and the rule."""
    p = api.w.peek(pid)
    if aid != SESTY:
        return _("{ability} is not activated in a hide step: only Šestý smysl is (activate other abilities on an "
                 "action, `activate:`)").format(ability=aid), "R-ABIL-ACT"
    if not on:
        return _("Šestý smysl is switched off in this run (`--disable sesty-smysl` or the rules)"), "R-ABIL-ACT"
    if not p.has_ability(SESTY):
        return _("{name} does not have Šestý smysl (it is not among his abilities)").format(name=p.name), "R-ABIL-ACT"
    if pid in sleepers:
        return _("{name} is asleep: Šestý smysl works only for an awake hero").format(name=p.name), "R-AWARE"
    if spec.situation != "auto":
        return _("Šestý smysl changes only a situation the step leaves to the deceived's suspicion "
                 "(`situation: auto`); this step fixes `situation: {situation}`").format(
                     situation=spec.situation), "R-ABIL-ACT"
    if p.resource("duse") < 1:
        return _("{name} cannot pay Šestý smysl: it costs 1 Duše, he has {n}").format(
            name=p.name, n=p.resource("duse")), "R-ABIL-ACT"
    return "", ""


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
                      "místo 1 a smí reagovat; aktivuje se v kroku `hide` klíčem `activate: {id: [sesty-smysl]}`",
                      activation=(1, "duse"), rules=("R-ABIL-ACT", "CS-HIDE-4"),
                      scope={"step": "hide (situation auto)", "awake": "no condition spí"})
jedno_oko_otevrene = JednoOko("jedno-oko-otevrene", "Jedno oko otevřené", "Lovec", "Duše", "A",
                              "ve spánku (stav spí) reaguje na hrozbu proti sobě či své družině, jako by byl vzhůru: "
                              "aktivace na jeho protiakci", activation=(1, "duse"),
                              scope={"condition": "spí", "threat": "himself or his side"})
nocni_oci = Vnimani("nocni-oci", "Noční oči", "trpaslík", "Duše", "D", "vidí ve tmě (bez vlivu na čísla konfliktu)")
netopyri_sluch = Vnimani("netopyri-sluch", "Netopýří sluch", "kroll", "Duše", "D",
                         "slyší velmi slabé zvuky a ve tmě se orientuje sluchem (bez vlivu na čísla konfliktu)")
zrici_straze = Vnimani("zrici-straze", "Zřící stráže", "Zaříkávač", "Duše", "D",
                       "když někdo naruší jeho ochranný obrazec, vnímá okolí obrazce, jako by tam stál (bez vlivu na "
                       "čísla konfliktu)")

ALL = (sesty_smysl, jedno_oko_otevrene, nocni_oci, netopyri_sluch, zrici_straze)
