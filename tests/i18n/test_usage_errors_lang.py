"""Usage errors that Click and Typer word themselves (unknown option, missing argument, a value of
the wrong type…) are said again in the run's language; exit code 2 either way."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

EXE = os.path.join(os.path.dirname(sys.executable), "drd")

CASES = [
    (["resolve", "x.yaml", "--foo"], "neznámá volba --foo", "No such option: --foo"),
    (["resolve"], "chybí argument 'SOUBOR'.", "Missing argument 'FILE'."),
    (["resolve", "x.yaml", "--seed", "x"], "neplatná hodnota pro '--seed': čeká se celé číslo",
     "Invalid value for '--seed': a whole number is expected"),
    (["resolve", "x.yaml", "--choose", "maybe"], "'maybe' není žádná z možností 'accept', 'exhaust', 'ask'.",
     "'maybe' is not one of 'accept', 'exhaust', 'ask'."),
    (["dakara", "test", "--skill", "1", "--difficulty", "2", "--finta", "3"], "nejvýš 2", "at most 2 is allowed"),
    (["resolve", "a.yaml", "b.yaml"], "nečekaný argument navíc: b.yaml", "Unexpected extra argument(s): b.yaml"),
    (["nic"], "neznámý příkaz 'nic'.", "No such command 'nic'."),
    (["resolve", "x.yaml", "--seed"], "volba '--seed' potřebuje hodnotu.", "Option '--seed' requires an argument."),
    # found by the command itself, after parsing (issue #12): the same translated frame
    (["group", "new", "a/b"], "neplatná hodnota pro NAME: 'a/b': použijte písmena",
     "Invalid value for NAME: 'a/b': use letters"),
    (["rules", "a.yaml", "b.yaml"], "neplatná hodnota: zadejte nejvýš jeden soubor scénáře",
     "Invalid value: give at most one scenario FILE"),
]


def _run(args, env_lang):
    env = dict(os.environ, LANG=env_lang, COLUMNS="200", NO_COLOR="1")
    env.pop("LANGUAGE", None)
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("args,czech,english", CASES)
def test_usage_error_in_czech_and_english(args, czech, english):
    if not os.path.exists(EXE):
        pytest.skip("console script not installed")
    cs = _run(args, "cs_CZ.UTF-8")
    en = _run(args, "en_US.UTF-8")
    assert cs.returncode == en.returncode == 2, (cs.stderr, en.stderr)
    assert czech in cs.stderr and "Chyba" in cs.stderr, cs.stderr
    assert english in en.stderr and "Error" in en.stderr, en.stderr
    assert english not in cs.stderr and czech not in en.stderr


def test_lang_option_on_the_command_line_wins_for_usage_errors():
    if not os.path.exists(EXE):
        pytest.skip("console script not installed")
    res = _run(["resolve", "x.yaml", "--seed", "x", "--lang", "en"], "cs_CZ.UTF-8")
    assert res.returncode == 2
    assert "Invalid value for '--seed': a whole number is expected" in res.stderr
    assert "Try 'drd resolve -h' for help." in res.stderr
