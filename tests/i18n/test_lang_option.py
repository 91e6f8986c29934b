"""`--lang cs|en` on every command that prints for people (docs/i18n.md, drd_cli/cli/_common.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
FILE = str(ROOT / "scenarios" / "hanus-utek.yaml")

COMMANDS = [["resolve"], ["check"], ["odds", "test"], ["odds", "contest"], ["odds", "exhaust"], ["odds", "file"],
            ["simulate"], ["diff"], ["play"], ["rules"], ["plugins"], ["dakara", "test"], ["dakara", "contest"]]


@pytest.mark.parametrize("cmd", COMMANDS, ids=" ".join)
def test_command_offers_lang(cmd):
    out = CliRunner().invoke(app, cmd + ["--help"], terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "--lang" in out.output


@pytest.mark.parametrize("cmd", [["rules"], ["plugins"], ["odds", "test"]], ids=" ".join)
def test_unknown_language_is_a_usage_error(cmd):
    out = CliRunner().invoke(app, cmd + ["--lang", "de"])
    assert out.exit_code == 2


def _diff_logs(lang: str) -> list[str]:
    import json

    out = CliRunner().invoke(app, ["diff", FILE, "--set", "tie=counter", "--json", "--lang", lang])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    return [entry["text"] for step in data["a"]["result"]["steps"] for entry in step["log"]]


def test_diff_json_logs_follow_lang():
    """R-ORDER, R-CONT: the results drd diff prints carry log texts in the chosen language."""
    en, cs = _diff_logs("en"), _diff_logs("cs")
    assert en[0].startswith("Roll order: ") and cs[0].startswith("Pořadí hodů: ")
    assert any(" wins over " in t for t in en) and any(" vyhrává, " in t for t in cs)
