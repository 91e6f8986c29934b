"""What-if odds before a roll in `drd play` (#15 item 2): the seam `previews.what_if_lines` gives
exactly what `drd odds FILE STEP --what-if --who ID` prints for the game so far, filtered to the
options the roller can afford that change its odds; scripted play and a real terminal show it."""

from __future__ import annotations

import os
import shutil
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.errors import ScenarioError
from drd_cli.play import previews, session

from tests.play.test_play import BOOK_INPUT, SKELETON, play, write

runner = CliRunner()
HANUS_PRESNE = "s přesně: úspěch 78,6 % (+10,8), stojí 1 Tělo"


def recorded(monkeypatch) -> list[dict]:
    """Every call of the seam during a play: its arguments, the game so far as text, and its lines."""
    calls: list[dict] = []
    texts: list[str] = []
    real, real_load = previews.what_if_lines, previews.game_so_far

    def spy(scenario, s, n, bonus, **kw):  # noqa: ANN001, ANN202
        before = len(texts)
        lines = real(scenario, s, n, bonus, **kw)
        calls.append({"args": (scenario, s, n, bonus), "lines": lines,
                      "text": texts[before] if len(texts) > before else None})
        return lines

    def load_spy(text, path):  # noqa: ANN001, ANN202
        texts.append(text)
        return real_load(text, path)

    monkeypatch.setattr(session, "what_if_lines", spy)
    monkeypatch.setattr(previews, "game_so_far", load_spy)
    return calls


@pytest.mark.parametrize("rules", [(), ("--set", "presne=keep-best-2-of-3")], ids=["plus-one", "keep-best"])
def test_the_seam_prints_what_drd_odds_what_if_who_prints_for_the_game_so_far(tmp_path, monkeypatch, rules):
    calls = recorded(monkeypatch)
    r = play(write(tmp_path), BOOK_INPUT, "--no-replay", *rules)
    assert r.exit_code == 0, r.output
    assert [c["args"][1].pid for c in calls] == ["hanus", "stary", "prostredni", "mladsi"]
    for i, c in enumerate(calls):
        so_far = tmp_path / f"so-far-{i}.yaml"
        so_far.write_text(c["text"], encoding="utf-8")
        odds = runner.invoke(app, ["odds", "file", str(so_far), "utek", "--what-if", "--who", c["args"][1].pid])
        assert odds.exit_code == 0, odds.output
        printed = odds.output.splitlines()
        assert c["lines"], c["args"][1].pid
        assert printed[-len(c["lines"]):] == c["lines"]
    # The game so far carries the session's rules (the replay's own block): the variant is the profile's.
    mode = "3k6, platí dvě nejvyšší" if rules else "+1 k hodu"
    assert calls[0]["lines"][0] == f"Co kdyby (přesně {mode}):"
    # Hanuš's 4 3 (+3 = 10) is known when the ogres roll: the oldest wins only with 11 or 12 (R-CONT).
    assert "  Nejstarší zlobr (protiakce; proti: Mistr Hanuš): výhra 8,3 %" in calls[1]["lines"][1]


def test_play_shows_the_what_if_line_under_the_odds_in_scripted_play(tmp_path):
    r = play(write(tmp_path), BOOK_INPUT, "--no-replay")
    assert r.exit_code == 0, r.output
    out = r.output
    assert "Co kdyby (přesně +1 k hodu):" in out
    assert HANUS_PRESNE in out
    # The what-if follows the roller's own odds, before the question.
    head = out.split("Kostky, součet", 1)[0]
    assert head.index("výhra 545/648 = 84,1 %") < head.index(HANUS_PRESNE)
    # A counter: its win with přesně, and the chance the actor will have to exhaust and its expected cost.
    assert "s přesně: výhra 16,7 % (+8,3), stojí 1 Sudba; Mistr Hanuš se musí vyčerpat" in out


def test_english_what_if_line(tmp_path):
    r = play(write(tmp_path), BOOK_INPUT, "--no-replay", "--lang", "en")
    assert r.exit_code == 0, r.output
    assert "What if (přesně +1 to the roll):" in r.output
    assert "with přesně: success 78.6 % (+10.8), costs 1 Tělo" in r.output
    assert "Co kdyby" not in r.output


def test_a_roller_who_cannot_afford_presne_gets_no_what_if(tmp_path):
    # The oldest ogre has no Sudba left: přesně would cost 1 (R-MAN-2), so it is not offered.
    text = SKELETON.replace("sudba: 12", "sudba: 0")
    r = play(write(tmp_path, text), BOOK_INPUT, "--no-replay")
    assert r.exit_code == 0, r.output
    oldest = r.output.split("Nejstarší zlobr hází", 1)[1].split("Prostřední zlobr hází", 1)[0]
    assert "Co kdyby" not in oldest and "přesně nejde" not in oldest
    assert "Co kdyby" in r.output.split("Prostřední zlobr hází", 1)[1]


def test_a_roll_the_file_gives_shows_no_odds_and_no_what_if(tmp_path):
    text = SKELETON.replace("bonus_from: carodej,", "bonus_from: carodej, dice: [4, 3],")
    r = play(write(tmp_path, text), BOOK_INPUT[1:], "--no-replay")
    assert r.exit_code == 0, r.output
    assert "Mistr Hanuš: úspěch" not in r.output
    assert r.output.count("Co kdyby") == 3


def test_many_open_rollers_are_estimated_and_labelled(tmp_path):
    # Six rollers, none rolled yet: the exact attempt is skipped, the estimate says so.
    from pathlib import Path

    path = Path(__file__).parents[1] / "data" / "sest-ve-stretu.yaml"
    r = runner.invoke(app, ["play", str(path), "--seed", "3", "--no-replay"], input="\n" * 30,
                      env={"COLUMNS": "250"})       # whole lines (play wraps to COLUMNS)
    assert r.exit_code == 0, r.output
    first = r.output.split("Kostky, součet", 1)[0]
    assert "Co kdyby" in first and "(odhad)" in first and "≈" in first


def test_when_the_odds_engine_cannot_answer_the_table_gets_a_note_not_a_traceback(tmp_path, monkeypatch):
    calls = recorded(monkeypatch)
    assert play(write(tmp_path), BOOK_INPUT, "--no-replay").exit_code == 0
    scenario, s, n, bonus = calls[0]["args"]

    def broken():
        raise ScenarioError("cannot read it")

    lines = previews.what_if_lines(scenario, s, n, bonus, so_far=broken)
    assert lines == ["(bez „co kdyby“ pro tento hod: šance na to nejde spočítat)"]
    assert previews.what_if_lines(scenario, s, n, bonus) == []     # no game to read: nothing


_FRACTIONS = st.fractions(min_value=0, max_value=1, max_denominator=1296)


@given(st.lists(st.tuples(st.sampled_from(["actor", "counter"]), _FRACTIONS,
                          st.lists(st.tuples(_FRACTIONS, _FRACTIONS), max_size=3)), max_size=4))
def test_affordable_keeps_exactly_the_options_that_change_something(rows):
    data = {"presne_mode": "plus-one", "rollers": [
        {"who": f"p{i}", "role": role, "vs": "a", "win": win, "actor_exhausts": Fraction(1, 2), "actor_cost": 1,
         "options": [{"manoeuvre": "presne", "win": w, "delta": w - win, "actor_exhausts": q,
                      "actor_cost": 1, "cost": {"paid": "telo", "amount": 1}} for w, q in opts],
         "unavailable": [{"manoeuvre": "presne", "reason": "no", "rule": "R-MAN-2"}]}
        for i, (role, win, opts) in enumerate(rows)]}
    out = previews.affordable(data)
    assert [r["who"] for r in out["rollers"]] == [r["who"] for r in data["rollers"]]
    for before, after in zip(data["rollers"], out["rollers"]):
        assert after["unavailable"] == []
        changes = [o for o in before["options"] if o["delta"] != 0
                   or (before["role"] == "counter" and o["actor_exhausts"] != before["actor_exhausts"])]
        assert after["options"] == changes


def test_what_if_line_in_a_real_terminal(tmp_path, drd_script):
    pexpect = pytest.importorskip("pexpect")
    drd = drd_script
    write(tmp_path)
    env = dict(os.environ, NO_COLOR="1", COLUMNS="120")
    child = pexpect.spawn(drd, ["play", "hanus.yaml", "--seed", "5", "--no-replay"], cwd=str(tmp_path), env=env,
                          encoding="utf-8", timeout=30, dimensions=(50, 120))
    child.expect_exact("Co kdyby (přesně +1 k hodu):")
    child.expect_exact(HANUS_PRESNE)
    child.expect_exact("Enter (hodí drd): ")
    child.sendline("4 3")
    child.expect_exact("Nejstarší zlobr (protiakce; proti: Mistr Hanuš): výhra 8,3 %")
    child.expect_exact("s přesně: výhra 16,7 % (+8,3), stojí 1 Sudba")
    for line in BOOK_INPUT[1:]:
        child.sendline(line)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_groups_plugin_folders_price_the_what_if_too(tmp_path):
    """R-MAN-2: the tutorial's stit-predku makes přesně free; found only through the group's
    `plugin_dirs`, the what-if must say so (not the 1 Tělo of a profile without the plugin)."""
    from pathlib import Path

    from drd_cli.trust import trust

    (tmp_path / "plugins").mkdir()
    example = Path(__file__).resolve().parents[2] / "examples" / "drd-stit-predku" / "drd_stit_predku.py"
    shutil.copy(example, tmp_path / "plugins" / "stit_predku.py")
    group = tmp_path / "g.yaml"
    group.write_text(f"name: g\nplugin_dirs: [{tmp_path / 'plugins'}]\n", encoding="utf-8")
    trust(str(group))
    path = write(tmp_path, """\
format: drd/1
participants:
  ulrich: {pools: {telo: 5, duse: 3, vliv: 3}, levels: {bojovnik: 2}, abilities: [stit-predku]}
rounds:
  - steps:
      - {id: t, test: {actor: ulrich, pool: telo, bonus_from: bojovnik}}
""", "stit.yaml")
    r = play(path, ["4 3"], "--no-replay", "--group", str(group))
    assert r.exit_code == 0, r.output
    # 2k6 + 2 ≥ 9 is 7/12; with +1 it is 26/36 (R-TEST, R-ROLL-3)
    assert "s přesně: úspěch 72,2 % (+13,9), zdarma díky stit-predku" in r.output
