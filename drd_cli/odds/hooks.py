"""Which plugin hooks let the fast method answer a step, and which hand it to the class method.

The fast method learns what a step does from a few resolutions by the engine and then assumes
that only *who beats whom* and *who reaches the target* matter (docs/odds.md). A hook that reads
the totals, decides a pair or a payment, or changes a roll could break that assumption in a way
a few resolutions do not show, so any hook with an implementation in the run hands the step to
the exact class method — unless it is listed here as answering before the dice are read (or not
in a step at all). The list is of the safe ones, not of the dangerous ones: a hook added to
`drd_cli.hookspecs` later is "deciding" until somebody reads it and lists it here, so no new
hook can be ignored silently (tests/odds/test_fast_hooks.py checks both).
"""

from __future__ import annotations

from typing import Any

#: Hooks that answer before any die of the step is read, or outside a step, the same way whatever
#: the dice show; every resolution the fast method learns from already contains their answers.
BEFORE_THE_DICE: frozenset[str] = frozenset({
    "drd_plugin_info",          # the plugin's card
    "drd_step_types",           # a plugin's own step type is never a test or a contest
    "drd_render_entry",         # how a result is printed
    "drd_round_end",            # end-of-round environment: not part of a step's odds
    "drd_followup",             # a step with a follow-up is not taken by the fast method anyway
    "drd_indirect_threats",     # who an action threatens, read from the spec before the roll
    "drd_free_manoeuvre",       # manoeuvres are paid before the roll
    "drd_manoeuvre_price",
    "drd_manoeuvre_allowance",
    "drd_narocnost",            # how demanding an action is, before the roll
    "drd_activation",           # an ability's activation is paid before the roll (R-ABIL-ACT)
    "drd_may_react",            # whether a counter may react, asked before anybody rolls
    "drd_may_react_asleep",     # whether a sleeper may react (R-AWARE), asked before the rolls
})


#: Deciding hooks the class method's classes still hold for: they are shown a participant or an
#: action, answer about payments, armour, gains or Jizvy, and the classes already tell
#: apart everything the rules read before they are asked (who beat whom, in which order, who
#: reached the target). The others — a pair's two totals (`drd_pair_winner`), the whole contest
#: (`drd_resolve_contest`), a change to a roll (`drd_roll_modifier`) and any hook not listed
#: anywhere here — may read the totals in a way of their own (how far apart they are), so with
#: one of them (from a plugin other than drd's own) the class method tells combinations apart
#: by every roller's sum.
CLASSES_HOLD: frozenset[str] = frozenset({
    "drd_armour_adjustment", "drd_exhaustion_cost", "drd_exhaustion_cap", "drd_may_pay", "drd_jizva_yield",
    "drd_resource_gain",
})


#: The package of drd's own plugins (plugins/drd_plugins): read with the class method in mind.
OWN_PACKAGE = "drd_plugins"


def hook_names() -> list[str]:
    """Every hook a plugin may implement (the `drd_` functions of `drd_cli.hookspecs`)."""
    from .. import hookspecs

    return sorted(n for n, fn in vars(hookspecs).items() if n.startswith("drd_") and hasattr(fn, "drd_spec"))


def deciding_hooks(hooks: Any) -> list[str]:
    """The hooks with an implementation in this run that may decide something from the dice:
    every implemented hook not in `BEFORE_THE_DICE` (unknown hooks included)."""
    has = getattr(hooks, "has", None)
    if has is None:
        return []
    return [n for n in hook_names() if n not in BEFORE_THE_DICE and has(n)]


def reads_totals(hooks: Any, deciding: list[str]) -> bool:
    """Whether a plugin other than drd's own (the `drd_plugins` package, whose hooks compare totals
    only the way the classes tell apart) implements one of the `deciding` hooks that may read the
    totals in a way of its own; then only equal sums are alike for the class method."""
    impls = getattr(hooks, "impls", None)
    for name in deciding:
        if name in CLASSES_HOLD:
            continue
        for _pid, impl in (impls(name) if impls is not None else [(None, None)]):
            module = getattr(getattr(impl, "plugin", None), "__name__", None) or type(getattr(impl, "plugin", None)).__module__
            if not str(module).startswith(OWN_PACKAGE + "."):
                return True
    return False
