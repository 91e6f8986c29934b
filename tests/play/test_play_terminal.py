"""`drd play` and `drd resolve --choose ask` in a real terminal (pexpect spawns the `drd` script).

A full play, a typing mistake asked again, and Ctrl-C: exit 130 with no half-written replay.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.play.test_play import BOOK_INPUT, SKELETON, normalised  # noqa: E402

DRD = shutil.which("drd", path=os.path.dirname(sys.executable)) or shutil.which("drd")
pytestmark = pytest.mark.skipif(DRD is None, reason="the drd console script is not installed")
ROLL = "Enter (hodí drd): "


def expect_wrapped(child, text: str) -> None:
    """`text` as play shows it: wrapped to the terminal, so any run of spaces may be a line break."""
    import re

    child.expect(r"\s+".join(re.escape(word) for word in text.split()))


def spawn(*args: str, cwd: Path) -> "pexpect.spawn":
    env = dict(os.environ, NO_COLOR="1", COLUMNS="100")
    return pexpect.spawn(DRD, list(args), cwd=str(cwd), env=env, encoding="utf-8", timeout=30,
                         dimensions=(50, 100))


def test_full_play_in_a_terminal_and_the_replay_reproduces_it(tmp_path):
    (tmp_path / "hanus.yaml").write_text(SKELETON, encoding="utf-8")
    child = spawn("play", "hanus.yaml", "--seed", "5", cwd=tmp_path)
    child.expect("soupeř Nejstarší zlobr \\(\\+0\\): výhra 545/648 = 84,1 %")
    child.expect_exact(ROLL)
    child.sendline("43x")                                   # a typo: asked again, no crash
    child.expect("nerozumím „43x“")
    child.expect_exact(ROLL)
    for line in BOOK_INPUT[:4]:
        child.sendline(line)
        if line != BOOK_INPUT[3]:
            child.expect_exact(ROLL)
    child.expect("3 Tělo, Ohrožení 3→4; chrání: Mistr Hanuš")
    child.expect("Volba \\[p/v/j/o, Enter = p\\]: ")
    for line in BOOK_INPUT[4:]:
        child.sendline(line)
    child.expect("Záznam hry: hanus.replay.yaml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    import subprocess

    played = subprocess.run([DRD, "resolve", "hanus.replay.yaml", "--json"], cwd=tmp_path, capture_output=True,
                            text=True, check=True)
    result = json.loads(played.stdout)
    assert [e["cost"] for e in result["steps"][0]["exhaustions"]] == [3, 4]
    assert result["final"]["hanus"]["jizvy"] == ["Pád z výšky"]


def test_ctrl_c_at_a_prompt_exits_130_and_leaves_no_half_written_file(tmp_path):
    (tmp_path / "hanus.yaml").write_text(SKELETON, encoding="utf-8")
    child = spawn("play", "hanus.yaml", "--seed", "5", cwd=tmp_path)
    child.expect_exact(ROLL)
    child.sendcontrol("c")                                  # nothing entered yet: nothing written
    child.expect("přerušeno")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hanus.yaml"]    # no temp files either

    child = spawn("play", "hanus.yaml", "--seed", "5", cwd=tmp_path)
    child.expect_exact(ROLL)
    child.sendline("4 3")
    child.expect_exact(ROLL)
    child.sendline("6 6")
    child.expect_exact(ROLL)
    child.sendcontrol("c")
    child.expect("přerušeno")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hanus.replay.yaml", "hanus.yaml"]
    from drd_cli.api import load_scenario

    replay = load_scenario(str(tmp_path / "hanus.replay.yaml"))   # a complete, valid scenario
    contest = replay.scenario.rounds[0].steps[0].contest
    assert contest.action.dice == [4, 3] and contest.counters[0].dice == [6, 6]


def test_resolve_choose_ask_asks_decisions_on_a_terminal(tmp_path):
    """`--choose ask`: the dice from the file, each open decision asked (R-EXH-1 cost shown)."""
    text = SKELETON.replace("bonus_from: carodej,", "bonus_from: carodej, roll: 10,") \
        .replace("effect: {condition: chycen}}\n            - {actor: prostredni",
                 "effect: {condition: chycen}, roll: 12}\n            - {actor: prostredni") \
        .replace("effect: {condition: chycen}}\n            - {actor: mladsi",
                 "effect: {condition: chycen}, roll: 11}\n            - {actor: mladsi") \
        .replace("effect: {jizva: Zasažen lavicí}}", "effect: {jizva: Zasažen lavicí}, roll: 7}")
    (tmp_path / "given.yaml").write_text(text, encoding="utf-8")
    child = spawn("resolve", "given.yaml", "--choose", "ask", "--json", cwd=tmp_path)
    child.expect("\\[v\\] vyčerpat se \\(R-EXH\\): 3 Tělo, Ohrožení 3→4")
    child.expect("Volba")
    child.sendline("v")
    child.expect("Volba")
    child.sendline("p")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    start = child.before.index("{")
    result = json.loads(child.before[start:].replace("\r\n", "\n"))
    assert [(e["vs"], e["cost"]) for e in result["steps"][0]["exhaustions"]] == [("stary", 3)]
    assert normalised(result)["final"]["hanus"]["ohrozeni"] == 4


def test_undo_and_redo_in_a_terminal(tmp_path):
    """Issue #15: a wrong die typed, undone with z, the right one typed; a decision undone and redone
    with r. The replay holds the corrected game only."""
    (tmp_path / "hanus.yaml").write_text(SKELETON, encoding="utf-8")
    child = spawn("play", "hanus.yaml", "--seed", "5", cwd=tmp_path)
    child.expect_exact(ROLL)
    child.sendline("4 3")
    child.expect_exact("(z = zpět, ? = proč) Kostky, součet, nebo " + ROLL)
    child.sendline("6 5")                                   # wrong: the eldest ogre rolled 6 6
    child.expect_exact(ROLL)
    child.sendline("z")
    child.expect_exact("↶ vráceno: 6 5")
    child.expect("Nejstarší zlobr hází")
    child.expect_exact("(z = zpět, r = znovu, ? = proč) Kostky, součet, nebo " + ROLL)
    for line in BOOK_INPUT[1:4]:
        child.sendline(line)
        if line != BOOK_INPUT[3]:
            child.expect_exact(ROLL)
    child.expect_exact("Volba [p/v/j/o, Enter = p]: ")
    child.sendline("v")
    child.expect_exact("Volba [p/j/o, Enter = p]: ")       # 1 Tělo left: only a Jizva or the staff
    child.sendline("z")
    child.expect_exact("↶ vráceno: vyčerpat se")
    child.expect_exact("(z = zpět, r = znovu, ? = proč) Volba [p/v/j/o, Enter = p]: ")
    child.sendline("r")
    child.expect_exact("↷ znovu: vyčerpat se")
    child.expect_exact("Volba [p/j/o, Enter = p]: ")
    child.sendline("p")
    child.expect("Záznam hry: hanus.replay.yaml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = (tmp_path / "hanus.replay.yaml").read_text(encoding="utf-8")
    assert "[6, 5]" not in text and "dice: [6, 6]" in text
    assert "hanus: {stary: exhaust, prostredni: accept}" in text


def test_why_at_the_exhaustion_decision_in_a_terminal(tmp_path):
    """Issue #15, done when: `?` at the second exhaustion decision says why it costs 4 after 3 —
    the first cost its Ohrožení 3 (R-EXH-1), which it raised to 4 (R-EXH-2, CS-SEQ-1)."""
    (tmp_path / "hanus.yaml").write_text(SKELETON, encoding="utf-8")
    child = spawn("play", "hanus.yaml", "--seed", "5", cwd=tmp_path)
    child.expect_exact(ROLL)
    child.sendline("?")
    child.expect_exact("Napište hozené kostky (4 3), součet i s bonusem (5–15), nebo jen Enter")
    for line in BOOK_INPUT[:4]:
        child.expect_exact(ROLL)
        child.sendline(line)
    child.expect_exact("Volba [p/v/j/o, Enter = p]: ")
    child.sendline("?")
    child.expect_exact("[v] by bylo:")
    child.expect_exact("cena = Ohrožení 3 (R-EXH-1)")
    child.expect_exact("Volba [p/v/j/o, Enter = p]: ")
    child.sendline("v")
    child.expect_exact("Volba [p/j/o, Enter = p]: ")
    child.sendline("?")
    child.expect_exact("vyčerpat se: nemá dost: stojí 4 Tělo, má 1, chybí 3 [R-EXH-4]")
    expect_wrapped(child, "Ohrožení je už 4: zvýšilo ho dřívější vyčerpání v tomto kroku (proti: Nejstarší "
                          "zlobr; CS-SEQ-1)")
    child.expect_exact("Volba [p/j/o, Enter = p]: ")
    child.sendline("p")
    child.expect("Záznam hry")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_resolve_choose_ask_undoes_an_answer(tmp_path):
    """`--choose ask`: `z` undoes the exhaustion chosen at the first decision; accepted instead, the
    result has no exhaustion (the dice are the file's either way)."""
    text = SKELETON.replace("bonus_from: carodej,", "bonus_from: carodej, roll: 10,") \
        .replace("effect: {condition: chycen}}\n            - {actor: prostredni",
                 "effect: {condition: chycen}, roll: 12}\n            - {actor: prostredni") \
        .replace("effect: {condition: chycen}}\n            - {actor: mladsi",
                 "effect: {condition: chycen}, roll: 11}\n            - {actor: mladsi") \
        .replace("effect: {jizva: Zasažen lavicí}}", "effect: {jizva: Zasažen lavicí}, roll: 7}")
    (tmp_path / "given.yaml").write_text(text, encoding="utf-8")
    child = spawn("resolve", "given.yaml", "--choose", "ask", "--json", cwd=tmp_path)
    child.expect_exact("Volba [p/v/j/o, Enter = p]: ")
    child.sendline("v")
    child.expect_exact("(z = zpět, ? = proč) Volba")
    child.sendline("z")
    child.expect_exact("↶ vráceno: vyčerpat se")
    child.expect_exact("Volba [p/v/j/o, Enter = p]: ")
    child.sendline("p")
    child.expect("Volba")
    child.sendline("p")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    result = json.loads(child.before[child.before.index("{"):].replace("\r\n", "\n"))
    assert result["steps"][0]["exhaustions"] == []


def test_done_when_of_issue_15_in_a_terminal(tmp_path):
    """The GM plays the Hanuš escape: a wrong die undone, `?` at both exhaustion decisions (3 = its
    Ohrožení, then 4 after CS-SEQ-1), `--view player` at the end; the players' transcript saved from
    the replay verifies against the GM's file, with the same footer as the one shown at the table."""
    import re
    import subprocess

    secret = SKELETON.replace("sudba: 8,  ohrozeni: 2}", "sudba: 8,  ohrozeni: 2, secret: true}")
    (tmp_path / "hanus.yaml").write_text(secret, encoding="utf-8")
    child = spawn("play", "hanus.yaml", "--seed", "5", "--view", "player", cwd=tmp_path)
    child.expect_exact(ROLL)
    child.sendline("4 3")
    child.expect_exact(ROLL)
    child.sendline("6 5")
    child.expect_exact(ROLL)
    child.sendline("z")
    child.expect_exact("↶ vráceno: 6 5")
    for line in BOOK_INPUT[1:4]:
        child.expect_exact(ROLL)
        child.sendline(line)
    child.expect_exact("Volba [p/v/j/o, Enter = p]: ")
    child.sendline("?")
    child.expect_exact("cena = Ohrožení 3 (R-EXH-1)")
    child.expect_exact("Volba [p/v/j/o, Enter = p]: ")
    for line in BOOK_INPUT[4:7]:
        child.sendline(line)
    child.expect_exact("Volba [p/v/j/o, Enter = p]: ")
    child.sendline("?")
    expect_wrapped(child, "Ohrožení je už 4: zvýšilo ho dřívější vyčerpání v tomto kroku (proti: Nejstarší "
                          "zlobr; CS-SEQ-1)")
    child.expect_exact("cena = Ohrožení 4 (R-EXH-1)")
    child.expect_exact("Volba [p/v/j/o, Enter = p]: ")
    child.sendline("v")
    child.expect_exact("Nejmladší zlobr")                   # the players' transcript at the end:
    child.expect_exact("Sudba ?")                           # the secret ogre's Sudba hidden
    child.expect(r"sha256:[0-9a-f]{64}")
    shown = child.after
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    subprocess.run([DRD, "resolve", "hanus.replay.yaml", "--view", "player", "-o", "hraci.md"], cwd=tmp_path,
                   check=True, capture_output=True)
    players = (tmp_path / "hraci.md").read_text(encoding="utf-8")
    assert "Sudba ?" in players and re.search(r"sha256:[0-9a-f]{64}", players).group(0) == shown
    ok = subprocess.run([DRD, "resolve", "hanus.replay.yaml", "--verify", "hraci.md"], cwd=tmp_path,
                        capture_output=True, text=True)
    assert ok.returncode == 0 and "ok:" in ok.stdout
