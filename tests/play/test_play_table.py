"""`drd play` at the table: long lines wrapped to the terminal with their indentation, the dice drd
rolled shown after Enter, `?` at the first prompt says what to type, the transcript's sha256 footer
(verified against the replay), a file with every roll given said so at the start, and without
`side:` no ogre offered to exhaust for its own prey (CS-FOR-1), the GM told that sides are missing."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
NO_SIDES = """\
format: drd/1
title: Útěk bez stran
participants:
  hanus: {name: Mistr Hanuš, pools: {telo: 4, duse: 9, vliv: 5}, ohrozeni: 3, levels: {carodej: 3}}
  stary: {name: Nejstarší zlobr, sudba: 12, ohrozeni: 2}
  prostredni: {name: Prostřední zlobr, sudba: 6, ohrozeni: 4}
  mladsi: {name: Nejmladší zlobr, sudba: 8, ohrozeni: 2}
rounds:
  - initiative: [hanus, stary, prostredni, mladsi]
    steps:
      - id: utek
        contest:
          action: {actor: hanus, label: útěk, pool: telo, bonus_from: carodej,
                   self_effect: {condition: mimo konflikt}}
          counters:
            - {actor: stary,      kind: harm, pool: telo, effect: {condition: chycen}}
            - {actor: prostredni, kind: harm, pool: telo, effect: {condition: chycen}}
            - {actor: mladsi,     kind: harm, pool: telo, effect: {jizva: Zasažen lavicí}}
"""
PROMPTS = ("Enter (hodí drd):", "drd):", "Volba [", "Enter = ne:")


def play(tmp_path: Path, lines: list[str], *args: str, text: str = NO_SIDES, width: int = 100):
    path = tmp_path / "utek.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(app, ["play", str(path), "--seed", "5", *args], input="\n".join(lines) + "\n",
                              env={"COLUMNS": str(width), "NO_COLOR": "1"})


def test_long_lines_are_wrapped_to_the_terminal_keeping_their_indentation(tmp_path):
    res = play(tmp_path, [""] * 12, "--no-replay", width=50)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    talk = lines[:next(i for i, ln in enumerate(lines) if ln.startswith("Útěk bez stran"))]
    for line in talk:
        if not any(p in line for p in PROMPTS):
            assert len(line) <= 50, line
    odds = next(i for i, ln in enumerate(talk) if "(protiakce; proti: Mistr" in ln)
    indent = len(talk[odds]) - len(talk[odds].lstrip())
    assert talk[odds + 1].startswith(" " * (indent + 2)) and talk[odds + 1].strip()


def test_the_dice_drd_rolled_are_shown_after_enter(tmp_path):
    res = play(tmp_path, [""] * 12, "--no-replay", "--json")
    assert res.exit_code == 0, res.output
    rolls = json.loads(res.stdout)["steps"][0]["rolls"]
    for pid, name in (("hanus", "Mistr Hanuš"), ("stary", "Nejstarší zlobr")):
        dice = " ".join(map(str, rolls[pid]["dice"]))
        assert f"drd hodil za účastníka {name}: {dice}" in res.stderr


def test_a_question_mark_at_the_first_prompt_says_what_to_type(tmp_path):
    res = play(tmp_path, ["?"] + [""] * 12, "--no-replay")
    assert res.exit_code == 0, res.output
    assert "Napište hozené kostky (4 3), součet i s bonusem (5–15), nebo jen Enter" in res.stdout
    assert "z (nebo zpět) vrátí poslední odpověď" in res.stdout


def test_the_transcript_has_a_footer_the_replay_verifies(tmp_path):
    res = play(tmp_path, ["4 3", "6 6", "11", "4 3", "p", "", "", ""])
    assert res.exit_code == 0, res.output
    footer = re.search(r"sha256:[0-9a-f]{64}", res.stdout)
    assert footer, res.stdout[-400:]
    shared = tmp_path / "zapis.txt"
    shared.write_text(res.stdout, encoding="utf-8")
    ok = CliRunner().invoke(app, ["resolve", str(tmp_path / "utek.replay.yaml"), "--verify", str(shared)])
    assert ok.exit_code == 0, ok.output
    assert footer.group(0) in ok.stdout


def test_a_file_with_every_roll_given_says_so_at_the_start(tmp_path):
    text = (ROOT / "scenarios" / "hanus-utek.yaml").read_text(encoding="utf-8")
    res = play(tmp_path, [], "--no-replay", text=text)
    assert res.exit_code == 0, res.output
    head = res.stdout.split("\n\n")[0]
    assert "Všechny hody jsou zapsané v souboru" in head and "--reroll" in head


def test_without_sides_no_one_is_offered_to_exhaust_for_whom_it_acts_against(tmp_path):
    res = play(tmp_path, ["4 3", "6 6", "11", "4 3", "p", "", "", ""], "--no-replay")
    assert res.exit_code == 0, res.output
    assert "Pro Průvodce: ne každý účastník má `side:`" in res.stdout
    assert "za Mistr Hanuš" not in res.stdout
    assert "se může vyčerpat za jiné" not in res.stdout


def test_with_sides_the_gm_is_not_told_they_are_missing(tmp_path):
    text = NO_SIDES.replace("levels: {carodej: 3}}", "levels: {carodej: 3}, side: vesnice}")
    for ogre in ("stary", "prostredni", "mladsi"):
        text = text.replace(f"  {ogre}: {{name:", f"  {ogre}: {{side: zlobři, name:")
    res = play(tmp_path, ["4 3", "6 6", "11", "4 3", "p", "", "", ""], "--no-replay", text=text)
    assert res.exit_code == 0, res.output
    assert "Pro Průvodce" not in res.stdout
