"""`drd diff`: the same dice under two rules profiles (R-CONT tie, CS-OPT-AID), keyed dice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

TIE = """\
format: drd/1
title: Remíza u brány
seed: 3
participants:
  zlatka: {name: Zlatka, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1, levels: {zlodej: 2}}
  strazny: {name: Strážný, sudba: 6, ohrozeni: 2, charakteristika: 2}
rounds:
  - steps:
      - id: brana
        contest:
          action: {actor: zlatka, label: proklouznutí, pool: telo, bonus_from: zlodej, roll: ROLL,
                   self_effect: {condition: za branou}}
          counters:
            - {actor: strazny, kind: harm, pool: telo, roll: 9, effect: {ohrozeni: 1}}
  - steps:
      - id: utek
        test: {actor: zlatka, label: útěk, pool: telo, bonus_from: zlodej, failure: {ohrozeni: 1}}
"""


@pytest.fixture
def tie_file(tmp_path):
    p = tmp_path / "tie.yaml"
    p.write_text(TIE.replace("ROLL", "9"), encoding="utf-8")
    return str(p)


def _json(args):
    r = runner.invoke(app, ["diff", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_R_CONT_tie_counter_changes_the_winner_and_what_follows(tie_file):
    """R-CONT: 9 against 9 goes to the actor by default, to the counter with tie=counter; the
    pair, both verdicts, the hit and Ohrožení (Zlatka 1→2) change; the later step does not."""
    d = _json([tie_file, "--set", "tie=counter"])
    assert d["rule_differences"] == [{"setting": "tie", "a": "actor", "b": "counter", "a_origin": "default",
                                      "b_origin": "command line"}]
    by = {(x["step"], x["what"], x["who"], x.get("field")): x for x in d["differences"]}
    pair = by[("brana", "pair", "zlatka vs strazny", None)]
    assert pair["a"]["winner"] == "zlatka" and pair["b"]["winner"] == "strazny" and pair["a"]["tie"]
    assert by[("brana", "success", "zlatka", None)]["a"] is True
    assert by[("brana", "success", "zlatka", None)]["b"] is False
    assert (by[("brana", "ohrozeni", "zlatka", None)]["a"], by[("brana", "ohrozeni", "zlatka", None)]["b"]) == (1, 2)
    assert by[(None, "final", "zlatka", "conditions")]["a"] == ["za branou"]
    # the test in round 2 rolls the same dice in both profiles
    ra, rb = d["a"]["result"]["steps"][1], d["b"]["result"]["steps"][1]
    assert ra["rolls"]["zlatka"]["dice"] == rb["rolls"]["zlatka"]["dice"]
    assert "strazny" in d["identical"]["participants"]


def test_no_tie_no_difference(tmp_path):
    """Without a tied pair the tie rule decides nothing: only the setting differs."""
    p = tmp_path / "t.yaml"
    p.write_text(TIE.replace("ROLL", "10"), encoding="utf-8")
    d = _json([str(p), "--set", "tie=counter"])
    assert d["differences"] == [] and d["rule_differences"]
    assert d["identical"]["steps"] == ["brana", "utek"]


def test_reroll_extra_dice_do_not_shift_later_rolls(tie_file):
    """Keyed dice: tie=reroll rolls extra dice in `brana`; `utek` still gets the same dice."""
    d = _json([tie_file, "--set", "tie=reroll", "--seed", "11"])
    sb = d["b"]["result"]["steps"]
    assert sb[0]["pairs"][0]["reroll"]
    assert d["a"]["result"]["steps"][1]["rolls"] == sb[1]["rolls"]
    assert not [x for x in d["differences"] if x["step"] == "utek" and x["what"] in ("roll", "success")]


def test_CS_OPT_AID_group_enables_the_rule_the_file_needs():
    """CS-OPT-AID: without rozsahla-protiakce the book's větrný štít is refused (profile A);
    the ctvrtek group enables it (and tie=counter) and B resolves: exit 0, the refusal is a difference."""
    f = str(ROOT / "scenarios" / "ohnivec-vetrny-stit-bez-pravidla.yaml")
    d = _json([f, "--group", str(ROOT / "groups" / "ctvrtek.yaml")])
    assert d["a"]["error"]["rule"] == "CS-OPT-AID" and "result" in d["b"]
    settings = {x["setting"]: x for x in d["rule_differences"]}
    assert settings["rozsahla-protiakce"]["a"] is False and settings["rozsahla-protiakce"]["b"] is True
    assert settings["rozsahla-protiakce"]["b_origin"].startswith("group ")
    assert d["differences"][0]["what"] == "refused"
    r = runner.invoke(app, ["diff", f, "--enable", "rozsahla-protiakce"])
    assert r.exit_code == 0
    assert "profil A" in r.output and "profil B" in r.output and "CS-OPT-AID" in r.output


def test_two_groups_and_a_b_options(tie_file, tmp_path):
    """--group twice: A and B each with its group; --a-set puts a rule in A only."""
    g = tmp_path / "g.yaml"
    g.write_text("name: remizy\nparams: {tie: counter}\n", encoding="utf-8")
    d = _json([tie_file, "--a-set", "tie=counter"])
    assert d["rule_differences"][0]["a"] == "counter" and d["rule_differences"][0]["b"] == "actor"
    d = _json([tie_file, "--group", str(g), "--group", str(g)])
    assert d["rule_differences"] == [] and d["differences"] == []


def test_text_output_side_by_side(tie_file):
    r = runner.invoke(app, ["diff", tie_file, "--set", "tie=counter"], env={"NO_COLOR": "1"})
    assert r.exit_code == 0
    out = r.output
    assert "profil A" in out and "profil B" in out and "Pravidla, která se liší" in out
    assert "ÚSPĚCH" in out and "NEÚSPĚCH" in out and "Beze změny" in out


def test_refused_in_both_is_exit_1_invalid_is_exit_2(tmp_path, tie_file):
    f = str(ROOT / "scenarios" / "ohnivec-vetrny-stit-bez-pravidla.yaml")
    assert runner.invoke(app, ["diff", f, "--set", "tie=counter"]).exit_code == 1
    r = runner.invoke(app, ["diff", tie_file, "--set", "tie=sometimes"])
    assert r.exit_code == 2 and "tie" in r.output
    r = runner.invoke(app, ["diff", tie_file, "--enable", "no-such-rule"])
    assert r.exit_code == 2


def test_keyed_dice_same_key_same_dice():
    """A roll's dice depend on the seed and its key only; more dice extend the same sequence."""
    from drd_cli.dice import KeyedDice

    def fresh() -> KeyedDice:
        k = KeyedDice(7)
        k.begin_step("s1")
        return k

    a, b = fresh(), fresh()
    a.roll(2, "x", "reroll")          # an extra roll in run a only
    first = a.roll(2, "y", "action")
    assert first == b.roll(2, "y", "action")
    assert fresh().roll(3, "y", "action")[:2] == first
    seven, eight = fresh(), KeyedDice(8)
    eight.begin_step("s1")
    # another seed, other dice (five rolls: equal by chance with probability 36^-5)
    assert [seven.roll(2, "y", "action") for _ in range(5)] != [eight.roll(2, "y", "action") for _ in range(5)]


def test_engine_scenario_error_is_exit_2_with_location(tmp_path):
    """A hero rolling without `bonus_from` (R-ROLL-1) is an invalid file under any profile: exit 2
    with file:line:col, not a difference."""
    p = tmp_path / "bad.yaml"
    p.write_text(TIE.replace("ROLL", "9").replace(", bonus_from: zlodej, failure", ", failure"), encoding="utf-8")
    r = runner.invoke(app, ["diff", str(p), "--set", "tie=counter"])
    assert r.exit_code == 2
    assert "bad.yaml:" in r.output and "bonus_from" in r.output


def test_plugin_step_refused_under_one_profile_is_a_difference(tmp_path):
    """CS-HIDE: a `hide` step needs the plugin ukryvani (SCENARIO-FORMAT §6). A profile that switches
    it off (--b-disable, or a group) refuses the file; that refusal is the difference between the
    profiles (exit 0, A still resolves), not the end of the diff. Refused under both: exit 1."""
    f = str(ROOT / "scenarios" / "zlatka-kuchyne.yaml")
    d = _json([f, "--b-disable", "ukryvani"])
    assert "result" in d["a"] and "error" not in d["a"]
    assert [s["kind"] for s in d["a"]["result"]["steps"]] == ["hide"]
    err = d["b"]["error"]
    assert "ukryvani" in err["message"] and err["exit_code"] == 1
    assert err["location"].startswith(f + ":31:")          # the `hide` key of the step
    assert d["differences"][0]["what"] == "refused" and d["differences"][0]["a"] is None
    settings = {x["setting"]: x for x in d["rule_differences"]}
    assert settings["ukryvani"]["a"] is True and settings["ukryvani"]["b"] is False
    assert settings["ukryvani"]["b_origin"] == "command line"

    g = tmp_path / "bez-ukryvani.yaml"
    g.write_text("name: bez ukrývání\ndisable: [ukryvani]\n", encoding="utf-8")
    d = _json([f, "--group", str(g)])
    assert "result" in d["a"] and "ukryvani" in d["b"]["error"]["message"]
    assert {x["setting"]: x for x in d["rule_differences"]}["ukryvani"]["b_origin"].startswith("group ")
    # Swapped: A is refused, B resolves — still a difference.
    d = _json([f, "--a-disable", "ukryvani"])
    assert "error" in d["a"] and "result" in d["b"]

    r = runner.invoke(app, ["diff", f, "--b-disable", "ukryvani"], env={"NO_COLOR": "1"})
    assert r.exit_code == 0, r.output
    assert "Profil B" in r.output and "ukryvani" in r.output and "Profil A (druhý profil odmítnut)" in r.output

    r = runner.invoke(app, ["diff", f, "--a-disable", "ukryvani", "--b-disable", "ukryvani"])
    assert r.exit_code == 1 and "ukryvani" in r.output
