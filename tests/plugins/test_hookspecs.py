"""Every hookspec is documented (`### drd_name(` in docs/plugins.md) and exercised by a test."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from drd_cli import hookspecs

ROOT = Path(__file__).parents[2]
DOCS = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")


def spec_names() -> list[str]:
    return sorted(name for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
                  if name.startswith("drd_") and hasattr(fn, "drd_spec"))


def test_there_are_hookspecs():
    assert "drd_resolve_contest" in spec_names()


@pytest.mark.parametrize("name", spec_names())
def test_hook_documented_with_signature(name):
    args = ", ".join(inspect.signature(getattr(hookspecs, name)).parameters)
    assert f"### {name}(" in DOCS, f"docs/plugins.md has no heading for {name}"
    assert f"### {name}({args})" in DOCS, f"docs/plugins.md: the heading of {name} must read {name}({args})"


@pytest.mark.parametrize("name", spec_names())
def test_hook_has_a_test(name):
    me = Path(__file__).name
    texts = [p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py") if p.name != me]
    assert any(name in t for t in texts), f"no test mentions {name}"
