"""What one process shares between the files of `drd check scenarios/*.yaml` (issue #14).

A run of `api.setup_rules` copies the installed plugins' entries from a per-process template,
makes its plugin manager with pluggy's hook specifications read once, and takes the previous run's
manager when it would register the same plugin modules, unchanged, for the same enabled ids,
listed abilities, parameters and language (`plugins.run_manager`). Each file must still give
exactly what a process of its own gives.
"""

from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest

from drd_cli import api, hookspecs, i18n, plugins
from drd_cli.cli.check import check_file
from drd_cli.plugin import hookimpl

ROOT = Path(__file__).parents[2]
SCENARIOS = sorted(glob.glob(str(ROOT / "scenarios" / "*.yaml")))
QUIET = ROOT / "scenarios" / "zlatka-zaves.yaml"          # no abilities listed
ABILITIES = ROOT / "scenarios" / "schopnosti-aktivace.yaml"  # lists abilities
WEATHER = ROOT / "scenarios" / "pisecna-boure.yaml"         # the environment plugin acts


def _forget() -> None:
    """What a new process would not have: the shared templates, specifications and manager."""
    from drd_cli.plugins import discovery, manager

    discovery._TEMPLATES.clear()
    manager._SHARED = None
    plugins._manager_class()._specs.clear()


def _report(path: str) -> tuple:
    r = check_file(path)
    return (r.status, r.exit, r.expected_exit, r.checked, [p.format() for p in r.problems])


def _result(path: str) -> tuple:
    try:
        out = api.resolve_scenario(api.load_scenario(path))
        return 0, json.dumps(out, ensure_ascii=False, sort_keys=True, default=str)
    except Exception as exc:  # noqa: BLE001 - the error is part of what must match
        return type(exc).__name__, getattr(exc, "format", lambda: str(exc))()


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_every_scenario_checks_and_resolves_as_in_a_process_of_its_own(lang):
    with i18n.using(lang):
        shared = [(_report(p), _result(p)) for p in SCENARIOS]
        alone = []
        for p in SCENARIOS:
            _forget()
            alone.append((_report(p), _result(p)))
    assert len(shared) == len(SCENARIOS) >= 98
    for path, got, want in zip(SCENARIOS, shared, alone):
        assert got == want, path


def test_switching_language_between_files_gives_each_its_own_language():
    _forget()
    with i18n.using("en"):
        english_alone = _result(str(WEATHER))
    _forget()
    with i18n.using("cs"):
        czech = _result(str(WEATHER))
    with i18n.using("en"):
        english = _result(str(WEATHER))
    with i18n.using("cs"):
        assert _result(str(WEATHER)) == czech
    assert english == english_alone


def test_the_manager_is_reused_only_for_the_same_plugins_listed_params_and_language(monkeypatch):
    monkeypatch.delenv("DRD_TRACE_PLUGINS", raising=False)
    quiet = api.load_scenario(str(QUIET))
    first = api.setup_rules(quiet)
    idle = first.pm.idle
    second = api.setup_rules(quiet)
    assert second.pm.manager is first.pm.manager
    # What a run has of its own is in its own Registry: its entries, its own (equal) idle plugins.
    assert second.pm is not first.pm
    assert second.entries is not first.entries and second.pm.entries is second.entries
    assert second.pm.idle == idle and second.pm.idle is not idle
    # Another set of listed abilities, other parameters, another enabled set, another language:
    # a manager of its own, and the one kept by the first Setup still shows its own parameters.
    assert api.setup_rules(api.load_scenario(str(ABILITIES))).pm.manager is not first.pm.manager
    other = api.setup_rules(quiet, params={"tie": "counter"})
    assert other.pm.manager is not first.pm.manager and other.pm.params["tie"] == "counter"
    assert first.pm.params["tie"] == first.profile.params["tie"] != "counter"
    assert api.setup_rules(quiet, disable=("prostredi",)).pm.manager is not first.pm.manager
    with i18n.using("en"):
        assert api.setup_rules(quiet).pm.manager is not first.pm.manager
    monkeypatch.setenv("DRD_TRACE_PLUGINS", "1")
    traced = api.setup_rules(quiet)
    assert api.setup_rules(quiet).pm.manager is not traced.pm.manager   # never kept: each traces its own


def test_a_plugin_folder_run_builds_its_own_manager(tmp_path):
    (tmp_path / "mistni.py").write_text("from drd_cli.plugin import hookimpl\n\n@hookimpl\n"
                                        "def drd_plugin_info():\n    return {'title': 'místní'}\n",
                                        encoding="utf-8")
    quiet = api.load_scenario(str(QUIET))
    a = api.setup_rules(quiet, plugin_dirs=(str(tmp_path),))
    b = api.setup_rules(quiet, plugin_dirs=(str(tmp_path),))
    assert "mistni" in a.profile.enabled and a.pm.manager is not b.pm.manager
    assert a.pm.get_plugin("mistni") is not b.pm.get_plugin("mistni")     # loaded anew, as before
    assert "mistni" not in api.setup_rules(quiet).profile.enabled


def test_a_replaced_hook_of_a_registered_plugin_is_what_the_next_run_calls(monkeypatch):
    weather = str(WEATHER)
    before = _result(weather)
    pm = api.setup_rules(api.load_scenario(weather)).pm
    module = pm.get_plugin("prostredi")
    assert module is not None and api.setup_rules(api.load_scenario(weather)).pm.manager is pm.manager
    calls = []
    original = module.drd_round_end

    @hookimpl
    def drd_round_end(scenario, round_index, round):  # noqa: A002 - the hook's own argument name
        calls.append(round_index)
        return original(scenario, round_index, round)

    monkeypatch.setattr(module, "drd_round_end", drd_round_end)
    assert api.setup_rules(api.load_scenario(weather)).pm.manager is not pm.manager
    assert _result(weather) == before and calls
    monkeypatch.undo()
    calls.clear()
    assert _result(weather) == before and not calls


def test_discover_gives_fresh_entries_from_its_template():
    first = plugins.discover()
    entry = first["prostredi"]
    plugins.load_plugin(entry)
    entry.rivals.append(plugins.PluginEntry("prostredi", "elsewhere.py", local=True))
    again = plugins.discover()
    assert again["prostredi"] is not entry
    assert again["prostredi"].module is None and again["prostredi"].info is None
    assert again["prostredi"].rivals == []
    assert list(again) == list(first) == sorted(first)


def test_discover_follows_the_autoload_switch_and_rival_distributions(tmp_path, monkeypatch, installed_plugins):
    import sys

    from tests.plugins.plugin_support import fake_dist

    code = "from drd_cli.plugin import hookimpl\n\n@hookimpl\ndef drd_plugin_info():\n    return {}\n"
    fake_dist(tmp_path, "drd-sdileny-a", {"sdileny": "sdileny_a"}, {"sdileny_a": code})
    fake_dist(tmp_path, "drd-sdileny-b", {"sdileny": "sdileny_b"}, {"sdileny_b": code})
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    importlib.invalidate_caches()
    found = plugins.discover()
    assert "sdileny" in found and [r.dist for r in found["sdileny"].rivals] == ["drd-sdileny-b"]
    found["sdileny"].rivals.clear()
    assert [r.dist for r in plugins.discover()["sdileny"].rivals] == ["drd-sdileny-b"]
    monkeypatch.setenv(plugins.AUTOLOAD_ENV, "1")
    assert "sdileny" not in plugins.discover()
    monkeypatch.delenv(plugins.AUTOLOAD_ENV)
    assert "sdileny" in plugins.discover()
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(tmp_path)])
    assert "sdileny" not in plugins.discover()      # another sys.path: another list, another template


def test_managers_share_hook_specifications_but_not_hook_callers(monkeypatch):
    import pluggy

    manager = plugins._manager_class()
    a, b = manager("drd"), manager("drd")
    a.add_hookspecs(hookspecs)
    b.add_hookspecs(hookspecs)
    assert a.hook.drd_round_end is not b.hook.drd_round_end
    assert a.hook.drd_round_end.spec is b.hook.drd_round_end.spec
    assert a.hook.drd_round_end.get_hookimpls() == []

    class Wrong:
        @hookimpl
        def drd_round_end(self, scenario, no_such_argument):
            return []

    with pytest.raises(pluggy.PluginValidationError):
        b.register(Wrong(), name="wrong")             # pluggy still checks against the reused spec

    def drd_round_end(scenario, round_index, round):  # noqa: A002
        """A replaced specification is read anew."""
    monkeypatch.setattr(hookspecs, "drd_round_end", hookspecs.hookspec(drd_round_end))
    c = manager("drd")
    c.add_hookspecs(hookspecs)
    assert c.hook.drd_round_end.spec is not a.hook.drd_round_end.spec
    assert c.hook.drd_round_end.spec.function is hookspecs.drd_round_end


def test_third_party_is_what_default_states_call_not_builtin():
    entries = plugins.discover()
    entries["cizi"] = plugins.PluginEntry("cizi", "cizi.py", local=True)
    extra = {"prostredi": object(), "jiny": object()}
    states = plugins.DefaultStates(entries, extra)
    assert plugins.third_party(entries, extra) == frozenset(p for p in states if not states.is_builtin(p))
    assert plugins.third_party(entries) == {"cizi"}


def test_no_rules_is_an_empty_rules_block_nobody_set():
    from drd_cli.scenario.models import RulesBlock, no_rules

    a, b = no_rules(), no_rules()
    assert a.model_dump() == RulesBlock().model_dump() == {"enable": [], "disable": [], "params": {}}
    assert a.model_fields_set == set() == RulesBlock().model_fields_set
    assert a.enable is not b.enable and a.params is not b.params
