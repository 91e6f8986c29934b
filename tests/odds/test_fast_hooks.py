"""Plugins and the fast method (drd_cli/odds/hooks.py): a step in which a plugin implements a hook
that may decide something from the dice is answered by the exact class method, whichever hook it
is — also one added to the hook specs after the fast method was written."""

from __future__ import annotations

import pytest

from drd_cli import api
from drd_cli.odds import hooks as odds_hooks
from drd_cli.odds.step import StepPrep, odds_for
from drd_cli.plugin import hookimpl

from test_fast_method import brute_force, contest_file, numbers


def plugin(**impls) -> object:
    return type("Plugin", (), {name: staticmethod(hookimpl(fn)) for name, fn in impls.items()})()


@pytest.fixture
def with_plugin(monkeypatch):
    """`with_plugin(obj)`: every rules setup of the test also gets the plugin object `obj`."""
    real = api.setup_rules

    def install(obj: object) -> None:
        monkeypatch.setattr(api, "setup_rules", lambda *a, **kw: real(*a, **kw, extra_plugins={"zkusebni": obj}))

    return install


def test_hooks_before_the_dice_are_hooks_and_the_rest_decide():
    names = odds_hooks.hook_names()
    assert odds_hooks.BEFORE_THE_DICE <= set(names) and odds_hooks.CLASSES_HOLD <= set(names)
    assert not odds_hooks.BEFORE_THE_DICE & odds_hooks.CLASSES_HOLD
    assert {"drd_pair_winner", "drd_resolve_contest", "drd_roll_modifier"} <= set(names) - odds_hooks.BEFORE_THE_DICE


def test_a_hook_added_later_counts_as_deciding(monkeypatch):
    from drd_cli import hookspecs

    def drd_brand_new_hook() -> None:
        """A hook nobody has classified yet."""

    drd_brand_new_hook.drd_spec = {}  # type: ignore[attr-defined]
    monkeypatch.setattr(hookspecs, "drd_brand_new_hook", drd_brand_new_hook, raising=False)
    impls = {"drd_brand_new_hook", "drd_plugin_info"}
    fake = type("Hooks", (), {"has": staticmethod(lambda name: name in impls)})()
    assert odds_hooks.deciding_hooks(fake) == ["drd_brand_new_hook"]


DECIDING = sorted(set(odds_hooks.hook_names()) - odds_hooks.BEFORE_THE_DICE)


@pytest.mark.parametrize("hook", DECIDING)
def test_any_deciding_hook_hands_the_step_to_the_class_method(with_plugin, tmp_path, hook):
    """A plugin that implements the hook (and answers nothing): the class method answers, says why,
    and its numbers are those without the plugin."""
    path = contest_file(tmp_path, [1, 2], ["harm", "harm"], targets=[0, 1], tie="actor")
    plain = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", time_limit=None)
    assert plain["method"] == "independent"
    with_plugin(plugin(**{hook: lambda: None}))
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", time_limit=None)
    assert got["method"] == "classes" and got["exact"]
    assert got["why_not_fast"] == "hooks" and got["deciding_hooks"] == [hook]
    assert numbers(got) == numbers(plain)


def test_a_plugin_deciding_pairs_is_counted_exactly(with_plugin, tmp_path):
    """A pair-winner plugin that gives a close pair (totals at most 1 apart) to the counter: the
    answer equals brute force over every die, with the plugin deciding."""
    def close_to_counter(pair):
        return "counter" if abs(pair.actor_total - pair.counter_total) <= 1 else None

    with_plugin(plugin(drd_pair_winner=close_to_counter))
    path = contest_file(tmp_path, [1, 2], ["harm", "harm"], targets=[0, 1], tie="actor")
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", time_limit=None)
    assert got["method"] == "classes" and got["deciding_hooks"] == ["drd_pair_winner"]
    assert numbers(got) == numbers(brute_force(path, "accept"))
