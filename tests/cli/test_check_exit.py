"""`drd check` of a file the engine finds invalid while resolving (the real engine, not the
fakes of tests/test_cli.py): exit 2 as docs/cli.md says, unless the file expects it."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

runner = CliRunner()


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


UNKNOWN_PARTICIPANT = """\
format: drd/1
expect: {exit: EXIT}
participants:
  a: {name: A, pools: {telo: 4, duse: 4, vliv: 2}}
rounds:
  - steps:
      - id: s1
        test: {actor: nikdo, label: x, pool: telo, roll: 9}
"""


@pytest.mark.parametrize("expected, code", [(0, 2), (1, 2), (2, 0)])
def test_check_a_file_found_invalid_while_resolving_is_invalid_unless_it_expects_it(tmp_path, expected, code):
    """An unknown participant is found while resolving, not while reading: the file is invalid
    all the same (exit 2, docs/cli.md), not an expectation missed (1)."""
    path = write(tmp_path, "u.yaml", UNKNOWN_PARTICIPANT.replace("EXIT", str(expected)))
    res = runner.invoke(app, ["check", path])
    assert res.exit_code == code, res.stdout
    if code == 2:
        assert f"{path}:8:16:" in res.stdout and "NEPLATNÝ" in res.stdout
        report = json.loads(runner.invoke(app, ["check", path, "--format", "json"]).stdout)
        assert report["files"][0]["status"] == "invalid" and report["exit"] == 2
