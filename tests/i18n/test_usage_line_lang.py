"""The usage line and the metavars of a help page follow its language (docs/i18n.md "Help"):
`Použití: drd resolve [VOLBY] {SOUBOR}` in Czech, `Usage: drd resolve [OPTIONS] {FILE}` in English,
at 40 columns (plain lines) as at 100 (panels), and in a usage error's frame."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from drd_cli.cli.app import app

# Words Click and Typer write on a help page that must not stay English in Czech.
ENGLISH_FRAME = re.compile(r"\[OPTIONS\]|\bCOMMAND\b|\[ARGS\]|\bFILE\b|\bKEY=VALUE\b|\bDIR\b|\bSTEP\b|"
                           r"\bUsage\b|\bOptions\b|\bArguments\b|\bCommands\b|\[required\]|\[default")


def _page(args: list[str], columns: int, lang: str | None = None) -> str:
    env = {"COLUMNS": str(columns), "NO_COLOR": "1", "LANG": "cs_CZ.UTF-8"}
    extra = ["--lang", lang] if lang else []
    if lang == "en" and not args:     # the root takes no --lang: its page reads the environment
        env["LANG"], extra = "en_US.UTF-8", []
    result = CliRunner().invoke(app, [*args, "--help", *extra], env=env)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("columns", [40, 100])
@pytest.mark.parametrize("args, cs_usage, en_usage", [
    (["resolve"], "Použití: drd resolve [VOLBY] {SOUBOR}", "Usage: drd resolve [OPTIONS] {FILE}"),
    (["diff"], "Použití: drd diff [VOLBY] {SOUBOR}", "Usage: drd diff [OPTIONS] {FILE}"),
    (["odds", "file"], "Použití: drd odds file [VOLBY] {SOUBOR} {KROK}", "Usage: drd odds file [OPTIONS] {FILE} {STEP}"),
    ([], "Použití: drd [VOLBY] PŘÍKAZ [ARGUMENTY]...", "Usage: drd [OPTIONS] COMMAND [ARGS]..."),
])
def test_the_usage_line_and_metavars_follow_the_language(args, cs_usage, en_usage, columns):
    cs = _page(args, columns, "cs" if args else None)
    en = _page(args, columns, "en")
    flat_cs, flat_en = " ".join(cs.split()), " ".join(en.split())
    assert cs_usage in flat_cs, cs
    assert en_usage in flat_en, en
    assert not ENGLISH_FRAME.findall(cs), (ENGLISH_FRAME.findall(cs), cs)
    assert re.search(r"\b(Arguments|Options|Commands)\b", en), en


def test_a_group_option_shows_czech_metavars():
    cs = _page(["diff"], 100, "cs")
    assert "KLÍČ=HODNOTA" in cs and "KEY=VALUE" not in cs
    assert "KEY=VALUE" in _page(["diff"], 100, "en")


def test_the_metavars_are_put_back_after_a_czech_page():
    """The next page (or an error) may be English: the command keeps its own metavars."""
    _page(["resolve"], 100, "cs")
    command = typer.main.get_command(app).commands["resolve"]
    assert [p.metavar for p in command.params if p.name == "file"] == ["FILE"]
    assert command.options_metavar == "[OPTIONS]"


@pytest.mark.parametrize("lang, usage, missing", [
    ("cs", "Použití: drd resolve [VOLBY] {SOUBOR}", "chybí argument 'SOUBOR'"),
    ("en", "Usage: drd resolve [OPTIONS] {FILE}", "Missing argument 'FILE'"),
])
def test_a_usage_error_frame_follows_the_language(lang, usage, missing):
    result = CliRunner().invoke(app, ["resolve", "--lang", lang], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert result.exit_code == 2
    assert usage in result.output and missing in result.output, result.output
