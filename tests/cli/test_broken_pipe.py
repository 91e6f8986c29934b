"""`drd … | head`: when the reader closes the pipe, drd stops quietly with 141 (128 + SIGPIPE),
never an "internal error" line and never exit 1 (which means "a rule forbids it")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXE = os.path.join(os.path.dirname(sys.executable), "drd")


@pytest.mark.parametrize("args", [
    ["rules"],                                                   # plain print()s
    ["resolve", str(ROOT / "scenarios" / "hanus-utek.yaml")],    # the rich transcript
])
def test_closed_pipe_exits_141_without_a_message(args):
    if not os.path.exists(EXE):
        pytest.skip("console script not installed")
    # The reader is gone before drd writes a byte (its start-up alone takes far longer than this).
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.Popen([EXE, *args], stdout=write_end, stderr=subprocess.PIPE,
                                env=dict(os.environ, COLUMNS="80"))
    finally:
        os.close(write_end)
    _, err = proc.communicate(timeout=60)
    err = err.decode()
    assert "internal error" not in err and "vnitřní chyba" not in err and "Traceback" not in err
    assert proc.returncode == 141, (proc.returncode, err)
