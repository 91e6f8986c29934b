"""Any value typed for an option of `drd odds test|contest|exhaust` and `drd simulate -n` is
answered or refused quickly (exit 0 or 2), never an internal error and never a long wait."""

from __future__ import annotations

import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from drd_cli.cli.app import app

DATA = Path(__file__).resolve().parents[1] / "data"
ANY = st.one_of(st.integers(-10, 200), st.integers(-10 ** 30, 10 ** 30))


def run(args: list[str]) -> tuple[int, float, str]:
    t0 = time.perf_counter()
    r = CliRunner().invoke(app, args)
    return r.exit_code, time.perf_counter() - t0, r.output


@settings(max_examples=60, deadline=None)
@given(cmd=st.sampled_from(["test", "contest", "exhaust"]), bonus=ANY, other=ANY, presne=ANY,
       mode=st.sampled_from(["plus-one", "keep-best-2-of-3"]))
def test_any_pure_odds_option_is_answered_or_refused_quickly(cmd, bonus, other, presne, mode):
    if cmd == "test":
        args = ["odds", "test", "--bonus", str(bonus), "--target", str(other), "--presne", str(presne),
                "--presne-mode", mode]
    elif cmd == "contest":
        args = ["odds", "contest", "--bonus", str(bonus), "--vs", str(other)]
    else:
        args = ["odds", "exhaust", "--ohrozeni", str(other), "--armour", str(presne), "--bonus", str(bonus)]
    code, took, out = run([*args, "--json"])
    assert code in (0, 2), out
    assert took < 5


@settings(max_examples=12, deadline=None)
@given(n=st.one_of(st.integers(-5, 0), st.integers(10_000_001, 10 ** 20)))
def test_simulate_refuses_run_counts_out_of_range(n):
    code, took, out = run(["simulate", str(DATA / "jeden-proti-3.yaml"), "-n", str(n)])
    assert code == 2 and took < 5, out
