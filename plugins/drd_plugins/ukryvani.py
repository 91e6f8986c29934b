"""Ukrývání a odhalování (`ukryvani`): the `hide` step (SCENARIO-FORMAT §4.7, CS-HIDE-1..4).

A hiding situation is judged from the deceived side (*klamaný*). The step is turned into no
roll, a výzva, a test or a contest (CS-HIDE-1/2) and resolved by the core through the StepAPI;
then CS-HIDE-4 decides, per deceived, whether the hidden was revealed and how suspicion changes.
Suspicion is kept in each participant's `suspicion` list (ids or labels it suspects).
"""

from __future__ import annotations

import functools
from typing import Any, Literal

from drd_cli.plugin import StepType, hookimpl, is_asleep, scenario_models, translator

from .ukryvani_check import _copy, _exhausted, _name, _suspects, _violation, check_step

_, ngettext = translator()      # drd's own catalog
# The step's model builds on the scenario models (a step type's model is pydantic, so they load here).
_m = scenario_models
ActionSpec, ChallengeSpec, ContestSpec, CounterSpec = _m.ActionSpec, _m.ChallengeSpec, _m.ContestSpec, _m.CounterSpec
Effect, EffectSpec, StrictModel, TestSpec = _m.Effect, _m.EffectSpec, _m.StrictModel, _m.TestSpec
as_list, cz, effects_of = _m.as_list, _m.cz, _m.effects_of

ID = "ukryvani"
SITUATIONS = {"unaware": 1, "chance": 2, "search": 3}


@functools.cache
def default_revealed() -> Effect:
    """The effect on a revealed hider when the step names none (built on first use: a model
    instance at import would build its validator in every run, hiding or not)."""
    return Effect(condition="odhalen")


class HideCounter(CounterSpec):
    """The deceived side's action: a counter (S2/S3), a výzva or test roll (hidden not resisting),
    or the search (S3 with the deceived's initiative). `actors`: only these deceived react."""

    actors: list[str] | None = None


class HideSpec(StrictModel):
    """A `hide` step (SCENARIO-FORMAT §4.7)."""

    hidden: str = cz("hidden", "ukrytý")
    deceived: str | list[str] = cz("deceived", "klamaný", "klamaní")
    resists: bool | None = cz("resists", "brání_se", default=None)
    situation: Literal["unaware", "chance", "search", "auto"] = cz("situation", "situace", default="auto")
    demanding: bool | int | None = cz("demanding", "náročné", default=None)
    initiative: Literal["hidden", "deceived", "roll"] = cz("initiative", "iniciativa", default="hidden")
    action: ActionSpec | None = cz("action", "akce", default=None)
    counter: HideCounter | None = cz("counter", "protiakce", default=None)
    revealed: EffectSpec | None = cz("revealed", "odhalen", default=None)
    rolls: dict[str, int | list[int]] = cz("rolls", "hody", default_factory=dict)
    note: str | None = cz("note", "poznámka", default=None)
    activate: dict[str, list[str]] | None = cz("activate", "aktivace", default=None)


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Ukrývání a odhalování", "kind": "step type",
            "rules": ["CS-HIDE-1", "CS-HIDE-2", "CS-HIDE-3", "CS-HIDE-4"],
            "description": "krok `hide`: bez hodu, výzva, zkouška nebo střet podle situace klamaného; podezření"}


@hookimpl
def drd_step_types() -> dict:
    return {"hide": StepType(model=HideSpec, resolve=resolve_hide)}


# --------------------------------------------------------------------------- helpers

def _sixth_sense(api: Any, spec: HideSpec, path: tuple, deceived: list[str], sleepers: list[str]) -> set[str]:
    """The deceived for whom Šestý smysl is activated in this step (`activate`, or by default;
    paid there: vnimani.hide_activations, docs/scenario-format.md §5.7)."""
    if spec.activate is None and not any(api.w.peek(d).has_ability("sesty-smysl") for d in deceived):
        return set()
    from .vnimani import hide_activations

    return hide_activations(api, spec, path, deceived, sleepers)


# --------------------------------------------------------------------------- resolution

def resolve_hide(api: Any, spec: HideSpec, choices: Any, path: tuple) -> None:
    """CS-HIDE-1/2 choose the resolution; CS-HIDE-4 applies its consequences."""
    w, rec = api.w, api.rec
    step = check_step(api, spec, path)
    deceived, hidden, hidden_is_participant = step.deceived, step.hidden, step.hidden_is_participant
    resists, hider, reacting, sleepers = step.resists, step.hider, step.reacting, step.sleepers

    # Situation per deceived: `auto` is S2 for whoever suspects the hidden (or senses it), S1 otherwise.
    sensed = _sixth_sense(api, spec, path, deceived, sleepers)
    if spec.situation == "auto":
        # R-AWARE: a sleeper is not aware — situation 1 whatever it suspects (and no Šestý smysl).
        per = {d: "unaware" if d in sleepers else
               "chance" if _suspects(api, d, hidden) or d in sensed else "unaware" for d in deceived}
        for d in deceived:
            if d in sleepers:
                api.log("R-AWARE", _("{name} is asleep → situation 1 (no chance to notice)").format(name=_name(api, d)))
                continue
            text = (_("{name}: suspects {hidden} → situation 2 (may notice)") if per[d] == "chance"
                    else _("{name}: no suspicion → situation 1 (no chance to notice)"))
            api.log("CS-HIDE-4", text.format(name=_name(api, d), hidden=_name(api, hidden)))
    else:
        per = {d: spec.situation for d in deceived}
    situation = max(per.values(), key=lambda s: SITUATIONS[s])
    alert = [d for d in reacting if per[d] == situation and situation != "unaware"]
    # CS-HIDE-3: a hidden being acting directly against a deceived who has no chance to notice it
    # (an attack from behind, a false order given to it) still lets that deceived react defensively,
    # so the step becomes a contest with the hidden's initiative. Only a deceived the scenario gives
    # something to react with (a `counter` or a roll) reacts; the others stay as in S1.
    flow = situation
    if resists and hider is not None and spec.action is not None and situation in ("unaware", "chance"):
        given = [d for d in reacting if d in spec.rolls or spec.counter is not None]
        direct = [d for d in given if per[d] == "unaware" and d in _threatened_by(api, spec, path, hider)]
        for d in direct:
            api.log("CS-HIDE-3", _("{name} acts directly against {deceived}: it may react from defence, "
                                   "a contest").format(name=_name(api, hider), deceived=_name(api, d)))
        if direct:
            alert = [d for d in reacting if d in alert or d in direct]
            flow = "chance"
    before = {d: _suspects(api, d, hidden) for d in deceived}
    start = len(rec.data["exhaustions"])
    # outcome per deceived: found | not_found | d_exhausted | h_exhausted | no_chance | none
    outcome: dict[str, str] = {d: "none" for d in deceived}
    extra: dict[str, Any] = {}

    trapped: list[str] = []
    if (not resists and not hidden_is_participant and spec.action is not None and spec.action.actor is None
            and situation in ("unaware", "chance")):
        # CS-HIDE-3: a trap (a hidden thing that does not resist) acting directly against a deceived
        # lets it react defensively, as a výzva — not a contest, nobody acts for the trap.
        trapped = [d for d in deceived if d in _threatened_by(api, spec, path, hider)]
    if trapped:
        resolved_as = _resolve_trap(api, spec, choices, path, hidden, trapped, alert, start, outcome)
    elif not resists:
        resolved_as = _resolve_passive(api, spec, choices, path, hidden, hidden_is_participant, situation, alert,
                                       start, outcome)
    else:
        assert hider is not None
        resolved_as = _resolve_resisting(api, spec, choices, path, hider, deceived, alert, flow, start, outcome,
                                         extra)

    _consequences(api, spec, path, hidden, hidden_is_participant, deceived, outcome)
    after = {d: _suspects(api, d, hidden) for d in deceived}
    revealed_by = [d for d in deceived if outcome[d] == "found"]
    rec.data["hide"] = {
        "situation": situation,
        "resolved_as": resolved_as,
        "revealed": bool(revealed_by),
        "revealed_by": revealed_by,
        "suspicion_added": [d for d in deceived if after[d] and not before[d]],
        "suspicion_cleared": [d for d in deceived if before[d] and not after[d]],
        **extra,
    }


def _resolve_trap(api: Any, spec: HideSpec, choices: Any, path: tuple, hidden: str, trapped: list[str],
                  alert: list[str], start: int, outcome: dict[str, str]) -> str:
    """CS-HIDE-3: a trap acting directly against deceived who then undergo it as a výzva."""
    rec = api.rec
    resolved_as = "challenge"
    _trap_challenge(api, spec, choices, path, hidden, trapped)
    for d in trapped:
        # Undergoing it: success reveals the trap, exhaustion only avoids it (CS-HIDE-4). Accepting
        # without a roll: the trap achieved its aim — the hidden's success.
        if d in rec.data["rolls"] or _exhausted(rec.data, start, d, "test"):
            _read_rolls(api, [d], start, outcome, vs="test")
        else:
            outcome[d] = "not_found"
    rest = [d for d in alert if d not in trapped]
    if rest:
        _deceived_challenge(api, spec, choices, path, hidden, rest)
        _read_rolls(api, rest, start, outcome, vs="test")
    return resolved_as


def _resolve_passive(api: Any, spec: HideSpec, choices: Any, path: tuple, hidden: str, hidden_is_participant: bool,
                     situation: str, alert: list[str], start: int, outcome: dict[str, str]) -> str:
    """CS-HIDE-1/2: a hidden that does not resist — no roll, a výzva or the deceived's test."""
    if situation == "unaware" or not alert:
        resolved_as = "none"
        api.log("CS-HIDE-1", _("{name} does not resist and nobody searches for it or has a chance to notice it: "
                               "no roll, it stays hidden").format(
                                   name=hidden if not hidden_is_participant else _name(api, hidden)))
    elif situation == "chance":
        resolved_as = "challenge"
        _deceived_challenge(api, spec, choices, path, hidden, alert)
        _read_rolls(api, alert, start, outcome, vs="test")
    else:
        resolved_as = "test"
        _deceived_test(api, spec, choices, path, hidden, alert)
        _read_rolls(api, alert, start, outcome, vs="test")
    return resolved_as


def _resolve_resisting(api: Any, spec: HideSpec, choices: Any, path: tuple, hider: str, deceived: list[str],
                       alert: list[str], flow: str, start: int, outcome: dict[str, str], extra: dict[str, Any]) -> str:
    """CS-HIDE-2: a hidden that resists — its test, or a contest (whoever has the initiative acts)."""
    rec = api.rec
    if flow != "unaware" and (flow == "chance" or spec.initiative != "deceived"):
        alert = _able_to_counter(api, spec, path, hider, alert)
    if flow == "unaware" or not alert:
        resolved_as = "test"
        api.log("CS-HIDE-2", _("{name} acts unseen and the deceived cannot react: a test, {name} has the "
                               "initiative").format(name=_name(api, hider)))
        _hidden_test(api, spec, choices, path, hider)
        ok = rec.data["actions"][hider]["success"]
        h_ex = _exhausted(rec.data, start, hider, "test")
        for d in deceived:
            outcome[d] = "h_exhausted" if h_ex else ("not_found" if ok else "found")
    else:
        resolved_as = "contest"
        first = "hidden"
        if flow == "search":
            first = _initiative(api, spec, hider, alert)
            extra["initiative"] = first
        if first == "hidden":
            _hidden_acts(api, spec, choices, path, hider, alert, flow)
            for d in alert:
                won = rec.data["actions"][d]["success"]
                if won:
                    outcome[d] = "h_exhausted" if _exhausted(rec.data, start, hider, d) else "found"
                else:
                    outcome[d] = "d_exhausted" if _exhausted(rec.data, start, d, hider) else "not_found"
            ok = rec.data["actions"][hider]["success"]
            for d in deceived:
                if d not in alert and ok:
                    outcome[d] = "not_found"
        else:
            for searcher in _deceived_acts(api, spec, choices, path, hider, alert):
                found = rec.data["actions"][searcher]["success"]
                if found:
                    outcome[searcher] = "h_exhausted" if _exhausted(rec.data, start, hider, searcher) else "found"
                else:
                    outcome[searcher] = ("d_exhausted" if _exhausted(rec.data, start, searcher, hider)
                                         else "not_found")
    return resolved_as


def _deceived_path(spec: HideSpec, path: tuple, d: str) -> tuple:
    return path + ("deceived",) + ((as_list(spec.deceived).index(d),) if isinstance(spec.deceived, list) else ())


def _threatened_by(api: Any, spec: HideSpec, path: tuple, hider: str) -> set[str]:
    """Who the hidden's action threatens (R-THR: targets, area, `threatens`, follow-ups; not those it
    only helps)."""
    from drd_cli.plugin import toolkit

    action_targets, threatened_targets = toolkit.action_targets, toolkit.threatened_targets

    ctx, w = api.ctx, api.w
    apath = path + ("action",)
    action = _copy(ActionSpec, spec.action, actor=hider)
    return threatened_targets(action.effect, action_targets(ctx, w, action, hider, apath), hider) \
        | set(ctx.hooks.indirect_threats(ctx, w, action, apath))


def _able_to_counter(api: Any, spec: HideSpec, path: tuple, hider: str, alert: list[str]) -> list[str]:
    """R-RND-1, R-MAN-3, CS-IND-1, CS-HIDE-2/3: a deceived whose initiative action is spent this round
    may still counter the hidden's action only from obrana, and only when that action threatens it
    (a lie told to it, a false order, an attack from behind: CS-HIDE-3). Otherwise it cannot react:
    with `situation: auto` it is left out (it has no chance this round, as in S1); a situation
    written in the file that would make it counter is refused (exit 1)."""
    ctx = api.ctx
    # A declared delay once used is spent like the initiative it delayed (R-RND-1): `used` holds both.
    spent = [d for d in alert if d in ctx.round.used]
    if not spent:
        return alert
    threatened = _threatened_by(api, spec, path, hider)
    able = []
    for d in alert:
        if d not in spent or d in threatened:
            if d in spent:
                api.log("R-MAN-3", _("{name} already acted from its initiative; the action of {hidden} threatens it, "
                                     "so it may react only from defence (only the manoeuvre obrana)").format(
                                         name=_name(api, d), hidden=_name(api, hider)))
            able.append(d)
            continue
        why = _("{name} has already used its initiative action in round {round}, and the action of {hidden} does not "
                "threaten it, so it cannot counter (not even from obrana)").format(
                    name=_name(api, d), round=ctx.round.number, hidden=_name(api, hider))
        if spec.situation == "auto":
            api.log("R-RND-1", _("{name} already acted from its initiative and the action of {hidden} does not "
                                 "threaten it: it cannot react, in this step it has no chance to notice").format(
                                     name=_name(api, d), hidden=_name(api, hider)))
            continue
        if spec.counter is not None and spec.counter.actors is not None:
            where = path + ("counter", "actors", spec.counter.actors.index(d))
        elif spec.counter is not None:
            where = path + ("counter",)
        else:
            where = _deceived_path(spec, path, d)
        raise _violation(why, "R-RND-1", where,
                         hint=_("leave it out with `counter: {{actors: [...]}}`, use `situation: unaware` (S1: a test "
                                "it cannot react to), name it in the hidden's `targets` if the action really harms "
                                "it (CS-HIDE-3), or move the step before its action").format())
    return able


def _read_rolls(api: Any, who: list[str], start: int, outcome: dict, *, vs: str) -> None:
    """The deceived's own roll (výzva or test): success finds, exhaustion does not (CS-HIDE-4).
    A deceived with no roll could not react (CS-ENV-2: it cannot pay the náročnost of noticing or
    its obrana): it had no chance to notice, as in situation 1 (`no_chance`)."""
    for d in who:
        if d not in api.rec.data["rolls"] and not _exhausted(api.rec.data, start, d, vs):
            outcome[d] = "no_chance"
        elif _exhausted(api.rec.data, start, d, vs):
            outcome[d] = "d_exhausted"
        elif api.rec.data["actions"].get(d, {}).get("success"):
            outcome[d] = "found"
        else:
            outcome[d] = "not_found"


def _deceived_demanding(spec: HideSpec) -> Any:
    c = spec.counter
    if c is not None and c.demanding is not None:
        return c.demanding
    return spec.demanding


def _deceived_challenge(api: Any, spec: HideSpec, choices: Any, path: tuple, hidden: str, alert: list[str]) -> None:
    """S2, not resisting: a výzva for each deceived (CS-HIDE-1). Noticing needs their action."""
    norm_pool = _m.norm_pool

    c = spec.counter
    pool = norm_pool(c.pool if c is not None else None) or "duse"
    demanding = _deceived_demanding(spec)
    react = {d: "obrana" if d in api.ctx.round.used else "initiative" for d in alert}
    # Noticing that is náročné is charged by the core výzva before the roll (R-NAR); a deceived who
    # cannot pay it (nor obrana) cannot react (CS-ENV-2): it has no chance to notice (_read_rolls).
    bonus = {d: c.bonus_from for d in alert} if c is not None and c.bonus_from else {}
    label = hidden if hidden not in api.w else api.participant(hidden).name
    challenge = ChallengeSpec.model_construct(
        name=_("notice: {name}").format(name=label), affects=list(alert), exempt=None, pool=pool,
        label=c.label if c is not None else None, effect=None, softened=c.softened if c is not None else None,
        target=None, deadly=False, react=react, rolls={d: spec.rolls[d] for d in alert if d in spec.rolls},
        dice={}, bonus_from=bonus, counters=[], demanding=demanding, note=None)
    api.log("CS-HIDE-1", _("{name} does not resist; the deceived does not search, but may notice by chance: "
                          "a challenge").format(name=label))
    api.challenge(challenge, choices, path, charge_narocnost=True)


def _trap_challenge(api: Any, spec: HideSpec, choices: Any, path: tuple, hidden: str, trapped: list[str]) -> None:
    """CS-HIDE-3: a trap's action against the deceived is a výzva with the action's effect. Only a
    deceived the scenario gives something to react with (a roll, or a `counter`) undergoes it; the
    others accept (R-CHAL) and the effect lands on them."""
    a = spec.action
    c = spec.counter
    norm_pool = _m.norm_pool

    given = [d for d in trapped if d in spec.rolls or (c is not None and (c.actors is None or d in c.actors)
                                                      and not is_asleep(api.w.peek(d)))]
    react = {d: "obrana" if d in api.ctx.round.used else "initiative" for d in given}
    bonus = {d: c.bonus_from for d in given} if c is not None and c.bonus_from else {}
    label = hidden if hidden not in api.w else api.participant(hidden).name
    pool = norm_pool((c.pool if c is not None else None) or a.pool) or "telo"
    challenge = ChallengeSpec.model_construct(
        name=label, affects=list(trapped), exempt=None, pool=pool, label=a.label, effect=a.effect,
        softened=a.softened, target=None, deadly=False, react=react,
        rolls={d: spec.rolls[d] for d in given if d in spec.rolls}, dice={}, bonus_from=bonus, counters=[],
        demanding=_deceived_demanding(spec), note=None)
    for d in trapped:
        api.log("CS-HIDE-3", _("{name} acts directly against {deceived}: it may react from defence, "
                               "a challenge").format(name=label, deceived=_name(api, d)))
    api.challenge(challenge, choices, path, charge_narocnost=True)


def _deceived_test(api: Any, spec: HideSpec, choices: Any, path: tuple, hidden: str, alert: list[str]) -> None:
    """S3, not resisting: a test for each deceived who searches (CS-HIDE-1)."""
    c = spec.counter
    label = hidden if hidden not in api.w else api.participant(hidden).name
    api.log("CS-HIDE-1", _("{name} does not resist; the deceived searches actively: a test").format(name=label))
    test = _copy(TestSpec, c, actor=None, actors=list(alert), mode="individual", targets=None, area=False,
                 rolls={d: spec.rolls[d] for d in alert if d in spec.rolls} or None,
                 pool=(c.pool if c is not None and c.pool else "duse"),
                 demanding=_deceived_demanding(spec), effect=None)
    api.test(test, choices, path + ("counter",))


def _hidden_test(api: Any, spec: HideSpec, choices: Any, path: tuple, hider: str) -> None:
    """S1, resisting: the hidden's action is a test nobody can react to (CS-HIDE-2)."""
    a = spec.action
    roll = a.roll if a is not None and a.roll is not None else spec.rolls.get(hider)
    test = _copy(TestSpec, a, actor=hider, actors=None, mode="individual", rolls=None, roll=roll)
    api.test(test, choices, path + ("action",))


def _hidden_acts(api: Any, spec: HideSpec, choices: Any, path: tuple, hider: str, alert: list[str],
                 situation: str) -> None:
    """S2/S3 with the hidden's initiative: its action, the deceived's counters (CS-HIDE-2)."""
    a = spec.action
    c = spec.counter
    roll = a.roll if a is not None and a.roll is not None else spec.rolls.get(hider)
    action = _copy(ActionSpec, a, actor=hider, roll=roll)
    counters = []
    # CS-HIDE-4: a winning counter reveals the hidden, and the hidden may exhaust against that (not
    # revealed, the deceived becomes suspicious). A counter without an effect of its own still carries
    # that consequence, so it gets a note the hidden can exhaust against; the revelation itself is
    # applied by _consequences.
    extra = {} if c is not None and effects_of(c.effect) else {"effect": Effect(note=_("revealed"))}
    for d in alert:
        croll = c.roll if c is not None and c.roll is not None else spec.rolls.get(d)
        counters.append(_copy(CounterSpec, c, actor=d, roll=croll, demanding=_deceived_demanding(spec),
                              kind=(c.kind if c is not None else "harm"), **extra))
    text = (_("{name} has the initiative; the deceived may (even unconsciously) react with a counter-action: "
              "a contest") if situation == "chance"
            else _("{name} has the initiative; the deceived searches actively: a contest"))
    api.log("CS-HIDE-2", text.format(name=_name(api, hider)))
    api.contest(ContestSpec.model_construct(action=action, counters=counters), choices, path)
    if extra:
        # §7: `affected` lists whom a counter's own `effect` landed on; the revelation is the step's
        # `revealed` (as for a revealing search), so the stand-in note does not make the hidden affected.
        for d in alert:
            got = api.rec.data["actions"].get(d, {}).get("affected")
            if got and hider in got:
                got.remove(hider)


class _PairChoices:
    """The step's choices as seen by one searcher's contest: only its own and the hidden's answers
    count there (another searcher's answers belong to its own pair, CS-FOR-1)."""

    def __init__(self, choices: Any, allowed: set[str]):
        self._c, self._allowed = choices, allowed

    def get(self, who: str, vs: str) -> Any:
        return self._c.get(who, vs)

    def explicit(self, who: str, vs: str) -> Any:
        return self._c.explicit(who, vs) if who in self._allowed else None

    def peek(self, who: str, vs: str, include_global: bool = True) -> Any:
        return self._c.peek(who, vs, include_global) if who in self._allowed else None

    def answered(self) -> list[str]:
        return [who for who in self._c.answered() if who in self._allowed]


def _hidden_rolls(spec: HideSpec, hider: str, n: int, path: tuple) -> list[int | None]:
    """The hidden's roll for each of `n` searches: `action.roll` / `rolls.<hidden>` (one number for
    every pair, or a list with one per searcher in order); None = rolled (seeded) for each pair."""
    a = spec.action
    given: Any = a.roll if a is not None and a.roll is not None else spec.rolls.get(hider)
    if isinstance(given, list):
        if len(given) != n:
            raise _violation(_("rolls for {id} list {given} totals for {n} searching deceived").format(
                                 id=repr(hider), given=len(given), n=n),
                             "CS-HIDE-2", path + ("rolls", hider))
        return list(given)
    return [given] * n


def _deceived_acts(api: Any, spec: HideSpec, choices: Any, path: tuple, hider: str, alert: list[str]) -> list[str]:
    """S3 with the deceived's initiative: each searching deceived's search is its own action (from its
    initiative) and the hidden answers each with its own counter of kind protect: one pair per
    searcher, resolved in the order the deceived are listed (R-RND-1: the hidden's first answer may
    use its initiative, the later ones come from obrana, which the search — aimed at it — allows)."""
    a = spec.action
    c = spec.counter
    rolls = _hidden_rolls(spec, hider, len(alert), path)
    hider_rolls: list[Any] = []
    for d in alert:
        if d in api.ctx.round.used and d not in api.ctx.round.delayed:
            raise _violation(_("{name} has already used its initiative action in round {round}: it cannot search "
                               "with the initiative (initiative: deceived)").format(
                                   name=_name(api, d), round=api.ctx.round.number),
                             "R-RND-1", _deceived_path(spec, path, d),
                             hint=_("give the hidden the initiative (`initiative: hidden`), or move the step"))
    for d, roll in zip(alert, rolls):
        croll = c.roll if c is not None and c.roll is not None else spec.rolls.get(d)
        search = _copy(ActionSpec, c, actor=d, roll=croll, targets=[hider], area=False,
                       demanding=_deceived_demanding(spec))
        counters = []
        if a is not None:
            counters.append(_copy(CounterSpec, a, actor=hider, roll=roll, kind="protect", protects=[hider],
                                  targets=None))
        api.log("CS-HIDE-2", _("{name} has the initiative and searches actively: a contest, {hidden} "
                               "resists").format(name=_name(api, d), hidden=_name(api, hider)))
        api.contest(ContestSpec.model_construct(action=search, counters=counters),
                    _PairChoices(choices, {d, hider}) if len(alert) > 1 else choices, path)
        if hider in api.rec.data["rolls"]:
            hider_rolls.append(api.rec.data["rolls"][hider])
    if len(hider_rolls) > 1:
        # `rolls` holds one roll per participant (§7): the hidden's first; each pair's totals are in
        # `pairs`, and `order` covers every searcher, not only the last pair's.
        rolls_now = api.rec.data["rolls"]
        rolls_now[hider] = hider_rolls[0]
        who = [hider] + [d for d in alert if d in rolls_now]
        api.rec.data["order"] = sorted(who, key=lambda pid: -rolls_now[pid]["total"])
    return list(alert)


def _initiative(api: Any, spec: HideSpec, hider: str, alert: list[str]) -> str:
    """S3: who acts — from the story (`hidden`/`deceived`) or by initiative (`roll`)."""
    if spec.initiative != "roll":
        return spec.initiative
    ini = api.ctx.round.initiative
    rolls: dict[str, int] = {}
    if isinstance(ini, list) and hider in ini:
        # The round's story order decides: whoever comes first acts first.
        best = min((ini.index(d) for d in alert if d in ini), default=None)
        first = "deceived" if best is not None and best < ini.index(hider) else "hidden"
        api.log("CS-HIDE-2", _("Initiative by the round's order: {who} acts").format(
            who=_("the deceived") if first == "deceived" else _("the hidden")))
        return first
    if ini is not None and hasattr(ini, "rolls") and hider in ini.rolls:
        rolls = dict(ini.rolls)
    who = [hider] + list(alert)
    for pid in who:
        if pid not in rolls:
            rolls[pid] = sum(api.ctx.dice.roll(2, pid, "initiative"))
    for _attempt in range(20):   # ties are rolled again (seeded), so the result is still reproducible
        top = max(rolls[d] for d in alert)
        if top != rolls[hider]:
            break
        for pid in who:
            rolls[pid] = sum(api.ctx.dice.roll(2, pid, "initiative"))
    first = "deceived" if max(rolls[d] for d in alert) > rolls[hider] else "hidden"
    api.log("CS-HIDE-2", _("Initiative by roll: {rolls} → {who} acts").format(
        rolls=", ".join(f"{_name(api, p)} {rolls[p]}" for p in who),
        who=_("the deceived") if first == "deceived" else _("the hidden")))
    return first


def _consequences(api: Any, spec: HideSpec, path: tuple, hidden: str, hidden_is_participant: bool,
                  deceived: list[str], outcome: dict[str, str]) -> None:
    """CS-HIDE-4 per deceived."""
    name = _name(api, hidden)
    found_by = [d for d in deceived if outcome[d] == "found"]
    for d in deceived:
        dn = _name(api, d)
        o = outcome[d]
        if o == "not_found":
            if _suspects(api, d, hidden):
                api.w[d].suspicion = [s for s in api.w.peek(d).suspicion if s != hidden]
                api.log("CS-HIDE-4", _("{name} revealed nothing and loses the suspicion of {hidden}").format(name=dn, hidden=name))
            else:
                api.log("CS-HIDE-4", _("{name} revealed nothing").format(name=dn))
        elif o == "d_exhausted":
            text = (_("{name} exhausted: {hidden} stays unrevealed, but its gain is thwarted; the earlier "
                      "suspicion remains") if _suspects(api, d, hidden)
                    else _("{name} exhausted: {hidden} stays unrevealed, but its gain is thwarted"))
            api.log("CS-HIDE-4", text.format(name=dn, hidden=name))
        elif o == "h_exhausted":
            if not _suspects(api, d, hidden):
                api.w[d].suspicion = list(api.w.peek(d).suspicion) + [hidden]
                api.log("CS-HIDE-4", _("{hidden} exhausted: not revealed, but {name} becomes suspicious").format(
                    hidden=name, name=dn))
            else:
                api.log("CS-HIDE-4", _("{hidden} exhausted: not revealed, but {name} confirms its suspicion").format(
                    hidden=name, name=dn))
        elif o == "found":
            api.log("CS-HIDE-4", _("{name} reveals {hidden}").format(name=dn, hidden=name))
        elif o == "no_chance":
            api.log("CS-HIDE-1", _("{name} cannot react, so it has no chance to notice {hidden} (as situation 1); "
                                   "the suspicion does not change").format(name=dn, hidden=name))
    if found_by:
        effect = spec.revealed if effects_of(spec.revealed) else default_revealed()
        api.apply(effect, [hidden] if hidden_is_participant else [], rule="CS-HIDE-4", source=_("revealed"))

