"""Plugin step types are first-class (issue #4, SCENARIO-FORMAT §4 and §6).

The scenario is validated before the rules profile is known; a step whose single key is not a
core step type is kept as a plugin step and checked, once the profile is known, with the model of
the enabled plugin providing that key. The third-party plugin here is tests/data/step_plugin/
hlidka.py (a watch: a Duše zkouška of the watcher, R-TEST), loaded as a local plugin from a
--plugins-dir folder (id `hlidka`), never installed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.cli.plugins_cmd import PLUGINS_DIR_ENV
from drd_cli.testing import drd_resolve  # noqa: F401 - the fixture plugin authors use

ROOT = Path(__file__).parents[2]
PLUGIN = ROOT / "tests" / "data" / "step_plugin" / "hlidka.py"

# Vlasta has no levels, so her Duše test is the bare roll against target 9 (R-TEST): 9 holds, 8 fails.
SCENARIO = """\
format: drd/1
participants:
  vlasta: {name: Vlasta, pools: {telo: 4, duse: 4, vliv: 2}}
rounds:
  - steps:
      - {id: h1, hlidka: {watcher: vlasta, roll: 9}}
  - steps:
      - id: h2
        hlidka:
          watcher: vlasta
          roll: 8
"""

HIDE = """\
format: drd/1
participants:
  zlatka: {pools: {telo: 3, duse: 4, vliv: 3}}
  komori: {sudba: 3}
rounds:
  - steps:
      - id: h
        hide: {hidden: poklop, deceived: [komori], situation: unaware}
"""


@pytest.fixture
def work(tmp_path, monkeypatch):
    """tmp_path (the cwd) with plugins/hlidka.py and s.yaml; no plugins folder is given yet."""
    (tmp_path / "plugins").mkdir()
    shutil.copy(PLUGIN, tmp_path / "plugins" / "hlidka.py")
    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(PLUGINS_DIR_ENV, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path



def drd(*args: str):
    return CliRunner().invoke(app, list(args))


def with_plugins(monkeypatch, work):
    """`drd --plugins-dir plugins …` (the global option arrives through the environment)."""
    monkeypatch.setenv(PLUGINS_DIR_ENV, str(work / "plugins"))


def write(work, name: str, text: str) -> str:
    (work / name).write_text(text, encoding="utf-8")
    return name


# --------------------------------------------------------------------------- a third-party step type works

def test_third_party_step_resolves_in_result_and_transcript(work, monkeypatch):
    """R-TEST through a plugin step: roll 9 reaches target 9 (ÚSPĚCH), roll 8 does not."""
    with_plugins(monkeypatch, work)
    r = drd("resolve", "s.yaml", "--json")
    assert r.exit_code == 0, r.output
    steps = {s["id"]: s for s in json.loads(r.stdout)["steps"]}
    assert steps["h1"]["kind"] == "hlidka" and steps["h2"]["kind"] == "hlidka"
    assert steps["h1"]["hlidka"] == {"watcher": "vlasta", "held": True}
    assert steps["h2"]["hlidka"] == {"watcher": "vlasta", "held": False}
    assert steps["h1"]["actions"]["vlasta"]["success"] is True
    assert steps["h2"]["actions"]["vlasta"]["success"] is False
    text = drd("resolve", "s.yaml")
    assert text.exit_code == 0, text.output
    assert "Hlídka: Vlasta drží stráž" in text.stdout and "ÚSPĚCH" in text.stdout


def test_third_party_step_checks_and_schema(work, monkeypatch):
    """`drd check` validates the plugin step; `drd schema` describes it for editors."""
    with_plugins(monkeypatch, work)
    r = drd("check", "s.yaml")
    assert r.exit_code == 0, r.output
    schema = json.loads(drd("schema").stdout)
    assert "hlidka" in schema["$defs"]["Step"]["properties"]
    assert "watcher" in schema["$defs"]["HlidkaSpec"]["properties"]


def test_schema_leaves_out_step_types_a_group_disables(work):
    write(work, "g.yaml", "name: g\nplugin_dirs: [plugins]\ndisable: [hlidka]\n")
    assert drd("group", "trust", "g.yaml").exit_code == 0      # its plugin folder is local code
    props = json.loads(drd("schema", "--group", "g.yaml").stdout)["$defs"]["Step"]["properties"]
    assert "hlidka" not in props and "hide" in props and "test" in props


def test_third_party_step_in_odds_and_diff(work, monkeypatch):
    """The other commands that build a profile accept the plugin step too."""
    with_plugins(monkeypatch, work)
    write(work, "o.yaml", SCENARIO.replace("roll: 8", "bonus_from: none"))
    r = drd("odds", "file", "o.yaml", "h2", "--json")
    assert r.exit_code == 0, r.output
    # 2k6 ≥ 9: 10 of 36 (R-TEST, no bonus)
    assert json.loads(r.stdout)["success"]["vlasta"]["fraction"] == "5/18"
    d = drd("diff", "s.yaml", "--set", "target=10", "--json")
    assert d.exit_code == 0, d.output


# --------------------------------------------------------------------------- bad input

@pytest.mark.usefixtures("english")
def test_bad_field_in_plugin_step_is_exit_2_at_file_line_col(work, monkeypatch):
    """Errors in a plugin step are mapped to file:line:col like core validation (with did-you-mean)."""
    with_plugins(monkeypatch, work)
    bad = SCENARIO.replace("{watcher: vlasta, roll: 9}", "{watcher: vlasta, rol: 9}").replace("roll: 8", "roll: 13")
    write(work, "bad.yaml", bad)
    for cmd in (("resolve", "bad.yaml"), ("check", "bad.yaml")):
        r = drd(*cmd)
        assert r.exit_code == 2, r.output
        assert "bad.yaml:6:44: unknown key 'rol'" in r.output and "did you mean 'roll'?" in r.output
        assert "bad.yaml:11:17: must be at most 12, got 13" in r.output
        assert "Traceback" not in r.output


@pytest.mark.usefixtures("english")
def test_missing_required_field_points_at_the_step_key(work, monkeypatch):
    with_plugins(monkeypatch, work)
    write(work, "m.yaml", SCENARIO.replace("{watcher: vlasta, roll: 9}", "{roll: 9}"))
    r = drd("resolve", "m.yaml")
    assert r.exit_code == 2, r.output
    assert "m.yaml:6:18: missing required key 'watcher'" in r.output


@pytest.mark.usefixtures("english")
def test_step_type_of_plugin_disabled_by_group_is_exit_1_naming_it(work):
    """SCENARIO-FORMAT §6: a step type whose plugin a group switches off → exit 1 naming the plugin."""
    write(work, "g.yaml", "name: g\nplugin_dirs: [plugins]\ndisable: [hlidka]\n")
    assert drd("group", "trust", "g.yaml").exit_code == 0      # its plugin folder is local code
    r = drd("resolve", "s.yaml", "--group", "g.yaml")
    assert r.exit_code == 1, r.output
    assert "s.yaml:6:18: step type 'hlidka' is provided by the plugin hlidka, which is disabled" in r.output
    assert "--enable hlidka" in r.output and "rules: {enable: [hlidka]}" in r.output
    # the scenario's own rules switch it back on (group ← scenario), and it resolves again
    write(work, "on.yaml", SCENARIO + "rules: {enable: [hlidka]}\n")
    assert drd("resolve", "on.yaml", "--group", "g.yaml").exit_code == 0


@pytest.mark.usefixtures("english")
def test_hide_with_ukryvani_disabled_is_exit_1_naming_ukryvani(work):
    """CS-HIDE-1: the `hide` step belongs to the built-in plugin ukryvani; off → exit 1, not "unknown key"."""
    write(work, "h.yaml", HIDE)
    assert drd("resolve", "h.yaml").exit_code == 0
    r = drd("resolve", "h.yaml", "--disable", "ukryvani")
    assert r.exit_code == 1, r.output
    assert "h.yaml:8:9: step type 'hide' is provided by the plugin ukryvani, which is disabled" in r.output
    assert "unknown key" not in r.output
    # every command that builds a profile refuses it the same way, before the engine runs; for
    # `drd diff` a refusal under one profile is the difference (exit 0), under both exit 1
    d = drd("diff", "h.yaml", "--disable", "ukryvani")
    assert d.exit_code == 0 and "provided by the plugin ukryvani" in d.output
    d = drd("diff", "h.yaml", "--a-disable", "ukryvani", "--b-disable", "ukryvani")
    assert d.exit_code == 1 and "provided by the plugin ukryvani" in d.output
    from drd_cli.api import load_scenario
    from drd_cli.errors import RuleViolation
    from drd_cli.odds import step_odds
    from drd_cli.simulate import simulate

    with pytest.raises(RuleViolation, match="plugin ukryvani"):
        step_odds(load_scenario("h.yaml"), "h", "accept", disable=("ukryvani",))
    with pytest.raises(RuleViolation, match="plugin ukryvani"):
        simulate("h.yaml", 3, workers=1, rules={"disable": ("ukryvani",)})


def test_builtin_step_type_known_even_when_its_plugin_is_missing():
    """`hide` names ukryvani even when no such plugin is installed (the engine's own check)."""
    from drd_cli.errors import RuleViolation
    from drd_cli.plugins import missing_step_type

    err = missing_step_type("hide", ("rounds", 0, "steps", 0, "hide"), set(), entries={})
    assert isinstance(err, RuleViolation) and "ukryvani" in err.format()


@pytest.mark.usefixtures("english")
def test_unknown_step_key_is_exit_2_with_did_you_mean(work, monkeypatch):
    """A step key nobody provides → exit 2 "unknown step type" at file:line:col, over core and plugin keys."""
    write(work, "t.yaml", SCENARIO.replace("hlidka:", "tset:"))
    r = drd("resolve", "t.yaml")
    assert r.exit_code == 2, r.output
    assert "t.yaml:6:18: unknown step type 'tset'" in r.output and "did you mean 'test'?" in r.output
    # without the plugins folder `hlidka` itself is unknown (no installed plugin provides it)
    r = drd("resolve", "s.yaml")
    assert r.exit_code == 2 and "unknown step type 'hlidka'" in r.output
    with_plugins(monkeypatch, work)
    write(work, "t2.yaml", SCENARIO.replace("hlidka:", "hlidak:"))
    r = drd("check", "t2.yaml")
    assert r.exit_code == 2 and "did you mean 'hlidka'?" in r.output


@pytest.mark.usefixtures("english")
def test_plugin_key_next_to_a_core_step_is_an_unknown_key(work, monkeypatch):
    """One step is one step type: a second, unknown key beside `test` stays an ordinary unknown key."""
    with_plugins(monkeypatch, work)
    write(work, "two.yaml", SCENARIO.replace("{id: h1, hlidka: {watcher: vlasta, roll: 9}}",
                                             "{id: h1, test: {actor: vlasta, roll: 9}, hlidka: {watcher: vlasta}}"))
    r = drd("resolve", "two.yaml")
    assert r.exit_code == 2 and "unknown key 'hlidka'" in r.output


def test_disabled_plugins_are_not_imported_when_the_file_is_fine(work, monkeypatch):
    """A disabled plugin is imported only to word an error about a step type nobody enabled provides."""
    import sys

    with_plugins(monkeypatch, work)
    write(work, "core.yaml", SCENARIO.split("rounds:")[0] + "rounds:\n  - steps:\n      - {test: {actor: vlasta, roll: 9}}\n")
    sys.modules.pop("drd_local_plugins.hlidka", None)
    assert drd("resolve", "core.yaml", "--disable", "hlidka").exit_code == 0
    assert "drd_local_plugins.hlidka" not in sys.modules
    assert drd("resolve", "s.yaml", "--disable", "hlidka").exit_code == 1
    assert "drd_local_plugins.hlidka" in sys.modules


# --------------------------------------------------------------------------- the pytest fixture

@pytest.mark.usefixtures("english")
def test_fixture_plugin_object_provides_a_step_type(drd_resolve):
    """drd_cli.testing: an uninstalled plugin object's step type validates, resolves, and is refused when off."""
    import importlib.util

    from drd_cli.errors import DrdError

    spec = importlib.util.spec_from_file_location("hlidka_fixture", PLUGIN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    r = drd_resolve(SCENARIO, plugins={"hlidka": module})
    assert [s["hlidka"]["held"] for s in r["steps"]] == [True, False]
    with pytest.raises(DrdError) as off:
        drd_resolve(SCENARIO, plugins={"hlidka": module}, disable=("hlidka",))
    assert off.value.exit_code == 1 and "provided by the plugin hlidka" in off.value.format()
    with pytest.raises(DrdError) as bad:
        drd_resolve(SCENARIO.replace("roll: 8", "roll: osm"), plugins={"hlidka": module})
    assert bad.value.exit_code == 2 and ":11:17:" in bad.value.format()

