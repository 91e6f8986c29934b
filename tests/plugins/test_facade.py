"""The hook façade owns every call into a plugin: `drd_resolve_contest` too (plugin-id order, a
failure attributed to the plugin), and DRD_TRACE_PLUGINS=1 shows the calls it makes."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from drd_cli.errors import DrdError
from drd_cli.plugin import hookimpl
from drd_cli.plugins import PluginError
from drd_cli.testing import resolve_text

ROOT = Path(__file__).resolve().parents[2]
AREA = (ROOT / "scenarios" / "hrun-provazovy-most.yaml").read_text(encoding="utf-8")   # plosna-protiakce takes over


def _plugin(**hooks) -> types.ModuleType:
    module = types.ModuleType("facade_test_plugin")
    module.drd_plugin_info = hookimpl(lambda: {"title": "Test", "kind": "house rule"})
    for name, fn in hooks.items():
        setattr(module, name, hookimpl(fn))
    return module


def test_a_contest_plugin_that_raises_is_the_plugins_failure_in_id_order():
    def drd_resolve_contest(engine, spec, choices, path):
        raise ValueError("oops")

    # "aaa" comes before plosna-protiakce by id, so it is asked first.
    with pytest.raises(PluginError) as info:
        resolve_text(AREA, plugins={"aaa": _plugin(drd_resolve_contest=drd_resolve_contest)})
    text = str(info.value.problems[0].message)
    assert "'aaa'" in text and "drd_resolve_contest" in text and "ValueError" in text


def test_a_contest_plugin_that_answers_none_leaves_it_to_the_next_one():
    seen = []

    def drd_resolve_contest(engine, spec, choices, path):
        seen.append(path)
        return None

    plain = resolve_text(AREA, plugins={"aaa": _plugin()})
    assert resolve_text(AREA, plugins={"aaa": _plugin(drd_resolve_contest=drd_resolve_contest)}) == plain
    assert seen


def test_a_contest_plugins_refusal_is_its_message_to_the_user():
    from drd_cli.errors import RuleViolation

    def drd_resolve_contest(engine, spec, choices, path):
        raise RuleViolation("ne", rule="R-CONT", path=path)

    with pytest.raises(DrdError) as info:
        resolve_text(AREA, plugins={"aaa": _plugin(drd_resolve_contest=drd_resolve_contest)})
    assert isinstance(info.value, RuleViolation) and not isinstance(info.value, PluginError)


def test_trace_shows_the_calls_the_facade_makes(monkeypatch, capsys):
    monkeypatch.setenv("DRD_TRACE_PLUGINS", "1")
    resolve_text(AREA, plugins={"aaa": _plugin(drd_resolve_contest=lambda engine, spec, choices, path: None)})
    err = capsys.readouterr().err
    # Both implementations, in plugin-id order (pluggy's own order would be the reverse).
    assert "[drd] drd_resolve_contest → aaa\n[drd] drd_resolve_contest → plosna-protiakce" in err
