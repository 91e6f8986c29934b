"""Rounds and initiative (R-RND-1, SCENARIO-FORMAT §3): where each action comes from."""

from __future__ import annotations

from ..awareness import RULE as AWARE, sleep_condition
from . import events as ev
from .context import Ctx, StepRecord, violation
from ..errors import DocPath, Message
from ..i18n import N_
from .state import Working

# What a reacting participant does, for the log (translated when logged).
COUNTER_WORDS = {"counter": N_("counter-action"), "protect": N_("protection")}


def check_delay(ctx: Ctx, w: Working, pid: str, from_: str | None, path: DocPath) -> None:
    """`from: delayed` needs a delay the round declared (SCENARIO-FORMAT §3: delays are declared and checked).

    A delayed action is still the actor's one action from initiative in that round (R-RND-1), so
    the check only asks whether the delay was declared; spending it is the caller's business.
    """
    if from_ == "delayed" and pid not in ctx.round.delayed:
        raise violation(Message(N_("{name} acts from a delayed initiative (from: delayed), but round {round} "
                                   "declares no delay for it"), name=w.peek(pid).name, round=ctx.round.number),
                        "R-RND-1", path + ("from",),
                        hint=Message(N_("add it to the round's `delay:` list (delay: [{id}])"), id=pid))


def check_awake_to_act(w: Working, pid: str, path: DocPath) -> None:
    """R-AWARE: a sleeper does nothing until woken — no action of his own (a test, a contest's
    action, a racer's, a declare), whether from his initiative or a delay. No ability lifts it
    (Jedno oko otevřené only lets him react to a threat). Exit 1 at `path`, the action's actor."""
    cond = sleep_condition(w.peek(pid).conditions)
    if cond is not None:
        raise violation(Message(N_("{name} is asleep (condition {condition}): it does nothing until woken, so it "
                                   "cannot take an action of its own"), name=w.peek(pid).name, condition=repr(cond)),
                        AWARE, path,
                        hint=Message(N_("wake it first with an effect of an earlier step (`remove_condition: "
                                        "{condition}`, docs/scenario-format.md §4), or leave the action out; an "
                                        "ability such as Jedno oko otevřené lets a sleeper react to a threat, not "
                                        "act"), condition=cond))


def main_action(ctx: Ctx, w: Working, rec: StepRecord, pid: str, from_: str | None, path: DocPath, *,
                actor_path: DocPath | None = None) -> str:
    """A step's main action spends the actor's initiative action (or its declared delay).

    A sleeper takes none (R-AWARE, `check_awake_to_act`): refused at `actor_path` (default: the
    action's `actor` key under `path`)."""
    check_awake_to_act(w, pid, actor_path if actor_path is not None else path + ("actor",))
    name = w.peek(pid).name
    check_delay(ctx, w, pid, from_, path)
    if from_ == "obrana":
        raise violation(Message(N_("{name}'s main action cannot come from defence; obrana is for counter-actions"),
                                name=name),
                        "R-MAN-3", path + ("from",))
    if pid in ctx.round.used:
        raise violation(Message(N_("{name} has already used its action from initiative in round {round}"),
                                name=name, round=ctx.round.number), "R-RND-1", path,
                        hint=Message(N_("list the step in the next round, or make it a counter from obrana")))
    ctx.round.used.add(pid)
    if from_ == "delayed" or pid in ctx.round.delayed:
        rec.event("R-RND-1", "initiative.delayed", name=ev.who(pid))
        return "delayed"
    return "initiative"


def counter_source(ctx: Ctx, w: Working, rec: StepRecord, pid: str, from_: str | None, threatened: bool,
                   path: DocPath, what: str = "counter") -> str:
    """A counter's source: its unused initiative (or delay), else obrana (R-RND-1, R-MAN-3, CS-IND-1)."""
    name = w.peek(pid).name
    what_ev = ev.phrase("counter_word." + what) if what in COUNTER_WORDS else what
    check_delay(ctx, w, pid, from_, path)
    if from_ is None:
        from_ = "obrana" if pid in ctx.round.used else ("delayed" if pid in ctx.round.delayed else "initiative")
    if from_ in ("initiative", "delayed"):
        if pid in ctx.round.used:
            raise violation(Message(N_("{name} has already used its initiative action this round; it may react "
                                       "only from defence (from: obrana)"), name=name), "R-RND-1", path)
        ctx.round.used.add(pid)
        if from_ == "delayed":
            rec.event("R-RND-1", "initiative.counter_delayed", name=ev.who(pid), what=what_ev)
        return from_
    if not threatened:
        raise violation(Message(N_("{name} may react from defence (obrana) only against an action that threatens "
                                   "it directly or through an immediate follow-up"), name=name), "CS-IND-1", path,
                        hint=Message(N_("name it in the action's targets, area, `threatens` or follow-up "
                                        "`affects`")))
    rec.event("R-MAN-3", "initiative.counter_obrana", name=ev.who(pid), what=what_ev)
    return "obrana"
