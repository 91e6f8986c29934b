"""The `hide` step's checks and small helpers (plugin `ukryvani`, CS-HIDE-1/2, R-AWARE): who is
deceived, who hides and acts for the hidden, who may react, and the rolls the file gives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drd_cli.plugin import is_asleep, scenario_models, translator

_, ngettext = translator()      # drd's own catalog
as_list = scenario_models.as_list


def _copy(model_cls: type, src: Any, **update: Any) -> Any:
    """A `model_cls` with the action keys of `src` (if any) and `update` (already validated data)."""
    data = {}
    if src is not None:
        for name in model_cls.model_fields:
            if name in type(src).model_fields and name in src.model_fields_set:
                data[name] = getattr(src, name)
    data.update(update)
    return model_cls.model_construct(**data)


def _violation(message: str, rule: str, path: tuple, hint: str | None = None):
    from drd_cli.plugin import toolkit

    return toolkit.violation(message, rule, path, hint)


def _name(api: Any, pid: str) -> str:
    return api.participant(pid).name if pid in api.w else pid


def _suspects(api: Any, pid: str, hidden: str) -> bool:
    return hidden in api.w.peek(pid).suspicion


def _exhausted(rec_data: dict, start: int, by: str, vs: str | None = None) -> bool:
    """Did `by` pay an exhaustion in this step (against `vs`, if given) since entry `start`?"""
    return any(e["by"] == by and (vs is None or e["vs"] == vs) for e in rec_data["exhaustions"][start:])


@dataclass(frozen=True)
class HideStep:
    """What the checks of a hide step found (CS-HIDE-1/2, R-AWARE)."""

    deceived: list[str]
    hidden: str
    hidden_is_participant: bool
    resists: bool
    hider: str | None
    reacting: list[str]
    sleepers: list[str]


def check_step(api: Any, spec: Any, path: tuple) -> HideStep:
    """The step's participants checked (exit 1 or 2 at file:line:col): CS-HIDE-1/2, R-AWARE."""
    w = api.w
    deceived = as_list(spec.deceived)
    if not deceived:
        raise _violation(_("a hide step needs at least one deceived (`deceived`)"), "CS-HIDE-1", path + ("deceived",))
    for i, d in enumerate(deceived):
        if d not in w:
            from drd_cli.plugin import ScenarioError

            raise ScenarioError(_("unknown participant {id} in deceived").format(id=repr(d)), path=path + ("deceived",)
                                + ((i,) if isinstance(spec.deceived, list) else ()))
    hidden = spec.hidden
    hidden_is_participant = hidden in w
    if hidden in deceived:
        raise _violation(_("{name} cannot hide from itself").format(name=_name(api, hidden)), "CS-HIDE-1",
                         path + ("deceived",))
    # A hidden participant resists unless the file says otherwise — or it sleeps and the step gives
    # it no action (R-AWARE): the drunk captain asleep in a barrel hides nothing, he is merely there
    # to be noticed (CS-HIDE-1). A sleeper's sneaking (`action:`) is his own action: refused.
    passive = hidden_is_participant and spec.action is None and is_asleep(w.peek(hidden))
    resists = spec.resists if spec.resists is not None else (hidden_is_participant and not passive)
    hider = (spec.action.actor if spec.action is not None and spec.action.actor else None) or \
        (hidden if hidden_is_participant else None)
    if resists and hider is None:
        raise _violation(_("„{hidden}“ is not a participant: a hidden that resists needs someone acting for it "
                           "(`action: {{actor: ID}}`)").format(hidden=hidden), "CS-HIDE-2", path + ("hidden",))
    if hider is not None and hider not in w:
        from drd_cli.plugin import ScenarioError

        raise ScenarioError(_("unknown participant {id}").format(id=repr(hider)), path=path + ("action", "actor"))
    reacting = list(deceived)
    if spec.counter is not None and spec.counter.actors is not None:
        for i, pid in enumerate(spec.counter.actors):
            if pid not in deceived:
                raise _violation(_("{name} is not one of the deceived").format(name=_name(api, pid)), "CS-HIDE-2",
                                 path + ("counter", "actors", i))
        reacting = [d for d in deceived if d in spec.counter.actors]
    # R-AWARE: a sleeping deceived notices nothing and reacts to nothing — the step's shared
    # `counter` is not his; a roll the file gives him by name is a mistake.
    sleepers = [d for d in deceived if is_asleep(w.peek(d))]
    for d in sleepers:
        if d in spec.rolls:
            raise _violation(_("{name} is asleep: he cannot react to anything, so he has no roll here").format(
                name=_name(api, d)), "R-AWARE", path + ("rolls", d))
    reacting = [d for d in reacting if d not in sleepers]
    for pid, value in spec.rolls.items():
        if pid not in deceived and pid != hider:
            raise _violation(_("rolls give a roll for {id}, who takes no part in this hiding").format(id=repr(pid)),
                             "CS-HIDE-1", path + ("rolls", pid))
        if isinstance(value, list) and not (pid == hider and spec.situation == "search"
                                            and spec.initiative == "deceived"):
            raise _violation(_("a list of rolls for {id}: only the hidden answering several searches "
                               "(situation: search, initiative: deceived) rolls more than once").format(id=repr(pid)),
                             "CS-HIDE-2",
                             path + ("rolls", pid))
    return HideStep(deceived, hidden, hidden_is_participant, resists, hider, reacting, sleepers)
