"""Monte Carlo simulation: deterministic for a seed, whatever the worker count; sides, policies."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.simulate import simulate

from tests.odds.test_odds import RULES, SCEN

# The same scene as benchmarks/bench_simulate.py; OHR is Aneta's Ohrožení, filled in per test.
SIDES = (Path(__file__).parents[1] / "data" / "prepad.yaml").read_text(encoding="utf-8").replace(
    "ohrozeni: 1, levels", "ohrozeni: OHR, levels")   # only Aneta has both


def test_simulate_deterministic(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(SCEN, encoding="utf-8")
    a = simulate(str(p), 120, seed=7, policy="exhaust", workers=1, chunk=50, rules=RULES)
    b = simulate(str(p), 120, seed=7, policy="exhaust", workers=2, chunk=50, rules=RULES)
    assert a == b
    assert a["runs"] == 120 and not a["errors"]
    assert all(v == 1.0 for v in a["success_rate"]["s1"].values())
    assert sum(a["ohrozeni"]["a"].values()) == 120
    c = simulate(str(p), 120, seed=8, policy="accept", workers=1, rules=RULES)
    assert c["success_rate"]["s1"]["d"] < 1.0 or c != a


def _sides_file(tmp_path, ohr):
    p = tmp_path / f"sides{ohr}.yaml"
    p.write_text(SIDES.replace("OHR", str(ohr)), encoding="utf-8")
    return str(p)


def test_side_goal_rates_follow_the_actions(tmp_path):
    """A side reaches its goal in a step when all its members' actions there succeed: the
    družina's joint test is the per-run AND of Aneta's and Bohouš's tests (R-TEST)."""
    r = simulate(_sides_file(tmp_path, 1), 400, seed=3, policy="accept", workers=1, rules=RULES)
    runs = r["runs"]
    assert runs == 400
    skok = r["sides"]["skok"]["družina"]
    # both must succeed, so the side rate is at most either member's rate
    assert skok[1] == runs and skok[0] <= min(r["success"]["skok"]["a"][0], r["success"]["skok"]["b"][0])
    # in the contest exactly one of the two sides wins each run (R-CONT)
    rana = r["sides"]["rana"]
    assert rana["zbojníci"][0] + rana["družina"][0] == runs
    assert r["sides_all"]["zbojníci"] == rana["zbojníci"]


def test_cheapest_policy_exhausts_only_at_cost_1(tmp_path):
    """R-EXH-1: exhausting costs Ohrožení. `cheapest` exhausts while that is at most 1 (Aneta,
    Ohrožení 1) and accepts otherwise (Bohouš, Ohrožení 2); `exhaust` pays any affordable cost."""
    from drd_cli.api import load_scenario, resolve_scenario

    loaded = load_scenario(_sides_file(tmp_path, 1))

    def run(seed, choose):
        step = resolve_scenario(loaded, seed=seed, choose=choose, disable=("ukryvani",))["steps"][0]
        return step, {e["by"]: e["cost"] for e in step["exhaustions"]}

    both_fail = next(s for s in range(200) if not any(a["success"] for a in run(s, "accept")[0]["actions"].values()))
    _, paid = run(both_fail, "exhaust")
    assert paid == {"a": 1, "b": 2}
    step, paid = run(both_fail, "cheapest")
    assert paid == {"a": 1}
    assert step["actions"]["a"]["success"] and not step["actions"]["b"]["success"]
    assert "volba „nejlevněji“" in json.dumps(step["log"], ensure_ascii=False)


def test_cli_simulate_tables_json_and_no_progress_off_a_terminal(tmp_path):
    f = _sides_file(tmp_path, 1)
    runner = CliRunner()
    r = runner.invoke(app, ["simulate", f, "-n", "300", "--policy", "cheapest", "--workers", "1", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["policy"] == "cheapest" and data["runs"] == 300
    assert set(data["side_rate"]["rana"]) == {"družina", "zbojníci"}
    r = runner.invoke(app, ["simulate", f, "-n", "3000", "--workers", "1"], env={"NO_COLOR": "1"})
    assert r.exit_code == 0
    assert "Konečný stav účastníků" in r.output and "ÚSPĚCH" in r.output and "zbojníci" in r.output
    # no progress bar off a terminal (it would go to stderr, and only on a TTY)
    assert "Simulace" not in (r.stderr if r.stderr_bytes is not None else "")
    r = runner.invoke(app, ["simulate", f, "--policy", "sometimes"])
    assert r.exit_code == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: drd/1\ntitle: x\nparticipants: {}\nrounds: [{steps: [{tset: {}}]}]\n", encoding="utf-8")
    assert runner.invoke(app, ["simulate", str(bad)]).exit_code == 2


def test_progress_bar_on_a_terminal_goes_to_stderr_only(tmp_path):
    """In a real terminal (a pty for stderr) the rich progress bar is drawn on stderr, while
    stdout (a pipe) gets only the tables."""
    import os
    import pty
    import subprocess
    import sys

    f = _sides_file(tmp_path, 1)
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith("_DRD_")}
    env.update({"TERM": "xterm", "COLUMNS": "100"})
    proc = subprocess.Popen([sys.executable, "-c", "from drd_cli.cli.app import main; main()", "simulate", f,
                             "-n", "4000", "--workers", "1"], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    out, _ = proc.communicate(timeout=120)
    os.close(master)
    assert proc.returncode == 0
    assert "Simulace" in err.decode("utf-8", "replace")
    text = out.decode()
    assert "Konečný stav účastníků" in text and "\x1b[?25l" not in text   # no cursor control on stdout


def test_simulate_and_step_odds_take_the_rules_options():
    """A group asks how dangerous an encounter is under ITS rules (SCENARIO-FORMAT §6 layers):
    the fire spirit scene is refused without rozsahla-protiakce (CS-OPT-AID) and runs with the
    Thursday group's profile or --enable; a bad --set is refused before any run."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    scene = str(root / "scenarios" / "ohnivec-vetrny-stit-bez-pravidla.yaml")
    runner = CliRunner()

    def runs(*extra):
        r = runner.invoke(app, ["simulate", scene, "-n", "20", "--workers", "1", "--json", *extra])
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)

    plain = runs()
    assert plain["runs"] == 0 and plain["errors"] == {"RuleViolation": 20}
    # In words: how many runs the rules stopped and the policy as the transcript says it, in
    # Czech without the JSON's class name or the option's English value.
    words = runner.invoke(app, ["simulate", scene, "-n", "20", "--workers", "1", "--policy", "exhaust",
                                "--lang", "cs"])
    head = " ".join(words.stdout.split())          # the console wraps at its width
    assert head.startswith("Simulace 20× (semínko 0, volby: vyčerpat se), doběhlo běhů: 0, pravidla zastavila běhů: 20 ")
    for extra in (["--group", str(root / "groups" / "ctvrtek.yaml")], ["--enable", "rozsahla-protiakce"]):
        allowed = runs(*extra)
        assert allowed["runs"] == 20 and allowed["errors"] == {}
    bad = runner.invoke(app, ["simulate", scene, "-n", "5", "--set", "tie=nobody"])
    assert bad.exit_code == 2 and "tie" in bad.output

    refused = runner.invoke(app, ["odds", scene, "ohnivy_dest", "--json"])
    assert refused.exit_code == 1 and "CS-OPT-AID" in refused.output
    odds = runner.invoke(app, ["odds", scene, "ohnivy_dest", "--json", "--enable", "rozsahla-protiakce"])
    assert odds.exit_code == 0, odds.output
    assert json.loads(odds.stdout)["refused"]["p"] == 0.0


# --------------------------------------------------------------------------- the memo (#14)

MEMO_FILES = ["tests/data/prepad.yaml", "tests/data/ctyri-ve-stretu.yaml", "scenarios/hanus-utek.yaml",
              "scenarios/borri-zira-hrun-lavka-vycerpani.yaml", "scenarios/horici-stodola.yaml"]


@pytest.mark.parametrize("path", MEMO_FILES)
@pytest.mark.parametrize("policy", ["accept", "exhaust", "cheapest"])
def test_memo_gives_the_same_result_as_resolving_every_run(path, policy):
    """The memo remembers each step's outcome by the state before it and the kept dice sums; it
    must count exactly what resolving each run in full counts (errors included)."""
    root = Path(__file__).resolve().parents[2]
    f = str(root / path)
    full = simulate(f, 160, seed=5, policy=policy, workers=1, memo=False)
    assert simulate(f, 160, seed=5, policy=policy, workers=1) == full


@given(st.integers(0, 10_000), st.sampled_from(["accept", "exhaust"]))
@settings(max_examples=15, deadline=None)
def test_memo_equals_full_resolution_for_any_seed(seed, policy):
    f = str(Path(__file__).parents[1] / "data" / "prepad.yaml")
    assert simulate(f, 40, seed=seed, policy=policy, workers=1) == \
        simulate(f, 40, seed=seed, policy=policy, workers=1, memo=False)


def test_memo_full_falls_back_to_whole_resolutions(monkeypatch):
    """Past MAX_NODES the memo stops growing and the remaining runs are resolved in full: same result."""
    from drd_cli import simulate_memo

    f = str(Path(__file__).parents[1] / "data" / "prepad.yaml")
    full = simulate(f, 300, seed=2, workers=1, memo=False)
    monkeypatch.setattr(simulate_memo, "MAX_NODES", 30)
    from drd_cli import simulate as sim_mod

    sim_mod._PREPARED.clear()
    got = simulate(f, 300, seed=2, workers=1)
    memo = next(iter(sim_mod._PREPARED.values()))[4]["accept"]
    assert memo.full and got == full
    sim_mod._PREPARED.clear()


def test_memo_counts_a_broken_scenario_per_run_like_before(tmp_path):
    """A scenario every run of which stops (here: a Dakara file, which simulate does not resolve)
    is counted run by run under its error, with or without the memo."""
    f = str(Path(__file__).resolve().parents[2] / "scenarios" / "dakara-kapsar.yaml")
    a = simulate(f, 20, workers=1, memo=False)
    assert a["errors"] and sum(a["errors"].values()) == 20
    assert simulate(f, 20, workers=1) == a
