"""`drd rules --group G` shows what the group changes first; `--changed` shows only that."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
GROUP = str(ROOT / "groups" / "ctvrtek.yaml")


def run(*args: str):
    res = CliRunner().invoke(app, list(args), env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert res.exit_code == 0, res.output
    return res.stdout.splitlines()


def test_the_groups_changes_come_first():
    lines = run("rules", "--group", GROUP)
    head = lines[:6]
    assert any(line.split()[:1] == ["rozsahla-protiakce"] for line in head), head
    assert any(line.split()[:1] == ["tie"] for line in head), head


def test_changed_shows_only_the_changes():
    lines = run("rules", "--group", GROUP, "--changed")
    rows = [line for line in lines if line.startswith("  ")]
    assert [row.split()[0] for row in rows] == ["rozsahla-protiakce", "tie"]
    assert len(lines) <= 4


def test_without_a_group_nothing_is_changed():
    lines = run("rules", "--changed")
    assert lines == ["Oproti výchozím pravidlům drd se nic nemění."]
