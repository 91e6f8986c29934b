"""Undo and redo in `drd play` (issue #15 item 1): `z`/`u` undoes the last roll or answer entered,
`r` redoes it, several in a row, across steps and rounds. The state after an undo is the engine's
own (the scenario is resolved again from what is kept), and the replay never holds undone entries."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from drd_cli.cli.app import app

from tests.play.test_play import BOOK_INPUT, normalised, play, resolve_json, write

runner = CliRunner()


def result_of(res) -> dict:
    assert res.exit_code == 0, res.output
    return normalised(json.loads(res.stdout))


def test_a_wrong_die_undone_gives_the_game_without_it(tmp_path):
    """The GM types 6 5 for the eldest ogre, undoes it and types 6 6: the game is the book's (CS-SEQ-1
    costs 3 then 4), and the replay holds 6 6 only."""
    path = write(tmp_path)
    res = play(path, ["4 3", "6 5", "z", *BOOK_INPUT[1:]], "--json")
    undone = result_of(res)
    assert "↶ vráceno: 6 5" in res.output
    assert [e["cost"] for e in undone["steps"][0]["exhaustions"]] == [3, 4]
    direct = result_of(play(write(tmp_path, name="b.yaml"), BOOK_INPUT, "--json"))
    assert undone == direct
    text = (tmp_path / "hanus.replay.yaml").read_text(encoding="utf-8")
    assert "[6, 5]" not in text and "dice: [6, 6]" in text
    assert normalised(resolve_json(tmp_path / "hanus.replay.yaml")) == undone


def test_several_undos_go_back_across_a_decision_and_redo_restores(tmp_path):
    """Undo the exhaustion and the last roll, then redo both: the same game as typing it straight."""
    path = write(tmp_path)
    lines = BOOK_INPUT[:4] + ["v", "u", "u", "r", "r"] + ["p"]
    res = play(path, lines, "--json")
    assert "↶ vráceno: vyčerpat se" in res.output and "↶ vráceno: 4 3" in res.output
    assert "↷ znovu: 4 3" in res.output and "↷ znovu: vyčerpat se" in res.output
    direct = result_of(play(write(tmp_path, name="b.yaml"), BOOK_INPUT[:4] + ["v", "p"], "--json"))
    assert result_of(res) == direct


def test_entering_something_else_drops_what_was_kept_for_redo(tmp_path):
    path = write(tmp_path)
    res = play(path, ["4 3", "6 6", "z", "5 5", "r", *BOOK_INPUT[2:4], "p", "p"], "--json")
    assert "nic k zopakování" in res.output          # 6 6 was replaced by 5 5: nothing to redo
    assert json.loads(res.stdout)["steps"][0]["rolls"]["stary"]["dice"] == [5, 5]


def test_nothing_to_undo_at_the_first_question(tmp_path):
    path = write(tmp_path)
    res = play(path, ["z", *BOOK_INPUT], "--json")
    assert "nic k vrácení" in res.output
    assert result_of(res) == result_of(play(write(tmp_path, name="b.yaml"), BOOK_INPUT, "--json"))


def test_the_prompt_hint_names_undo_and_redo_in_both_languages(tmp_path):
    path = write(tmp_path)
    res = play(path, ["4 3", "z", *BOOK_INPUT])
    assert "  (? = proč) Kostky, součet, nebo Enter (hodí drd): " in res.output
    assert "  (z = zpět, ? = proč) Kostky, součet, nebo Enter (hodí drd): " in res.output
    assert "  (r = znovu, ? = proč) Kostky" in res.output          # back at the first question: only redo
    res = play(path, ["4 3", "z", *BOOK_INPUT], "--lang", "en")
    assert "  (z = undo, ? = why) Dice, a total, or Enter (drd rolls): " in res.output
    assert "  (r = redo, ? = why) Dice" in res.output and "↶ undone: 4 3" in res.output


TWO_ROUNDS = """\
format: drd/1
participants:
  jarik: {name: Jarik, pools: {telo: 5, duse: 4, vliv: 3}, ohrozeni: 1, levels: {lovec: 2}}
rounds:
  - steps:
      - id: splh
        test: {actor: jarik, label: šplh, bonus_from: lovec, failure: {jizva: Pád}}
  - steps:
      - id: skok
        test: {actor: jarik, label: skok, bonus_from: lovec, failure: {condition: zraněn}}
"""


def test_undo_across_steps_and_rounds_restores_pools_and_ohrozeni(tmp_path):
    """R-EXH-1: exhausting in round 1 costs 1 Tělo and raises Ohrožení to 2; undone from round 2's
    roll, the failure is accepted instead — Tělo, Ohrožení and the Jizva are as if it never was."""
    path = write(tmp_path, TWO_ROUNDS, "dva.yaml")
    res = play(path, ["2 1", "v", "1 1", "z", "z", "p", "1 1", "p"], "--json")
    undone = result_of(res)
    direct = result_of(play(write(tmp_path, TWO_ROUNDS, "b.yaml"), ["2 1", "p", "1 1", "p"], "--json"))
    assert undone == direct
    assert undone["final"]["jarik"]["telo"] == 5 and undone["final"]["jarik"]["jizvy"] == ["Pád"]
    assert "── šplh · kolo 1 · zkouška ──" in res.output.split("↶ vráceno: vyčerpat se")[1]


def test_the_replay_written_on_eof_never_holds_undone_entries(tmp_path):
    """Input ending mid-game after an undo: exit 130, the replay holds what is kept, not what was undone."""
    path = write(tmp_path)
    res = play(path, ["4 3", "6 5", "z"])
    assert res.exit_code == 130
    text = (tmp_path / "hanus.replay.yaml").read_text(encoding="utf-8")
    assert "dice: [4, 3]" in text and "[6, 5]" not in text
    res = runner.invoke(app, ["play", str(tmp_path / "hanus.replay.yaml"), "--json"],
                        input="\n".join(BOOK_INPUT[1:]) + "\n")
    assert result_of(res)["final"] == result_of(play(write(tmp_path, name="b.yaml"), BOOK_INPUT, "--json"))["final"]


DICE = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(lambda d: f"{d[0]} {d[1]}")


@settings(max_examples=12, deadline=None)
@given(st.lists(st.one_of(DICE, st.just("z"), st.just("r")), min_size=1, max_size=12))
def test_any_mix_of_rolls_undos_and_redos_plays_the_rolls_kept(tmp_path_factory, ops):
    """Invariant: whatever is undone and redone, the game is the one of the rolls that remain — the
    stack of entries (undo pops onto the redo list, redo pushes back, a new entry clears it)."""
    tmp = tmp_path_factory.mktemp("undo")
    kept: list[str] = []
    redo: list[str] = []
    typed: list[str] = []
    for op in ops:
        if len(kept) == 4:
            break
        typed.append(op)
        if op == "z":
            if kept:
                redo.append(kept.pop())
        elif op == "r":
            if redo:
                kept.append(redo.pop())
        else:
            if redo and redo[-1] == op:
                redo.pop()
            else:
                redo.clear()
            kept.append(op)
    rest = ["4 3"] * (4 - len(kept))
    decisions = [""] * 8                          # Enter accepts every decision
    undone = play(write(tmp), typed + rest + decisions, "--json")
    direct = play(write(tmp, name="b.yaml"), kept + rest + decisions, "--json")
    assert result_of(undone) == result_of(direct)


def _played_replay(tmp_path, lines=BOOK_INPUT, text=None):
    path = write(tmp_path) if text is None else write(tmp_path, text, "hanus.yaml")
    assert play(path, lines).exit_code == 0
    return tmp_path / "hanus.replay.yaml"


def test_from_step_resumes_with_the_later_entries_kept_for_redo(tmp_path):
    """`drd play REPLAY --from STEP`: the step's rolls and answers are offered for redo; redoing all
    of them gives the game the replay holds, and the rewritten replay resolves to it."""
    replay = _played_replay(tmp_path)
    before = normalised(resolve_json(replay))
    res = runner.invoke(app, ["play", str(replay), "--from", "utek", "--json"], input="r\n" * 12)
    assert "od kroku utek: 6 dalších záznamů replaye čeká na znovu (r)" in res.output
    assert "↷ znovu: 4 3" in res.output and "↷ znovu: vyčerpat se a vzít Jizvu" in res.output
    assert result_of(res) == before
    assert normalised(resolve_json(replay)) == before


def test_from_step_entering_something_different_drops_the_rest(tmp_path):
    """The eldest ogre's 6 6 is replaced by 2 2: Hanuš (10) now beats him, nothing later is redone,
    and the replay holds the new game only."""
    replay = _played_replay(tmp_path)
    res = runner.invoke(app, ["play", str(replay), "--from", "utek", "--json"],
                        input="r\n2 2\nr\n11\n4 3\nv\n")
    assert "nic k zopakování" in res.output
    game = result_of(res)
    assert game["steps"][0]["rolls"]["stary"]["dice"] == [2, 2]
    assert [(e["vs"], e["cost"]) for e in game["steps"][0]["exhaustions"]] == [("prostredni", 3)]
    text = replay.read_text(encoding="utf-8")
    assert "[6, 6]" not in text and "Pád z výšky" not in text
    assert normalised(resolve_json(replay)) == game



def test_from_a_later_step_keeps_the_earlier_steps_as_given(tmp_path):
    path = write(tmp_path, TWO_ROUNDS, "dva.yaml")
    assert play(path, ["2 1", "v", "1 1", "p"]).exit_code == 0
    replay = tmp_path / "dva.replay.yaml"
    res = runner.invoke(app, ["play", str(replay), "--from", "skok", "--json"], input="6 6\n")
    game = result_of(res)
    assert "hází šplh" not in res.output.split("{")[0]           # step 1 is not asked again
    assert game["steps"][0]["rolls"]["jarik"]["dice"] == [2, 1]
    assert game["steps"][1]["actions"]["jarik"]["success"] is True
    assert game["final"]["jarik"]["ohrozeni"] == 2                # the exhaustion of step 1 stays (R-EXH-1)


def test_from_an_unknown_step_is_exit_2_naming_the_steps(tmp_path):
    replay = _played_replay(tmp_path)
    res = runner.invoke(app, ["play", str(replay), "--from", "nikde"], input="")
    assert res.exit_code == 2
    assert "--from nikde" in res.output and "utek" in res.output and "Traceback" not in res.output


def test_from_step_typing_what_was_kept_keeps_the_rest_for_redo(tmp_path):
    """Typing the same roll or the same answer (a Jizva with its name and points) as the one kept
    for redo is not "something different": the later entries stay and `r` takes them."""
    replay = _played_replay(tmp_path)
    before = normalised(resolve_json(replay))
    res = runner.invoke(app, ["play", str(replay), "--from", "utek", "--json"],
                        input="4 3\nr\nr\nr\nj\nPád z výšky\n3\nr\n")
    assert "nic k zopakování" not in res.output
    assert result_of(res) == before


TIE_TWO = """\
format: drd/1
rules: {params: {tie: reroll}}
participants:
  a: {sudba: 5, ohrozeni: 1}
  b: {sudba: 5, ohrozeni: 1}
rounds:
  - steps:
      - id: pretah
        contest:
          action: {actor: a, label: přetlačování, effect: {ohrozeni: 1}}
          counters: [{actor: b, kind: harm, effect: {ohrozeni: 1}}]
  - steps:
      - id: druhy
        contest:
          action: {actor: b, label: přetlačování, effect: {ohrozeni: 1}}
          counters: [{actor: a, kind: harm, effect: {ohrozeni: 1}}]
"""


def test_from_step_keeps_the_extra_dice_of_earlier_steps(tmp_path):
    """R-CONT `tie: reroll`: rerolls live in `extra_dice`, in order; `--from druhy` keeps step 1's
    (6 6, 1 1) as given and offers step 2's (2 2, 3 3) for redo."""
    path = write(tmp_path, TIE_TWO, "tie.yaml")
    assert play(path, ["7", "7", "6 6", "1 1", "p", "5", "5", "2 2", "3 3", "p"]).exit_code == 0
    replay = tmp_path / "tie.replay.yaml"
    assert "extra_dice: [6, 6, 1, 1, 2, 2, 3, 3]" in replay.read_text(encoding="utf-8")
    before = normalised(resolve_json(replay))
    res = runner.invoke(app, ["play", str(replay), "--from", "druhy", "--json"], input="r\n" * 6)
    assert "↷ znovu: 2 2" in res.output and "přetlačování" in res.output
    assert result_of(res) == before
    assert "extra_dice: [6, 6, 1, 1, 2, 2, 3, 3]" in replay.read_text(encoding="utf-8")
