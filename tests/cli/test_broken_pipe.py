"""`drd … | head`: when the reader closes the pipe, drd stops quietly with 141 (128 + SIGPIPE),
never an "internal error" line and never exit 1 (which means "a rule forbids it")."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args", [
    ["rules"],                                                   # plain print()s
    ["resolve", str(ROOT / "scenarios" / "hanus-utek.yaml")],    # the rich transcript
    ["check", str(ROOT / "scenarios" / "hanus-utek.yaml")],      # click's echo: its own exit 1 before
    ["odds", str(ROOT / "scenarios" / "hanus-utek.yaml"), "utek"],
    ["dakara", "test", "-s", "3", "-d", "2"],
    ["--help"],
])
def test_closed_pipe_exits_141_without_a_message(args, drd_script):
    # The reader is gone before drd writes a byte (its start-up alone takes far longer than this).
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.Popen([drd_script, *args], stdout=write_end, stderr=subprocess.PIPE,
                                env=dict(os.environ, COLUMNS="80"))
    finally:
        os.close(write_end)
    _, err = proc.communicate(timeout=60)
    err = err.decode()
    assert "internal error" not in err and "vnitřní chyba" not in err and "Traceback" not in err
    assert proc.returncode == 141, (proc.returncode, err)


@pytest.mark.parametrize("width", ["0", "-5", "abc", "", "1", "99999999999"])
@pytest.mark.parametrize("args", [
    ["resolve", str(ROOT / "scenarios" / "hanus-utek.yaml")],
    ["diff", str(ROOT / "scenarios" / "hanus-utek.yaml"), "--set", "tie=actor"],
    ["simulate", str(ROOT / "scenarios" / "hanus-utek.yaml"), "-n", "3"],
    ["dakara", "test", "-s", "3", "-d", "2"],
    ["--help"],
], ids=lambda a: a[0])
def test_a_nonsense_terminal_width_still_prints_everything(args, width, drd_script):
    """`COLUMNS=0` (or no number, or one far too small or large) is not a layout: the output is
    the same as at a sane width, never nothing and never an internal error."""
    env = dict(os.environ, COLUMNS=width, NO_COLOR="1")
    proc = subprocess.run([drd_script, *args], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "vnitřní chyba" not in proc.stderr
    assert len(proc.stdout) > 200 and max(map(len, proc.stdout.splitlines())) <= 1000


def test_sane_columns_ignores_no_width_and_clamps_the_rest():
    from drd_cli.cli._streams import sane_columns

    for raw, want in (("0", None), ("-5", None), ("abc", None), (" ", None), ("1", "20"), ("80", "80"),
                      ("99999999999", "1000"), (" 120 ", " 120 ")):
        env = {"COLUMNS": raw}
        sane_columns(env)
        assert env.get("COLUMNS") == want, raw
