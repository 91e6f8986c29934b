"""The fast exact method of a contest with payments in sequence (drd_cli/odds/fast_seq.py): every
number equal to the class method's or to brute force over every kept sum, its fall-backs, and the
Poisson-binomial weights it rests on."""

from __future__ import annotations

import math
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drd_cli import api
from drd_cli.odds.fast_seq import _poly
from drd_cli.odds.step import StepPrep, odds_for

from every_die import brute_force

DATA = Path(__file__).resolve().parents[1] / "data"
NUMBERS = ("pairs", "ohrozeni", "success", "hit", "exhausts", "exhaust_cost", "exhaust_vs", "refused")


def numbers(r: dict) -> dict:
    return {k: r[k] for k in NUMBERS}


def contest_file(tmp_path: Path, *, bonuses: list[int], ohrozeni: int, telo: int, armour: int, effects: list[int],
                 mocne: list[bool], tie: str, written: str | None = None) -> str:
    """One actor (Tělo `telo`, Ohrožení `ohrozeni`, armour) against harming counters c0…"""
    arm = f", equipment: [{{name: košile, armour: {armour}}}]" if armour else ""
    people = [f"  a: {{name: Aneta, pools: {{telo: {telo}, duse: 5, vliv: 5}}, ohrozeni: {ohrozeni}, "
              f"levels: {{valecnik: 1}}{arm}}}"]
    people += [f"  c{i}: {{name: C{i}, sudba: 9, ohrozeni: {i % 2}, charakteristika: {b}}}" for i, b in enumerate(bonuses)]
    counters = [f"            - {{actor: c{i}, kind: harm, pool: telo, means: melee, "
                f"{'manoeuvres: [mocne], ' if m else ''}effect: {{ohrozeni: {e}}}}}"
                for i, (e, m) in enumerate(zip(effects, mocne))]
    tgt = ", ".join(f"c{i}" for i in range(len(bonuses)))
    man = "manoeuvres: [rozsahle], " if len(bonuses) > 1 else ""
    lines = ["format: drd/1", "participants:", *people, f"rules: {{params: {{tie: {tie}}}}}",
             "rounds:", "  - steps:", "      - id: boj", "        contest:",
             f"          action: {{actor: a, pool: telo, means: melee, bonus_from: valecnik, targets: [{tgt}], "
             f"{man}effect: {{ohrozeni: 1}}}}", "          counters:", *counters]
    if written:
        lines.append(f"        choices: {written}")
    path = tmp_path / "boj.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- against the class method

@pytest.mark.parametrize("name", ["jeden-proti-3.yaml", "jeden-proti-5.yaml"])
@pytest.mark.parametrize("choose", ["exhaust", "cheapest"])
@pytest.mark.parametrize("tie", ["actor", "counter"])
def test_sequence_method_equals_class_method(name, choose, tie):
    prep = StepPrep(api.load_scenario(str(DATA / name)), "boj", params={"tie": tie})
    seq = odds_for(prep, choose, time_limit=None)
    classes = odds_for(prep, choose, fast_method=False, time_limit=None)
    assert (seq["method"], classes["method"]) == ("sequence", "classes")
    assert seq["exhaust_vs"] and numbers(seq) == numbers(classes)


def test_written_exhaustion_for_every_pair_equals_class_method(tmp_path):
    path = contest_file(tmp_path, bonuses=[0, 1, 2, 3], ohrozeni=1, telo=6, armour=0, effects=[1] * 4,
                        mocne=[False] * 4, tie="actor", written="{a: exhaust, c1: exhaust}")
    prep = StepPrep(api.load_scenario(path), "boj")
    seq = odds_for(prep, "accept", time_limit=None)
    classes = odds_for(prep, "accept", fast_method=False, time_limit=None)
    assert seq["method"] == "sequence" and classes["exact"]
    assert numbers(seq) == numbers(classes)


def test_nineteen_counters_under_exhaust_are_exact_in_few_resolutions():
    prep = StepPrep(api.load_scenario(str(DATA / "jeden-proti-19.yaml")), "boj")
    got = odds_for(prep, "exhaust", time_limit=None)
    assert got["method"] == "sequence" and got["exact"] and got["resolutions"] < 60
    # Every pair is won by someone, and the actor pays against a counter at most as often as it loses to it.
    for key, p in got["exhaust_vs"].items():
        if key.startswith("a vs "):
            assert p["p"] <= got["pairs"][key].get(key[5:], 0)
    assert sum(got["ohrozeni"]["a"].values()) == 1


# --------------------------------------------------------------------------- against brute force

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), tie=st.sampled_from(["actor", "counter"]),
       choose=st.sampled_from(["exhaust", "cheapest", "accept"]))
def test_any_contest_with_payments_equals_brute_force(tmp_path, data, tie, choose):
    """Up to 3 open rollers against every kept sum; 4 against the class method (itself exact)."""
    n = data.draw(st.integers(1, 3), label="counters")
    same = data.draw(st.booleans(), label="one type")
    effect = data.draw(st.integers(1, 2), label="effect")
    mocne = data.draw(st.booleans(), label="mocne")
    effects = [effect] * n if same else data.draw(st.lists(st.integers(1, 2), min_size=n, max_size=n), label="effects")
    path = contest_file(
        tmp_path, bonuses=data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="bonuses"),
        ohrozeni=data.draw(st.integers(0, 3), label="ohrozeni"), telo=data.draw(st.integers(1, 9), label="telo"),
        armour=data.draw(st.integers(0, 1), label="armour"), effects=effects,
        mocne=[mocne] * n if same else [mocne] + [False] * (n - 1), tie=tie,
        written=data.draw(st.sampled_from([None, "{a: exhaust}", "{a: {c0: exhaust}}"]), label="written"))
    prep = StepPrep(api.load_scenario(path), "boj")
    got = odds_for(prep, choose, time_limit=None)
    assert got["exact"]
    want = brute_force(path, choose) if n < 3 else odds_for(prep, choose, fast_method=False, time_limit=None)
    assert numbers(got) == numbers(want)


# --------------------------------------------------------------------------- what it leaves to others

@pytest.mark.parametrize("choose", ["exhaust", "cheapest"])
def test_counters_of_different_types_are_answered_by_the_type_sequence(tmp_path, choose):
    path = contest_file(tmp_path, bonuses=[0, 1, 2], ohrozeni=1, telo=9, armour=0, effects=[1, 2, 1],
                        mocne=[False] * 3, tie="actor")
    prep = StepPrep(api.load_scenario(path), "boj")
    got = odds_for(prep, choose, time_limit=None)
    classes = odds_for(prep, choose, fast_method=False, time_limit=None)
    assert got["method"] == "sequence" and classes["exact"]
    assert got["exhaust_vs"] and numbers(got) == numbers(classes)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), tie=st.sampled_from(["actor", "counter"]),
       choose=st.sampled_from(["exhaust", "cheapest", "accept"]))
def test_counters_of_several_types_equal_brute_force(tmp_path, data, tie, choose):
    """2 or 3 types among 2 or 3 counters (alike neighbours among them make runs), against every
    kept sum of up to 4 rollers."""
    n = data.draw(st.integers(2, 3), label="counters")
    kinds = data.draw(st.lists(st.sampled_from([(1, False), (2, False), (1, True)]), min_size=n, max_size=n)
                      .filter(lambda k: len(set(k)) > 1), label="types")
    written = data.draw(st.sampled_from([None, "{a: exhaust}", "{a: {c1: exhaust}}"]), label="written")
    path = contest_file(
        tmp_path, bonuses=data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n), label="bonuses"),
        ohrozeni=data.draw(st.integers(0, 3), label="ohrozeni"), telo=data.draw(st.integers(1, 9), label="telo"),
        armour=data.draw(st.integers(0, 1), label="armour"), effects=[e for e, _m in kinds],
        mocne=[m for _e, m in kinds], tie=tie, written=written)
    prep = StepPrep(api.load_scenario(path), "boj")
    got = odds_for(prep, choose, time_limit=None)
    assert got["exact"]
    if written or choose != "accept":
        assert got["method"] == "sequence"
    assert numbers(got) == numbers(brute_force(path, choose))


def test_answers_for_one_pair_only_are_answered_by_the_type_sequence(tmp_path):
    """`a: {c1: exhaust}` beside accepted pairs: c1 is a type of its own."""
    path = contest_file(tmp_path, bonuses=[0, 1, 2], ohrozeni=1, telo=9, armour=0, effects=[1] * 3,
                        mocne=[False] * 3, tie="actor", written="{a: {c1: exhaust}}")
    prep = StepPrep(api.load_scenario(path), "boj")
    got = odds_for(prep, "accept", time_limit=None)
    classes = odds_for(prep, "accept", fast_method=False, time_limit=None)
    assert got["method"] == "sequence" and classes["exact"]
    assert got["exhaust_vs"] and numbers(got) == numbers(classes)


def test_payments_under_tie_reroll_are_not_taken_by_the_sequence_method(tmp_path):
    """A tied pair is rolled again under `tie: reroll`; the sequence model counts a tie as one
    side's win, so it must not answer (the class method or the estimate does, saying why)."""
    path = contest_file(tmp_path, bonuses=[0, 1], ohrozeni=1, telo=9, armour=0, effects=[1, 1],
                        mocne=[False] * 2, tie="reroll")
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "exhaust", time_limit=None)
    assert got["method"] != "sequence" and got["why_not_fast"] == "reroll"


def test_protecting_counters_with_payments_fall_back_to_the_class_method():
    prep = StepPrep(api.load_scenario(str(DATA / "ctyri-ve-stretu.yaml")), "boj")
    got = odds_for(prep, "exhaust", time_limit=None)
    assert (got["method"], got["why_not_fast"]) == ("classes", "policy")


# --------------------------------------------------------------------------- the weights

@settings(max_examples=60, deadline=None)
@given(ws=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=6), cap=st.integers(0, 7))
def test_poisson_binomial_weights_count_every_subset(ws, cap):
    want = [0] * (len(ws) + 1)
    for pick in product((0, 1), repeat=len(ws)):
        want[sum(pick)] += math.prod(s if p else f for p, (s, f) in zip(pick, ws))
    got = _poly(ws, cap)
    assert got == want[:len(got)] and len(got) == min(len(ws), cap) + 1


def test_exhaust_policy_is_left_to_the_sequence_method():
    prep = StepPrep(api.load_scenario(str(DATA / "jeden-proti-3.yaml")), "boj")
    assert odds_for(prep, "exhaust", time_limit=None)["method"] == "sequence"
    assert odds_for(prep, "accept", time_limit=None)["method"] == "independent"


@pytest.mark.parametrize("who", ["a", "c"])
def test_what_if_variant_reuses_the_model_and_equals_class_method(who):
    from drd_cli.odds.whatif import _with_presne

    prep = StepPrep(api.load_scenario(str(DATA / "jeden-proti-5.yaml")), "boj")
    assert odds_for(prep, "exhaust", time_limit=None)["method"] == "sequence"
    contest = prep.step.contest
    spec = contest.action if who == "a" else next(c for c in contest.counters if c.actor == who)
    variant = _with_presne(prep.step, spec)
    seq = odds_for(prep, "exhaust", step=variant, time_limit=None)
    classes = odds_for(prep, "exhaust", step=variant, fast_method=False, time_limit=None)
    assert seq["method"] == "sequence" and seq["resolutions"] < 13 and classes["exact"]
    assert numbers(seq) == numbers(classes)


def test_what_if_of_a_counter_is_exact_by_the_sequence_method():
    from drd_cli.odds import what_if

    w = what_if(api.load_scenario(str(DATA / "jeden-proti-8.yaml")), "boj", only="c", time_limit=None)
    (counter,) = w["rollers"]
    assert counter["exact"] and counter["options"][0]["exact"]
    assert 0 < counter["actor_exhausts"] < 1


def opened_contests():
    """(file name, step id, the file with that contest's or race's rolls open) of every DrD II file
    in scenarios/ and tests/data/."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from opened import with_open_step

    from drd_cli.errors import DrdError

    for folder in (DATA.parents[1] / "scenarios", DATA):
        for path in sorted(folder.glob("*.yaml")):
            try:
                loaded = api.load_scenario(str(path))
            except DrdError:
                continue    # a file that shows a refusal
            if loaded.system != "drd2":
                continue
            for ri, rnd in enumerate(loaded.scenario.rounds):
                for si, step in enumerate(rnd.steps):
                    if step.contest is not None or step.race is not None:
                        yield path.name, step.id or f"{ri + 1}.{si + 1}", with_open_step(loaded, ri, si)


def test_sequence_method_equals_class_method_on_every_opened_contest():
    """Wherever the sequence method answers a contest or race of up to 5 open rollers (the class
    method is exact and quick there), every number is the class method's."""
    from drd_cli.errors import DrdError

    compared, differ, kinds = 0, [], set()
    for name, sid, loaded in opened_contests():
        for choose in ("accept", "exhaust", "cheapest"):
            try:
                prep = StepPrep(loaded, sid)
                # Where another method answers, it may take long: bounded, its answer is not read.
                seq = odds_for(prep, choose, budget=200, time_limit=0.01, exact_time=5.0)
            except DrdError:
                break
            if seq["method"] != "sequence" or len(seq["open_rolls"]) > 5:
                continue
            classes = odds_for(prep, choose, fast_method=False, time_limit=None)
            if classes["exact"] and not classes["dropped"]:
                compared += 1
                kinds.add(seq["kind"])
                if numbers(seq) != numbers(classes):
                    differ.append(f"{name} {sid} {choose}")
    assert not differ
    assert compared >= 20 and kinds == {"contest", "race"}, (compared, kinds)

