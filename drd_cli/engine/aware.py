"""Who may act or react in a contest: a counter-actor's own checks and R-AWARE (a sleeper reacts
only when a plugin lets it)."""

from __future__ import annotations

from typing import Any

from ..awareness import RULE as AWARE, sleep_condition
from ..errors import DocPath, Message, Text
from ..i18n import N_
from . import events as ev
from ..scenario.models import CounterSpec, norm_pool
from .context import Ctx, StepRecord, violation
from .state import Working



def counter_actor(c: CounterSpec, cpath: DocPath) -> str:
    """R-CONT: the actor a counter names (it must name one)."""
    if c.actor is None:
        raise violation(Message(N_("a counter-action needs an `actor`")), "R-CONT", cpath)
    return c.actor


def check_counter_actor(w: Working, c: CounterSpec, cpath: DocPath, acting: Any) -> str:
    """R-CONT: a counter names its actor, and nobody acts twice in one contest (`acting`: who
    already does). Returns the actor."""
    actor = counter_actor(c, cpath)
    if actor in acting:
        raise violation(Message(N_("{name} already acts in this contest"), name=w.peek(actor).name), "R-CONT",
                        cpath + ("actor",))
    return actor


def check_awake(ctx: Ctx, w: Working, rec: StepRecord, c: CounterSpec, cpath: DocPath, action: Any,
                threatened: Any) -> None:
    """R-AWARE: a participant holding a sleep condition (`spí`, drd_cli.awareness) is not aware and
    cannot react to `action` (a Prepared) — no counter, no action from obrana — unless a plugin
    lets it react as if awake (`drd_may_react_asleep`: Jedno oko otevřené). `threatened`: the ids
    the action threatens (R-THR). Exit 1 at the counter's actor otherwise."""
    actor = counter_actor(c, cpath)
    if sleep_condition(w.peek(actor).conditions) is None:
        return
    from . import viewbuild

    declared = viewbuild.bare_action(actor, c, norm_pool(c.pool) or "telo",
                                     "protect" if c.kind == "protect" else "harm")
    check_awake_reaction(
        ctx, w, rec, actor, declared, action, threatened, cpath + ("actor",),
        N_("{name} is asleep (condition {condition}): not aware, it cannot react to the action (no counter-action, "
           "no action from obrana)"),
        Message(N_("leave the counter out (someone else may protect it or exhaust for it), remove the condition with an "
                   "earlier effect (`remove_condition`), or activate an ability that lets it react (`activate: "
                   "[jedno-oko-otevrene]`)")))


def check_awake_reaction(ctx: Ctx, w: Working, rec: StepRecord, pid: str, declared: Any, action: Any,
                         threatened: Any, path: DocPath, text: str, hint: Text, **fields: Any) -> None:
    """R-AWARE for any reaction of `pid` — a counter, undergoing a výzva: nothing when awake; asleep,
    allowed only when a plugin lets him react as if awake (`drd_may_react_asleep`, shown `declared`,
    his reaction as declared, and `action`, what he reacts to; None: nothing to ask about), else
    exit 1 at `path`. `text` is the refusal's key (an `N_()` msgid with `{name}`, `{condition}` and
    any `fields`); `hint` its hint."""
    p = w.peek(pid)
    cond = sleep_condition(p.conditions)
    if cond is None:
        return
    allowed, plugin, note = (ctx.hooks.may_react_asleep(ctx, w, pid, action, sorted(threatened), declared)
                             if action is not None else (False, None, ""))
    if allowed and plugin is not None:
        ctx.hooks.acted.add(plugin)
        rec.event(AWARE, "aware.asleep_reacts", name=ev.who(pid), condition=cond, source=ctx.hooks.title(plugin),
                  tail=note or "")
        return
    raise violation(Message(text, name=p.name, condition=repr(cond), **fields).followed_by(note), AWARE, path,
                    hint=hint)


def _refuse_sleeper(w: Working, who: str, path: DocPath) -> None:
    """R-AWARE: a sleeper does not react, so it cannot exhaust (nor deny a gain) in a contest."""
    cond = sleep_condition(w.peek(who).conditions)
    if cond is not None:
        raise violation(Message(N_("{name} is asleep (condition {condition}): it did not react, so it cannot exhaust; "
                                   "someone in the contest may exhaust for it"), name=w.peek(who).name,
                                                                             condition=repr(cond)),
                        AWARE, path)
