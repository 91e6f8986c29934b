"""A výzva with protecting counters (CS-ENV-3) by the fast method (drd_cli/odds/fast_vyzva.py):
against brute force over every die of every roller, handed to the engine by who rolls them (a
participant the protectors shield does not roll), against the class method where nobody
protected rolls, and against a seeded simulation where neither can go."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_method import inside_999, numbers

from drd_cli import api
from drd_cli.odds.estimate import _Agg, summarize
from drd_cli.odds.step import StepPrep, odds_for

from every_die import ByWho, every_die


def vyzva_file(tmp_path: Path, bonuses: list[int], protectors: list[tuple[int, list[int]]], react: list[int], *,
               target: int | None = None, effect: str = "{ohrozeni: 1}") -> str:
    """A výzva affecting t0… and the protectors p0…; protector i (charakteristika, [indices of the
    t's it protects]) keeps its initiative and protects them; `react`: the t's who undergo it."""
    people = [f"  t{i}: {{name: T{i}, sudba: 9, ohrozeni: {i % 3}, charakteristika: {b}}}" for i, b in enumerate(bonuses)]
    people += [f"  p{i}: {{name: P{i}, sudba: 9, ohrozeni: {i % 2 + 1}, charakteristika: {b}}}"
               for i, (b, _who) in enumerate(protectors)]
    affects = [f"t{i}" for i in range(len(bonuses))] + [f"p{i}" for i in range(len(protectors))]
    counters = ", ".join(f"{{actor: p{i}, from: delayed, kind: protect, protects: [{', '.join(f't{j}' for j in who)}], "
                         f"pool: telo, manoeuvres: [rozsahle]}}" for i, (_b, who) in enumerate(protectors))
    reacting = ", ".join(f"t{i}: obrana" for i in react)
    extra = f", target: {target}" if target is not None else ""
    text = "\n".join(["format: drd/1", "participants:", *people, "rules: {enable: [rozsahla-protiakce]}", "rounds:",
                      f"  - delay: [{', '.join(f'p{i}' for i in range(len(protectors)))}]", "    steps:",
                      "      - id: vyzva",
                      f"        challenge: {{name: lavina, affects: [{', '.join(affects)}], pool: telo, "
                      f"effect: {effect}{extra}, react: {{{reacting}}}, counters: [{counters}]}}"])
    path = tmp_path / "vyzva.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    return str(path)


def brute_force_by_who(path: str, choose: str, whos: list[str]) -> dict:
    """Every kept sum of every possible roller (`whos`), each resolved by the engine with the dice
    given by who rolls them: exact whoever the protectors shield, with no classes or model."""
    return every_die(StepPrep(api.load_scenario(path), "vyzva"), choose, whos)


def rollers(protectors: list, react: list[int]) -> list[str]:
    return [f"p{i}" for i in range(len(protectors))] + [f"t{i}" for i in react]


@pytest.mark.parametrize("choose", ["accept", "exhaust", "cheapest"])
@pytest.mark.parametrize("bonuses, protectors, react", [
    ([4, 0, 1], [(1, [0, 1])], [0, 1, 2]),          # the protected undergo it when not shielded
    ([4, 0], [(1, [0]), (1, [1])], [0, 1]),        # two protectors, one each
    ([2, 1, 3], [(2, [0, 1, 2]), (3, [0, 1, 2])], [1, 2]),
])
def test_protected_vyzva_by_the_fast_method_equals_every_die(tmp_path, choose, bonuses, protectors, react):
    path = vyzva_file(tmp_path, bonuses, protectors, react, target=11 if len(bonuses) == 3 else 7,
                      effect="{jizva: Pád}")
    got = odds_for(StepPrep(api.load_scenario(path), "vyzva"), choose, time_limit=None)
    assert got["method"] == "independent", got["why_not_fast"]
    assert numbers(got) == numbers(brute_force_by_who(path, choose, rollers(protectors, react)))


@pytest.mark.parametrize("choose", ["accept", "exhaust"])
def test_protected_vyzva_nobody_protected_rolls_equals_the_class_method(tmp_path, choose):
    """The protected accept (do not react), an unprotected one rolls: every roller always rolls,
    so the class method is exact here whichever way it hands the dice out."""
    path = vyzva_file(tmp_path, [1, 2, 3], [(1, [0, 1]), (2, [0])], [2])
    prep = StepPrep(api.load_scenario(path), "vyzva")
    fast = odds_for(prep, choose, time_limit=None)
    classes = odds_for(prep, choose, fast_method=False, time_limit=None)
    assert (fast["method"], classes["method"]) == ("independent", "classes")
    assert numbers(fast) == numbers(classes)


@pytest.mark.parametrize("choose", ["accept", "exhaust"])
def test_class_method_hands_dice_by_who_rolls_when_the_protected_react(tmp_path, choose):
    """The protected react: whoever a protector shields does not roll, and its dice must not pass
    to the next roller. The class method (and the estimate) give each roller its own dice, so both
    agree with every die resolved by who rolls it (they used to hand dice out in the probe's order:
    5/9 for t1's success where every die says 7/12)."""
    protectors, react = [(1, [0, 1])], [0, 1, 2]
    path = vyzva_file(tmp_path, [4, 0, 1], protectors, react, target=11, effect="{jizva: Pád}")
    prep = StepPrep(api.load_scenario(path), "vyzva")
    every = numbers(brute_force_by_who(path, choose, rollers(protectors, react)))
    classes = odds_for(prep, choose, fast_method=False, time_limit=None)
    assert classes["method"] == "classes" and classes["exact"] and not classes["dropped"]
    assert numbers(classes) == every
    sampled = odds_for(prep, choose, fast_method=False, budget=0, samples=4000)
    assert sampled["method"] == "estimate"
    assert inside_999(every, sampled) == len(every["success"]) + len(every["hit"]) > 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), target=st.sampled_from([None, 7, 11]), effect=st.sampled_from(["{ohrozeni: 1}", "{jizva: Pád}"]),
       choose=st.sampled_from(["accept", "exhaust", "cheapest"]))
def test_any_protected_vyzva_equals_every_die(tmp_path, data, target, effect, choose):
    n = data.draw(st.integers(1, 3), label="affected")
    bonuses = data.draw(st.lists(st.integers(-1, 4), min_size=n, max_size=n), label="bonuses")
    k = data.draw(st.integers(1, 2), label="protectors")
    protectors = [(data.draw(st.integers(0, 3)), sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1))))
                  for _ in range(k)]
    react = sorted(data.draw(st.sets(st.integers(0, n - 1), max_size=4 - k), label="react"))
    path = vyzva_file(tmp_path, bonuses, protectors, react, target=target, effect=effect)
    got = odds_for(StepPrep(api.load_scenario(path), "vyzva"), choose, time_limit=None)
    assert got["method"] == "independent", got["why_not_fast"]
    assert numbers(got) == numbers(brute_force_by_who(path, choose, rollers(protectors, react)))


def simulate_by_who(path: str, whos: list[str], samples: int, seed: int = 5) -> dict:
    """A seeded simulation handing each roller its dice by who rolls them: per action the share of
    samples it succeeded in and of those it was hit in, as `Estimate`s."""
    from drd_cli.engine.run import resolve_step_from
    from drd_cli.odds.budget import Estimate

    prep = StepPrep(api.load_scenario(path), "vyzva")
    cp = prep.checkpoint("accept")
    rng = random.Random(seed)
    agg = _Agg()
    for _ in range(samples):
        dice = ByWho({w: [rng.randint(1, 6), rng.randint(1, 6)] for w in whos})
        agg.add(summarize(*resolve_step_from(cp, prep.scn, prep.profile, dice, prep.hooks, choose="accept")), 1)
    return agg.result(lambda k: Estimate.share(k, samples))


def test_protected_vyzva_of_twelve_agrees_with_a_seeded_simulation(tmp_path):
    """Three protectors of four each and nine who undergo it (12 rollers, 36^12 combinations):
    exact by the fast method in a few dozen resolutions, within a seeded simulation's 99.9 %."""
    bonuses = [i % 5 - 1 for i in range(12)]
    protectors = [(1, [0, 1, 2, 3]), (2, [4, 5, 6, 7]), (0, [8, 9, 10, 11])]
    react = [0, 2, 3, 5, 6, 8, 9, 10, 11]
    path = vyzva_file(tmp_path, bonuses, protectors, react)
    exact = odds_for(StepPrep(api.load_scenario(path), "vyzva"), "accept", time_limit=None)
    assert exact["method"] == "independent", exact["why_not_fast"]
    assert exact["resolutions"] < 150
    whos = rollers(protectors, react)
    assert set(whos) <= set(exact["success"])
    assert inside_999(exact, simulate_by_who(path, whos, 2000)) == len(exact["success"])


def test_too_many_protectors_of_a_vyzva_are_said_as_such(tmp_path):
    """Seven protectors: more than `fast.MAX_SPECIAL`, so `why_not_fast` is `protect`."""
    path = vyzva_file(tmp_path, [1, 2], [(i % 3, [i % 2]) for i in range(7)], [])
    got = odds_for(StepPrep(api.load_scenario(path), "vyzva"), "accept", budget=1, time_limit=0.25)
    assert got["method"] != "independent" and got["why_not_fast"] == "protect"


def test_protector_who_also_undergoes_the_vyzva_rolls_twice_and_is_left_to_the_class_method(tmp_path):
    """A protector reacting to the výzva itself too rolls twice: `totals`, as any roller rolling
    twice."""
    path = vyzva_file(tmp_path, [1, 2], [(1, [0])], [1])
    text = Path(path).read_text(encoding="utf-8").replace("t1: obrana", "t1: obrana, p0: obrana")
    Path(path).write_text(text, encoding="utf-8")
    prep = StepPrep(api.load_scenario(path), "vyzva")
    got = odds_for(prep, "accept", time_limit=None)
    assert got["method"] == "classes" and got["why_not_fast"] == "totals"
