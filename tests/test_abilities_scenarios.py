"""Per ability (issue #11): a scenario in scenarios/ lists it, and its `expect:` holds with the ability
and fails with the ability switched off (`--disable ID`) — the difference its mechanic predicts."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from test_abilities_catalogue import EXPECTED

ROOT = Path(__file__).resolve().parents[1]
CLASS_A = sorted(a for a, (k, _f) in EXPECTED.items() if k == "A")


def _outcome(path: Path, disable: tuple[str, ...] = ()) -> list:
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.check import compare_result
    from drd_cli.errors import DrdError

    expect = YAML(typ="safe").load(path.read_text(encoding="utf-8"))["expect"]
    result, code, text = None, 0, ""
    try:
        result = resolve_scenario(load_scenario(str(path)), seed=1, disable=disable)
    except DrdError as exc:
        code, text = exc.exit_code, exc.format()
    return compare_result(expect, result, code, text)


@pytest.fixture(scope="module")
def shown():
    from drd_cli.abilities import scenario_index

    return scenario_index(ROOT)


@pytest.mark.parametrize("aid", CLASS_A)
def test_the_ability_changes_its_scenario(shown, aid):
    files = shown.get(aid) or []
    assert files, f"no scenario lists {aid}"
    decisive = []
    for name in files:
        path = ROOT / "scenarios" / name
        if "expect" not in (YAML(typ="safe").load(path.read_text(encoding="utf-8")) or {}):
            continue
        assert not _outcome(path), f"{name}: its expect does not hold"
        if _outcome(path, disable=(aid,)):
            decisive.append(name)
    assert decisive, f"switching {aid} off changes nothing any of {files} expects"
