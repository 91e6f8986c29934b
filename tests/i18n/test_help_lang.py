"""`--help` follows the language (issue #6): English msgids in the code, translated when help is shown.

The language of a help page is `--lang` on the command line, else the environment (docs/i18n.md),
Czech by default. Option names never change (metavars: tests/i18n/test_usage_line_lang.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from drd_cli import i18n
from drd_cli.cli.app import app
from tests.i18n.test_lang_en import czech_left

# Czech words the English help keeps on purpose: the book's names of the rolls, given as glosses
# ("Test (zkouška)"), the skill words of Dakara, and the game's name.
BOOK_WORDS = ["Dračí doupě", "zkouška", "střet", "vyčerpání", "hodnocení dovednosti", "obtížnost", "Jizvy", "Kapsářství"]

# English function words and help verbs that must not survive in a Czech help page.
ENGLISH = re.compile(r"(?<![\w-])(the|and|of|with|for|is|are|from|each|every|this|that|when|print|show|"
                     r"default|file|exit|help|message|rule|enable|disable|write|instead|only|also|or|it|"
                     r"its|an|usage|options|arguments|commands|required|install|completion|current|version|"
                     r"scenario|group|profile|seed|odds)(?![\w-])", re.IGNORECASE)

COMMANDS = [[], ["resolve"], ["check"], ["schema"], ["play"], ["explain"], ["plugins"], ["rules"], ["simulate"], ["diff"],
            ["group"], ["group", "new"], ["dakara"], ["dakara", "test"], ["dakara", "contest"], ["odds"],
            ["odds", "test"], ["odds", "contest"], ["odds", "exhaust"], ["odds", "file"]]
IDS = [" ".join(c) or "drd" for c in COMMANDS]
GROUPS = [[], ["group"], ["dakara"], ["odds"]]
# Sub-command names, listed in a group's page as they are typed.
NAMES = {name for c in COMMANDS for name in c}


def help_page(args: list[str], env: dict | None = None) -> str:
    result = CliRunner().invoke(app, [*args, "--help"],
                                env={"COLUMNS": "100", "NO_COLOR": "1", **(env or {})})
    assert result.exit_code == 0, result.output
    return result.output


def english_left(text: str) -> list[str]:
    """English words still in a (Czech) help page once names that never change are taken out.

    Taken out: option names (--seed), command paths (drd odds test), `code` in backticks, metavars
    and environment variables in capitals, the <type> column and the values of choice options.
    """
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\b(enable|disable|set)(?= (ID|KLÍČ|KEY)\b)", " ", text)   # `drd rules` actions, as typed
    text = re.sub(r"\bdrd(\s+[a-z]+)*", " ", text)
    text = re.sub(r"(?<!\w)--?[\w-]+(=[\w,]+)?", " ", text)
    text = re.sub(r"<[^>]*>|\{[^}]*\}|\[[A-Z.]+\]", " ", text)
    text = re.sub(r"\b[A-Z][A-Z0-9_=.-]+\b", " ", text)
    text = re.sub(r"\b[\w-]+(\s*\|\s*[\w-]+)+", " ", text)       # accept | exhaust | cheapest
    text = re.sub(r"(?m)^│ (\S+)", lambda m: "│ " + (" " if m.group(1) in NAMES else m.group(1)), text)
    text = re.sub(r"(?m)^│ \*\s+[a-z_]+", "│ ", text)          # an argument's name: file, name
    return ENGLISH.findall(text)


def option_names(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])--[a-z][\w-]*", text))


def test_checkers_bite():
    assert english_left("Vypíše the result as JSON.") == ["the"]
    assert not english_left("Semínko pro --seed, výchozí: `seed` ze souboru; accept | exhaust | cheapest.")
    assert czech_left("Vypíše výsledek", BOOK_WORDS)
    assert not czech_left("Test (zkouška): the chance that 2d6 + bonus (+ přesně) reaches the target.", BOOK_WORDS)


@pytest.mark.parametrize("args", COMMANDS, ids=IDS)
def test_help_is_czech_by_default_and_english_with_lang_en(args):
    """Czech (the default and --lang cs) has no English sentence, --lang en no Czech one; same options."""
    czech = help_page(args)
    if args in GROUPS:   # a group takes no --lang: its page reads the environment
        english = help_page(args, env={"LANG": "en_US.UTF-8"})
    else:
        english = help_page([*args, "--lang", "en"])
    assert not english_left(czech), (args, english_left(czech), czech)
    assert not czech_left(english, BOOK_WORDS), (args, czech_left(english, BOOK_WORDS), english)
    assert option_names(czech) == option_names(english)
    assert ("Použití:" in czech) and ("Usage:" in english)


@pytest.mark.parametrize("args", [["--help"], ["resolve", "--help"], ["odds", "test", "--help"]])
def test_lang_option_beats_the_environment(args):
    """`--lang en` anywhere on the line (before or after --help) → English even under LANG=cs_CZ, and back."""
    en = CliRunner().invoke(app, [*args[:-1], "--lang", "en", args[-1]] if len(args) > 1 else args,
                            env={"LANG": "cs_CZ.UTF-8", "NO_COLOR": "1"}).output
    en_after = CliRunner().invoke(app, [*args, "--lang=en"], env={"LANG": "cs_CZ.UTF-8", "NO_COLOR": "1"}).output
    cs = CliRunner().invoke(app, [*args, "--lang", "cs"], env={"LANG": "en_US.UTF-8", "NO_COLOR": "1"}).output
    if len(args) > 1:   # the root takes no --lang: its help reads the environment only
        assert "Usage:" in en and "Použití:" not in en, en
    assert "Usage:" in en_after, en_after
    assert "Použití:" in cs, cs


def test_help_keeps_the_msgids_for_the_next_reader():
    """Rendering a Czech help page puts the English msgids back (the next page may be English)."""
    command = typer.main.get_command(app)
    before = command.commands["resolve"].help
    help_page(["resolve"])
    assert command.commands["resolve"].help == before


def _walk(command, path: tuple = ()):  # noqa: ANN001
    yield path, command
    for name, sub in (getattr(command, "commands", None) or {}).items():
        yield from _walk(sub, (*path, name))


# Help texts whose Czech is the same string (a formula, or only names and numbers).
SAME_IN_CZECH = {"Finta +1 / +2 (SK-6).", "Bonus added to 2d6."}


def test_every_help_text_is_a_translated_msgid():
    """Each command's, group's and option's help is in the Czech catalog (marked with N_, extracted)."""
    from drd_cli.cli._help import translate_help

    root = typer.main.get_command(app)
    ctx = typer.Context(root)
    missing = []
    with i18n.using("cs"):
        for path, command in _walk(root):
            texts = [command.help] + [p.help for p in command.get_params(ctx) if getattr(p, "help", None)]
            for text in texts:
                if text and translate_help(text) == text and text not in SAME_IN_CZECH:
                    missing.append((" ".join(path) or "drd", text))
    assert not missing, missing


def _drd(args: list[str], **env: str) -> str:
    full = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "_DRD_COMPLETE")}
    full.update({"NO_COLOR": "1", "COLUMNS": "100", **env})
    proc = subprocess.run([sys.executable, "-c", "from drd_cli.cli.app import main; main()", *args], capture_output=True, text=True, env=full,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("env,lang", [({"LANG": "cs_CZ.UTF-8"}, "cs"), ({"LANG": "C.UTF-8"}, "cs"),
                                      ({"LANG": "en_US.UTF-8"}, "en"), ({"LC_ALL": "en_GB.UTF-8"}, "en")])
def test_console_help_follows_the_environment(env, lang):
    out = _drd(["odds", "test", "--help"], **env)
    if lang == "cs":
        assert "Zkouška: šance" in out and not english_left(out), out
    else:
        assert "Test (zkouška): the chance" in out and not czech_left(out, BOOK_WORDS), out


def test_every_metavar_with_a_word_is_translated():
    """A placeholder that is a word (`FILE`, `ID=DISTRIBUTION`, `HOST`) is listed in `_help.METAVARS`,
    so a Czech help page shows `SOUBOR`, `ID=BALÍČEK`, `ADRESA`; short codes (`ID`, `N`, `G`) and
    the values to type (`telo|duse|vliv`) stay as they are."""
    import re
    from pathlib import Path

    from drd_cli.cli._help import METAVARS

    sources = Path(__file__).resolve().parents[2] / "drd_cli" / "cli"
    found = {m for path in sources.glob("*.py")
             for m in re.findall(r'metavar="([^"]*)"', path.read_text(encoding="utf-8"))}
    words = {m for m in found if re.search(r"[A-Z]{3,}", m.replace("ID", ""))}
    assert words - set(METAVARS) - {"JIZVA"} == set()     # the book's term is the same in both languages
