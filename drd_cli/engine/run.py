"""Resolving a whole scenario: rounds, their steps, end-of-round environment actions.

`resolve(scenario, profile, dice, hooks)` is pure: it reads the validated scenario and returns
the result contract as a dict (SCENARIO-FORMAT §7). Errors carry document paths.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Callable

from ..errors import Message, ScenarioError
from ..i18n import N_
from ..scenario.models import CORE_STEP_KINDS, PluginStep, as_list
from ..skills import slug
from . import events as ev
from . import steps as core_steps
from .context import Choices, Ctx, RoundInfo, StepRecord, violation
from .contest import resolve_contest
from .hooks import Hooks
from .stepapi import StepAPI
from .state import State, Working, initial_state
from ..citations import CHOICES


# The engine handle the façade gives a plugin taking over a contest (`drd_resolve_contest`): the
# run makes it, so engine/hooks.py needs nothing of this module.
Hooks.handle = StepAPI


_MAYBE: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}


def _maybe_present(cls: type, keys: tuple[str, ...]) -> tuple[str, ...]:
    """`keys` less those no instance of `cls` can have as an attribute (cached per class).

    A strict model (pydantic, extra fields refused) has exactly its fields and its class's
    attributes; asking one for anything else (`getattr(spec, "rolls", None)`) raises and catches
    an AttributeError inside pydantic's `__getattr__`, microseconds each: a 5,000-step battle's
    reference check asked about 48,000 times (200 ms). Any other class keeps every key.
    """
    got = _MAYBE.get((cls, keys))
    if got is None:
        got = _MAYBE[(cls, keys)] = tuple(k for k in keys if not _surely_absent(cls, k))
    return got


def _surely_absent(cls: type, key: str) -> bool:
    from pydantic import BaseModel

    if not (isinstance(cls, type) and issubclass(cls, BaseModel)):
        return False
    if key in cls.model_fields or cls.model_config.get("extra") == "allow":
        return False
    if key in (getattr(cls, "__private_attributes__", None) or {}):
        return False
    return not hasattr(cls, key)


def _step_kind(step: Any, plugin_kinds: list[str], path: tuple) -> tuple[str, Any]:
    """(kind, spec) of a step; for a plugin step the spec is its `PluginStep` (validated later).

    Plugin kinds may also be typed fields of the step model (`build_scenario_model`).
    """
    kinds = [(k, getattr(step, k, None)) for k in _maybe_present(step.__class__, (*CORE_STEP_KINDS, *plugin_kinds))]
    present = [(k, v) for k, v in kinds if v is not None]
    ps = getattr(step, "plugin_step", None)
    if ps is not None:
        present.append((ps.kind, ps))
    if len(present) != 1:
        known = ", ".join(list(CORE_STEP_KINDS) + plugin_kinds)
        if not present:
            raise ScenarioError(Message(N_("a step has no step type; use exactly one of {known}"), known=known),
                                path=path)
        raise ScenarioError(Message(N_("a step has more than one step type ({kinds}); use exactly one of {known}"),
                                    kinds=", ".join(k for k, _v in present), known=known), path=path)
    return present[0]


_ID_KEYS = ("actor", "actors", "targets", "threatens", "protects", "answers")
_BY_ID_KEYS = ("rolls", "dice", "react", "bonus_from")
_NESTED_KEYS = ("affects", "counters", "followup")


def check_references(scenario: Any, path_prefix: tuple = ()) -> None:
    """Every id a step names must be a participant; reserved ids are refused (exit 2)."""
    from ..scenario.models import RESERVED_IDS

    ids = set(scenario.participants)
    problems = []
    for pid in scenario.participants:
        if pid in RESERVED_IDS:
            problems.append(ScenarioError(Message(N_("{id} is a reserved word and cannot be a participant id"),
                                                  id=repr(pid)), path=("participants", pid)).problems[0])

    def check(value: Any, path: tuple) -> None:
        for i, pid in enumerate(as_list(value)):
            if isinstance(pid, str) and pid not in ids:
                p = path + ((i,) if isinstance(value, list) else ())
                problems.append(ScenarioError(_unknown(pid, ids), path=p).problems[0])

    def walk_action(a: Any, path: tuple) -> None:
        if a is None:
            return
        cls = a.__class__
        for key in _maybe_present(cls, _ID_KEYS):
            if hasattr(a, key):
                value = getattr(a, key)
                if value is not None:        # names nobody (as_list(None) is empty)
                    check(value, path + (key,))
        for key in _maybe_present(cls, _BY_ID_KEYS):
            v = getattr(a, key, None)
            if isinstance(v, dict):
                for pid in v:
                    if pid not in ids:
                        problems.append(ScenarioError(_unknown(pid, ids), path=path + (key, pid)).problems[0])
        for key in _maybe_present(cls, _NESTED_KEYS):
            if key == "affects":
                aff = getattr(a, "affects", None)
                if aff not in (None, "all"):
                    check(aff, path + ("affects",))
            elif key == "counters":
                for i, c in enumerate(getattr(a, "counters", None) or []):
                    walk_action(c, path + ("counters", i))
            else:
                fu = getattr(a, "followup", None)
                if fu is not None:
                    walk_action(fu.challenge, path + ("followup", "challenge"))

    for ri, rnd in enumerate(scenario.rounds):
        rpath = ("rounds", ri)
        for key in ("spent", "delay"):
            check(getattr(rnd, key), rpath + (key,))
        if isinstance(rnd.initiative, list):
            check(rnd.initiative, rpath + ("initiative",))
        elif rnd.initiative is not None and hasattr(rnd.initiative, "rolls"):
            for pid in rnd.initiative.rolls:
                if pid not in ids:
                    problems.append(ScenarioError(_unknown(pid, ids),
                                                  path=rpath + ("initiative", "rolls", pid)).problems[0])
        for si, step in enumerate(rnd.steps):
            spath = rpath + ("steps", si)
            for kind in CORE_STEP_KINDS:
                spec = getattr(step, kind, None)
                if spec is None:
                    continue
                if kind == "contest":
                    walk_action(spec.action, spath + (kind, "action"))
                    for i, c in enumerate(spec.counters):
                        walk_action(c, spath + (kind, "counters", i))
                else:
                    walk_action(spec, spath + (kind,))
        for ei, env in enumerate(rnd.environment):
            if env.challenge is not None:
                walk_action(env.challenge, rpath + ("environment", ei, "challenge"))
    for ei, env in enumerate(scenario.environment):
        if env.challenge is not None:
            walk_action(env.challenge, ("environment", ei, "challenge"))
    if problems:
        raise ScenarioError(problems)


def _unknown(pid: str, ids: set[str]) -> Message:
    import difflib

    close = difflib.get_close_matches(pid, sorted(ids), n=1)
    if close:
        return Message(N_("unknown participant {id}; did you mean {close}?"), id=repr(pid), close=repr(close[0]))
    return Message(N_("unknown participant {id}; participants are {known}"), id=repr(pid), known=", ".join(sorted(ids)))


def resolve(scenario: Any, profile: Any, dice: Any, hooks: Hooks | None = None, *, choose: str = "accept",
            seed: int | None = None, observe: Callable[[dict, State], None] | None = None,
            each_record: Callable[[dict, dict, Callable[[str], str]], None] | None = None) -> dict:
    """Resolves every round and step; returns the result contract as a dict.

    `observe(record, state)` (optional) is called after every step with the state after it
    (`drd diff` follows Ohrožení step by step with it). `each_record(record, participants,
    title)` (optional) gets each step's record as soon as it is made, with what will be the
    result's `participants` (who the ids are) and what its `titles` say (a plugin id → its title):
    api.resolve_scenario words its log then, so a long battle never holds the events of every
    step at once.
    """
    hooks = hooks or Hooks(None, profile.enabled)
    check_references(scenario)
    state: State = initial_state(scenario)
    who = {} if each_record is None else _participants(state, scenario)
    hooks.focus(listed_abilities(scenario))
    state, gains = _conflict_start(profile, dice, hooks, state, choose)
    steps_out: list[dict] = []
    plugin_kinds = sorted(hooks.step_types)
    step_no = 0
    last_round = 0
    for ri, rnd in enumerate(scenario.rounds):
        last_round = ri + 1
        state, rinfo = begin_round(state, ri, rnd)
        ctx = Ctx(profile, dice, hooks, rinfo, choose)
        for si, step in enumerate(rnd.steps):
            step_no += 1
            # Without an observer nobody sees the state before a step again: it may be consumed.
            state, data = run_step(ctx, state, step, ri, si, plugin_kinds, consume=observe is None)
            steps_out.append(data)
            if observe is not None:
                observe(data, state)
            if each_record is not None:
                each_record(data, who, hooks.title)
        for data, state in end_round(ctx, state, scenario, ri, rnd, step_no):
            step_no += 1
            steps_out.append(data)
            if observe is not None:
                observe(data, state)
            if each_record is not None:
                each_record(data, who, hooks.title)
    out = {
        "format": "drd-result/1",
        "title": scenario.title,
        "system": "drd2",
        "seed": seed,
        "rules": profile.to_result(_acted(hooks, steps_out), hooks.asleep),   # docs/plugins.md "Lifecycle"
        "steps": steps_out,
        "final": {pid: p.final(last_round) for pid, p in state.participants.items()},
        # An extension of §7: who the ids are, so a transcript can speak of people, not ids.
        "participants": _participants(state, scenario),
    }
    notes = getattr(scenario, "notes", None)
    if notes:
        # The file's notes, for the transcript (an extension of §7).
        out["notes"] = notes
    if gains:
        # R-ABIL-GAIN at the start of the conflict (an extension of §7, only when something was gained).
        out["gains"] = gains
    named = set(hooks.acted) | set(out["rules"].get("enabled") or ())
    if named:
        # What the plugin ids in the result (those that acted, the rules switched on) are called,
        # for the transcript (an extension of §7).
        out["titles"] = {pid: hooks.title(pid) for pid in sorted(named)}
    return out


def _participants(state: State, scenario: Any) -> dict:
    """The result's `participants`: who each id is (a participant's name and side never change
    during a run, so the first state's answer is the last one's)."""
    return {pid: _who_is(p, scenario.participants.get(pid)) for pid, p in state.participants.items()}


def _who_is(p: Any, spec: Any) -> dict:
    """A participant in the result: name and side; its gender, declined forms and number when the
    scenario gives them (docs/scenario-format.md §2), so the words can agree (docs/i18n.md)."""
    out = {"name": p.name, "side": p.side}
    rod = getattr(spec, "rod", None)
    if rod is not None:
        out["rod"] = rod
    pady = getattr(spec, "pady", None)
    if pady:
        out["pady"] = {str(k): v for k, v in sorted(pady.items())}
    count = getattr(spec, "count", 1)
    if count and count > 1:
        out["count"] = count
    return out


def listed_abilities(scenario: Any) -> set[str]:
    """Every ability id a participant lists or an item enables (the ability plugins to consult)."""
    from ..scenario.models import ability_id

    out: set[str] = set()
    for p in scenario.participants.values():
        out.update(ability_id(a) for a in getattr(p, "abilities", ()) or ())
        for item in getattr(p, "equipment", ()) or ():
            out.update(getattr(item, "enables", ()) or ())
    return out


def _acted(hooks: Hooks, steps: list) -> set[str]:
    """The plugins that changed something in the run (the plugin host's `plugins_acted`, through the run's Registry)."""
    return hooks.pm.plugins_acted(hooks, steps) if hooks.pm is not None else set(hooks.acted)


def _conflict_start(profile: Any, dice: Any, hooks: Hooks, state: State, choose: str) -> tuple[State, list[dict]]:
    """R-ABIL-GAIN: resources abilities give when the conflict starts (`conflict-start` for everyone,
    and each event the scenario states under a participant's `events:`)."""
    if not hooks.has("drd_resource_gain"):
        return state, []
    from ..views import EventView

    ctx = Ctx(profile, dice, hooks, RoundInfo(1), choose)
    w = Working(state)
    gains: list[dict] = []
    for pid in list(w.ids()):
        listed = list(w.peek(pid).events)
        # A condition held at the start states its event too (`conditions: [přepaden]` is as good
        # as `events: [přepaden]`; docs/scenario-format.md §2), unless `events:` names it as well.
        stated = {slug(str(e)) for e in listed}
        held = [c.name for c in w.peek(pid).conditions if slug(str(c.name)) not in stated]
        for index, name in enumerate(["conflict-start"] + listed + held):
            # `index`: a stated event's place in the participant's `events:` list, so an ability
            # that pays once per conflict can tell a repeated event (Takový prcek!).
            from_condition = index > len(listed)
            data = {"condition": True} if from_condition else {"index": index - 1} if index else {}
            epath = (("participants", pid, "conditions") if from_condition else
                     ("participants", pid, "events", index - 1) if index else ("participants", pid))
            for plugin, got in hooks.resource_gain(ctx, w.peek(pid), EventView(name, 1, None, data)):
                if got.get("refuse"):
                    # The event is stated but the ability cannot reward it (an item it needs is not held).
                    raise violation(str(got["refuse"]), str(got.get("rule") or "R-ABIL-GAIN"), epath)
                hooks.acted.add(plugin)
                p = w[pid]
                item = _sacrificed_item(hooks, p, got, plugin, epath)
                entries: list[dict] = []
                if got.get("vyhody"):
                    n = int(got["vyhody"])
                    p.vyhody += n
                    p.gained["vyhody"] = p.gained.get("vyhody", 0) + n
                    entries.append({"who": pid, "event": name, "vyhody": n, "source": plugin})
                if got.get("amount"):
                    key = p.pool_for(got.get("pool"))
                    n = int(got["amount"])
                    p.change_resource(key, n)
                    p.cap_pools()
                    entries.append({"who": pid, "event": name, "pool": key, "amount": n, "source": plugin})
                if item is not None:
                    # Recorded like a sacrifice paying an exhaustion (`gained.sacrifice`): {name, gain}.
                    if not entries:
                        entries.append({"who": pid, "event": name, "source": plugin})
                    last = entries[-1]
                    last["sacrifice"] = {"name": item, "gain": last.get("amount", last.get("vyhody", 0))}
                gains.extend(entries)
    return w.commit(), gains


def _sacrificed_item(hooks: Hooks, p: Any, got: dict, plugin: str, path: tuple) -> str | None:
    """R-ABIL-GAIN like a sacrifice (R-EXH-4): the item an answer's `sacrifice` names leaves the
    participant's equipment, with its armour, free manoeuvre and the abilities it enabled (R-MAN-2)."""
    item = got.get("sacrifice")
    if not item:
        return None
    item = str(item)
    if not p.has_item(item):
        raise violation(Message(N_("{name} cannot give up {item} for {ability}: not held"),
                                name=p.name, item=repr(item), ability=hooks.title(plugin)), "R-EXH-4", path)
    p.equipment = [i for i in p.equipment if i.name != item]
    return item


def begin_round(state: State, ri: int, rnd: Any) -> tuple[State, RoundInfo]:
    """The round's bookkeeping and the state with expired conditions removed."""
    number = ri + 1
    for di, pid in enumerate(rnd.delay):
        if pid in rnd.spent:
            raise violation(Message(N_("{id} has already spent its initiative this round (`spent`), so it has "
                                       "nothing left to delay"), id=repr(pid)), "R-RND-1", ("rounds", ri, "delay", di))
    rinfo = RoundInfo(number, used=set(rnd.spent), delayed=set(rnd.delay), initiative=rnd.initiative,
                      steps=tuple(rnd.steps))
    return _expire_conditions(state, number), rinfo


def run_step(ctx: Ctx, state: State, step: Any, ri: int, si: int, plugin_kinds: list[str], *,
             consume: bool = False) -> tuple[State, dict]:
    """Resolves one step of round `ri` from `state`; returns the state after it and its record.

    `consume=True`: `state` is not needed afterwards (`Working.commit(consume=True)`)."""
    spath = ("rounds", ri, "steps", si)
    kind, spec = _step_kind(step, plugin_kinds, spath)
    rec = StepRecord(step.id or f"{ri + 1}.{si + 1}", ri + 1, kind)
    title = _step_title(kind, spec)
    if title:
        rec.data["title"] = title
    if step.note:
        rec.data["note"] = step.note
    ctx.record = rec
    begin = getattr(ctx.dice, "begin_step", None)
    if begin is not None:  # keyed dice (drd diff) name each roll by its step
        begin(rec.data["id"])
    w = Working(state)
    choices = Choices(step.choices, spath + ("choices",), w.id_set(), ctx.choose)
    kpath = spath + (kind,)
    if kind == "test":
        core_steps.resolve_test(ctx, w, rec, spec, choices, kpath)
    elif kind == "contest":
        resolve_contest(ctx, w, rec, spec, choices, kpath)
    elif kind == "race":
        core_steps.resolve_race(ctx, w, rec, spec, choices, kpath)
    elif kind == "declare":
        core_steps.resolve_declare(ctx, w, rec, spec, kpath)
    elif kind == "challenge":
        core_steps.resolve_challenge(ctx, w, rec, spec, choices, kpath)
    else:
        st = ctx.hooks.step_types.get(kind)
        if st is None:
            # api.setup_rules refuses this before the engine runs (naming the plugin that is off);
            # this is for callers that build the hooks themselves.
            registry = ctx.hooks.pm
            if registry is None:
                raise ScenarioError(Message(N_("unknown step type {kind}"), kind=repr(kind)), path=kpath)
            raise registry.missing_step_type(kind, kpath, set(ctx.hooks.step_types))
        if isinstance(spec, PluginStep):
            spec = spec.validate(st.model, path=kpath)
        ctx.hooks.pm.run_plugin_step(ctx.hooks, kind, st, StepAPI(ctx, w, rec), spec, choices, kpath)   # names a failing plugin
        _render_plugin_entries(ctx, rec)
    for who, vs, _unused in choices.unused():
        rec.event(CHOICES, "choice.unused_vs" if vs else "choice.unused", who=ev.who(who),
                  vs=None if not vs else ev.phrase("the_test") if vs == "test" else ev.who(vs))
    note_defaults(w, rec, choices)
    count_accepted(w, rec.data)
    return w.commit(consume=consume), rec.data


def count_accepted(w: Working, data: dict) -> None:
    """The consequences that landed in a finished step, added to each participant's history
    (`accepted`, docs/plugins.md "History")."""
    hit = [t for actor, a in data["actions"].items() for t in a.get("affected", ()) if t != actor]
    hit += list(data.get("affected") or ())
    for pid in hit:
        if pid in w:
            w[pid].accepted += 1


def _step_title(kind: str, spec: Any) -> str | None:
    """What a step is called in the transcript's heading (an extension of §7): a výzva's name, the
    main action's label; None when the file gives neither."""
    if kind == "challenge":
        return getattr(spec, "name", None)
    if kind == "contest":
        return getattr(getattr(spec, "action", None), "label", None)
    label = getattr(spec, "label", None)
    return label if isinstance(label, str) else None


def note_defaults(w: Working, rec: StepRecord, choices: Choices) -> None:
    """The decisions no answer decided (SCENARIO-FORMAT §5): `decisions` in the step's JSON, each
    `decided_by: default`, and one log event naming them."""
    if not choices.defaulted:
        return
    decisions = [_decision(rec, who, vs, word) for who, vs, word in choices.defaulted]
    rec.data["decisions"] = decisions
    ids = w.id_set()
    rec.event(CHOICES, "choice.defaulted", names=ev.joined(
        (ev.phrase("choice.defaulted_one", who=ev.who(d["who"]),
                   vs=ev.who(d["vs"]) if d["vs"] in ids else ev.phrase("the_nine"),
                   answer=ev.phrase(f"answer.{d['answer']}")) for d in decisions), sep="; "))


def _decision(rec: StepRecord, who: str, vs: str, word: str) -> dict:
    """One defaulted decision as the step's JSON lists it: what was done — a policy's `exhaust` that
    a plugin forbade (`drd_may_exhaust`) is the `accept` it became, with `forbidden_by`."""
    plugin = rec.forbidden.get((who, vs)) if word in ("exhaust", "cheapest") else None
    if plugin is None:
        return {"who": who, "vs": vs, "answer": word, "decided_by": "default"}
    return {"who": who, "vs": vs, "answer": "accept", "decided_by": "default", "forbidden_by": plugin}


# The keys every step record has (StepRecord) and those the core fills itself; anything else a
# plugin step put there is its own entry, which its plugin puts in words (drd_render_entry).
_CORE_RECORD_KEYS = frozenset({"id", "round", "kind", "rolls", "order", "manoeuvres", "actions", "exhaustions",
                               "log", "pairs", "race", "affected", "activations", "rendered", "note",
                               "tries", "title", "decisions"})


def _render_plugin_entries(ctx: Ctx, rec: StepRecord) -> None:
    """Words for a plugin step's own result entries, in the run's language (`rendered`: lines)."""
    lines: list[str] = []
    for key in [k for k in rec.data if k not in _CORE_RECORD_KEYS]:
        got = ctx.hooks.render_entry(key, rec.data[key], "text")
        if got:
            lines.extend(got)
    if lines:
        rec.data["rendered"] = lines


def end_round(ctx: Ctx, state: State, scenario: Any, ri: int, rnd: Any, step_no: int):
    """End-of-round environment actions (CS-ENV-1): yields (record, state after) for each."""
    number = ri + 1
    for entry_id, spec, raw_choices, epath in ctx.hooks.round_end(scenario, number, rnd, ("rounds", ri)):
        step_no += 1
        rec = StepRecord(entry_id or f"prostredi-{number}-{step_no}", number, "challenge")
        title = _step_title("challenge", spec)
        if title:
            rec.data["title"] = title
        ctx.record = rec
        begin = getattr(ctx.dice, "begin_step", None)
        if begin is not None:
            begin(rec.data["id"])
        w = Working(state)
        choices = Choices(raw_choices, epath + ("choices",), w.id_set(), ctx.choose)
        rec.event("CS-ENV-1", "env.round_end", number=number)
        core_steps.resolve_challenge(ctx, w, rec, spec, choices, epath + ("challenge",))
        note_defaults(w, rec, choices)
        count_accepted(w, rec.data)
        state = w.commit()
        yield rec.data, state


@dataclass
class Checkpoint:
    """The engine's position just before one step: the state then and the round's bookkeeping.

    `resolve_to` builds it once; `resolve_step_from` resolves that step from it as often as
    needed (each time on a copy of the bookkeeping), which is how `drd odds` enumerates dice.
    """

    state: State
    round: RoundInfo
    ri: int
    si: int
    steps: list[dict]


def resolve_to(scenario: Any, profile: Any, dice: Any, hooks: Hooks | None, ri: int, si: int, *,
               choose: str = "accept") -> Checkpoint:
    """Resolves everything before step `si` of round `ri` (earlier rounds with their end-of-round
    environment) and returns where the engine stands."""
    hooks = hooks or Hooks(None, profile.enabled)
    check_references(scenario)
    state: State = initial_state(scenario)
    hooks.focus(listed_abilities(scenario))
    state, _gains = _conflict_start(profile, dice, hooks, state, choose)
    plugin_kinds = sorted(hooks.step_types)
    steps_out: list[dict] = []
    step_no = 0
    for r, rnd in enumerate(scenario.rounds[: ri + 1]):
        state, rinfo = begin_round(state, r, rnd)
        ctx = Ctx(profile, dice, hooks, rinfo, choose)
        for s, step in enumerate(rnd.steps):
            if r == ri and s == si:
                return Checkpoint(state, rinfo, ri, si, steps_out)
            step_no += 1
            state, data = run_step(ctx, state, step, r, s, plugin_kinds)
            steps_out.append(data)
        for data, state in end_round(ctx, state, scenario, r, rnd, step_no):
            step_no += 1
            steps_out.append(data)
    raise IndexError(f"no step {si + 1} in round {ri + 1}")


def resolve_step_from(cp: Checkpoint, scenario: Any, profile: Any, dice: Any, hooks: Hooks, *,
                      choose: str = "accept") -> tuple[dict, State]:
    """Resolves only the checkpoint's step with `dice`; returns its record and the state after it.

    The checkpoint is not changed (the state is a value; the round bookkeeping is copied).
    """
    r = cp.round
    copies: dict[str, Any] = {f.name: set(getattr(r, f.name)) for f in fields(r) if isinstance(getattr(r, f.name), set)}
    rinfo = replace(r, **copies)
    ctx = Ctx(profile, dice, hooks, rinfo, choose)
    state, data = run_step(ctx, cp.state, scenario.rounds[cp.ri].steps[cp.si], cp.ri, cp.si,
                            sorted(hooks.step_types))
    return data, state


def _expire_conditions(state: State, number: int) -> State:
    """Conditions with `rounds: N` end once the rounds they last through are over."""
    if not any(c.until_round is not None and c.until_round < number
               for p in state.participants.values() for c in p.conditions):
        return state
    w = Working(state)
    for pid, p in state.participants.items():
        if any(c.until_round is not None and c.until_round < number for c in p.conditions):
            wp = w[pid]
            wp.conditions = [c for c in wp.conditions if c.until_round is None or c.until_round >= number]
    return w.commit()


__all__ = ["resolve", "resolve_to", "resolve_step_from", "Checkpoint", "StepAPI", "check_references", "violation"]
