"""drd's own ability plugins that a run leaves unimported when nobody lists them (issue #14;
drd_cli/builtin_abilities.py, plugins.dormant): the list is what the plugins say, and sleeping
changes no result, no error and no parameter a profile may set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from drd_cli import abilities, builtin_abilities, plugins
from drd_cli.errors import DrdError
from drd_cli.testing import resolve_text

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


def test_the_list_is_in_sync_with_the_plugins():
    # python -m drd_cli.abilities manifest writes it
    text = abilities.render_manifest(abilities.dormant_manifest())
    assert (ROOT / "drd_cli" / "builtin_abilities.py").read_text(encoding="utf-8") == text
    assert len(builtin_abilities.ABILITY_PLUGINS) >= 70
    assert builtin_abilities.ABILITY_PLUGINS["skvely-taktik"] == ("skvely_taktik",)
    assert "schopnosti" not in builtin_abilities.ABILITY_PLUGINS         # a rule plugin with parameters
    assert "kruhovy-sek" not in builtin_abilities.ABILITY_PLUGINS        # a built-in of rules.BUILTIN_PLUGINS


def _result(path: Path, **kw) -> str:
    from drd_cli.api import load_scenario, resolve_scenario

    try:
        return json.dumps(resolve_scenario(load_scenario(str(path)), **kw), ensure_ascii=False, sort_keys=True)
    except DrdError as exc:
        return f"error {exc.exit_code}: {exc.format()}"


def test_sleeping_changes_no_result(monkeypatch):
    """Every scenario resolves to the same result (or the same error) whether drd's own ability
    plugins nobody lists sleep or are all loaded, as before."""
    asleep = {p.name: _result(p) for p in SCENARIOS}
    monkeypatch.setattr(builtin_abilities, "ABILITY_PLUGINS", {})
    awake = {p.name: _result(p) for p in SCENARIOS}
    assert asleep == awake
    assert sum(1 for text in asleep.values() if not text.startswith("error")) >= 80


TAKTIK_MODULE = plugins.discover()["skvely-taktik"].value.split(":")[0]


def _probe(args: list[str]) -> dict:
    code = r"""
import json, sys
from drd_cli.api import load_scenario, resolve_scenario
from drd_cli.errors import DrdError
params = dict(a.split("=", 1) for a in sys.argv[2:])
try:
    out = {"result": resolve_scenario(load_scenario(sys.argv[1]), params=params)["rules"]}
except DrdError as exc:
    out = {"error": exc.format(), "code": exc.exit_code}
out["modules"] = sorted(m for m in sys.modules if m.startswith("drd_plugins."))
print(json.dumps(out))
"""
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(proc.stdout)


def _unlisting_scenario() -> Path:
    """A scenario whose participants list no ability."""
    for path in SCENARIOS:
        text = path.read_text(encoding="utf-8")
        if "abilities" not in text and "schopnosti" not in text and "enables" not in text and "dakara" not in text:
            return path
    raise AssertionError("no scenario without abilities")


def test_a_run_listing_no_ability_imports_none_of_them():
    got = _probe([str(_unlisting_scenario())])
    assert "result" in got
    assert "drd_plugins.zbehlost" not in got["modules"] and "drd_plugins.nadani" not in got["modules"]
    assert "drd_plugins.schopnosti" in got["modules"]        # not an ability plugin: loaded as ever


def test_a_parameter_of_a_sleeping_plugin_is_still_known_and_checked():
    path = str(_unlisting_scenario())
    ok = _probe([path, "skvely_taktik=none"])
    assert "result" in ok and "skvely_taktik" not in ok["result"]["params"]   # its owner did not act
    assert TAKTIK_MODULE in ok["modules"]                                    # woken for its parameter
    assert TAKTIK_MODULE not in _probe([path])["modules"]
    bad = _probe([path, "skvely_taktik=kdykoli"])
    assert bad["code"] == 2 and "skvely_taktik" in bad["error"]
    unknown = _probe([path, "skvely_taktikk=none"])
    assert unknown["code"] == 2 and "skvely_taktik" in unknown["error"]      # did you mean, as before


def test_another_plugin_declaring_a_sleeping_plugins_parameter_is_still_a_clash():
    rival = type("Rival", (), {})()
    rival.drd_plugin_info = lambda: {"title": "Rival", "kind": "rule",
                                     "params": {"skvely_taktik": {"default": "x", "choices": ["x", "y"]}}}
    text = _unlisting_scenario().read_text(encoding="utf-8")
    with pytest.raises(DrdError) as info:
        resolve_text(text, plugins={"zz-rival": rival})
    assert "skvely_taktik" in info.value.format() and "skvely-taktik" in info.value.format()


def test_a_listed_ability_wakes_only_itself():
    path = next(p for p in SCENARIOS if p.name.startswith("schopnosti-") and "skvely" in p.read_text(encoding="utf-8"))
    got = _probe([str(path)])
    assert "result" in got and "skvely-taktik" in got["result"]["enabled"]
    assert "drd_plugins.zbehlost" not in got["modules"] or "zbehlost" in path.read_text(encoding="utf-8")


def test_dormant_needs_a_plain_own_entry():
    entries = plugins.discover()
    entry = entries["akrobat"]
    assert plugins.dormant("akrobat", entry, set()) is True
    assert plugins.dormant("akrobat", entry, {"akrobat"}) is False
    assert plugins.dormant("akrobat", entry, None) is False            # any may act (drd rules, odds…)
    assert plugins.dormant("schopnosti", entries["schopnosti"], set()) is False
    other = plugins.PluginEntry(id="akrobat", value="x:y", dist="drd-jiny", replaces=entry)
    assert plugins.dormant("akrobat", other, set()) is False            # a third-party one in its place
    clash = plugins.PluginEntry(id="akrobat", value="x:z", dist="drd-treti")
    other.rivals = [clash]
    with pytest.raises(plugins.PluginError):       # a clash's claimants are imported to see if the run uses it
        plugins.dormant("akrobat", other, set())
