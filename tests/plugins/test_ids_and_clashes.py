"""Ids and clashes (docs/plugins.md "Ids and clashes"): a third-party plugin replaces a built-in one
of its id; two third-party plugins with one id fail only a run that uses it, and `--use` or a
group's `use:` chooses between them.

The third-party distributions are faked on sys.path (a .dist-info with entry points), as pip
would leave them."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from drd_cli.cli._root import app
from drd_cli.errors import DrdError
from tests.plugins.plugin_support import fake_dist
from drd_cli.testing import resolve_text, step

# A community `pruvodce` written before drd shipped one: +5 on the rolls of those who list it.
GUIDE = '''
from drd_cli.plugin import hookimpl

@hookimpl
def drd_plugin_info():
    return {"title": "Průvodce (komunitní)", "kind": "ability", "api_version": 2}

@hookimpl
def drd_roll_modifier(participant, action):
    if participant.has_ability("pruvodce"):
        return {"amount": %d, "note": "průvodce"}
'''

SCENARIO = """
format: drd/1
participants:
  hero: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3, levels: {bojovnik: 2}, abilities: ABILITIES}
  ogre: {sudba: 9, ohrozeni: 1}
rounds:
  - steps:
      - id: t
        test: {actor: hero, pool: telo, bonus_from: bojovnik, dice: [2, 3], effect: {ohrozeni: 1}}
"""
UNRELATED = SCENARIO.replace("ABILITIES", "[]")
USING = SCENARIO.replace("ABILITIES", "[pruvodce]")


@pytest.fixture
def site(tmp_path, monkeypatch, installed_plugins):
    """A folder on sys.path for fake distributions; DRD_USE starts empty and is restored after."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.setenv("DRD_USE", "")
    monkeypatch.setenv("DRD_NO_CACHE", "1")

    def install(dist: str, module: str, amount: int) -> None:
        fake_dist(folder, dist, {"pruvodce": module}, {module: GUIDE % amount})
        monkeypatch.delitem(sys.modules, module, raising=False)
        monkeypatch.syspath_prepend(str(folder))      # a new sys.path: discovered anew

    install.folder = folder
    return install


def drd(tmp_path, text: str, *args: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(app, ["resolve", str(path), "--json", *args])


def test_unrelated_scenarios_resolve_byte_identically_beside_a_third_party_pruvodce(tmp_path, site):
    before = drd(tmp_path, UNRELATED, "--seed", "3")
    assert before.exit_code == 0, before.output
    site("drd-pruvodce", "drd_tp_pruvodce", 5)
    after = drd(tmp_path, UNRELATED, "--seed", "3")
    assert after.exit_code == 0, after.output
    assert after.stdout == before.stdout
    assert "replaces" not in after.stderr


def test_a_third_party_plugin_replaces_the_built_in_one_and_says_so(tmp_path, site):
    from drd_cli.plugins import choice

    built_in = resolve_text(USING)
    site("drd-pruvodce", "drd_tp_pruvodce", 5)
    choice._NOTED.clear()
    got = drd(tmp_path, USING)
    assert got.exit_code == 0, got.output
    result = json.loads(got.stdout)
    mods = result["steps"][0]["rolls"]["hero"].get("modifiers") or []
    assert [m["source"] for m in mods] == ["pruvodce"] and result["steps"][0]["rolls"]["hero"]["total"] == 12
    assert result["rules"]["replaced"] == {"pruvodce": "drd-pruvodce"} and "pruvodce" in result["rules"]["enabled"]
    assert "replaced" not in built_in["rules"]
    assert "drd-pruvodce" in got.stderr and "pruvodce" in got.stderr      # said on stderr, once
    again = drd(tmp_path, USING)
    assert "drd-pruvodce" not in again.stderr
    # the built-in one on purpose
    own = drd(tmp_path, USING, "--use", "pruvodce=drd-cli")
    assert own.exit_code == 0, own.output
    assert json.loads(own.stdout)["steps"][0]["rolls"]["hero"] == built_in["steps"][0]["rolls"]["hero"]


def test_drd_plugins_and_drd_rules_show_the_replacement(tmp_path, site):
    site("drd-pruvodce", "drd_tp_pruvodce", 5)
    out = CliRunner().invoke(app, ["plugins", "--lang", "en"])
    assert out.exit_code == 0, out.output
    lines = [line for line in out.stdout.splitlines() if line.startswith("pruvodce ")]
    assert len(lines) == 2 and any("replaces the built-in one (drd-cli)" in line for line in lines)
    cs = CliRunner().invoke(app, ["plugins", "--lang", "cs"])
    assert "nahrazuje vestavěný" in cs.stdout
    recs = {(r["id"], r["distribution"]): r for r in json.loads(CliRunner().invoke(app, ["plugins", "--json"]).stdout)}
    assert recs[("pruvodce", "drd-pruvodce")]["replaces"] == "drd-cli"
    assert recs[("pruvodce", "drd-cli")]["replaced_by"] == "drd-pruvodce"
    rules = CliRunner().invoke(app, ["rules", "--json"])
    assert json.loads(rules.stdout)["plugins"]["pruvodce"]["replaces"] == {"by": "drd-pruvodce", "builtin": "drd-cli"}


def test_two_third_party_plugins_with_one_id_fail_only_a_run_that_uses_it(tmp_path, site, monkeypatch):
    site("drd-pruvodce", "drd_tp_pruvodce", 5)
    site("drd-guide", "drd_tp_guide", 1)
    assert drd(tmp_path, UNRELATED).exit_code == 0                       # not used: no error
    got = drd(tmp_path, USING)
    assert got.exit_code == 1
    assert "drd-guide" in got.output and "drd-pruvodce" in got.output and "--use pruvodce=" in got.output
    assert "use: {pruvodce:" in got.output                               # the group profile's way
    one = drd(tmp_path, USING, "--use", "pruvodce=drd-guide")
    assert one.exit_code == 0, one.output
    assert json.loads(one.stdout)["steps"][0]["rolls"]["hero"]["total"] == 8
    assert json.loads(one.stdout)["rules"]["replaced"] == {"pruvodce": "drd-guide"}
    listed = json.loads(CliRunner().invoke(app, ["plugins", "--json"]).stdout)     # DRD_USE still says drd-guide
    chosen = {r["distribution"]: r["chosen"] for r in listed if r["id"] == "pruvodce"}
    assert chosen == {"drd-guide": "drd-guide", "drd-pruvodce": "drd-guide", "drd-cli": "drd-guide"}
    # the same in a group profile (the command line's `--use`, still in DRD_USE, would win over it)
    monkeypatch.setenv("DRD_USE", "")
    group = tmp_path / "g.yaml"
    group.write_text("name: g\nuse: {pruvodce: drd-pruvodce}\n", encoding="utf-8")
    r = resolve_text(USING, group=str(group))
    assert step(r, "t")["rolls"]["hero"]["total"] == 12


def test_a_choice_naming_no_claimant_is_exit_2_naming_them(tmp_path, site, monkeypatch):
    site("drd-pruvodce", "drd_tp_pruvodce", 5)
    got = drd(tmp_path, UNRELATED, "--use", "pruvodce=drd-nic", "--lang", "en")
    assert got.exit_code == 2 and "drd-cli" in got.output and "drd-pruvodce" in got.output
    bad = drd(tmp_path, UNRELATED, "--use", "pruvodce")
    assert bad.exit_code == 2 and "ID=DISTRIBUTION" in bad.output
    monkeypatch.setenv("DRD_USE", "")
    group = tmp_path / "g.yaml"
    group.write_text("name: g\nuse: {pruvodce: drd-nic}\n", encoding="utf-8")
    with pytest.raises(DrdError) as err:
        resolve_text(UNRELATED, group=str(group))
    assert err.value.exit_code == 2 and "g.yaml:2" in err.value.format()
