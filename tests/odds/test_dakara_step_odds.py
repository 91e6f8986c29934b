"""`drd odds FILE STEP` of a Dakara file: the exact odds of the skill step (drd_cli/odds/dakara.py);
`drd simulate` of one refuses politely in the run's language."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from drd_cli import api
from drd_cli.dakara import odds as dakara_odds
from drd_cli.odds.dakara import dakara_step_odds

ROOT = Path(__file__).resolve().parents[2]
DRD = [sys.executable, "-m", "drd_cli.cli.app"]
DAKARA = sorted((ROOT / "scenarios").glob("dakara-*.yaml"))


def drd(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*DRD, *args], capture_output=True, text=True, timeout=120)


def test_pickpocket_odds_are_the_books():
    """The file's notes: success 10/36, plain failure 11/36, mild 12/36, serious 3/36."""
    r = drd("odds", str(ROOT / "scenarios/dakara-kapsar.yaml"), "kupec-mirne", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    got = {(o["outcome"], o["complication"]): Fraction(o["p"]["fraction"]) for o in out["outcomes"]}
    assert got == {("success", "none"): Fraction(10, 36), ("failure", "none"): Fraction(11, 36),
                   ("failure", "mild"): Fraction(12, 36), ("failure", "serious"): Fraction(3, 36)}
    assert out["method"] == "dakara-dice" and out["exact"] is True


def test_step_odds_equal_the_skill_odds_formula():
    loaded = api.load_scenario(str(ROOT / "scenarios/dakara-smrt.yaml"))
    step = loaded.scenario.rounds[0].steps[0]
    got = dakara_step_odds(loaded, step.id)
    s = step.skill
    rating = loaded.scenario.participants[s.actor].skills[s.skill]
    want = dakara_odds.skill_odds("test", rating + s.finta + sum(s.situational), s.difficulty, risk=s.risk,
                                  injury_modifier=s.injury_modifier or 0,
                                  armour=loaded.scenario.participants[s.actor].armour)
    assert {(o["outcome"], o["complication"], o["injury"]): o["p"] for o in got["outcomes"]} == want.outcomes


@pytest.mark.parametrize("path", DAKARA, ids=lambda p: p.stem)
def test_every_dakara_step_has_odds_that_add_up(path):
    loaded = api.load_scenario(str(path))
    for ri, rnd in enumerate(loaded.scenario.rounds):
        for si, step in enumerate(rnd.steps):
            r = dakara_step_odds(loaded, step.id or f"{ri + 1}.{si + 1}")
            assert sum(o["p"] for o in r["outcomes"]) + r["refused"] == 1


@pytest.mark.parametrize("lang,word", [("cs", "Dakara"), ("en", "Dakara")])
def test_odds_text_of_a_dakara_step_in_both_languages(lang, word):
    r = drd("odds", str(ROOT / "scenarios/dakara-kapsar.yaml"), "kupec-mirne", "--lang", lang)
    assert r.returncode == 0 and word in r.stdout and "Traceback" not in r.stderr
    assert ("NEÚSPĚCH" in r.stdout) == (lang == "cs")


@pytest.mark.parametrize("lang,text", [("cs", "drd simulate přehrává scénáře DrD II"),
                                       ("en", "drd simulate plays DrD II scenarios")])
def test_simulate_refuses_a_dakara_file_in_the_runs_language(lang, text):
    r = drd("simulate", str(ROOT / "scenarios/dakara-kapsar.yaml"), "-n", "10", "--lang", lang)
    assert r.returncode == 2
    assert text in r.stderr and "AttributeError" not in r.stderr + r.stdout
