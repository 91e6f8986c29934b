"""`drd docs TOPIC` prints a page of the user documentation, which ships in the wheel; help pages
cite pages as `drd docs TOPIC` (what an installed drd has), never a `docs/….md` path."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli._root import COMMANDS
from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))


def run(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


def test_the_list_names_every_page():
    res = run("docs")
    assert res.exit_code == 0, res.output
    listed = [line.split()[0] for line in res.stdout.splitlines()]
    assert listed == PAGES


@pytest.mark.parametrize("page", ["scenario-format", "play", "rules", "cli"])
def test_a_page_is_printed_as_written(page):
    res = run("docs", page)
    assert res.exit_code == 0, res.output
    assert res.stdout == (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")


def test_an_unknown_page_is_exit_2_with_a_suggestion():
    res = run("docs", "scenario")
    assert res.exit_code == 2
    assert "scenario-format" in res.output


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_cites_pages_a_user_has(command):
    res = run(command, "--help")
    assert res.exit_code == 0, res.output
    assert not re.search(r"docs/[a-z-]+\.md", res.stdout), res.stdout
    for page in re.findall(r"drd docs ([a-z-]+)", res.stdout):
        assert page in PAGES


def test_the_wheel_ships_the_docs(tmp_path):
    hatch = pytest.importorskip("hatchling.builders.wheel", reason="hatchling not installed here")
    wheel = next(iter(hatch.WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"])))
    names = set(zipfile.ZipFile(wheel).namelist())
    for page in PAGES:
        assert f"drd_cli/docs/{page}.md" in names
