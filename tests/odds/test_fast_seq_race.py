"""The sequence method of a race (drd_cli/odds/fast_race_seq.py): racers paying against the
obstacle and each faster racer in turn, against brute force and the class method, and its
fall-backs."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drd_cli import api
from drd_cli.odds.step import StepPrep, odds_for
from test_fast_seq import brute_force, numbers


def race_file(tmp_path: Path, racers: list[tuple[int, int, int]], *, obstacle: int, effect: int,
              written: str | None = None) -> str:
    """Racers t0… of (Sudba, Ohrožení, charakteristika); an obstacle of `obstacle` Ohrožení (0: none)."""
    people = [f"  t{i}: {{name: T{i}, sudba: {s}, ohrozeni: {o}, charakteristika: {b}}}"
              for i, (s, o, b) in enumerate(racers)]
    obst = f", obstacle: {{ohrozeni: {obstacle}}}" if obstacle else ""
    ids = ", ".join(f"t{i}" for i in range(len(racers)))
    lines = ["format: drd/1", "participants:", *people, "rounds:", "  - steps:", "      - id: krok",
             f"        race: {{actors: [{ids}], pool: telo, effect: {{ohrozeni: {effect}}}{obst}}}"]
    if written:
        lines.append(f"        choices: {written}")
    path = tmp_path / "zavod.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_race_with_payments_equals_class_method(tmp_path):
    path = race_file(tmp_path, [(9, 0, 0), (9, 1, 1), (4, 2, 2), (6, 3, 1)], obstacle=1, effect=1)
    prep = StepPrep(api.load_scenario(path), "krok")
    for choose in ("exhaust", "cheapest"):
        seq = odds_for(prep, choose, time_limit=None)
        classes = odds_for(prep, choose, fast_method=False, time_limit=None)
        assert (seq["method"], classes["method"]) == ("sequence", "classes")
        assert seq["exhaust_vs"] and numbers(seq) == numbers(classes)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(racers=st.lists(st.tuples(st.integers(1, 9), st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=3),
       obstacle=st.integers(0, 2), effect=st.integers(1, 2), choose=st.sampled_from(["exhaust", "cheapest", "accept"]),
       written=st.sampled_from([None, "{t0: exhaust}"]))
def test_any_race_with_payments_equals_brute_force(tmp_path, racers, obstacle, effect, choose, written):
    path = race_file(tmp_path, racers, obstacle=obstacle, effect=effect, written=written)
    got = odds_for(StepPrep(api.load_scenario(path), "krok"), choose, time_limit=None)
    assert got["exact"]
    assert numbers(got) == numbers(brute_force(path, choose, step="krok"))


def test_an_answer_for_one_faster_racer_only_falls_back(tmp_path):
    path = race_file(tmp_path, [(9, 0, 0), (9, 1, 1), (9, 2, 2)], obstacle=1, effect=1, written="{t0: {t2: exhaust}}")
    got = odds_for(StepPrep(api.load_scenario(path), "krok"), "accept", time_limit=None)
    assert (got["method"], got["why_not_fast"]) == ("classes", "exhaustion") and got["exact"]


def test_twenty_racers_under_exhaust_are_exact():
    people = [(9, i % 3, i % 4) for i in range(20)]
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = race_file(Path(tmp), people, obstacle=0, effect=1)
        got = odds_for(StepPrep(api.load_scenario(path), "krok"), "exhaust", time_limit=None)
    assert got["method"] == "sequence" and got["exact"] and got["resolutions"] < 200
    assert all(sum(d.values()) == 1 for d in got["ohrozeni"].values())


def test_racers_alike_share_what_they_pay_and_stay_exact(tmp_path):
    """Racers of the same Sudba and Ohrožení (bonuses apart) are learnt once: fewer resolutions,
    the same numbers as brute force."""
    path = race_file(tmp_path, [(5, 1, 0), (5, 1, 2), (5, 1, 3)], obstacle=1, effect=1)
    got = odds_for(StepPrep(api.load_scenario(path), "krok"), "exhaust", time_limit=None)
    assert got["method"] == "sequence" and got["resolutions"] <= 12
    assert numbers(got) == numbers(brute_force(path, "exhaust", step="krok"))


def test_racers_alike_but_for_their_written_answers_are_learnt_apart(tmp_path):
    path = race_file(tmp_path, [(9, 0, 0), (9, 0, 2), (9, 0, 3)], obstacle=1, effect=1, written="{t1: exhaust}")
    got = odds_for(StepPrep(api.load_scenario(path), "krok"), "accept", time_limit=None)
    assert got["method"] == "sequence"
    assert numbers(got) == numbers(brute_force(path, "accept", step="krok"))
