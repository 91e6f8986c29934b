"""No English word or Python value where the CLI speaks Czech: `drd diff`'s rules table, `--verify`
of a file with every roll given, the ability families, the Dakara refusal of play and explain, a
problem no file can be named for, `seed` said as semínko."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.errors import Problem

ROOT = Path(__file__).resolve().parents[2]
HANUS = str(ROOT / "scenarios" / "hanus-utek.yaml")


def run(*args: str, **kw):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120", "NO_COLOR": "1"}, **kw)


def test_diff_shows_no_python_values_and_the_choice_in_words():
    res = run("diff", HANUS, "--b-enable", "strop-vycerpani", "--seed", "1")
    assert res.exit_code == 0, res.output
    assert "None" not in res.stdout and "()" not in res.stdout
    assert "volby: přijmout" in res.stdout and "accept" not in res.stdout
    assert "semínko 1" in res.stdout and "seed" not in res.stdout


def test_verify_of_a_file_with_every_roll_given_names_no_seed(tmp_path):
    shared = tmp_path / "zapis.txt"
    shared.write_text(run("resolve", HANUS).stdout, encoding="utf-8")
    res = run("resolve", HANUS, "--verify", str(shared))
    assert res.exit_code == 0, res.output
    assert "None" not in res.stdout and "ok:" in res.stdout


def test_ability_families_are_words():
    listing = run("abilities").stdout
    assert "skill-level" not in listing and "share-resources" not in listing
    assert "zběhlost v dovednosti" in listing
    card = run("abilities", "cteni-v-dusi").stdout
    assert "zběhlost v dovednosti + jen aktivace" in card
    assert "skill-level" not in run("plugins").stdout
    assert "skill mastery" in run("abilities", "--lang", "en").stdout


@pytest.mark.parametrize("command", ["play", "explain"])
def test_dakara_is_refused_in_the_runs_language(command):
    res = run(command, str(ROOT / "scenarios" / "dakara-kapsar.yaml"), input="")
    assert res.exit_code == 2
    assert "drd resolve" in res.output and "Dakar" in res.output
    assert "for Dakara use" not in res.output and "resolves DrD II" not in res.output
    english = run(command, str(ROOT / "scenarios" / "dakara-kapsar.yaml"), "--lang", "en", input="")
    assert "a Dakara file is resolved by drd resolve" in english.output


def test_a_problem_without_a_file_is_the_message_alone():
    assert Problem("chybí klíč").format() == "chybí klíč"
    assert "<scenario>" not in Problem("x", rule="R-ROLL-2").format()
