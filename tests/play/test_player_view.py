"""A player's view (issue #15 item 4): `secret: true` on participants and steps; `drd resolve --view
player` prints secret values as "?" and secret steps as a one-line note (text, md, html); the
footer digest is the full result's, so the GM can `--verify` the players' transcript."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from drd_cli.api import load_scenario, resolve_scenario
from drd_cli.cli.app import app
from drd_cli.render.view import HIDDEN, player_view

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]

# The book's escape of Hanuš, who outrolls both ogres here; the youngest one is the GM's secret (its
# Sudba 8 and Ohrožení 2), loses and exhausts (R-EXH-1: cost = its Ohrožení 2); a round nobody sees.
SECRET = """\
format: drd/1
title: Hanuš a tajný zlobr
seed: 7
participants:
  hanus: {name: Mistr Hanuš, side: vesnice, pools: {telo: 4, duse: 9, vliv: 5}, ohrozeni: 3,
          levels: {carodej: 3}, equipment: [hůl]}
  stary: {name: Nejstarší zlobr, side: zlobři, sudba: 12, ohrozeni: 2}
  mladsi: {name: Nejmladší zlobr, side: zlobři, sudba: 8, ohrozeni: 2, secret: true}
rounds:
  - initiative: [hanus, stary, mladsi]
    steps:
      - id: utek
        contest:
          action: {actor: hanus, label: útěk, pool: telo, bonus_from: carodej, roll: 10,
                   self_effect: {condition: mimo konflikt}}
          counters:
            - {actor: stary, kind: harm, pool: telo, effect: {condition: chycen}, roll: 9}
            - {actor: mladsi, kind: harm, pool: telo, effect: {jizva: Zasažen lavicí}, roll: 7}
        choices: {stary: accept, mladsi: exhaust}
  - steps:
      - id: past
        secret: true
        test: {actor: stary, label: chystá past, roll: 11}
"""


def write(tmp_path: Path, text: str = SECRET, name: str = "tajne.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str):
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def test_secret_is_a_scenario_key_with_a_czech_spelling_and_in_the_schema(tmp_path):
    loaded = load_scenario(str(write(tmp_path, SECRET.replace("secret: true}", "tajné: true}"))))
    assert loaded.scenario.participants["mladsi"].secret is True
    assert loaded.scenario.rounds[1].steps[0].secret is True
    assert loaded.scenario.participants["hanus"].secret is False
    schema = json.loads(run("schema"))
    text = json.dumps(schema)
    assert '"secret"' in text
    bad = runner.invoke(app, ["resolve", str(write(tmp_path, SECRET.replace("secret: true}", "secret: ano}"),
                                                   "bad.yaml"))])
    assert bad.exit_code == 2 and "bad.yaml:" in bad.output and "Traceback" not in bad.output


def test_player_view_text_hides_the_secret_numbers_and_the_secret_step(tmp_path):
    path = write(tmp_path)
    gm = run("resolve", str(path), "--lang", "cs")
    player = run("resolve", str(path), "--view", "player")
    # the GM sees everything: the ogre pays 2 Sudba (its Ohrožení 2, R-EXH-1), 8 → 6; the secret round
    assert "Nejmladší zlobr se vyčerpává (proti: Mistr Hanuš): 2 Sudba, Ohrožení 2→3" in gm
    assert "Sudba 6" in gm and "chystá past · kolo 2" in gm
    # the players: that exhaustion's cost and Ohrožení, and the final Sudba/Ohrožení, are "?"
    assert "Nejmladší zlobr se vyčerpává (proti: Mistr Hanuš): ? Sudba, Ohrožení ?→?" in player
    assert "Sudba ?" in player and "Sudba 6" not in player and "2→3" not in player
    assert "Nejstarší zlobr" in player and "Sudba 12" in player          # not secret: shown
    assert "Mistr Hanuš           10" in player                          # rolls outside hiding: public
    # the secret round: one line, nothing of it
    assert "Kolo 2" in player and "Něco se stalo, co hráči nevidí." in player
    assert "past" not in player and "zkouška" not in player
    # the same footer: the digest is the full transcript's
    foot = [line for line in gm.splitlines() if "sha256:" in line]
    assert foot and foot[-1].strip() in player


def test_the_gm_verifies_the_players_transcript(tmp_path):
    """Done when of #15: the players' transcript's footer verifies against the GM's file."""
    path = write(tmp_path)
    shown = tmp_path / "hraci.md"
    res = runner.invoke(app, ["resolve", str(path), "--view", "player", "-o", str(shown)])
    assert res.exit_code == 0, res.output
    text = shown.read_text(encoding="utf-8")
    assert "Něco se stalo" in text and "Sudba ?" in text
    ok = runner.invoke(app, ["resolve", str(path), "--verify", str(shown)])
    assert ok.exit_code == 0, ok.output
    changed = write(tmp_path, SECRET.replace("roll: 11}", "roll: 12}"), "jine.yaml")
    assert runner.invoke(app, ["resolve", str(changed), "--verify", str(shown)]).exit_code == 1


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_player_view_in_markdown_and_html(tmp_path, fmt):
    path = write(tmp_path)
    out = run("resolve", str(path), "--view", "player", "--format", fmt)
    assert "Něco se stalo, co hráči nevidí" in out
    assert "zkouška" not in out and "Krok past" not in out and "chystá past" not in out
    assert "Sudba ?" in out
    full = run("resolve", str(path), "--format", fmt)
    assert "Sudba 6" in full and "zkouška" in full


def test_view_player_with_json_is_a_usage_error(tmp_path):
    res = runner.invoke(app, ["resolve", str(write(tmp_path)), "--view", "player", "--json"])
    assert res.exit_code == 2 and "--view player" in res.output


def test_a_hidden_deceiveds_roll_in_a_hide_step_is_a_question_mark(tmp_path):
    """CS-HIDE-2 (S3): the guards' roll 8 tells Zlatka how close she came; marked secret it is "?",
    in the roll table and in the log, and their Sudba/Ohrožení too — the outcome stays visible."""
    text = (ROOT / "scenarios" / "zlatka-kuchyne.yaml").read_text(encoding="utf-8")
    text = text.replace("    count: 2\n", "    count: 2\n    secret: true\n")
    path = write(tmp_path, text, "kuchyne.yaml")
    result = resolve_scenario(load_scenario(str(path)))
    view = player_view(result, load_scenario(str(path)).scenario)
    step = view["steps"][0]
    assert step["rolls"]["strazni"]["total"] == HIDDEN and step["rolls"]["zlatka"]["total"] == 11
    assert step["hide"]["revealed"] is False
    assert all("8" not in e["text"] for e in step["log"])
    assert view["final"]["strazni"]["sudba"] == HIDDEN and view["final"]["zlatka"]["ohrozeni"] == 2
    out = run("resolve", str(path), "--view", "player")
    assert "8" not in out.split("Hod")[1].split("Stav na konci")[0].replace("Špiónka", "")  # no 8 shown


@settings(max_examples=30, deadline=None)
@given(st.sets(st.sampled_from(["hanus", "stary", "mladsi"])), st.booleans())
def test_the_view_never_changes_what_is_not_secret_nor_the_digest(tmp_path_factory, secret, step_secret):
    """Invariant: whatever is marked, the digest, the non-secret participants' final state and the
    number of steps are the full result's; every marked participant's final Ohrožení is "?"."""
    text = SECRET.replace(", secret: true}", "}").replace("        secret: true\n", "")
    for pid in secret:
        text = text.replace(f"  {pid}: {{", f"  {pid}: {{secret: true, ")
    if step_secret:
        text = text.replace("      - id: utek\n", "      - id: utek\n        secret: true\n")
    path = write(tmp_path_factory.mktemp("view"), text)
    loaded = load_scenario(str(path))
    result = resolve_scenario(loaded)
    result["digest"] = "sha256:x"
    before = copy.deepcopy(result)
    view = player_view(result, loaded.scenario)
    assert view["digest"] == result["digest"] and len(view["steps"]) == len(result["steps"])
    for pid, state in result["final"].items():
        if pid in secret:
            assert view["final"][pid]["ohrozeni"] == HIDDEN
        else:
            assert view["final"][pid] == state
    assert (view["steps"][0].get("secret") is True) == step_secret
    assert result == before                                  # the full result itself is untouched


def test_play_view_player_prints_the_players_transcript_that_verifies(tmp_path):
    """`drd play --view player`: at the end the players' transcript; its footer is the replay's, so
    `drd resolve REPLAY --verify` of the saved players' transcript says ok."""
    from tests.play.test_play import BOOK_INPUT, SKELETON

    text = SKELETON.replace("sudba: 8,  ohrozeni: 2}", "sudba: 8,  ohrozeni: 2, secret: true}")
    path = write(tmp_path, text, "hanus.yaml")
    res = runner.invoke(app, ["play", str(path), "--seed", "5", "--view", "player"],
                        input="\n".join(BOOK_INPUT) + "\n")
    assert res.exit_code == 0, res.output
    transcript = res.stdout.split("Hanuš prchá zlobrům (kostra)\n")[-1]
    assert "Sudba ?" in transcript and "Sudba 8" not in transcript
    foot = next(line for line in transcript.splitlines() if "sha256:" in line)
    shown = tmp_path / "hraci.txt"
    shown.write_text(transcript, encoding="utf-8")
    ok = runner.invoke(app, ["resolve", str(tmp_path / "hanus.replay.yaml"), "--verify", str(shown)])
    assert ok.exit_code == 0, ok.output
    assert foot.split("·")[1].strip() in ok.stdout
    assert runner.invoke(app, ["play", str(path), "--view", "player", "--json"], input="").exit_code == 2
