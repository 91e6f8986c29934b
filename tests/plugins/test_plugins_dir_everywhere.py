"""`--plugins-dir` works wherever `--help` offers it (issue #12, item 10): every command whose help
page names the option accepts it, per command and globally (`drd --plugins-dir DIR COMMAND`), and
then sees the local plugin (the `hlidka` step type of tests/data/step_plugin)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app, main
from tests.i18n.test_help_lang import COMMANDS, IDS

ROOT = Path(__file__).resolve().parents[2]
LOCAL = str(ROOT / "tests" / "data" / "step_plugin")


def _help(args):
    res = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert res.exit_code == 0
    return res.output


OFFERING = [c for c in COMMANDS if "--plugins-dir" in _help(c)]
# What each offering command prints that shows it loaded the local plugin.
SEES = {("plugins",): "hlidka", ("rules",): "hlidka", ("schema",): '"hlidka"'}


def test_the_commands_that_offer_it_are_known():
    assert OFFERING and all(tuple(c) in SEES for c in OFFERING), OFFERING


@pytest.mark.parametrize("args", OFFERING, ids=[" ".join(c) for c in OFFERING])
def test_per_command(args):
    res = CliRunner().invoke(app, [*args, "--plugins-dir", LOCAL], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert res.exit_code == 0, res.output
    assert SEES[tuple(args)] in res.stdout


@pytest.mark.parametrize("args", OFFERING, ids=[" ".join(c) for c in OFFERING])
def test_global(args, monkeypatch, capsys):
    monkeypatch.delenv("DRD_PLUGINS_DIR", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")
    try:
        main(["--plugins-dir", LOCAL, *args])
    except SystemExit as exc:
        assert exc.code in (0, None)
    assert SEES[tuple(args)] in capsys.readouterr().out


def test_without_it_the_local_plugin_is_not_there(monkeypatch):
    monkeypatch.delenv("DRD_PLUGINS_DIR", raising=False)
    res = CliRunner().invoke(app, ["schema"])
    assert '"hlidka"' not in res.stdout and "hide" in json.loads(res.stdout)["$defs"]["Step"]["properties"]
