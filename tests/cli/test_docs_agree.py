"""What README and docs/cli.md tell a user to type works: every `drd COMMAND [SUB]` README names
exists, `--dice P,N` and `--dice P N` are the same, and a Czech word is taken wherever an English
value is (docs/cli.md "Czech values")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120", "NO_COLOR": "1"})


def _readme_commands() -> list[tuple[str, ...]]:
    found = set()
    for code in re.findall(r"`(drd [^`]+)`", (ROOT / "README.md").read_text(encoding="utf-8")):
        words = [w for w in code.split()[1:3] if re.fullmatch(r"[a-z][a-z-]*", w)]
        if words and words[0] not in ("docs",):
            found.add(tuple(words))
    return sorted(found)


@pytest.mark.parametrize("words", _readme_commands(), ids=" ".join)
def test_every_command_readme_names_exists(words):
    res = run(*words, "--help")
    if res.exit_code != 0 and len(words) == 2:
        # The second word may be an argument (`drd resolve boj.yaml`): then the first must be a command.
        first = run(words[0], "--help")
        assert first.exit_code == 0, first.output
        assert "COMMAND" not in first.stdout.split("\n", 3)[1], (words, res.output)
        return
    assert res.exit_code == 0, (words, res.output)


def test_the_dice_of_a_dakara_test_in_both_forms():
    spaced = run("dakara", "test", "-s", "3", "-d", "5", "--dice", "4", "2", "--seed", "1")
    comma = run("dakara", "test", "-s", "3", "-d", "5", "--dice", "4,2", "--seed", "1")
    assert spaced.exit_code == comma.exit_code == 0, comma.output
    assert spaced.stdout == comma.stdout


@pytest.mark.parametrize("args, english", [
    (["dakara", "test", "-s", "3", "-d", "5", "--risk", "zranění"], ["--risk", "injury"]),
    (["dakara", "test", "-s", "3", "-d", "5", "-r", "komplikace"], ["-r", "complication"]),
    (["dakara", "test", "-s", "3", "-d", "5", "--tools", "žádné"], ["--tools", "none"]),
    (["dakara", "test", "-s", "3", "-d", "5", "--helpers-mode=sdílený"], ["--helpers-mode=shared"]),
    (["resolve", str(ROOT / "scenarios" / "hanus-utek.yaml"), "--choose", "vyčerpat"], ["--choose", "exhaust"]),
    (["resolve", str(ROOT / "scenarios" / "zlatka-zaves.yaml"), "--view", "hráč"], ["--view", "player"]),
])
def test_a_czech_value_is_taken_where_an_english_one_is(args, english):
    czech = run(*args)
    assert czech.exit_code == 0, czech.output
    plain = run(*args[:-len(english)], *english) if len(english) > 1 else run(*args[:-1], *english)
    assert czech.stdout == plain.stdout
