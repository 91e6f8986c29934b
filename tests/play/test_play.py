"""`drd play` through CliRunner with scripted input, and the replay it writes (issue #6 item 1).

The skeleton is the book's Hanuš escape (CS-SEQ-1, R-EXH-1, R-EXH-4) without rolls and choices:
whatever is typed at the table must give what `drd resolve` gives for the same dice and answers,
and the replay file must reproduce it exactly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.play import parse_roll

runner = CliRunner()

SKELETON = """\
format: drd/1
title: Hanuš prchá zlobrům (kostra)
# Komentář, který má replay zachovat.
participants:
  hanus:
    name: Mistr Hanuš
    side: vesnice
    pools: {telo: 4, duse: 9, vliv: 5}
    ohrozeni: 3
    levels: {carodej: 3}
    equipment: [hůl]
  stary:      {name: Nejstarší zlobr,  side: zlobři, sudba: 12, ohrozeni: 2}
  prostredni: {name: Prostřední zlobr, side: zlobři, sudba: 6,  ohrozeni: 4}
  mladsi:     {name: Nejmladší zlobr,  side: zlobři, sudba: 8,  ohrozeni: 2}
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


def write(tmp_path: Path, text: str = SKELETON, name: str = "hanus.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def play(path: Path, lines: list[str], *args: str):
    # Wide: play wraps its lines to COLUMNS (pytest-xdist's workers say 80), these tests read whole lines.
    return runner.invoke(app, ["play", str(path), "--seed", "5", *args], input="\n".join(lines) + "\n",
                         env={"COLUMNS": "250"})


def normalised(result: dict) -> dict:
    """The result without what differs by design between the table and the replay: where each
    roll came from (entered/seeded at the table, given in the replay), the seed (the replay gives
    every die, so its result has `seed: null`) and the digest of the file."""
    out = json.loads(json.dumps(result))
    out.pop("digest", None)
    out.pop("seed", None)
    for step in out["steps"]:
        for roll in step["rolls"].values():
            roll["source"] = "*"
        for pair in step.get("pairs", []):
            for reroll in pair.get("rerolls", []):
                for side in reroll.values():
                    side["source"] = "*"
        for entry in step["log"]:
            entry["text"] = re.sub(r"\((entered|seeded|given)\)", "(*)", entry["text"])
    return out


def resolve_json(path: Path, *args: str) -> dict:
    res = runner.invoke(app, ["resolve", str(path), "--json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


# Hanuš 4 3 (+3 = 10), the eldest 6 6 = 12, the middle one a total of 11, the youngest 4 3 = 7;
# against the eldest Hanuš takes the Jizva (3 Tělo), against the middle one he pays 4 Tělo.
BOOK_INPUT = ["4 3", "6 6", "11", "4 3", "j", "Pád z výšky", "3", "v"]


def test_good_path_matches_the_book_and_the_replay_reproduces_it(tmp_path):
    """CS-SEQ-1 / R-EXH-1: the second exhaustion costs the raised Ohrožení (3, then 4); R-EXH-4 Jizva."""
    path = write(tmp_path)
    res = play(path, BOOK_INPUT, "--json")
    assert res.exit_code == 0, res.output
    result = json.loads(res.stdout)
    step = result["steps"][0]
    assert {k: v["total"] for k, v in step["rolls"].items()} == {"hanus": 10, "stary": 12, "prostredni": 11,
                                                                  "mladsi": 7}
    assert step["rolls"]["hanus"] == {"total": 10, "dice": [4, 3], "bonus": 3, "source": "entered", "modifiers": []}
    assert step["rolls"]["prostredni"]["dice"] is None          # a total was typed
    assert [(e["vs"], e["cost"], e["ohrozeni"]) for e in step["exhaustions"]] == [
        ("stary", 3, [3, 4]), ("prostredni", 4, [4, 5])]
    assert result["final"]["hanus"]["telo"] == 0 and result["final"]["hanus"]["jizvy"] == ["Pád z výšky"]
    replay = tmp_path / "hanus.replay.yaml"
    text = replay.read_text(encoding="utf-8")
    assert "# Komentář, který má replay zachovat." in text         # ruamel round trip keeps comments
    assert "dice: [4, 3]" in text and "roll: 11" in text
    assert normalised(resolve_json(replay)) == normalised(result)


def test_offer_shows_exact_cost_ohrozeni_after_and_whom_it_protects(tmp_path):
    """R-EXH-1: cost = Ohrožení (3 Tělo, 3→4), protects Hanuš; the answer is asked again when invalid."""
    path = write(tmp_path)
    res = play(path, ["4 3", "6 6", "11", "4 3", "x", "v", "p"])
    assert res.exit_code == 0, res.output
    assert "[v] vyčerpat se (R-EXH): 3 Tělo, Ohrožení 3→4; chrání: Mistr Hanuš" in res.output
    assert "[o] vyčerpat se a obětovat předmět (R-EXH-4): hůl" in res.output
    assert "✗ napište jedno z: p/v/j/o" in res.output
    # after exhausting once the next costs the raised Ohrožení, 4 (CS-SEQ-1); Hanuš has 1 Tělo left,
    # so plain exhausting is not offered, only with a Jizva or a sacrifice (R-EXH-4)
    assert "vyčerpat se: nemá dost: stojí 4 Tělo, má 1, chybí 3 [R-EXH-4]" in res.output
    assert "Volba [p/j/o, Enter = p]" in res.output


def test_enter_at_a_decision_accepts(tmp_path):
    """SCENARIO-FORMAT §5: a missing answer is `accept`; at the table Enter gives the same answer."""
    path = write(tmp_path)
    typed = play(path, ["4 3", "6 6", "11", "4 3", "p", "p"], "--json")
    entered = play(path, ["4 3", "6 6", "11", "4 3", "", ""], "--json")
    assert typed.exit_code == entered.exit_code == 0, entered.output
    assert "✗ napište jedno z" not in entered.output
    assert json.loads(entered.stdout)["final"] == json.loads(typed.stdout)["final"]
    assert json.loads(entered.stdout)["steps"][0]["exhaustions"] == []


def test_typing_mistakes_are_asked_again_never_a_crash(tmp_path):
    path = write(tmp_path)
    lines = ["43x", "7 7", "1 2 3", "16", "4 3", "13", "6 6", "11", "4 3", "p", "p"]
    res = play(path, lines, "--json")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "nerozumím „43x“" in out
    assert "kostka ukazuje 1 až 6, ne 7" in out
    assert "hází se 2 kostky, zadáno 3" in out
    assert "16 nejde hodit: součet s bonusem +3 je 5–15" in out          # Hanuš +3: 5..15
    assert "13 nejde hodit: součet s bonusem +0 je 2–12" in out          # an ogre without bonus
    assert "Traceback" not in out
    assert json.loads(res.stdout)["steps"][0]["rolls"]["stary"]["total"] == 12


def test_enter_rolls_from_the_seed_reproducibly(tmp_path):
    """R-ROLL-2: Enter lets drd roll; the same --seed gives the same dice, and the replay keeps them."""
    path = write(tmp_path)
    first = play(path, ["", "", "", "", "p", "p", "p", "p"], "--json", "--replay", str(tmp_path / "a.yaml"))
    second = play(path, ["", "", "", "", "p", "p", "p", "p"], "--json", "--replay", str(tmp_path / "b.yaml"))
    assert first.exit_code == 0 and second.exit_code == 0, first.output
    r1, r2 = json.loads(first.stdout), json.loads(second.stdout)
    assert r1["steps"][0]["rolls"] == r2["steps"][0]["rolls"]
    assert all(r["source"] == "seeded" for r in r1["steps"][0]["rolls"].values())
    assert normalised(resolve_json(tmp_path / "a.yaml")) == normalised(r1)


def test_odds_are_shown_before_each_roll(tmp_path):
    """R-CONT: Hanuš +3 against an ogre +0, tie to the actor: P(win) = 545/648 exactly."""
    from fractions import Fraction

    from drd_cli.odds import contest_odds

    assert contest_odds(3, 0, tie="actor")["win"] == Fraction(545, 648)
    path = write(tmp_path)
    res = play(path, BOOK_INPUT)
    assert "soupeř Nejstarší zlobr (+0): výhra 545/648 = 84,1 %" in res.output
    # the counter rolls against Hanuš's known 10: P(2k6 > 10) = 3/36 = 1/12
    assert "soupeř Mistr Hanuš (hod 10): výhra 1/12 = 8,3 %" in res.output


def test_test_step_shows_p_success_and_offers_exhaustion(tmp_path):
    """R-TEST: a test against 9 with bonus +2: P(≥ 9) = 21/36 = 7/12; below 9 exhausting costs Ohrožení."""
    text = """\
format: drd/1
participants:
  jarik: {pools: {telo: 5, duse: 4, vliv: 3}, ohrozeni: 1, levels: {lovec: 2}}
rounds:
  - steps:
      - id: splh
        test: {actor: jarik, label: šplh, bonus_from: lovec, failure: {jizva: Pád}}
"""
    path = write(tmp_path, text, "splh.yaml")
    res = play(path, ["2 1", "v"], "--json")
    assert res.exit_code == 0, res.output
    assert "úspěch (≥ 9): 7/12 = 58,3 %" in res.output
    assert "1 Tělo, Ohrožení 1→2; chrání: jarik" in res.output
    result = json.loads(res.stdout)
    assert result["steps"][0]["actions"]["jarik"]["success"] is True
    replay = tmp_path / "splh.replay.yaml"
    assert "choices:" in replay.read_text(encoding="utf-8")
    assert normalised(resolve_json(replay)) == normalised(result)


def test_eof_mid_game_writes_a_complete_replay_of_what_was_entered(tmp_path):
    """Input ending mid-game: exit 130, and the replay (valid YAML, a valid scenario) holds the rolls
    entered so far; playing it again asks only for the rest."""
    path = write(tmp_path)
    res = play(path, ["4 3", "6 6"])
    assert res.exit_code == 130
    replay = tmp_path / "hanus.replay.yaml"
    text = replay.read_text(encoding="utf-8")
    assert "dice: [4, 3]" in text and "dice: [6, 6]" in text
    res2 = runner.invoke(app, ["play", str(replay), "--json"], input="11\n4 3\nj\nPád z výšky\n3\nv\n")
    assert res2.exit_code == 0, res2.output
    assert "Mistr Hanuš hází" not in res2.output            # already in the replay: not asked again
    assert json.loads(res2.stdout)["final"]["hanus"]["ohrozeni"] == 5


def test_no_replay_writes_nothing_and_resolve_choose_ask_needs_a_terminal(tmp_path):
    path = write(tmp_path)
    res = play(path, BOOK_INPUT, "--no-replay")
    assert res.exit_code == 0
    assert not (tmp_path / "hanus.replay.yaml").exists()
    res = runner.invoke(app, ["resolve", str(path), "--choose", "ask"], input="")
    assert res.exit_code == 2
    assert "potřebuje terminál" in res.output


@pytest.mark.parametrize("text,n,bonus,total,expect", [
    ("4 3", 2, 3, True, [4, 3]),
    ("4,3", 2, 0, True, [4, 3]),
    ("9", 2, 0, True, 9),
    ("", 2, 0, True, None),
    ("6 5 1", 3, 1, True, [6, 5, 1]),
])
def test_parse_roll_accepts(text, n, bonus, total, expect):
    assert parse_roll(text, n, bonus, total) == (expect, None)


@pytest.mark.parametrize("text,n,bonus,total,fragment", [
    ("43x", 2, 0, True, "nerozumím"),
    ("7 7", 2, 0, True, "1 až 6"),
    ("13", 2, 0, True, "2–12"),
    ("1", 2, 0, True, "2–12"),
    ("43", 2, 0, True, "kostky odděl mezerou: 4 3"),
    ("9", 2, 0, False, "ne součet"),
    ("1", 3, 0, True, "2–12"),
    ("4 3", 3, 0, True, "hází se 3 kostky"),
])
def test_parse_roll_refuses(text, n, bonus, total, fragment):
    value, error = parse_roll(text, n, bonus, total)
    assert value is None and fragment in error


def test_tie_reroll_dice_go_to_extra_dice_and_the_replay_reproduces_them(tmp_path):
    """R-CONT with `tie: reroll`: the reroll has no place in an action, so the typed dice go into
    the top-level `extra_dice`, which `drd resolve` uses before the seed (docs/play.md)."""
    text = """\
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
"""
    path = write(tmp_path, text, "tie.yaml")
    # both total 7 → tie → a rerolls 6 6 (12), b rerolls 1 1 (2): a wins; b then accepts
    res = play(path, ["7", "7", "6 6", "1 1", "p"], "--json")
    assert res.exit_code == 0, res.output
    assert "remíza, hází znovu" in res.output
    assert "tady je třeba napsat kostky" not in res.output
    result = json.loads(res.stdout)
    assert result["steps"][0]["actions"]["a"]["success"] is True
    replay = tmp_path / "tie.replay.yaml"
    assert "extra_dice: [6, 6, 1, 1]" in replay.read_text(encoding="utf-8")
    assert normalised(resolve_json(replay)) == normalised(result)
    # a total is refused for a reroll: it has nowhere to be written
    res = play(path, ["7", "7", "12", "6 6", "1 1", "p"], "--json", "--no-replay")
    assert "tady je třeba napsat kostky" in res.output and res.exit_code == 0


def test_english_table_same_result(tmp_path):
    """Issue #6: `--lang en` asks in English (prompts, odds, offers, typing mistakes) and gives the same
    result as Czech for the same dice and answers (CS-SEQ-1, R-EXH-1, R-EXH-4): only the log words differ."""
    from tests.i18n.test_lang_en import czech_left

    lines = ["43x", "4 3", "6 6", "11", "4 3", "x", "j", "Pád z výšky", "3", "v"]
    czech = play(write(tmp_path), lines, "--json")
    english = play(write(tmp_path, name="hanus2.yaml"), lines, "--json", "--lang", "en")
    assert czech.exit_code == english.exit_code == 0, english.output
    out = english.output
    assert "── útěk · round 1 · contest ──" in out
    assert "Mistr Hanuš rolls útěk (Tělo): 2d6 +3" in out
    assert "cannot read “43x”: type dice (e.g. 4 3), a total with the bonus (5–15), or Enter (drd rolls)" in out
    assert "Dice, a total, or Enter (drd rolls): " in out
    assert "[v] exhaust (R-EXH): 3 Tělo, Ohrožení 3→4; protects: Mistr Hanuš" in out
    assert "✗ type one of: p/v/j/o" in out and "Choice [p/v/j/o, Enter = p]: " in out
    assert "Name of the Jizva (Enter = back): " in out and "How many points the Jizva gives: " in out
    assert "Game record: " in out
    user = ["Hanuš prchá zlobrům (kostra)", "Mistr Hanuš", "Nejstarší zlobr", "Prostřední zlobr", "Nejmladší zlobr",
            "útěk", "Pád z výšky", "mimo konflikt", "chycen", "Zasažen lavicí", "hůl", "hanus2.replay.yaml"]
    prompts = out[:out.index("{")] if "{" in out else out        # the prompts, before the JSON result
    assert not czech_left(prompts, user), czech_left(prompts, user)

    def without_log(res):
        result = normalised(json.loads(res.stdout))
        for step in result["steps"]:
            step.pop("log")
        return result

    assert without_log(english) == without_log(czech)


ROOT = Path(__file__).resolve().parents[2]

# Hanuš 10 against the eldest ogre's 10: a tie. Who wins it is the rule R-CONT `tie`.
TIE_SKELETON = """\
format: drd/1
title: Remíza se zlobrem (kostra)
# Komentář, který má replay zachovat.
rules:
  # Pravidla souboru (komentář zůstane).
  params: {presne: plus-one}   # poznámka u parametrů
participants:
  hanus: {name: Mistr Hanuš, side: vesnice, pools: {telo: 4, duse: 9, vliv: 5}, ohrozeni: 3,
          levels: {carodej: 3}, equipment: [hůl]}
  stary: {name: Nejstarší zlobr, side: zlobři, sudba: 12, ohrozeni: 2}
rounds:
  - initiative: [hanus, stary]
    steps:
      - id: utek
        contest:
          action: {actor: hanus, label: útěk, pool: telo, bonus_from: carodej,
                   self_effect: {condition: mimo konflikt}}
          counters:
            - {actor: stary, kind: harm, pool: telo, effect: {condition: chycen}}
"""
TIE_INPUT = ["4 3", "5 5", "v"]        # 4+3+3 = 10 against 5+5 = 10; tie: counter → Hanuš exhausts
ACTOR_INPUT = ["4 3", "5 5", "p"]      # tie: actor → the ogre loses and accepts


def _replay_rules(replay: Path) -> dict:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(replay.read_text(encoding="utf-8"))["rules"]


def _winner(result: dict) -> str:
    return result["steps"][0]["pairs"][0]["winner"]


def test_set_tie_counter_goes_into_the_replay_R_CONT(tmp_path):
    """R-CONT: with `--set tie=counter` the ogre wins the 10:10 tie; the replay holds tie: counter,
    so `drd resolve REPLAY` with no option reproduces the session (and the seed) exactly."""
    path = write(tmp_path, TIE_SKELETON, "tie.yaml")
    res = play(path, TIE_INPUT, "--json", "--set", "tie=counter", "--set", "sacrifice_gain=2")
    assert res.exit_code == 0, res.output
    session = json.loads(res.stdout)
    assert _winner(session) == "stary" and session["rules"]["params"]["tie"] == "counter"
    assert session["steps"][0]["exhaustions"][0]["by"] == "hanus"
    replay = tmp_path / "tie.replay.yaml"
    text = replay.read_text(encoding="utf-8")
    assert "# Pravidla souboru (komentář zůstane)." in text and "# poznámka u parametrů" in text
    assert "# Komentář, který má replay zachovat." in text
    rules = _replay_rules(replay)
    # the file's own parameter kept, the command line's added; a number stays a number
    assert rules["params"] == {"presne": "plus-one", "tie": "counter", "sacrifice_gain": 2}
    assert "seed: 5" in text
    assert normalised(resolve_json(replay)) == normalised(session)
    # the test could fail: under the default rule (tie: actor) Hanuš wins the same dice
    assert _winner(resolve_json(replay, "--set", "tie=actor")) == "hanus"
    # the command printed at the end needs no option any more
    res = play(path, TIE_INPUT, "--set", "tie=counter")
    assert f"drd resolve {replay})" in res.output and "--set" not in res.output.split("drd resolve")[-1]


def test_group_is_inlined_into_the_replay_rules(tmp_path):
    """SCENARIO-FORMAT §6: a scenario cannot name a group, so what groups/ctvrtek.yaml sets
    (rozsahla-protiakce on, tie: counter) is written into the replay's `rules:`; resolving the
    replay without --group gives the session's result, with the same rules."""
    path = write(tmp_path, TIE_SKELETON, "tie.yaml")
    res = play(path, TIE_INPUT, "--json", "--group", str(ROOT / "groups" / "ctvrtek.yaml"))
    assert res.exit_code == 0, res.output
    session = json.loads(res.stdout)
    assert _winner(session) == "stary" and "rozsahla-protiakce" in session["rules"]["enabled"]
    replay = tmp_path / "tie.replay.yaml"
    rules = _replay_rules(replay)
    assert rules["enable"] == ["rozsahla-protiakce"]
    assert rules["params"] == {"presne": "plus-one", "tie": "counter"}
    again = resolve_json(replay)
    assert again["rules"] == session["rules"]
    assert normalised(again) == normalised(session)

    # groups/puristi.yaml switches the abilities off: the replay disables them itself
    res = play(path, TIE_INPUT, "--json", "--group", str(ROOT / "groups" / "puristi.yaml"), "--set", "tie=counter")
    assert res.exit_code == 0, res.output
    session = json.loads(res.stdout)
    assert "kruhovy-sek" not in session["rules"]["enabled"]
    assert "kruhovy-sek" in _replay_rules(replay)["disable"]
    assert normalised(resolve_json(replay)) == normalised(session)


def test_replay_rules_keep_the_layer_order(tmp_path):
    """SCENARIO-FORMAT §6 (group ← scenario ← command line): the file's `tie: actor` beats the
    group's `tie: counter`, and `--disable` beats the file's `enable`. The inlined block keeps that."""
    text = TIE_SKELETON.replace("params: {presne: plus-one}",
                                "enable: [plosna-protiakce]\n  params: {tie: actor}")
    path = write(tmp_path, text, "tie.yaml")
    res = play(path, ACTOR_INPUT, "--json", "--group", str(ROOT / "groups" / "ctvrtek.yaml"),
               "--disable", "plosna-protiakce")
    assert res.exit_code == 0, res.output
    session = json.loads(res.stdout)
    assert _winner(session) == "hanus"                         # tie: actor, the file's own rule
    assert "plosna-protiakce" not in session["rules"]["enabled"]
    rules = _replay_rules(tmp_path / "tie.replay.yaml")
    assert rules == {"enable": ["rozsahla-protiakce"], "disable": ["plosna-protiakce"], "params": {"tie": "actor"}}
    assert normalised(resolve_json(tmp_path / "tie.replay.yaml")) == normalised(session)


def test_without_rule_options_the_rules_block_is_untouched(tmp_path):
    path = write(tmp_path, TIE_SKELETON, "tie.yaml")
    assert play(path, ACTOR_INPUT).exit_code == 0
    text = (tmp_path / "tie.replay.yaml").read_text(encoding="utf-8")
    assert "rules:\n  # Pravidla souboru (komentář zůstane).\n  params: {presne: plus-one}   # poznámka u parametrů\n" \
        in text


def test_group_plugin_folders_are_named_in_the_replay_command(tmp_path):
    """A group's `plugin_dirs` cannot go into a scenario: the printed command names them."""
    path = write(tmp_path, TIE_SKELETON, "tie.yaml")
    group = tmp_path / "g.yaml"
    plugins = ROOT / "tests" / "data" / "step_plugin"
    group.write_text(f"name: g\nplugin_dirs: [{plugins}]\nparams: {{tie: counter}}\n", encoding="utf-8")
    from drd_cli.trust import trust

    trust(str(group))          # a group's plugin folders are imported only when it is trusted
    res = play(path, TIE_INPUT, "--group", str(group))
    assert res.exit_code == 0, res.output
    assert f"drd --plugins-dir {plugins} resolve {tmp_path / 'tie.replay.yaml'}" in res.output


def test_plugin_parameter_goes_into_the_replay(tmp_path, monkeypatch):
    """SCENARIO-FORMAT §6, R-MAN-2: a parameter a plugin declares (the tutorial's stit-predku:
    `stit_predku_manoeuvre` picks the manoeuvre the ability makes free) is written into the replay
    like a core one, so the replay resolves the same without --set."""
    import shutil

    from drd_cli.cli.plugins_cmd import PLUGINS_DIR_ENV

    (tmp_path / "plugins").mkdir()
    shutil.copy(ROOT / "examples" / "drd-stit-predku" / "drd_stit_predku.py", tmp_path / "plugins" / "stit_predku.py")
    monkeypatch.setenv(PLUGINS_DIR_ENV, str(tmp_path / "plugins"))
    path = write(tmp_path, """\
format: drd/1
participants:
  ulrich: {pools: {telo: 5, duse: 3, vliv: 3}, levels: {bojovnik: 2}, abilities: [stit-predku]}
rounds:
  - steps:
      - {id: t, test: {actor: ulrich, pool: telo, manoeuvres: [presne], bonus_from: bojovnik}}
""", "stit.yaml")
    res = play(path, ["4 3"], "--json", "--set", "stit_predku_manoeuvre=obrana")
    assert res.exit_code == 0, res.output
    session = json.loads(res.stdout)
    replay = tmp_path / "stit.replay.yaml"
    assert _replay_rules(replay) == {"params": {"stit_predku_manoeuvre": "obrana"}}
    assert normalised(resolve_json(replay)) == normalised(session)
    # it matters: with the default (presne is the free one) Ulrich's Tělo ends otherwise
    default = resolve_json(replay, "--set", "stit_predku_manoeuvre=presne")
    assert default["final"]["ulrich"]["telo"] != session["final"]["ulrich"]["telo"]
