"""`drd dakara test|contest` through typer's CliRunner on the sub-app."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from drd_cli.cli.dakara import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "200"})


def test_test_prints_answer_and_exact_odds():
    r = invoke("test", "--skill", "2", "--difficulty", "4")
    assert r.exit_code == 0, r.output
    assert "NE" in r.output and "komplikace" in r.output
    for frac in ("5/18", "11/36", "1/3", "1/12"):        # 10/36, 11/36, 12/36, 3/36 (research §5.5)
        assert frac in r.output
    assert "\x1b[" not in r.output                       # NO_COLOR: no escape codes


def test_test_yes_answer_is_auto_success():
    r = invoke("test", "--skill", "3", "--difficulty", "4", "--finta", "1")
    assert r.exit_code == 0 and "ANO" in r.output and "ÚSPĚCH bez hodu" in r.output and "1/1" in r.output


def test_test_with_injury_risk_lists_each_injury_value_and_death():
    r = invoke("test", "--skill", "3", "--difficulty", "4", "--risk", "injury", "--injury-modifier", "2",
               "--armour", "1", "--injured", "12", "--json")
    d = json.loads(r.output)
    inj = {o["injury"]: o["fraction"] for o in d["odds"]["outcomes"] if o["outcome"] == "failure"}
    assert inj == {2: "1/6", 3: "5/36", 4: "1/9", 5: "1/12", 6: "1/18", 7: "1/36"}
    assert d["odds"]["dead"]["fraction"] == "1/36" and d["answer"] == "no" and d["result"] is None


def test_test_with_dice_shows_the_result():
    r = invoke("test", "--skill", "3", "--difficulty", "4", "--risk", "injury", "--dice", "2", "4")
    assert r.exit_code == 0 and "NEÚSPĚCH, zranění 3" in r.output and "SK-5" in r.output
    d = json.loads(invoke("test", "--skill", "3", "--difficulty", "4", "--dice", "3", "2", "--json").output)
    assert d["result"]["outcome"] == "success" and d["result"]["margin"] == 0
    assert d["result"]["rolls"]["hrac"]["source"] == "given"


def test_roll_is_seeded_and_reproducible():
    a = json.loads(invoke("test", "-s", "1", "-d", "4", "--roll", "--seed", "9", "--json").output)["result"]
    b = json.loads(invoke("test", "-s", "1", "-d", "4", "--roll", "--seed", "9", "--json").output)["result"]
    assert a == b and a["seed"] == 9 and a["rolls"]["hrac"]["source"] == "seeded"


def test_helpers_and_helper_dice():
    d = json.loads(invoke("test", "-s", "2", "-d", "4", "--helper", "5", "--helper", "4", "--helper-dice", "2,1",
                          "--json").output)
    assert d["helpers_may_change_answer"] is True
    assert d["odds"]["by_outcome"]["auto-success"]["fraction"] == "5/18"     # helper 2 succeeds 10/36
    shared = json.loads(invoke("test", "-s", "2", "-d", "4", "--helper", "5", "--helper", "4",
                               "--helpers-mode", "shared", "--json").output)
    assert shared["modified_rating"] == 2                                    # both helpers now face 6


def test_tools_none_required_is_impossible():
    r = invoke("test", "-s", "5", "-d", "2", "--tools", "none", "--tools-required")
    assert r.exit_code == 0 and "NEMOŽNÉ" in r.output


def test_contest_odds_and_draw():
    d = json.loads(invoke("contest", "--skill", "3", "--opponent", "4", "--dice", "4", "3", "--json").output)
    assert {k: v["fraction"] for k, v in d["odds"]["by_outcome"].items()} == \
        {"win": "5/18", "draw": "5/36", "loss": "7/12"}
    assert d["answer"] is None and d["result"]["outcome"] == "draw"
    r = invoke("contest", "--skill", "3", "--difficulty", "4")
    assert r.exit_code == 0 and "VÝHRA" in r.output and "REMÍZA" in r.output and "PROHRA" in r.output


def test_contest_npc_finta_raises_difficulty():
    d = json.loads(invoke("contest", "-s", "3", "--opponent", "3", "--opponent-finta", "1", "--dice", "1", "4",
                          "--json").output)
    assert d["difficulty"] == 4 and d["result"]["difficulty"] == 4 and d["result"]["complication"] == "mild"


@pytest.mark.parametrize("args", [
    ["test", "-s", "3", "-d", "4", "--finta", "3"],
    ["test", "-s", "3", "-d", "4", "--finta", "-1"],
    ["test", "-s", "3", "-d", "4", "--tools", "3"],
    ["test", "-s", "3", "-d", "4", "--tools", "poor"],
    ["test", "-s", "3", "-d", "4", "--dice", "0", "4"],
    ["test", "-s", "3", "-d", "4", "--dice", "7", "4"],
    ["test", "-s", "3", "-d", "4", "--helper", "4", "--helper-dice", "9,1"],
    ["test", "-s", "3", "-d", "4", "--helper-dice", "1,1"],
    ["test", "-s", "3", "-d", "4", "--risk", "both"],
    ["test", "-s", "3", "-d", "4", "--risk", "complication", "--injury-modifier", "2"],
    ["test", "-s", "3", "-d", "4", "--roll", "--dice", "1", "1"],
    ["test", "-s", "3", "-d", "4", "--finta", "2", "--finta-cap", "1"],
    ["test", "-s", "3", "-d", "4", "--helpers-mode", "all"],
    ["contest", "-s", "3"],
])
def test_bad_options_exit_nonzero_without_traceback(args):
    r = invoke(*args)
    assert r.exit_code != 0
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_importing_the_cli_module_stays_light():
    code = ("import sys, drd_cli.cli.dakara; "
            "print([m for m in ('rich', 'pydantic', 'ruamel', 'pluggy') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_quick_command_names_the_skill_once_and_reads_as_czech():
    """`zkouška dovednosti dovednost` was the skill's placeholder read as a name: the lines say the
    `--name` given, else `…`; the dice given on the command line are not "in the file"."""
    named = runner.invoke(app, ["test", "--skill", "3", "--difficulty", "4", "--helper", "2", "--dice", "3", "4",
                                "--helper-dice", "5,1", "--name", "Kapsářství", "--lang", "cs"],
                          env={"COLUMNS": "200"})
    assert named.exit_code == 0, named.output
    assert "Postava: zkouška dovednosti Kapsářství, obtížnost 4" in named.output
    assert "Pomocník 1 pomáhá (Kapsářství 2 proti obtížnosti 5)" in named.output
    assert "Zadané kostky se nepoužily" in named.output and "v souboru" not in named.output
    plain = runner.invoke(app, ["contest", "--skill", "3", "--opponent", "4", "--roll", "--seed", "1", "--lang", "cs"],
                          env={"COLUMNS": "200"})
    assert plain.exit_code == 0, plain.output
    assert "dovednosti dovednost" not in plain.output and "střet v dovednosti … (soupeř: druhá postava)" in plain.output
    english = runner.invoke(app, ["test", "--skill", "3", "--difficulty", "4", "--roll", "--seed", "1", "-n", "Lockpicking",
                                  "--lang", "en"], env={"COLUMNS": "200"})
    assert "The character: skill test Lockpicking, difficulty 4" in english.output, english.output
