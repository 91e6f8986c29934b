"""The `drd` commands, run in-process with typer's CliRunner against a fake library API.

The fake `load_scenario`/`resolve_scenario` use the real loader and validator with a tiny model of
our own, and take the "result" from the file itself (`result:` key), so these tests exercise the
CLI's behaviour (exit codes, stderr, --output, check reports) independently of the engine.
A few tests at the end run the real engine on a book example when it is installed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field
from typer.testing import CliRunner

import drd_cli.api as api
from drd_cli.cli.app import app, main
from drd_cli.errors import Location, Problem, RuleViolation

runner = CliRunner()


class FakeScenario(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    format: str
    title: str | None = None
    seed: int | None = None
    forbid: str | None = None                       # makes the fake engine raise RuleViolation
    result: dict[str, Any] = Field(default_factory=dict)
    expect: dict[str, Any] | None = None


calls: list[dict] = []


def fake_load(path: str) -> api.LoadedScenario:
    from drd_cli.scenario.load import load_document
    from drd_cli.scenario.validate import validate_model

    data, source = load_document(path)
    model = validate_model(FakeScenario, data, source, path)
    return api.LoadedScenario(path, model, source, data)


def fake_resolve(loaded: api.LoadedScenario, **kwargs: Any) -> dict:
    calls.append(kwargs)
    if loaded.scenario.forbid:
        raise RuleViolation(Problem(loaded.scenario.forbid, loaded.source.locate(("forbid",)), rule="R-MAN-3"))
    result = json.loads(json.dumps(loaded.scenario.result))
    result.setdefault("format", "drd-result/1")
    result["seed"] = kwargs.get("seed")
    return result


@pytest.fixture(autouse=True)
def fake_api(monkeypatch):
    calls.clear()
    monkeypatch.setattr(api, "load_scenario", fake_load)
    monkeypatch.setattr(api, "resolve_scenario", fake_resolve)
    monkeypatch.delenv("NO_COLOR", raising=False)


HANUS = """\
format: drd/1
title: Mistr Hanuš prchá zlobrům
result:
  title: Mistr Hanuš prchá zlobrům
  system: drd2
  steps:
    - id: utek
      round: 1
      kind: contest
      rolls: {hanus: {total: 10, dice: [3, 4], bonus: 3, source: given}}
      order: [stary, hanus]
      actions: {hanus: {success: false, affected: []}, stary: {success: true, affected: []}}
      exhaustions:
        - {by: hanus, vs: stary, pool: telo, cost: 3, protected: [hanus], denied: null,
           ohrozeni: [3, 4], gained: {jizva: {name: Pád z výšky, gain: 3}, sacrifice: null}}
      log: [{rule: R-ORDER, text: Pořadí hodů}]
  final:
    hanus: {telo: 0, duse: 9, vliv: 5, ohrozeni: 5, vyhody: 0, jizvy: [Pád z výšky], conditions: [],
            equipment: [hůl]}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- resolve

def test_resolve_prints_transcript(tmp_path):
    path = write(tmp_path, "hanus.yaml", HANUS)
    res = runner.invoke(app, ["resolve", path, "--seed", "7"])
    assert res.exit_code == 0, res.stderr
    assert "Krok utek" in res.stdout
    assert "NEÚSPĚCH" in res.stdout and "ÚSPĚCH" in res.stdout
    assert "Ohrožení 3→4" in res.stdout
    assert "\x1b[" not in res.stdout          # not a terminal: no colour codes


def test_resolve_json_and_options_reach_the_api(tmp_path):
    path = write(tmp_path, "hanus.yaml", HANUS)
    res = runner.invoke(app, ["resolve", path, "--json", "--seed", "7", "--choose", "exhaust",
                              "--set", "tie=counter", "--set", "presne=keep-best-2-of-3",
                              "--enable", "rozsahla-protiakce", "--disable", "ukryvani", "--group", "ctvrtek"])
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["seed"] == 7 and data["final"]["hanus"]["jizvy"] == ["Pád z výšky"]
    assert "Hanuš" in res.stdout             # ensure_ascii=False
    assert calls[-1] == {"seed": 7, "choose": "exhaust", "params": {"tie": "counter", "presne": "keep-best-2-of-3"},
                         "enable": ("rozsahla-protiakce",), "disable": ("ukryvani",), "group": "ctvrtek",
                         "release_document": True}


def test_resolve_bad_set_is_usage_error(tmp_path):
    path = write(tmp_path, "hanus.yaml", HANUS)
    res = runner.invoke(app, ["resolve", path, "--set", "tie"])
    assert res.exit_code == 2


def test_resolve_bad_choose_is_usage_error(tmp_path):
    path = write(tmp_path, "hanus.yaml", HANUS)
    assert runner.invoke(app, ["resolve", path, "--choose", "maybe"]).exit_code == 2


def test_invalid_file_exit_2_with_location(tmp_path):
    path = write(tmp_path, "bad.yaml", "format: drd/1\nseed: deset\n")
    res = runner.invoke(app, ["resolve", path])
    assert res.exit_code == 2
    assert res.stderr == f"{path}:2:7: očekává se celé číslo, zadáno 'deset'\n"
    assert res.stdout == ""


def test_yaml_error_exit_2(tmp_path):
    path = write(tmp_path, "bad.yaml", "format: drd/1\nformat: drd/1\n")
    res = runner.invoke(app, ["resolve", path])
    assert res.exit_code == 2
    assert res.stderr.startswith(f"{path}:2:1: opakovaný klíč 'format'")


def test_missing_file_exit_2(tmp_path):
    res = runner.invoke(app, ["resolve", str(tmp_path / "nope.yaml")])
    assert res.exit_code == 2
    assert "soubor neexistuje" in res.stderr and "Traceback" not in res.stderr


def test_rule_violation_exit_1(tmp_path):
    path = write(tmp_path, "forbid.yaml", "format: drd/1\nforbid: obrana jen proti hrozbě\n")
    res = runner.invoke(app, ["resolve", path])
    assert res.exit_code == 1
    assert res.stderr == f"{path}:2:1: obrana jen proti hrozbě [R-MAN-3]\n"


def test_unexpected_error_is_a_message_not_a_traceback(tmp_path, monkeypatch):
    def broken(path):
        raise ValueError("boom")
    monkeypatch.setattr(api, "load_scenario", broken)
    res = runner.invoke(app, ["resolve", write(tmp_path, "x.yaml", HANUS)])
    assert res.exit_code == 3
    assert "vnitřní chyba: ValueError: boom" in res.stderr and "to je chyba v drd" in res.stderr
    assert "Traceback" not in res.stderr


def test_output_json_written_atomically(tmp_path):
    path = write(tmp_path, "hanus.yaml", HANUS)
    out = tmp_path / "out" / "result.json"
    out.parent.mkdir()
    out.write_text("old", encoding="utf-8")
    res = runner.invoke(app, ["resolve", path, "--json", "--output", str(out), "--seed", "1"])
    assert res.exit_code == 0, res.stderr
    assert res.stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["seed"] == 1
    assert sorted(os.listdir(out.parent)) == ["result.json"]   # no temp file left behind


def test_output_text_has_no_colour(tmp_path):
    path = write(tmp_path, "hanus.yaml", HANUS)
    out = tmp_path / "t.txt"
    assert runner.invoke(app, ["resolve", path, "-o", str(out)]).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "Krok utek" in text and "\x1b[" not in text


def test_failed_run_leaves_old_output_untouched(tmp_path):
    path = write(tmp_path, "forbid.yaml", "format: drd/1\nforbid: ne\n")
    out = tmp_path / "result.json"
    out.write_text("old", encoding="utf-8")
    assert runner.invoke(app, ["resolve", path, "--json", "-o", str(out)]).exit_code == 1
    assert out.read_text(encoding="utf-8") == "old"
    assert sorted(os.listdir(tmp_path)) == ["forbid.yaml", "result.json"]


def test_write_atomic_failure_cleans_up(tmp_path, monkeypatch):
    from drd_cli.cli import _common
    from drd_cli.errors import DrdError

    def fail_replace(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(_common.os, "replace", fail_replace)
    target = tmp_path / "r.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(DrdError, match="No space left"):
        _common.write_atomic(str(target), "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["r.json"]


def test_output_into_missing_folder_is_a_message(tmp_path):
    path = write(tmp_path, "hanus.yaml", HANUS)
    res = runner.invoke(app, ["resolve", path, "--json", "-o", str(tmp_path / "no" / "r.json")])
    assert res.exit_code == 2
    assert "nelze zapsat" in res.stderr and "Traceback" not in res.stderr


def test_no_color_respected_even_when_forced_terminal(tmp_path, monkeypatch):
    from drd_cli.cli._common import make_console

    monkeypatch.setenv("NO_COLOR", "1")
    console = make_console()
    assert console.no_color


def test_version():
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout == "drd 0.1.0\n"


def test_main_exit_codes(tmp_path, capsys):
    path = write(tmp_path, "bad.yaml", "format: drd/1\nnic: 1\n")
    with pytest.raises(SystemExit) as info:
        main(["resolve", path])
    assert info.value.code == 2
    assert "neznámý klíč 'nic'" in capsys.readouterr().err


# --------------------------------------------------------------------------- check

EXPECT_OK = HANUS + "expect:\n  final: {hanus: {telo: 0, ohrozeni: 5}}\n  steps: {utek: {actions: {hanus: {success: false}}}}\n"
EXPECT_BAD = HANUS + "expect:\n  final:\n    hanus: {telo: 4, ohrozeni: 5}\n"


def test_check_passes_and_fails(tmp_path):
    good = write(tmp_path, "good.yaml", EXPECT_OK)
    bad = write(tmp_path, "bad.yaml", EXPECT_BAD)
    res = runner.invoke(app, ["check", good, bad])
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    # The difference points at the expect entry: line of `telo` inside `expect.final.hanus`.
    expect_line = EXPECT_BAD.splitlines().index("    hanus: {telo: 4, ohrozeni: 5}") + 1
    assert f"{bad}:{expect_line}:13: final.hanus.telo: očekáváno 4, vyšlo 0" in lines
    assert f"{good}: ok (očekávání splněna, návratový kód 0)" in lines
    assert f"{bad}: NESPLNĚNO (1 rozdíl)" in lines
    assert lines[-1] == "2 soubory: 1 ok, s rozdíly: 1"


def test_check_report_in_english(tmp_path):
    good = write(tmp_path, "good.yaml", EXPECT_OK)
    bad = write(tmp_path, "bad.yaml", EXPECT_BAD)
    res = runner.invoke(app, ["check", good, bad, "--lang", "en"])
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    expect_line = EXPECT_BAD.splitlines().index("    hanus: {telo: 4, ohrozeni: 5}") + 1
    assert f"{bad}:{expect_line}:13: final.hanus.telo: expected 4, got 0" in lines
    assert f"{good}: ok (expectations met, exit 0)" in lines
    assert f"{bad}: FAILED (1 difference)" in lines
    assert lines[-1] == "2 files: 1 ok, 1 with differences"


def test_check_without_expect_does_not_fail_on_a_rule_refusal(tmp_path):
    """Without `expect:` nothing holds a refusal (exit 1) against the file: it is valid, exit 0.
    (It is resolved, so that check and resolve agree on validity: tests/cli/test_any_terminal_encoding.py.)"""
    path = write(tmp_path, "plain.yaml", "format: drd/1\nforbid: would be refused\n")
    res = runner.invoke(app, ["check", path])
    assert res.exit_code == 0


def test_check_invalid_file_exit_2(tmp_path):
    good = write(tmp_path, "good.yaml", EXPECT_BAD)
    bad = write(tmp_path, "bad.yaml", "format: drd/1\nseed: x\n")
    res = runner.invoke(app, ["check", good, bad])
    assert res.exit_code == 2      # invalid beats differences
    assert f"{bad}:2:7: očekává se celé číslo, zadáno 'x'" in res.stdout


def test_check_expected_rule_violation_passes(tmp_path):
    path = write(tmp_path, "v.yaml", "format: drd/1\nforbid: nelze\nexpect: {exit: 1}\n")
    res = runner.invoke(app, ["check", path])
    assert res.exit_code == 0, res.stdout
    assert "ok (očekávání splněna, návratový kód 1)" in res.stdout


def test_check_unexpected_rule_violation_is_difference(tmp_path):
    path = write(tmp_path, "v.yaml", "format: drd/1\nforbid: nelze\nexpect:\n  exit: 0\n")
    res = runner.invoke(app, ["check", path])
    assert res.exit_code == 1
    assert f"{path}:4:3: exit: očekáván 0, skončilo 1 ({path}:2:1: nelze [R-MAN-3])" in res.stdout


def test_check_expected_invalid_passes(tmp_path):
    path = write(tmp_path, "inv.yaml", "format: drd/1\nseed: x\nexpect: {exit: 2}\n")
    res = runner.invoke(app, ["check", path])
    assert res.exit_code == 0, res.stdout


def test_check_json_format(tmp_path):
    bad = write(tmp_path, "bad.yaml", EXPECT_BAD)
    res = runner.invoke(app, ["check", bad, "--format", "json"])
    assert res.exit_code == 1
    doc = json.loads(res.stdout)
    assert doc["exit"] == 1
    [entry] = doc["files"]
    assert entry["status"] == "differences"
    assert entry["problems"][0]["message"] == "final.hanus.telo: očekáváno 4, vyšlo 0"
    assert entry["problems"][0]["path"] == ["expect", "final", "hanus", "telo"]
    assert entry["problems"][0]["line"] > 1


def test_check_github_format(tmp_path):
    bad = write(tmp_path, "bad.yaml", EXPECT_BAD)
    res = runner.invoke(app, ["check", bad, "-f", "github"])
    assert res.exit_code == 1
    first = res.stdout.splitlines()[0]
    assert first.startswith(f"::error file={bad},line=")
    assert first.endswith("::final.hanus.telo: očekáváno 4, vyšlo 0")


def test_check_reports_every_difference(tmp_path):
    text = HANUS + "expect:\n  final: {hanus: {telo: 1, duse: 1, vliv: 1}}\n  steps: {nic: {kind: test}}\n"
    res = runner.invoke(app, ["check", write(tmp_path, "m.yaml", text)])
    assert res.exit_code == 1
    assert res.stdout.count("očekáváno") == 3
    assert "steps.nic: krok s tímto id není (kroky: utek)" in res.stdout
    assert "NESPLNĚNO (4 rozdíly)" in res.stdout


# --------------------------------------------------------------------------- schema

def test_schema_prints_json_schema():
    pytest.importorskip("drd_cli.scenario.models")
    res = runner.invoke(app, ["schema"])
    assert res.exit_code == 0, res.stderr
    schema = json.loads(res.stdout)
    assert "participants" in schema["properties"]


# --------------------------------------------------------------------------- the real engine

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def real_api(monkeypatch):
    monkeypatch.undo()
    pytest.importorskip("drd_cli.engine.run")
    if not (REPO / "scenarios" / "hanus-utek.yaml").exists():
        pytest.skip("book scenarios not present")


def test_real_hanus_escape(real_api):
    res = runner.invoke(app, ["resolve", str(REPO / "scenarios" / "hanus-utek.yaml"), "--json"])
    assert res.exit_code == 0, res.stderr
    result = json.loads(res.stdout)
    assert result["final"]["hanus"]["ohrozeni"] == 5
    assert [e["cost"] for e in result["steps"][0]["exhaustions"]] == [3, 4]


def test_real_check_hanus(real_api):
    res = runner.invoke(app, ["check", str(REPO / "scenarios" / "hanus-utek.yaml")])
    assert res.exit_code == 0, res.stdout


def test_readme_first_scenario_resolves_as_described(real_api, tmp_path):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("Save this as `hanus.yaml`:", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    path = write(tmp_path, "hanus.yaml", block)
    res = runner.invoke(app, ["check", path])
    assert res.exit_code == 0, res.stdout
    res = runner.invoke(app, ["resolve", path, "--json"])
    step = json.loads(res.stdout)["steps"][0]
    assert [(e["vs"], e["cost"], e["ohrozeni"]) for e in step["exhaustions"]] == [
        ("stary", 3, [3, 4]), ("prostredni", 4, [4, 5])]
    assert step["exhaustions"][0]["gained"]["jizva"]["name"] == "Pád z výšky"
    transcript = runner.invoke(app, ["resolve", path]).stdout
    assert "Ohrožení 3→4" in transcript and "Ohrožení 4→5" in transcript
