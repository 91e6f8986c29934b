"""Every odds and simulate path stays within time and memory, whatever the file or the number
typed: each command runs in a child process under an address-space limit (resource.setrlimit)."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
DRD = [sys.executable, "-m", "drd_cli.cli.app"]
LIMIT_MB = 1024


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_MB * 1024 * 1024, LIMIT_MB * 1024 * 1024))


def run_limited(args: list[str], timeout: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    t0 = time.perf_counter()
    r = subprocess.run([*DRD, *args], capture_output=True, text=True, timeout=timeout, preexec_fn=_limited,
                       env={**os.environ, "COLUMNS": "100"})
    return r, time.perf_counter() - t0


def test_twenty_five_roller_contest_is_exact_by_the_fast_method_within_bounds():
    """A protector with an obstacle among 24 counters: its classes would list 2^25 placements
    (gigabytes); the fast method takes the protector state by state and answers exactly."""
    r, took = run_limited(["odds", str(DATA / "dvacet-pet-ve-stretu.yaml"), "boj", "--json"])
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["exact"] is True and out["method"] == "independent"
    assert took < 30


def test_twenty_five_roller_contest_by_the_class_method_is_a_labelled_estimate():
    """Without the fast method, the class method's guard gives the estimate instead of gigabytes."""
    from drd_cli import api
    from drd_cli.odds.step import StepPrep, odds_for

    t0 = time.perf_counter()
    prep = StepPrep(api.load_scenario(str(DATA / "dvacet-pet-ve-stretu.yaml")), "boj")
    out = odds_for(prep, "accept", fast_method=False, exact_time=10, time_limit=0.5)
    assert out["exact"] is False and out["method"] == "estimate" and out["samples"] > 0
    assert time.perf_counter() - t0 < 30


def test_twenty_roller_contest_of_harming_counters_is_exact():
    r, took = run_limited(["odds", str(DATA / "jeden-proti-19.yaml"), "boj", "--json"])
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["exact"] is True and out["method"] == "independent"
    assert took < 30


def test_eight_presne_keep_best_step_is_exact_at_once():
    r, took = run_limited(["odds", str(DATA / "presne-osm.yaml"), "boj", "--json"])
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["exact"] is True and {"who": "a", "dice": 10} in out["open_rolls"]
    assert took < 30


def test_eight_presne_keep_best_test_command_is_exact_at_once():
    r, took = run_limited(["odds", "test", "--presne", "8", "--presne-mode", "keep-best-2-of-3", "--json"])
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["success"]["fraction"] == "9869275/10077696"
    assert took < 30


def test_simulate_refuses_an_absurd_number_of_runs():
    r, took = run_limited(["simulate", str(DATA / "jeden-proti-3.yaml"), "-n", "10000000000", "--lang", "en"])
    assert r.returncode == 2 and "-n" in r.stderr and "Traceback" not in r.stderr
    assert took < 30


def test_simulate_streams_its_chunks():
    """Ten million one-run chunks in the pool under the memory limit: the pool is fed as it works
    (listing and submitting every chunk up front took gigabytes before the first run)."""
    code = ("import sys; from drd_cli.simulate import simulate; "
            "simulate(sys.argv[1], 10_000_000, chunk=1, workers=2)")
    p = subprocess.Popen([sys.executable, "-c", code, str(DATA / "jeden-proti-3.yaml")], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=_limited, start_new_session=True)
    try:
        time.sleep(8)
        assert p.poll() is None, p.stderr.read()
        with open(f"/proc/{p.pid}/status", encoding="ascii") as f:
            peak_kb = next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))
        assert peak_kb < 300 * 1024
    finally:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate(timeout=30)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_one_ctrl_c_ends_simulate_at_once(workers):
    """A real SIGINT to the whole process group (what a terminal's Ctrl-C sends): exit 130 within
    a second, one line on stderr, no traceback (from the pool's workers either)."""
    p = subprocess.Popen([*DRD, "simulate", str(DATA / "sest-ve-stretu.yaml"), "-n", "300000", "--workers", workers,
                          "--lang", "en"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    time.sleep(5)
    assert p.poll() is None
    t0 = time.perf_counter()
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=30)
    took = time.perf_counter() - t0
    assert p.returncode == 130
    assert took < 1.0
    assert err.splitlines() == ["drd: interrupted"], err
    assert out == ""


def test_play_of_eight_presne_reaches_its_first_prompt_at_once():
    """`drd play` computes the odds before each roll: with ten dice kept best two it answers at once."""
    r = subprocess.run([*DRD, "play", str(DATA / "presne-osm.yaml"), "--no-replay", "--seed", "1"], input="\n" * 6,
                       capture_output=True, text=True, timeout=60, preexec_fn=_limited)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "96,7 %" in r.stdout + r.stderr
