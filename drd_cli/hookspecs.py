"""The hooks a drd plugin may implement (project name "drd"; every hook is prefixed `drd_`).

Hooks return data; the core applies it in an order that never depends on which plugin was
installed or registered first (results are sorted by plugin id). Arguments are read-only views:
a plugin must not change the participant or action it is shown. Each hook is documented in
docs/plugins.md and exercised by a test (tests/plugins/test_hookspecs.py checks both).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Callable

import pluggy

#: The version of the plugin API (re-exported by drd_cli.plugin). A plugin that needs a newer one
#: says so in ``drd_plugin_info()["api_version"]``; drd then refuses to run it, naming the plugin.
#: Versions only grow: whatever worked against version N keeps working against N+1.
API_VERSION = 3

if TYPE_CHECKING:      # for checkers and readers only: nothing is imported at run time
    from .scenario.models import ActionSpec, ChallengeSpec, ContestSpec, FollowupSpec, Round, Scenario
    from .views import (ActionView, BreakdownEntry, ConflictView, CostView, EventView, ExhaustionView, HistoryView, JizvaView,
                        ManoeuvreView, PairView, ParticipantView)

#: The parameters in effect, read-only (a hook taking `params` is shown them).
Params = Mapping[str, Any]

hookspec = pluggy.HookspecMarker("drd")
hookimpl = pluggy.HookimplMarker("drd")


@dataclass(frozen=True)
class StepType:
    """A step type a plugin adds to the scenario format (returned by `drd_step_types`).

    `model` is a step model (a subclass of `drd_cli.plugin.StepModel`, fields made with
    `drd_cli.plugin.field`) for the step's mapping, checked once the rules profile says the plugin is on (errors at file:line:col);
    `resolve(engine, spec, choices, path)` resolves one validated step.
    """

    model: type
    resolve: Callable[..., Any]


@hookspec
def drd_plugin_info() -> dict | None:
    """Describe the plugin: ``{"title": str, "kind": "rule area" | "ability" | "step type" | "house rule",
    "rules": [rule ids it implements], "description": str, "params": {name: declaration}}``.

    A parameter declaration is a `drd_cli.plugin.ParamSpec` or a mapping ``{"default": …,
    "choices": [...] or "type": "int" | "bool" | "str", "rule": "R-…", "help": "…"}``; the
    parameter's value in effect reaches the hooks that take ``params``.
    """


@hookspec
def drd_step_types() -> dict | None:
    """Step types this plugin provides: ``{name: StepType(model=<pydantic model>, resolve=<callable>)}``.

    ``resolve(engine, spec, choices, path)`` gets an :class:`drd_cli.engine.run.StepAPI` and
    resolves the step through it (tests, výzvy, contests), recording into its step record.
    """


@hookspec
def drd_free_manoeuvre(participant: ParticipantView, action: ActionView | None, manoeuvre: str,
                       params: Params) -> dict | None:
    """Say whether `participant` may use `manoeuvre` on `action` for free.

    Return ``{"free": True, "via": "Kruhový sek", "key": "kruhovy-sek", "per": "round" | None}`` to make
    it free (``per: round`` = once per round), ``{"free": False, "note": "why not"}`` to explain in the
    transcript why it does not apply, or None when the plugin has nothing to say. `params` is a
    read-only mapping of the rules parameters in effect (core and enabled plugins' own).
    """


@hookspec
def drd_armour_adjustment(protected: ParticipantView, attacker: ParticipantView | None,
                          action: ActionView | None, params: Params) -> int | None:
    """A change to `protected`'s armour discount against `attacker`'s bodily `action` (R-EXH-3)."""


@hookspec
def drd_indirect_threats(action: ActionSpec, params: Params) -> list[str] | None:
    """Participant ids that `action` threatens indirectly and immediately (CS-IND-1)."""


@hookspec
def drd_followup(action: ActionSpec | None, followup: FollowupSpec, params: Params) -> ChallengeSpec | None:
    """The výzva (a ChallengeSpec) to resolve right after an action for its `followup` (CS-FOL-1), or None.

    `action` is not shown today (None): the follow-up holds what the výzva needs."""


@hookspec
def drd_round_end(scenario: Scenario, round_index: int, round: Round | None, params: Params) -> list | None:
    """Environment actions to resolve at the end of round `round_index` (1-based), after all steps (CS-ENV-1).

    Return a list of ``(entry_id, ChallengeSpec, choices: dict, path: tuple)``.
    """


@hookspec(firstresult=True)
def drd_resolve_contest(engine: Any, spec: ContestSpec, choices: Mapping[str, Any] | None,
                        path: tuple) -> bool | None:
    """Take over resolving a contest (e.g. a plošná counter-action, CS-OPT-AREA); return True if done.

    `engine` is a `drd_cli.plugin.StepAPI` (typed `Any` here: the engine is a layer above these
    contracts, and the layering forbids even a type-only import of it)."""


# ============================================================================ API 2
# The hooks below take the read-only views of drd_cli.views (docs/plugins.md "Views"). Each one's
# answers are combined by the policy its docstring states; none depends on install order.

@hookspec
def drd_roll_modifier(participant: ParticipantView, action: ActionView | None, params: Params) -> Any:
    """An amount added to `participant`'s roll for `action` (rolled dice only; a total the file gives is
    final, R-ROLL-2). Return an int or ``{"amount": int, "note": str}``, or None.

    Policy: every answer is added; each is recorded in ``rolls.<id>.modifiers`` with the plugin id as
    ``source`` and shown in the transcript.
    """


@hookspec
def drd_pair_winner(pair: PairView, params: Params) -> str | None:
    """Who wins a contest pair (R-CONT): ``"actor"``, ``"counter"``, or None to leave it to the core
    (the higher total; a tie by the `tie` parameter). `pair` is a PairView.

    Policy: the first answer by plugin id decides; a different answer of another plugin is logged as
    overruled. A `tie: reroll` tie is rerolled only when no plugin decided it.
    """


@hookspec
def drd_exhaustion_cost(exhaustion: ExhaustionView, entry: BreakdownEntry, params: Params,
                        conflict: ConflictView) -> Any:
    """A change to the cost of exhausting for one protected participant: `entry` is that
    participant's BreakdownEntry (the core's: Ohrožení, armour by item, mocně), `exhaustion` the
    whole ExhaustionView (payer, every protected, winner, winning action, pool).
    Return an int (may be negative) or ``{"amount": int, "note": str}``, or None.

    Policy: every answer is added, then the entry's cost is floored at 0; recorded in
    ``exhaustions[].breakdown[].adjustments`` with the plugin id as ``source``. `conflict` (API 3)
    is the ConflictView: everyone's history so far.
    """


@hookspec
def drd_exhaustion_cap(exhaustion: ExhaustionView, entry: BreakdownEntry, params: Params,
                       conflict: ConflictView) -> int | None:
    """The most that exhausting for one protected participant may cost (after `drd_exhaustion_cost`).

    Policy: the lowest cap applies (recorded as an adjustment of the plugin that set it).
    """


@hookspec
def drd_may_pay(payer: ParticipantView, beneficiary: ParticipantView, cost: CostView,
                action: ActionView | None, params: Params, conflict: ConflictView) -> Any:
    """May `payer` pay `beneficiary`'s `cost` (a CostView: manoeuvre, activation, náročnost or
    exhaustion) for `action`? (R-ABIL-SHARE, `paid_by`). Return True, ``{"pool": pool}`` (the
    payer's pool it comes from; default the cost's pool type), ``{"allow": False, "note": str}``
    (not allowed, and why), or None. API 3: ``{"pool": pool, "amount": n}`` pays only n points
    (at most the cost); the rest stays the beneficiary's. `conflict` (API 3): the ConflictView.

    Policy: allowed when any plugin allows it; the first by plugin id names the pool and the
    amount. Without one, `paid_by` is refused (exit 1, R-ABIL-SHARE), with the first refusal's
    note as its hint.
    """


@hookspec
def drd_may_exhaust(payer: ParticipantView, exhaustion: ExhaustionView, history: HistoryView,
                    conflict: ConflictView, params: Params) -> Any:
    """May `payer` exhaust at all, here (API 3)? `exhaustion` is the ExhaustionView about to be
    paid (its `cost`, `protected`, `winner`, `action`, `kind`), `history` the payer's HistoryView
    (what it paid, gained, accepted and took so far in this conflict and this step, its starting
    pools), `conflict` the ConflictView. Return True or None (no objection), or ``{"allow": False,
    "note": "why", "rule": "R-…"}`` (optional `rule`; default the plugin's id) to forbid it.

    Policy: allowed unless some plugin forbids it; the first refusal by plugin id counts. A
    written `exhaust` answer is then exit 1 naming the plugin and its note; a --choose policy
    and `drd play` accept the failure instead.
    """


@hookspec
def drd_manoeuvre_price(participant: ParticipantView, action: ActionView | None,
                        manoeuvre: ManoeuvreView, params: Params) -> dict | None:
    """Like `drd_free_manoeuvre`, seeing the manoeuvre's place in the action (a ManoeuvreView: its
    index, how many of its name came before, and how many each source already made free), so
    "each basic manoeuvre free once per action" (R-ABIL-ZB) or "two manoeuvres free" (R-ABIL-NAD)
    can be said. Return ``{"free": True, "note": str}`` or ``{"free": False, "note": str}`` or None.

    Policy: items first, then every plugin answering this hook or `drd_free_manoeuvre`, by plugin
    id; the first that makes it free wins (``via`` = its id).
    """


@hookspec
def drd_manoeuvre_allowance(participant: ParticipantView, action: ActionView | None, params: Params) -> int | None:
    """Manoeuvres `action` may use beyond the `max_manoeuvres` cap (R-ABIL-NAD `allowance-2`).

    Policy: every answer is added.
    """


@hookspec
def drd_may_react(reactor: ParticipantView, action: ActionView | None, harmed: tuple[ParticipantView,
                  ...], counter: ActionView | None, params: Params) -> Any:
    """May `reactor` react from defence (obrana, R-MAN-3) to `action`, which harms `harmed` (a tuple
    of ParticipantViews) but not `reactor` itself (R-ABIL-DEF), with `counter` (an ActionView of the
    reactor's counter as declared: its pool, kind, means)? Return True, ``{"allow": True, "note":
    str}``, ``{"allow": False, "note": str}`` (not allowed, and why), or None. A reactor allowed
    so may protect those harmed and exhaust for them.

    Policy: allowed when any plugin allows it (the first by plugin id is named in the log); when
    none does, the reaction is refused (exit 1, CS-IND-1) with the first refusal's note as its hint.
    """


@hookspec
def drd_may_react_asleep(sleeper: ParticipantView, action: ActionView | None,
                         threatened: tuple[ParticipantView, ...], counter: ActionView | None,
                         params: Params) -> Any:
    """May `sleeper`, who holds a sleep condition and so cannot react (R-AWARE), react to `action`
    as if awake, with `counter` (an ActionView of its counter as declared: its pool, kind, means,
    `activated`)? `threatened` are views of everyone `action` threatens (R-THR). Return True,
    ``{"allow": True, "note": str}``, ``{"allow": False, "note": "why not"}`` (the reason the
    refusal gives), or None. Asked for a counter (a výzva's protecting one too) and for a `react`
    entry of a výzva (then `action` is the výzva: actor None, kind `challenge`; `counter` his
    reaction, kind `challenge`); never for a sleeper's own action, which nothing allows.

    Policy: allowed when any plugin allows it (the first by plugin id is named in the log);
    otherwise the counter is refused (exit 1, R-AWARE), with the first refusal's note as the reason.
    """


@hookspec
def drd_jizva_yield(participant: ParticipantView, jizva: JizvaView, params: Params) -> int | None:
    """Extra points a Jizva taken for points yields (R-ABIL-SCAR); `jizva` is a JizvaView.

    Policy: every answer is added to the Jizva's `gain` (recorded in `gained.jizva.extra`).
    """


@hookspec
def drd_resource_gain(participant: ParticipantView, event: EventView, params: Params) -> Any:
    """Resources `participant` gains when `event` (an EventView) happens (R-ABIL-GAIN): return
    ``{"vyhody": n}``, ``{"pool": "telo", "amount": n}``, a list of these, or None. An answer may add
    ``"sacrifice": item`` (the gain costs that held item: it leaves the equipment, like a sacrifice,
    R-EXH-4; recorded as ``sacrifice: {name, gain}``), or be ``{"refuse": why, "rule": "R-…"}`` (the
    stated event cannot be rewarded: exit 1 at the event).

    Policy: every answer is applied, in plugin-id order, and recorded in the step's `gains`.
    """


@hookspec
def drd_activation(participant: ParticipantView, ability: str, action: ActionView | None,
                   params: Params, options: Mapping[str, Any] | None) -> dict | None:
    """The activation cost of `ability` when a scenario activates it for `action` (R-ABIL-ACT):
    ``{"cost": n, "pool": "duse"}``, or None when this plugin does not provide that ability.

    `options` are the ability's own keys for this activation (read-only): the participant's
    `abilities:` entry with the `activate:` item's keys over them. `pool` may be ``"suroviny"``
    (a cost in crafting ingredients, paid from the participant's `suroviny`, never by a Jizva, a
    sacrifice or another participant). Optional keys: ``"fact"`` (the fact established, logged),
    ``"improvised": k`` (this activation makes k improvised Suroviny, which pay the action's
    Suroviny costs first) and ``"crafts": "jed"`` (what its Suroviny are for; improvised ones pay
    only costs of the same kind, or of none).

    Policy: the plugin whose id is the ability's answers first, then the others by id; the first
    answer is the cost. An ability nobody answers for has no activation (exit 1).
    """


@hookspec
def drd_narocnost(participant: ParticipantView, action: ActionView | None, level: int, params: Params) -> int | None:
    """A change to `action`'s náročnost (R-ABIL-NAR): `level` is the core's (0 possible, 1 náročná,
    2 velmi náročná); return a signed change, or None.

    Policy: every answer is added; the result is kept within 0..2.
    """


@hookspec
def drd_render_entry(kind: str, entry: Mapping[str, Any], format: str) -> Any:
    """Words for a plugin step's own result entry (`rec.data[kind]`, e.g. the hiding step's `hide`)
    in the transcript: return a list of lines (str), or None. `format` is text, md or html (the
    lines are plain text either way; drd escapes them for html).

    Policy: the plugin providing the step type answers first, then the others by id; the first
    answer is used. Without one, drd lists the entry's keys and values in plain words.
    """
