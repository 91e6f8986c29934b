"""The resolver toolkit of the plugin API (`drd_cli.plugin.toolkit`): the engine's building blocks
for plugins that resolve a whole step (`drd_step_types`) or take over a contest
(`drd_resolve_contest`), as one stable, documented surface (docs/plugins.md "The resolver toolkit":
each function's signature, what it spends and what it records; the engine handle itself is
"The step engine (StepAPI)").

A plugin reaches it lazily, inside the function that needs it, so importing the plugin stays light::

    def resolve(engine, spec, choices, path):
        from drd_cli.plugin import toolkit

        targets = toolkit.action_targets(engine.ctx, engine.w, spec.action, spec.action.actor, path)

Every function takes the engine's own objects as the `StepAPI` hands them out (`engine.ctx`,
`engine.w`, `engine.rec`) plus document paths (tuples of keys, so errors point at file:line:col).
They change the copy-on-write state `w` and the step record `rec`, exactly as the core's own
resolutions do; a rule refusing something raises `RuleViolation` (exit 1), best built with
`violation(message, rule, path, hint=None)`.

What is here (the engine modules stay the implementation; only this list is the promise):

* preparing and rolling an action: `prepare`, `make_roll`, `roll_sides`;
* targets and threats: `action_targets`, `threatened_targets`, `check_counter_actor`,
  `check_awake` (a sleeper cannot react, R-AWARE), `refuse_outsiders`;
* initiative: `main_action` (spends the actor's initiative; refuses a sleeper's action, R-AWARE),
  `check_awake_to_act` (a sleeper takes no action of his own: for an action that spends no
  initiative), `counter_source` (initiative or obrana for a reaction);
* contests: `pair_winner` (who wins a pair, R-CONT), `Outcome` (one side's outcome), `pay_for`,
  `others_exhaust`, `mark_exhausted` (exhaustions, R-EXH, CS-FOR);
* effects: `apply_effects`, `has_effect`, `exhaust`;
* errors: `violation`;
* the scenario models these take: `ActionSpec`, `ChallengeSpec`, `ContestSpec`, `CounterSpec`,
  `TestSpec`, `Effect`, `EffectSpec`, `norm_pool`, `as_list`, `effects_of` (also in
  `drd_cli.plugin.scenario_models`).
"""

from __future__ import annotations

from .engine.actions import apply_effects, exhaust, has_effect, make_roll, prepare
from .engine.contest import (Outcome, action_targets, check_awake, check_counter_actor, mark_exhausted, others_exhaust,
                             pair_winner, pay_for, refuse_outsiders, roll_sides, threatened_targets)
from .engine.context import violation
from .engine.initiative import check_awake_to_act, counter_source, main_action
from .scenario.models import (ActionSpec, ChallengeSpec, ContestSpec, CounterSpec, Effect, EffectSpec, TestSpec,
                              as_list, effects_of, norm_pool)

__all__ = [
    "prepare", "make_roll", "roll_sides",
    "action_targets", "threatened_targets", "check_counter_actor", "check_awake", "refuse_outsiders",
    "main_action", "check_awake_to_act", "counter_source",
    "pair_winner", "Outcome", "pay_for", "others_exhaust", "mark_exhausted",
    "apply_effects", "has_effect", "exhaust",
    "violation",
    "ActionSpec", "ChallengeSpec", "ContestSpec", "CounterSpec", "TestSpec", "Effect", "EffectSpec", "norm_pool",
    "as_list", "effects_of",
]
