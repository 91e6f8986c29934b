"""One language at a time, in words that fit (issue #12, item 8): the transcript's wording of a
test's target, reflexive protection and exhausting for oneself among others."""

from __future__ import annotations

import textwrap

from typer.testing import CliRunner

from drd_cli.cli.app import app

TARGET_11 = textwrap.dedent("""\
    format: drd/1
    title: cíl 11
    participants:
      borek: {name: Bořek, pools: {telo: 9, duse: 5, vliv: 5}, ohrozeni: 1}
      ara: {name: Ařa, pools: {telo: 5, duse: 5, vliv: 5}}
      cyril: {name: Cyril, pools: {telo: 5, duse: 5, vliv: 5}}
    rules: {params: {target: 11}}
    rounds:
      - steps:
          - id: t
            test: {actor: borek, pool: telo, roll: 10, failure: {ohrozeni: 1}}
            choices: {borek: exhaust}
          - id: c
            contest:
              action: {actor: ara, pool: telo, targets: [borek], roll: 8, effect: {ohrozeni: 1}}
              counters: [{actor: borek, kind: protect, pool: telo, roll: 9}]
      - steps:
          - id: d
            contest:
              action: {actor: ara, pool: telo, targets: [borek, cyril], manoeuvres: [rozsahle], roll: 12,
                       effect: {ohrozeni: 1}}
              counters: [{actor: borek, kind: harm, pool: telo, roll: 6}]
            choices: {borek: {ara: {exhaust: [borek, cyril]}}}
    """)


def _transcript(tmp_path, *args: str) -> str:
    path = tmp_path / "t.yaml"
    path.write_text(TARGET_11, encoding="utf-8")
    res = CliRunner().invoke(app, ["resolve", str(path), *args], env={"NO_COLOR": "1", "COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    return res.stdout


def test_a_test_with_target_11_never_says_9(tmp_path):
    for lang in ("cs", "en"):
        text = _transcript(tmp_path, "--lang", lang)
        assert "(9)" not in text and " 9:" not in text
        assert "11" in text


def test_protecting_oneself_is_reflexive(tmp_path):
    cs = _transcript(tmp_path)
    assert "Bořek se chrání" in cs and "Bořek chrání Bořek" not in cs
    en = _transcript(tmp_path, "--lang", "en")
    assert "Bořek protected itself" in en and "Bořek protected Bořek" not in en


def test_exhausting_for_oneself_and_others_says_oneself(tmp_path):
    cs = _transcript(tmp_path)
    assert "Bořek se vyčerpává (proti: Ařa; chrání: sebe, Cyril)" in cs and "za Bořek" not in cs
    en = _transcript(tmp_path, "--lang", "en")
    assert "Bořek exhausts for itself, Cyril" in en


DAKARA = sorted((__import__("pathlib").Path(__file__).resolve().parents[2] / "scenarios").glob("dakara-*.yaml"))
RAW = __import__("re").compile(r"(?m)\b(mode|actor|skill|opponent|rating|modifiers|modified_rating|difficulty|answer|"
                               r"risk|helpers|injury_total|dead): ")


def test_dakara_transcripts_speak_in_names_and_words_without_drd2_plugins():
    assert DAKARA
    for path in DAKARA:
        res = CliRunner().invoke(app, ["resolve", str(path)], env={"NO_COLOR": "1", "COLUMNS": "120"})
        assert res.exit_code == 0, res.output
        out = res.stdout
        assert not RAW.search(out), path.name
        assert "ukryvani" not in out and "kruhovy-sek" not in out and "Pravidla:" not in out
        assert "narrator " not in out


def test_dakara_odds_use_the_decimal_comma_in_czech():
    cs = CliRunner().invoke(app, ["dakara", "test", "--skill", "3", "--difficulty", "4"], env={"NO_COLOR": "1"})
    assert "41,67 %" in cs.stdout and "41.67" not in cs.stdout
    en = CliRunner().invoke(app, ["dakara", "test", "--skill", "3", "--difficulty", "4", "--lang", "en"],
                            env={"NO_COLOR": "1"})
    assert "41.67 %" in en.stdout


def test_a_dakara_result_lists_no_drd2_plugins_and_only_its_own_parameters():
    import json

    path = str(DAKARA[0])
    r = json.loads(CliRunner().invoke(app, ["resolve", path, "--json", "--set", "helpers=shared"]).stdout)
    assert r["rules"]["enabled"] == []
    assert r["rules"]["params"]["helpers"] == "shared" and "tie" not in r["rules"]["params"]
    assert all("name" in p for p in r["participants"].values())
