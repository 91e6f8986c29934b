"""`drd play` off a terminal (issue #13 item 5), as a user runs it: stdin empty, at /dev/null or
closed → exit 2 with a message; answers piped in are read; input ending mid-game → exit 130 with a
complete replay; stdout closed or full → a one-line message, never an internal error."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

from tests.play.test_play import BOOK_INPUT, SKELETON, normalised

DRD = shutil.which("drd", path=os.path.dirname(sys.executable)) or shutil.which("drd")
needs_script = pytest.mark.skipif(DRD is None, reason="the drd console script is not installed")
ENV = dict(os.environ, NO_COLOR="1", COLUMNS="100")


def sh(tmp_path, redirect: str, text: str = SKELETON, stdin=None, input_: str | None = None):
    """Runs `drd play hanus.yaml` through the shell, so that streams can really be closed (`<&-`)."""
    (tmp_path / "hanus.yaml").write_text(text, encoding="utf-8")
    return subprocess.run(f'"{DRD}" play hanus.yaml --seed 5 {redirect}', shell=True, cwd=tmp_path, env=ENV,
                          input=input_, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=60)


def clean(proc) -> None:
    for text in (proc.stdout or "", proc.stderr or ""):
        assert "Traceback" not in text and "internal error" not in text and "vnitřní chyba" not in text


@needs_script
@pytest.mark.parametrize("redirect", ["< /dev/null", "<&-"], ids=["devnull", "closed"])
def test_no_answer_on_stdin_is_exit_2_with_a_message(tmp_path, redirect):
    proc = sh(tmp_path, redirect)
    clean(proc)
    assert proc.returncode == 2, proc.stderr
    assert "na standardním vstupu není před první otázkou žádná odpověď" in proc.stderr
    assert "docs/play.md" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hanus.yaml"]      # nothing written


def test_no_answer_through_the_runner_is_exit_2_too(tmp_path):
    (tmp_path / "hanus.yaml").write_text(SKELETON, encoding="utf-8")
    res = CliRunner().invoke(app, ["play", str(tmp_path / "hanus.yaml"), "--seed", "5"], input="")
    assert res.exit_code == 2 and "žádná odpověď" in res.output


def test_a_file_that_needs_no_answer_plays_without_input(tmp_path):
    """Nothing asked, nothing to read: stdin at /dev/null is no problem then."""
    given = SKELETON.replace("bonus_from: carodej,", "bonus_from: carodej, roll: 15,") \
        .replace("effect: {condition: chycen}}", "effect: {condition: chycen}, roll: 2}") \
        .replace("effect: {jizva: Zasažen lavicí}}", "effect: {jizva: Zasažen lavicí}, roll: 2}") \
        + "        choices: {stary: accept, prostredni: accept, mladsi: accept}\n"
    (tmp_path / "given.yaml").write_text(given, encoding="utf-8")
    res = CliRunner().invoke(app, ["play", str(tmp_path / "given.yaml"), "--json"], input="")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["steps"][0]["actions"]["hanus"]["success"] is True


@needs_script
def test_piped_answers_are_read_and_the_replay_reproduces_the_game(tmp_path):
    proc = sh(tmp_path, "--json", input_="\n".join(BOOK_INPUT) + "\n")
    clean(proc)
    assert proc.returncode == 0, proc.stderr
    played = json.loads(proc.stdout)
    assert [e["cost"] for e in played["steps"][0]["exhaustions"]] == [3, 4]
    again = subprocess.run([DRD, "resolve", "hanus.replay.yaml", "--json"], cwd=tmp_path, env=ENV,
                           capture_output=True, text=True, check=True)
    assert normalised(json.loads(again.stdout)) == normalised(played)


@needs_script
def test_input_ending_mid_game_is_exit_130_with_a_complete_replay(tmp_path):
    proc = sh(tmp_path, "", input_="4 3\n6 6\n")
    clean(proc)
    assert proc.returncode == 130
    assert "vstup skončil uprostřed hry" in proc.stderr and "hanus.replay.yaml" in proc.stderr
    # the replay is a valid scenario; playing it asks only for the rest
    rest = subprocess.run([DRD, "play", "hanus.replay.yaml", "--json"], cwd=tmp_path, env=ENV, text=True,
                          input="\n".join(BOOK_INPUT[2:]) + "\n", capture_output=True)
    assert rest.returncode == 0, rest.stderr
    assert json.loads(rest.stdout)["final"]["hanus"]["ohrozeni"] == 5


@needs_script
def test_enter_only_answers_are_kept_in_the_replay_too(tmp_path):
    """Rolls left to drd (Enter) are part of the game: ending mid-game keeps them, so the replay
    continues with the same dice."""
    proc = sh(tmp_path, "", input_="\n\n")
    assert proc.returncode == 130
    text = (tmp_path / "hanus.replay.yaml").read_text(encoding="utf-8")
    assert text.count("dice: [") == 2


@needs_script
@pytest.mark.parametrize("redirect", [">&-", "--json >&-"], ids=["text", "json"])
def test_stdout_closed_is_exit_2_with_a_message(tmp_path, redirect):
    proc = sh(tmp_path, redirect, input_="\n".join(BOOK_INPUT) + "\n")
    clean(proc)
    assert proc.returncode == 2
    assert "standardní výstup je zavřený" in proc.stderr


@needs_script
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_stdout_full_is_exit_2_with_the_systems_reason(tmp_path):
    proc = sh(tmp_path, "> /dev/full", input_="\n".join(BOOK_INPUT) + "\n")
    clean(proc)
    assert proc.returncode == 2
    assert "nelze psát na standardní výstup" in proc.stderr


@needs_script
def test_stderr_closed_as_well_is_still_a_clean_exit(tmp_path):
    proc = sh(tmp_path, "< /dev/null 2>&-")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout
