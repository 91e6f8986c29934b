"""The pure expect-vs-result comparison (drd_cli/check.py)."""

from __future__ import annotations

import pytest

from drd_cli.check import compare, compare_result, dotted, same, show, steps_by_id


@pytest.fixture(autouse=True)
def _english():
    """The report lines are pinned in English here; tests/cli/test_cli.py checks them in Czech."""
    from drd_cli import i18n

    with i18n.using("en"):
        yield

RESULT = {
    "format": "drd-result/1",
    "steps": [
        {"id": "utek", "round": 1, "kind": "contest",
         "actions": {"hanus": {"success": False, "affected": []}, "stary": {"success": True, "affected": []}},
         "exhaustions": [{"by": "hanus", "vs": "stary", "cost": 3}]},
        {"id": "1.2", "round": 1, "kind": "test", "actions": {}},
    ],
    "final": {"hanus": {"telo": 0, "duse": 9, "ohrozeni": 5, "jizvy": ["Pád z výšky"], "conditions": []},
              "stary": {"sudba": 12, "ohrozeni": 2}},
}


def test_subset_passes():
    expect = {"exit": 0, "final": {"hanus": {"telo": 0, "ohrozeni": 5}},
              "steps": {"utek": {"actions": {"hanus": {"success": False}}}}}
    assert compare_result(expect, RESULT, 0) == []


def test_value_difference_reports_path():
    diffs = compare_result({"final": {"hanus": {"telo": 4}}}, RESULT, 0)
    assert [d.text for d in diffs] == ["final.hanus.telo: expected 4, got 0"]
    assert diffs[0].path == ("final", "hanus", "telo")


def test_every_difference_reported():
    expect = {"final": {"hanus": {"telo": 4, "duse": 1}, "stary": {"sudba": 11}}}
    assert len(compare_result(expect, RESULT, 0)) == 3


def test_missing_key_and_participant():
    diffs = compare_result({"final": {"hanus": {"sudba": 3}, "nikdo": {"telo": 1}}}, RESULT, 0)
    assert [d.text for d in diffs] == ["final.hanus.sudba: expected 3, got nothing (missing)",
                                       'final.nikdo: expected {"telo": 1}, got nothing (missing)']


def test_lists_by_SCENARIO_FORMAT_8():
    assert compare_result({"final": {"hanus": {"jizvy": ["Pád z výšky"]}}}, RESULT, 0) == []
    diffs = compare_result({"final": {"hanus": {"jizvy": []}}}, RESULT, 0)
    assert [d.text for d in diffs] == ['final.hanus.jizvy: expected [], got ["Pád z výšky"]']
    # A list of mappings: each expected mapping is a subset of a distinct element, in order.
    assert compare_result({"steps": {"utek": {"exhaustions": [{"by": "hanus"}]}}}, RESULT, 0) == []
    diffs = compare_result({"steps": {"utek": {"exhaustions": [{"by": "stary"}]}}}, RESULT, 0)
    assert [d.path for d in diffs] == [("steps", "utek", "exhaustions", 0)]
    assert "no element of the result matches it" in diffs[0].text


def test_bool_is_not_int():
    diffs = compare_result({"steps": {"utek": {"actions": {"stary": {"success": 1}}}}}, RESULT, 0)
    assert [d.text for d in diffs] == ["steps.utek.actions.stary.success: expected 1, got true"]
    assert not same(True, 1) and not same(0, False) and same(1, 1.0) and not same("1", 1)


def test_steps_matched_by_id_including_generated():
    assert compare_result({"steps": {"1.2": {"kind": "test"}}}, RESULT, 0) == []
    diffs = compare_result({"steps": {"nope": {"kind": "test"}}}, RESULT, 0)
    assert diffs[0].text == "steps.nope: no step with this id (steps: utek, 1.2)"
    assert diffs[0].path == ("steps", "nope")


def test_exit_expected_1_passes_on_rule_violation():
    assert compare_result({"exit": 1}, None, 1, "s.yaml:3:5: refused [R-MAN-3]") == []


def test_exit_mismatch_names_the_error():
    diffs = compare_result({"exit": 0, "final": {"hanus": {"telo": 0}}}, None, 1, "s.yaml:3:5: refused [R-MAN-3]")
    assert [d.text for d in diffs] == ["exit: expected 0, got 1 (s.yaml:3:5: refused [R-MAN-3])"]


def test_expected_violation_but_resolved():
    diffs = compare_result({"exit": 1}, RESULT, 0)
    assert [d.text for d in diffs] == ["exit: expected 1, got 0"]


def test_expected_error_text():
    assert compare_result({"exit": 1, "error": "R-MAN-3"}, None, 1, "x [R-MAN-3]") == []
    diffs = compare_result({"exit": 1, "error": "CS-IND-1"}, None, 1, "x [R-MAN-3]")
    assert diffs and diffs[0].path == ("error",)


def test_compare_generic_and_helpers():
    assert compare({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}}) == []
    assert [d.text for d in compare({"a": {"b": 1}}, {"a": 5})] == ['a: expected {"b": 1}, got 5']
    assert dotted(("steps", "utek", "rolls", 0)) == "steps.utek.rolls[0]"
    assert show(None) == "null" and show("Útěk") == '"Útěk"'
    assert list(steps_by_id(RESULT["steps"])) == ["utek", "1.2"]


def test_key_types_are_matched_as_text():
    # YAML `1.2:` is a float key; result ids are strings.
    assert compare_result({"steps": {1.2: {"kind": "test"}}}, RESULT, 0) == []


_TWICE = """\
format: drd/1
title: dvakrát z iniciativy
participants:
  a: {{pools: {{telo: 3, duse: 3, vliv: 3}}, levels: {{bojovnik: 1}}}}
rounds:
  - initiative: [a]
    steps:
      - test: {{actor: a, pool: telo, roll: 10}}
      - test: {{actor: a, pool: telo, roll: 10}}
expect:
  exit: 1
  error: '{quote}'
"""


def _check(tmp_path, quote, *args):
    from typer.testing import CliRunner

    from drd_cli.cli.app import app

    path = tmp_path / "twice.yaml"
    path.write_text(_TWICE.format(quote=quote), encoding="utf-8")
    return CliRunner().invoke(app, ["check", str(path), *args])


def test_expected_error_may_quote_the_message_in_either_language(tmp_path):
    """`expect.error` written by an English-speaking group still passes at a Czech table (and back)."""
    from drd_cli.i18n import using

    with using("en"):
        from drd_cli.api import load_scenario, resolve_scenario
        from drd_cli.errors import RuleViolation

        path = tmp_path / "probe.yaml"
        path.write_text(_TWICE.format(quote="x"), encoding="utf-8")
        try:
            resolve_scenario(load_scenario(str(path)))
        except RuleViolation as exc:
            english = exc.problems[0].message
    with using("cs"):
        try:
            resolve_scenario(load_scenario(str(path)))
        except RuleViolation as exc:
            czech = exc.problems[0].message
    assert english != czech
    for quote in (english, czech):
        for lang in ("cs", "en"):
            res = _check(tmp_path, quote.replace("'", "''"), "--lang", lang)
            assert res.exit_code == 0, (quote, lang, res.output)
    res = _check(tmp_path, "nothing like this")
    assert res.exit_code == 1 and "error" in res.output
