"""API versions (docs/plugins.md "API versions"): whatever worked against version N keeps working
against N + 1. A frozen API 1 plugin (tests/data/plugins_api1, as its author wrote it) acts as it
did under API 1; an API 2 ability plugin is consulted only where a participant lists it."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from drd_cli.cli._root import app
from drd_cli.plugin import API_VERSION, hookimpl
from drd_cli.testing import resolve_text, step

API1 = Path(__file__).parents[1] / "data" / "plugins_api1"

SCENARIO = """
format: drd/1
participants:
  hero: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3, levels: {bojovnik: 2}, equipment: [amulet]}
  ogre: {sudba: 9, ohrozeni: 1}
rounds:
  - steps:
      - id: t
        test: {actor: hero, pool: telo, bonus_from: bojovnik, dice: [2, 3], effect: {ohrozeni: 1}}
"""


def test_the_current_api_version_is_3():
    assert API_VERSION == 3


def test_an_api_1_ability_plugin_is_still_asked_for_every_participant(tmp_path, monkeypatch):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    monkeypatch.setenv("DRD_PLUGINS_DIR", str(API1))         # `drd --plugins-dir DIR resolve …`
    got = CliRunner().invoke(app, ["resolve", str(path), "--json"])
    assert got.exit_code == 0, got.output
    roll = json.loads(got.stdout)["steps"][0]["rolls"]["hero"]
    # nobody lists `stary-amulet`: under API 1 it acts all the same
    assert roll["total"] == 8 and [m["source"] for m in roll["modifiers"]] == ["stary-amulet"]
    listed = CliRunner().invoke(app, ["plugins", "--json"])
    [rec] = [r for r in json.loads(listed.stdout) if r["id"] == "stary-amulet"]
    assert rec["api_version"] == 1 and rec["kind"] == "ability"


def test_an_api_2_ability_plugin_is_asked_only_where_someone_lists_it():
    def info():
        return {"title": "Amulet", "kind": "ability", "api_version": 2}

    amulet = type("Plugin", (), {
        "drd_plugin_info": staticmethod(hookimpl(info)),
        "drd_roll_modifier": staticmethod(hookimpl(lambda participant, action: 1)),
    })()
    assert step(resolve_text(SCENARIO, plugins={"amulet": amulet}), "t")["rolls"]["hero"]["total"] == 7
    listing = SCENARIO.replace("equipment: [amulet]", "equipment: [amulet], abilities: [amulet]")
    assert step(resolve_text(listing, plugins={"amulet": amulet}), "t")["rolls"]["hero"]["total"] == 8


def test_the_engine_side_reads_a_plugins_declared_version():
    from drd_cli.api import load_scenario, setup_rules

    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.yaml"
        path.write_text(SCENARIO, encoding="utf-8")
        setup = setup_rules(load_scenario(str(path)), plugin_dirs=(str(API1),))
    pm = setup.pm
    plugin = pm.get_plugin("stary-amulet")
    assert pm.api_version("stary-amulet", plugin) == 1
    assert pm.api_version("schopnosti", pm.get_plugin("schopnosti")) == 2
