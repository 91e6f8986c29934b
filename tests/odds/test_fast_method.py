"""The fast exact method of `drd odds FILE STEP` (drd_cli/odds/fast.py) against brute force over
every die, against the class method, and against a seeded simulation where neither can go."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drd_cli import api
from drd_cli.odds.step import StepPrep, odds_for

from every_die import brute_force  # noqa: F401 - test_fast_hooks imports it from here

DATA = Path(__file__).resolve().parents[1] / "data"
NUMBERS = ("pairs", "ohrozeni", "success", "hit", "exhausts", "exhaust_cost", "exhaust_vs", "refused")


def numbers(r: dict) -> dict:
    return {k: r[k] for k in NUMBERS}


def contest_file(tmp_path: Path, bonuses: list[int], kinds: list[str], *, targets: list[int], tie: str,
                 obstacle: bool = False, outsider: bool = False) -> str:
    """A one-actor contest: counters c0… with the given charakteristika and kinds; `targets` are
    counter indices the action targets; `outsider` adds a target that does not react."""
    people = ["  a: {name: Aneta, pools: {telo: 9, duse: 5, vliv: 5}, ohrozeni: 1, levels: {valecnik: 1}}"]
    people += [f"  c{i}: {{name: C{i}, sudba: 9, ohrozeni: {i % 2}, charakteristika: {b}}}" for i, b in enumerate(bonuses)]
    tgt = [f"c{i}" for i in targets]
    if outsider:
        people.append("  x: {name: Xaver, sudba: 3, ohrozeni: 2}")
        tgt.append("x")
    counters = []
    for i, kind in enumerate(kinds):
        extra = ", obstacle: {condition: spadl}" if obstacle and kind == "protect" else ""
        counters.append(f"            - {{actor: c{i}, kind: {kind}, pool: telo, effect: {{ohrozeni: 1}}{extra}}}")
    man = "manoeuvres: [rozsahle], " if len(tgt) > 1 else ""
    text = "\n".join(["format: drd/1", "participants:", *people, f"rules: {{params: {{tie: {tie}}}}}",
                      "rounds:", "  - steps:", "      - id: boj", "        contest:",
                      f"          action: {{actor: a, pool: telo, bonus_from: valecnik, targets: [{', '.join(tgt)}], "
                      f"{man}effect: {{ohrozeni: 1}}}}", "          counters:", *counters]) + "\n"
    path = tmp_path / "boj.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("tie", ["actor", "counter"])
def test_fast_method_equals_brute_force_with_four_rollers(tie):
    path = str(DATA / "jeden-proti-3.yaml")
    fast = odds_for(StepPrep(api.load_scenario(path), "boj", params={"tie": tie}), "accept", time_limit=None)
    assert fast["method"] == "independent" and fast["exact"]
    assert numbers(fast) == numbers(brute_force(path, "accept", {"tie": tie}))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), tie=st.sampled_from(["actor", "counter"]), choose=st.sampled_from(["accept", "exhaust"]))
def test_any_step_shape_equals_brute_force(tmp_path, data, tie, choose):
    n = data.draw(st.integers(1, 2), label="counters")
    bonuses = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="bonuses")
    kinds = data.draw(st.lists(st.sampled_from(["harm", "harm", "protect"]), min_size=n, max_size=n), label="kinds")
    targets = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="targets"))
    if any(k == "protect" for k in kinds) and not targets:
        targets = [0]
    path = contest_file(tmp_path, bonuses, kinds, targets=targets, tie=tie,
                        obstacle=data.draw(st.booleans(), label="obstacle"),
                        outsider=data.draw(st.booleans(), label="outsider"))
    try:
        got = odds_for(StepPrep(api.load_scenario(path), "boj"), choose, time_limit=None)
    except Exception as exc:  # a shape the rules refuse (a protector of nobody at stake): not a case
        from drd_cli.errors import DrdError

        assert isinstance(exc, DrdError)
        return
    assert got["exact"]
    assert numbers(got) == numbers(brute_force(path, choose))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), tie=st.sampled_from(["actor", "counter"]), choose=st.sampled_from(["accept", "exhaust"]))
def test_exhaustion_for_others_equals_brute_force(tmp_path, data, tie, choose):
    """A rozsáhlá action hits every counter it targets; one of them exhausts for itself and for
    another (CS-FOR-2: its Ohrožení × the number protected, written in the file), or the actor
    exhausts in sequence against the winners (CS-SEQ-1, `exhaust`): whatever method answers
    (`why_not_fast` says which), every number equals every die resolved by the engine."""
    n = data.draw(st.integers(2, 3), label="counters")
    bonuses = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="bonuses")
    path = contest_file(tmp_path, bonuses, ["harm"] * n, targets=list(range(n)), tie=tie)
    protected = sorted(data.draw(st.sets(st.integers(1, n - 1), min_size=1), label="protected"))
    answer = f"{{exhaust: [c0, {', '.join(f'c{i}' for i in protected)}]}}"
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"        choices: {{c0: {answer}}}\n")
    try:
        got = odds_for(StepPrep(api.load_scenario(path), "boj"), choose, time_limit=None)
    except Exception as exc:  # every probe refused (c0 can never pay): not a case
        from drd_cli.errors import DrdError

        assert isinstance(exc, DrdError)
        return
    assert got["exact"], got["why_not_fast"]
    assert numbers(got) == numbers(brute_force(path, choose))


@pytest.mark.parametrize("name", ["jeden-proti-3.yaml", "jeden-proti-5.yaml"])
@pytest.mark.parametrize("tie", ["actor", "counter"])
def test_fast_method_equals_class_method(name, tie):
    prep = StepPrep(api.load_scenario(str(DATA / name)), "boj", params={"tie": tie})
    fast = odds_for(prep, "accept", time_limit=None)
    classes = odds_for(prep, "accept", fast_method=False, time_limit=None)
    assert (fast["method"], classes["method"]) == ("independent", "classes")
    assert numbers(fast) == numbers(classes)


def test_nineteen_counters_agree_with_a_seeded_simulation():
    """20 rollers: exact by the fast method; a seeded estimate of 3,000 samples holds every exact
    number within its 99.9 % interval (Wilson, z = 3.29)."""
    prep = StepPrep(api.load_scenario(str(DATA / "jeden-proti-19.yaml")), "boj")
    exact = odds_for(prep, "accept", time_limit=None)
    assert exact["method"] == "independent" and exact["combinations"] == 36 ** 20
    assert inside_999(exact, odds_for(prep, "accept", budget=0, samples=3000)) == 20


def inside_999(exact: dict, est: dict) -> int:
    """Asserts every exact success and every chance of being hit lies within the estimate's 99.9 %
    Wilson interval (z = 3.29); returns how many actions it checked."""
    z = 3.2905
    checked = 0
    for key in ("success", "hit"):
        for pid, p in exact[key].items():
            e = est[key].get(pid)
            if e is None:
                assert float(p) < 0.01, (pid, p)
                continue
            k, n = round(e.value * e.n), e.n
            centre = (k / n + z * z / (2 * n)) / (1 + z * z / n)
            half = z * math.sqrt(k / n * (1 - k / n) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            assert centre - half - 1e-9 <= float(p) <= centre + half + 1e-9, (key, pid, float(p), e)
            checked += key == "success"
    return checked


def test_what_if_reuses_the_model_and_stays_exact():
    from drd_cli.odds import what_if

    loaded = api.load_scenario(str(DATA / "jeden-proti-8.yaml"))
    w = what_if(loaded, "boj", only="a", time_limit=None)
    (actor,) = w["rollers"]
    (opt,) = actor["options"]
    assert w["base"]["method"] == "independent" and opt["exact"]
    assert opt["win"] > actor["win"]


def joint_test_file(tmp_path: Path, bonuses: list[int], mode: str, target: int | None, effect: bool) -> str:
    """A test of several creatures (`actors`, `mode`), failure costing Ohrožení, maybe a target
    hit on success."""
    people = [f"  t{i}: {{name: T{i}, sudba: 9, ohrozeni: {i % 3}, charakteristika: {b}}}" for i, b in enumerate(bonuses)]
    people.append("  z: {name: Zeď, sudba: 3, ohrozeni: 0}")
    ids = ", ".join(f"t{i}" for i in range(len(bonuses)))
    extra = f", target: {target}" if target is not None else ""
    hit = ", targets: [z], effect: {ohrozeni: 1}" if effect else ""
    text = "\n".join(["format: drd/1", "participants:", *people, "rounds:", "  - steps:", "      - id: zk",
                      f"        test: {{actors: [{ids}], mode: {mode}, pool: telo, failure: {{ohrozeni: 1}}{extra}{hit}}}"])
    path = tmp_path / "zk.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    return str(path)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bonuses=st.lists(st.integers(-1, 4), min_size=1, max_size=3), mode=st.sampled_from(["individual", "any", "all"]),
       target=st.sampled_from([None, 7, 11]), effect=st.booleans(),
       choose=st.sampled_from(["accept", "exhaust", "cheapest"]))
def test_any_test_of_several_actors_equals_brute_force(tmp_path, bonuses, mode, target, effect, choose):
    path = joint_test_file(tmp_path, bonuses, mode, target, effect)
    got = odds_for(StepPrep(api.load_scenario(path), "zk"), choose, time_limit=None)
    assert got["exact"] and got["method"] == "independent"
    assert numbers(got) == numbers(brute_force(path, choose, step="zk"))


@pytest.mark.parametrize("mode", ["individual", "any", "all"])
def test_test_of_fourteen_actors_is_exact_by_formula(tmp_path, mode):
    """14 actors (36^14 combinations): the fast method against the product formula of R-TEST."""
    from drd_cli.odds import test_odds

    bonuses = [i % 4 for i in range(14)]
    got = odds_for(StepPrep(api.load_scenario(joint_test_file(tmp_path, bonuses, mode, None, False)), "zk"), "accept",
                   time_limit=None)
    assert got["method"] == "independent"
    p = [test_odds(b)["success"] for b in bonuses]
    if mode == "individual":
        want = {f"t{i}": p[i] for i in range(14)}
    else:
        fail_all, all_ok = Fraction(1), Fraction(1)
        for q in p:
            fail_all *= 1 - q
            all_ok *= q
        group = 1 - fail_all if mode == "any" else all_ok
        want = {f"t{i}": group for i in range(14)}
    assert got["success"] == want


def challenge_file(tmp_path: Path, bonuses: list[int], target: int | None, effect: str) -> str:
    """A výzva every creature of which rolls against the target (its own bonus), failure costing
    Ohrožení or a Jizva."""
    people = [f"  t{i}: {{name: T{i}, sudba: 9, ohrozeni: {i % 3}, charakteristika: {b}}}" for i, b in enumerate(bonuses)]
    ids = ", ".join(f"t{i}" for i in range(len(bonuses)))
    extra = f", target: {target}" if target is not None else ""
    react = ", ".join(f"t{i}: {how}" for i, how in zip(range(len(bonuses)), ["obrana", "delayed", "initiative"] * 9))
    text = "\n".join(["format: drd/1", "participants:", *people, "rounds:", "  - steps:", "      - id: vyzva",
                      f"        challenge: {{name: lavina, affects: [{ids}], pool: telo, effect: {effect}{extra}, "
                      f"react: {{{react}}}}}"])
    path = tmp_path / "vyzva.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    return str(path)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bonuses=st.lists(st.integers(-1, 4), min_size=1, max_size=3), target=st.sampled_from([None, 7, 11]),
       effect=st.sampled_from(["{ohrozeni: 1}", "{ohrozeni: 2}", "{jizva: Pád}"]),
       choose=st.sampled_from(["accept", "exhaust", "cheapest"]))
def test_any_challenge_equals_brute_force(tmp_path, bonuses, target, effect, choose):
    path = challenge_file(tmp_path, bonuses, target, effect)
    got = odds_for(StepPrep(api.load_scenario(path), "vyzva"), choose, time_limit=None)
    assert got["exact"] and got["method"] == "independent"
    assert numbers(got) == numbers(brute_force(path, choose, step="vyzva"))


def test_challenge_of_twelve_is_exact_by_formula(tmp_path):
    from drd_cli.odds import test_odds

    bonuses = [i % 5 - 1 for i in range(12)]
    got = odds_for(StepPrep(api.load_scenario(challenge_file(tmp_path, bonuses, None, "{ohrozeni: 1}")), "vyzva"),
                   "accept", time_limit=None)
    assert got["method"] == "independent" and got["combinations"] == 36 ** 12
    assert got["success"] == {f"t{i}": test_odds(b)["success"] for i, b in enumerate(bonuses)}


def race_file(tmp_path: Path, bonuses: list[int], obstacle: bool, effect: str, manoeuvres: str = "") -> str:
    """A race of creatures t0…, the slower taking `effect` from each faster one, maybe an obstacle."""
    people = [f"  t{i}: {{name: T{i}, sudba: 9, ohrozeni: {i % 3}, charakteristika: {b}}}" for i, b in enumerate(bonuses)]
    ids = ", ".join(f"t{i}" for i in range(len(bonuses)))
    extra = ", obstacle: {ohrozeni: 1}" if obstacle else ""
    text = "\n".join(["format: drd/1", "participants:", *people, "rounds:", "  - steps:", "      - id: zavod",
                      f"        race: {{actors: [{ids}], pool: telo, effect: {effect}{extra}{manoeuvres}}}"])
    path = tmp_path / "zavod.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    return str(path)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bonuses=st.lists(st.integers(-1, 9), min_size=2, max_size=3), obstacle=st.booleans(),
       effect=st.sampled_from(["{ohrozeni: 1}", "{ohrozeni: 2}", "{condition: pozadu}"]),
       choose=st.sampled_from(["accept", "accept", "exhaust"]))
def test_any_race_equals_brute_force(tmp_path, bonuses, obstacle, effect, choose):
    path = race_file(tmp_path, bonuses, obstacle, effect)
    got = odds_for(StepPrep(api.load_scenario(path), "zavod"), choose, time_limit=None)
    assert got["exact"]
    if choose == "accept":
        assert got["method"] == "independent"
    assert numbers(got) == numbers(brute_force(path, choose, step="zavod"))


def test_race_of_twelve_agrees_with_a_seeded_simulation(tmp_path):
    """12 racers (36^12 combinations): exact by the fast method; a seeded estimate of 3,000
    samples holds every exact success and every chance of being hit in its 99.9 % interval."""
    path = race_file(tmp_path, [i % 6 for i in range(12)], True, "{ohrozeni: 1}")
    prep = StepPrep(api.load_scenario(path), "zavod")
    exact = odds_for(prep, "accept", time_limit=None)
    assert exact["method"] == "independent" and exact["combinations"] == 36 ** 12
    assert inside_999(exact, odds_for(prep, "accept", budget=0, samples=3000)) == 12


@pytest.mark.parametrize("tie", ["actor", "counter"])
def test_protecting_counters_and_obstacles_by_the_fast_method_equal_brute_force(tmp_path, tie):
    """Four rollers: two harming counters, a protecting one with an obstacle, a target that does not
    react: answered by the fast method (state by state of the protector), equal to every die."""
    path = contest_file(tmp_path, [1, 0, 2], ["harm", "protect", "harm"], targets=[0, 2], tie=tie, obstacle=True,
                        outsider=True)
    text = Path(path).read_text(encoding="utf-8").replace("kind: protect,", "kind: protect, protects: [x],")
    Path(path).write_text(text, encoding="utf-8")
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", time_limit=None)
    assert got["method"] == "independent", got["why_not_fast"]
    assert numbers(got) == numbers(brute_force(path, "accept"))


@pytest.mark.parametrize("who", ["actor", "harming counter", "protector"])
def test_what_if_variant_with_a_protector_reuses_the_model_and_equals_the_class_method(tmp_path, who):
    """One roller's přesně changes its dice: the variant is answered from the model learnt on the
    step (checked again, not learnt again) and equals the class method's answer for the variant."""
    from drd_cli.odds.whatif import _with_presne

    path = contest_file(tmp_path, [1, 0, 2], ["harm", "protect", "harm"], targets=[0, 2], tie="actor", obstacle=True,
                        outsider=True)
    text = Path(path).read_text(encoding="utf-8").replace("kind: protect,", "kind: protect, protects: [x],")
    Path(path).write_text(text, encoding="utf-8")
    prep = StepPrep(api.load_scenario(path), "boj")
    learnt = odds_for(prep, "accept", time_limit=None)
    c = prep.step.contest
    spec = {"actor": c.action, "harming counter": c.counters[0], "protector": c.counters[1]}[who]
    variant = _with_presne(prep.step, spec)
    fast = odds_for(prep, "accept", step=variant, time_limit=None)
    assert fast["method"] == "independent" and fast["resolutions"] < learnt["resolutions"]
    assert numbers(fast) == numbers(odds_for(prep, "accept", step=variant, fast_method=False, time_limit=None))


def protector_file(tmp_path: Path, harming: list[int], protecting: list[int], *, tie: str,
                   obstacle: bool = False) -> str:
    """A contest of harming counters with the given charakteristika and protecting ones that shield
    a target that does not react (`x`); `obstacle` puts an obstacle on the protectors."""
    path = contest_file(tmp_path, harming + protecting, ["harm"] * len(harming) + ["protect"] * len(protecting),
                        targets=list(range(len(harming))) or [0], tie=tie, obstacle=obstacle, outsider=True)
    text = Path(path).read_text(encoding="utf-8").replace("kind: protect,", "kind: protect, protects: [x],")
    Path(path).write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("tie", ["actor", "counter"])
def test_five_protectors_by_the_fast_method_equal_the_class_method(tmp_path, tie):
    """Six rollers, five of them protecting counters (past the four the fast method once took):
    their 2^5 combinations of states are taken one by one, equal to the class method's answer."""
    path = protector_file(tmp_path, [], [0, 1, 2, 0, 1], tie=tie)
    prep = StepPrep(api.load_scenario(path), "boj")
    fast = odds_for(prep, "accept", time_limit=None)
    assert fast["method"] == "independent", fast["why_not_fast"]
    classes = odds_for(prep, "accept", fast_method=False, time_limit=None)
    assert classes["method"] == "classes"
    assert numbers(fast) == numbers(classes)


def test_six_protectors_beside_harming_counters_agree_with_a_seeded_simulation(tmp_path):
    """Nine rollers: two harming counters and six protectors (2^6 states per class of the actor's
    total), exact by the fast method, within the 99.9 % interval of a seeded estimate."""
    path = protector_file(tmp_path, [1, 0], [0, 1, 2, 0, 1, 2], tie="actor")
    prep = StepPrep(api.load_scenario(path), "boj")
    exact = odds_for(prep, "accept", time_limit=None)
    assert exact["method"] == "independent" and exact["combinations"] == 36 ** 9
    assert inside_999(exact, odds_for(prep, "accept", budget=0, samples=2000)) == 9


@pytest.mark.parametrize("protecting, obstacle", [([0, 1, 2, 0, 1, 2, 0], False), ([0, 1, 2, 0, 1], True)])
def test_too_many_combinations_of_special_states_are_said_as_such(tmp_path, protecting, obstacle):
    """Seven protectors, or five with an obstacle (up to four states each): more combinations than
    `fast.MAX_STATES`, so the step is answered otherwise and `why_not_fast` names the counters."""
    path = protector_file(tmp_path, [1], protecting, tie="actor", obstacle=obstacle)
    got = odds_for(StepPrep(api.load_scenario(path), "boj"), "accept", budget=1, time_limit=0.25)
    assert got["method"] != "independent"
    assert got["why_not_fast"] == ("obstacle" if obstacle else "protect")


@pytest.mark.parametrize("bonuses, obstacle, effect", [([0, -1, 9], False, "{ohrozeni: 1}"),
                                                       ([0, -1, 9], True, "{ohrozeni: 2}"),
                                                       ([9, 0, -1], True, "{condition: pozadu}")])
def test_race_whose_ranges_barely_meet_is_learnt_racer_by_racer(tmp_path, bonuses, obstacle, effect):
    """Racers of 1–11, 2–12 and 11–21: the slowest can be faster than the middle one but the others
    share no total it can pass, so what it adds is learnt per slower racer; equal to every die."""
    path = race_file(tmp_path, bonuses, obstacle, effect)
    got = odds_for(StepPrep(api.load_scenario(path), "zavod"), "accept", time_limit=None)
    assert got["method"] == "independent", got["why_not_fast"]
    assert numbers(got) == numbers(brute_force(path, "accept", step="zavod"))
