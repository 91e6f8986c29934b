"""The fixed texts of the other commands follow `--lang` (issue #6, docs/i18n.md).

For each command: `--lang en` output has no Czech sentences left (the checker of
tests/i18n/test_lang_en.py: Czech letters or function words once the scenario's own strings and the
book's game terms are taken out), the Czech output keeps its wording, and numbers follow the
language (Czech decimal comma "72,2 %", English point "72.2 %"; fractions never change).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli import i18n
from drd_cli.cli.app import app
from tests.i18n.test_lang_en import _raw, _strings, czech_left

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    # Wide and colourless, so table cells are not wrapped or split by escape codes.
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    return result.output


def scenario_strings(name: str) -> list[str]:
    """Names, sides, notes … of a book scenario: data, not untranslated sentences."""
    return sorted({s for s in _strings(_raw(ROOT / "scenarios" / name), set()) if len(s) > 1},
                  key=len, reverse=True)


# --------------------------------------------------------------------------- number formatting

def test_number_helpers_follow_the_language():
    p = Fraction(545, 648)
    with i18n.using("cs"):
        assert i18n.fmt_percent(p) == "84,1 %"
        assert i18n.fmt_decimal(9) == "9,0"
        assert i18n.fmt_decimal(1.75, 2) == "1,75"
        assert i18n.fmt_fraction(p) == "545/648 (84,1 %)"
        assert i18n.fmt_fraction(p, sep="=") == "545/648 = 84,1 %"
    with i18n.using("en"):
        assert i18n.fmt_percent(p) == "84.1 %"
        assert i18n.fmt_percent(Fraction(1, 2), 0) == "50 %"
        assert i18n.fmt_decimal(9) == "9.0"
        assert i18n.fmt_fraction(p) == "545/648 (84.1 %)"


# --------------------------------------------------------------------------- drd odds

def test_odds_test_in_both_languages():
    """R-TEST: P(2d6+2 with přesně ≥ 9) = 13/18; only the words and the decimal mark change."""
    cs = run("odds", "test", "-b", "2", "--presne", "1", "--lang", "cs")
    assert "Zkouška 2k6+2, přesně ×1 (plus-one) ≥ 9" in cs
    assert "ÚSPĚCH:   13/18 (72,2 %)" in cs and "NEÚSPĚCH: 5/18 (27,8 %)" in cs
    en = run("odds", "test", "-b", "2", "--presne", "1", "--lang", "en")
    assert "Test 2d6+2" in en and "SUCCESS: 13/18 (72.2 %)" in en and "FAILURE: 5/18 (27.8 %)" in en
    assert not czech_left(en, []), en


def test_odds_contest_and_exhaust_in_english():
    """R-CONT (contest odds) and R-EXH-1 (exhaustion cost = Ohrožení) in English."""
    en = run("odds", "contest", "-b", "1", "--lang", "en")
    assert "Contest 2d6+1 against 2d6+0" in en and "actor wins:  287/432 (66.4 %)" in en
    assert not czech_left(en, []), en
    cs = run("odds", "contest", "-b", "1", "--lang", "cs")
    assert "aktér vyhrává:  287/432 (66,4 %)" in cs
    en = run("odds", "exhaust", "--ohrozeni", "3", "--bonus", "1", "--lang", "en")
    assert "Exhaustion at Ohrožení 3: cost 3, Ohrožení afterwards 4" in en
    assert "expected cost 7/4 ≈ 1.75" in en
    assert not czech_left(en, []), en
    cs = run("odds", "exhaust", "--ohrozeni", "3", "--bonus", "1", "--lang", "cs")
    assert "Vyčerpání při Ohrožení 3: cena 3, Ohrožení poté 4" in cs and "≈ 1,75" in cs


def test_odds_file_step_in_english():
    """A scenario step's report: every heading English, names from the file untouched."""
    en = run("odds", "scenarios/hanus-utek.yaml", "utek", "--lang", "en")
    assert "útěk (contest), choices: accept" in en and "Pairs (who wins):" in en
    assert "Ohrožení after the step:" in en and "(100.0 %)" in en
    assert not czech_left(en, scenario_strings("hanus-utek.yaml")), en
    cs = run("odds", "scenarios/hanus-utek.yaml", "utek", "--lang", "cs")
    assert "Dvojice (kdo vyhrává):" in cs and "(100,0 %)" in cs


def test_odds_file_step_counts_use_plural_forms():
    """`odds FILE STEP` counts through ngettext: "1 dice combination", Czech 1 / 2–4 / 5+ forms."""
    en = run("odds", "scenarios/hanus-utek.yaml", "utek", "--lang", "en")
    assert "  1 dice combination → 1 class, 1 resolution, " in en
    cs = run("odds", "scenarios/hanus-utek.yaml", "utek", "--lang", "cs")
    assert "  1 kombinace kostek → 1 třída, 1 vyhodnocení, " in cs
    with i18n.using("cs"):
        forms = [i18n.ngettext("{n} class", "{n} classes", n).format(n=n) for n in (1, 3, 5)]
        combos = [i18n.ngettext("{n} dice combination", "{n} dice combinations", n).format(n=n) for n in (1, 4, 36)]
    assert forms == ["1 třída", "3 třídy", "5 tříd"]
    assert combos == ["1 kombinace kostek", "4 kombinace kostek", "36 kombinací kostek"]
    with i18n.using("en"):
        assert i18n.ngettext("{n} class", "{n} classes", 36).format(n=36) == "36 classes"


# --------------------------------------------------------------------------- drd simulate

def test_simulate_tables_in_english():
    en = run("simulate", "scenarios/hanus-utek.yaml", "-n", "20", "--workers", "1", "--lang", "en")
    assert "Final state of the participants" in en and "whole scenario" in en
    assert "Duše 9.0" in en and "Duše 9,0" not in en
    assert not czech_left(en, scenario_strings("hanus-utek.yaml")), en
    cs = run("simulate", "scenarios/hanus-utek.yaml", "-n", "20", "--workers", "1", "--lang", "cs")
    assert "Konečný stav účastníků" in cs and "celý scénář" in cs and "Duše 9,0" in cs


# --------------------------------------------------------------------------- drd diff

@pytest.fixture
def tie_file(tmp_path):
    from tests.cli.test_diff import TIE

    p = tmp_path / "tie.yaml"
    p.write_text(TIE.replace("ROLL", "9"), encoding="utf-8")
    return str(p)


def test_diff_side_by_side_in_english(tie_file):
    """R-CONT: tie=counter flips the 9:9 tie; the table's headings, verdicts and words are English."""
    en = run("diff", tie_file, "--set", "tie=counter", "--lang", "en")
    assert "Rules that differ" in en and "What changes" in en and "profile A" in en
    assert "actor (default)" in en and "counter (command line)" in en and "as written" in en
    assert "SUCCESS" in en and "FAILURE" in en and "Strážný wins 9:9 (tie)" in en
    assert not czech_left(en, ["Remíza u brány", "Zlatka", "Strážný", "proklouznutí", "útěk", "za branou"]), en
    cs = run("diff", tie_file, "--set", "tie=counter", "--lang", "cs")
    assert "Pravidla, která se liší" in cs and "Co se mění" in cs and "vyhrává Strážný 9:9 (remíza)" in cs
    assert "actor (výchozí)" in cs and "counter (příkazová řádka)" in cs and "jak je napsán" in cs


# --------------------------------------------------------------------------- drd rules, drd plugins

def test_rules_listing_in_both_languages():
    """SCENARIO-FORMAT §6: every setting with its origin; the origin words follow the language."""
    en = run("rules", "scenarios/hanus-utek.yaml", "--set", "tie=counter", "--lang", "en")
    assert "Rules and plugins:" in en and "Parameters:" in en
    assert "(default)" in en and "(command line; R-CONT" in en
    # ids are ids in every language (an ability id may hold a Czech word: cit-pro-zbran, R-ABIL-NAD)
    assert not czech_left(en, ["cit-pro-zbran", "R-ABIL-NAD"]), en
    cs = run("rules", "scenarios/hanus-utek.yaml", "--set", "tie=counter", "--lang", "cs")
    assert "Pravidla a pluginy:" in cs and "Parametry:" in cs
    assert "zapnuto  (výchozí)" in cs and "(příkazová řádka; R-CONT" in cs


def test_plugins_listing_in_english():
    en = run("plugins", "--lang", "en")
    assert " on " in en and "hooks: " in en and en.startswith("id ")
    # Plugin titles are the book's proper names (Kruhový sek …) and stay Czech.
    from tests.i18n.test_lang_en import _ability_titles

    assert not czech_left(en, _ability_titles() + ["cit-pro-zbran", "R-ABIL-NAD"]), en
    cs = run("plugins", "--lang", "cs")
    assert " zapnuto " in cs and "výchozí" in cs
