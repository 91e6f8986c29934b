"""Rounds and initiative (R-RND-1, SCENARIO-FORMAT §3): where each action comes from."""

from __future__ import annotations

from .context import Ctx, StepRecord, violation
from ..i18n import N_, _
from .state import Working

# What a reacting participant does, for the log (translated when logged).
COUNTER_WORDS = {"counter": N_("counter-action"), "protect": N_("protection")}


def check_delay(ctx: Ctx, w: Working, pid: str, from_: str | None, path: tuple) -> None:
    """`from: delayed` needs a delay the round declared (SCENARIO-FORMAT §3: delays are declared and checked).

    A delayed action is still the actor's one action from initiative in that round (R-RND-1), so
    the check only asks whether the delay was declared; spending it is the caller's business.
    """
    if from_ == "delayed" and pid not in ctx.round.delayed:
        raise violation(_("{name} acts from a delayed initiative (from: delayed), but round {round} declares no "
                          "delay for it").format(name=w.peek(pid).name, round=ctx.round.number), "R-RND-1",
                        path + ("from",), hint=_("add it to the round's `delay:` list (delay: [{id}])").format(id=pid))


def main_action(ctx: Ctx, w: Working, rec: StepRecord, pid: str, from_: str | None, path: tuple) -> str:
    """A step's main action spends the actor's initiative action (or its declared delay)."""
    name = w.peek(pid).name
    check_delay(ctx, w, pid, from_, path)
    if from_ == "obrana":
        raise violation(_("{name}'s main action cannot come from defence; obrana is for counter-actions").format(
                            name=name),
                        "R-MAN-3", path + ("from",))
    if pid in ctx.round.used:
        raise violation(_("{name} has already used its action from initiative in round {round}").format(
                            name=name, round=ctx.round.number), "R-RND-1", path,
                        hint=_("list the step in the next round, or make it a counter from obrana"))
    ctx.round.used.add(pid)
    if from_ == "delayed" or pid in ctx.round.delayed:
        rec.log("R-RND-1", _("{name} acts from a delayed initiative").format(name=name))
        return "delayed"
    return "initiative"


def counter_source(ctx: Ctx, w: Working, rec: StepRecord, pid: str, from_: str | None, threatened: bool,
                   path: tuple, what: str = "counter") -> str:
    """A counter's source: its unused initiative (or delay), else obrana (R-RND-1, R-MAN-3, CS-IND-1)."""
    name = w.peek(pid).name
    what = _(COUNTER_WORDS.get(what, what))
    check_delay(ctx, w, pid, from_, path)
    if from_ is None:
        from_ = "obrana" if pid in ctx.round.used else ("delayed" if pid in ctx.round.delayed else "initiative")
    if from_ in ("initiative", "delayed"):
        if pid in ctx.round.used:
            raise violation(_("{name} has already used its initiative action this round; it may react only from "
                              "defence (from: obrana)").format(name=name), "R-RND-1", path)
        ctx.round.used.add(pid)
        if from_ == "delayed":
            rec.log("R-RND-1", _("{name}: {what} from a delayed initiative").format(name=name, what=what))
        return from_
    if not threatened:
        raise violation(_("{name} may react from defence (obrana) only against an action that threatens it "
                          "directly or through an immediate follow-up").format(name=name), "CS-IND-1", path,
                        hint=_("name it in the action's targets, area, `threatens` or follow-up `affects`"))
    rec.log("R-MAN-3", _("{name}: {what} from defence").format(name=name, what=what))
    return "obrana"
