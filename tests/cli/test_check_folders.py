"""`drd check FOLDER` checks every *.yaml under the folder, recursively, in name order."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]


def test_a_folder_is_checked_file_by_file_recursively(tmp_path):
    shutil.copy(ROOT / "scenarios" / "hanus-utek.yaml", tmp_path / "b.yaml")
    (tmp_path / "deeper" / "still").mkdir(parents=True)
    shutil.copy(ROOT / "scenarios" / "zlatka-zaves.yaml", tmp_path / "deeper" / "still" / "a.yaml")
    (tmp_path / "notes.txt").write_text("not a scenario", encoding="utf-8")
    res = CliRunner().invoke(app, ["check", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "2 soubory: 2 ok" in res.stdout
    assert str(tmp_path / "deeper" / "still" / "a.yaml") in res.stdout
    assert "složka" not in res.stdout


def test_the_scenarios_folder_checks_every_scenario():
    res = CliRunner().invoke(app, ["check", str(ROOT / "scenarios")])
    assert res.exit_code == 0, res.output
    count = len(list((ROOT / "scenarios").rglob("*.yaml")))
    assert f"{count} souborů: {count} ok" in res.stdout


def test_a_folder_without_scenarios_is_an_error(tmp_path):
    res = CliRunner().invoke(app, ["check", str(tmp_path)])
    assert res.exit_code == 2
    assert str(tmp_path) in res.stdout
