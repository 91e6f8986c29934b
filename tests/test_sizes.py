"""Readable units (docs/architecture.md): no module in drd_cli/ or plugins/ over 600 lines and no
function over 80 — the functions still longer are listed below with their length, and the list may
only shrink (a test fails when one of them got shorter or is gone: take it off)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(list((ROOT / "drd_cli").rglob("*.py")) + list((ROOT / "plugins").rglob("*.py")))
GENERATED: set[str] = set()       # generated files would be exempt; none is over the limit today

#: Functions longer than 80 lines, still to be split: "file:function" → their length today.
TOO_LONG: dict[str, int] = {
}


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _functions() -> dict[str, int]:
    out = {}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 80:
                    out[f"{_rel(path)}:{node.name}"] = length
    return out


def test_no_module_over_600_lines():
    long = {_rel(p): n for p in SOURCES if _rel(p) not in GENERATED
            and (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, long


def test_no_new_function_over_80_lines():
    new = {name: n for name, n in _functions().items() if name not in TOO_LONG or n > TOO_LONG[name]}
    assert not new, f"over 80 lines (split them): {new}"


def test_the_list_of_long_functions_only_shrinks():
    now = _functions()
    shorter = {name: now.get(name) for name, n in TOO_LONG.items() if now.get(name, 0) < n}
    assert not shorter, f"shorter now or gone — update TOO_LONG in tests/test_sizes.py: {shorter}"
