"""`drd play` of a file whose every roll is written (docs/play.md "--reroll"): play says so before the
first step and points to `--reroll`; with `--reroll` the file's rolls are asked at the table, the
file's choices still answer, the file stays as it was and the replay reproduces the new game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "hanus-utek.yaml"
    shutil.copy(ROOT / "scenarios" / "hanus-utek.yaml", path)
    return path


def _play(path: Path, lines: list[str], *args: str):
    return runner.invoke(app, ["play", str(path), "--seed", "5", *args], input="\n".join(lines) + "\n",
                         env={"COLUMNS": "250"})


def test_a_file_with_every_roll_asks_nothing_and_says_so(tmp_path):
    path = _copy(tmp_path)
    res = _play(path, [], "--lang", "en", "--no-replay")
    assert res.exit_code == 0, res.output
    assert "Every roll is written in the file, so drd asks for no dice" in res.output
    assert "--reroll" in res.output
    assert "Dice, a total, or Enter" not in res.output
    cs = _play(path, [], "--lang", "cs", "--no-replay")
    assert "Všechny hody jsou zapsané v souboru" in cs.output and "--reroll" in cs.output


def test_reroll_asks_every_roll_and_keeps_the_file(tmp_path):
    path = _copy(tmp_path)
    before = path.read_bytes()
    # Hanuš 6 6 (+3 čaroděj = 15) beats all three ogres' 1 1: nobody has to exhaust.
    res = _play(path, ["6 6", "1 1", "1 1", "1 1", "", "", ""], "--reroll", "--lang", "en", "--json")
    assert res.exit_code == 0, res.output
    assert res.output.count("Dice, a total, or Enter") == 4
    assert "the file's 4 roll entries are left open" in res.output
    assert "rolled with the bonus of Čaroděj" in res.output       # a written total needed none
    assert path.read_bytes() == before
    replay = tmp_path / "hanus-utek.replay.yaml"
    again = runner.invoke(app, ["resolve", str(replay), "--json"])
    assert again.exit_code == 0, again.output
    step = json.loads(again.output)["steps"][0]
    assert step["rolls"]["hanus"]["total"] == 15 and step["rolls"]["stary"]["total"] == 2
    assert not step.get("exhaustions")


def test_reroll_keeps_the_files_choices(tmp_path):
    path = _copy(tmp_path)
    # The book's rolls typed again: the file's choices (exhaust against both older ogres) answer.
    res = _play(path, ["3 4", "6 6", "6 5", "3 4", "", "", ""], "--reroll", "--lang", "en", "--no-replay", "--json")
    assert res.exit_code == 0, res.output
    start = res.output.index("{\n")
    result = json.loads(res.output[start:])
    assert [e["vs"] for e in result["steps"][0]["exhaustions"]] == ["stary", "prostredni"]
    assert "Decision: Mistr Hanuš" not in res.output[:start]        # the file answered his decisions


def test_reroll_is_in_the_help():
    res = runner.invoke(app, ["play", "--help", "--lang", "en"], env={"COLUMNS": "200"})
    assert "--reroll" in res.output and "Leave the file's rolls open" in res.output
