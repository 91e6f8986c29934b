"""Help and usage errors in the reader's words: Click's and Typer's own English sentences said again
in Czech, the type column in words (no `<bool>`, `<list[int]>`), and at 40 columns every word of a
help page kept (wrapped, never cut with "…")."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from drd_cli.cli._root import COMMANDS
from drd_cli.cli.app import app

PAGES = [[name] for name in COMMANDS] + [["odds", "step"], ["odds", "test"], ["dakara", "test"],
                                         ["rules", "enable"], ["group", "new"]]


def run(*args: str, width: int = 100, **env: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": str(width), "NO_COLOR": "1", **env})


def test_a_mistyped_command_is_answered_in_czech():
    res = run("resolv")
    assert res.exit_code == 2
    assert "No such command" not in res.output and "Did you mean" not in res.output
    assert "neznámý příkaz 'resolv'" in res.output and "'resolve'" in res.output


def test_an_option_short_of_values_is_answered_in_czech():
    res = run("dakara", "test", "-s", "3", "-d", "4", "--dice", "4")
    assert res.exit_code == 2
    assert "requires" not in res.output and "--dice" in res.output


def test_installing_completion_is_said_in_czech(tmp_path):
    res = run("--install-completion", "bash", HOME=str(tmp_path))
    assert res.exit_code == 0, res.output
    assert "installed" not in res.stdout and "nainstalováno" in res.stdout
    assert (tmp_path / ".bash_completions" / "drd.sh").is_file()


@pytest.mark.parametrize("page", PAGES, ids=" ".join)
def test_the_type_column_is_in_words(page):
    res = run(*page, "--help")
    assert res.exit_code == 0, res.output
    assert not re.search(r"<(bool|int|str|float)|list\[|int range", res.stdout), res.stdout


@pytest.mark.parametrize("page", PAGES, ids=" ".join)
def test_help_at_forty_columns_keeps_every_word(page):
    wide = run(*page, "--help", width=200)
    narrow = run(*page, "--help", width=40)
    assert narrow.exit_code == 0, narrow.output
    assert narrow.stdout.count("…") == wide.stdout.count("…")      # only those the texts have
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 40
    words = set(re.findall(r"[\wá-ž]{4,}", narrow.stdout))
    for word in re.findall(r"[\wá-ž]{4,}", re.sub(r"[╭╮╰╯│─]", " ", wide.stdout)):
        if word not in ("OPTIONS", "COMMAND", "ARGS"):
            assert word in words or word in narrow.stdout, (page, word)
