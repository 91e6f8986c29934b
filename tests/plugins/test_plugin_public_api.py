"""Built-in plugins use the public plugin API only (issue #10): every module under `plugins/`
imports nothing of drd_cli but `drd_cli.plugin` — at the top, inside functions, or through
`importlib` — so a third-party author can write anything they do from docs/plugins.md alone.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
MODULES = sorted((ROOT / "plugins").rglob("*.py"))
PUBLIC = "drd_cli.plugin"


def imports_of(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, dotted name) of every drd_cli module a tree imports, wherever the import statement is.

    `from drd_cli import plugin` counts as `drd_cli.plugin`, `from drd_cli import i18n` as
    `drd_cli.i18n`; `importlib.import_module("drd_cli.x")` and `__import__("drd_cli.x")` count too.
    """
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "drd_cli":
                out += [(node.lineno, f"drd_cli.{alias.name}") for alias in node.names]
            else:
                out.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                out.append((node.lineno, node.args[0].value))
    return [(line, name) for line, name in out if name == "drd_cli" or name.startswith("drd_cli.")]


def offending(source: str) -> list[str]:
    return [f"line {line}: {name}" for line, name in imports_of(ast.parse(source)) if name != PUBLIC]


def test_there_are_plugin_modules_to_check():
    names = {p.stem for p in MODULES}
    assert {"ukryvani", "plosna_protiakce", "kruhovy_sek", "_abilities", "padny_uder"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_plugin_module_imports_only_the_public_api(path):
    bad = offending(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.relative_to(ROOT)} imports drd_cli beyond {PUBLIC}: {bad}"


@pytest.mark.parametrize("source, bad", [
    ("from drd_cli.plugin import hookimpl\n", []),
    ("from drd_cli import plugin\n", []),
    ("import drd_cli.plugin\n", []),
    ("from drd_cli.hookspecs import hookimpl\n", ["line 1: drd_cli.hookspecs"]),
    ("from drd_cli import i18n\n", ["line 1: drd_cli.i18n"]),
    ("def f():\n    if True:\n        from drd_cli.engine.contest import pay_for\n", ["line 3: drd_cli.engine.contest"]),
    ("import importlib\nm = importlib.import_module('drd_cli.engine.actions')\n", ["line 2: drd_cli.engine.actions"]),
    ("x = __import__('drd_cli.errors')\n", ["line 1: drd_cli.errors"]),
    ("from drd_cli.plugins import PluginError\n", ["line 1: drd_cli.plugins"]),   # plugins ≠ plugin
    ("from .other import thing\nimport pluggy\n", []),
])
def test_the_scan_itself(source, bad):
    assert offending(source) == bad


def test_builtin_messages_are_still_extracted():
    """`_` from `translator()` is still found by `python -m drd_cli.i18n extract`."""
    pytest.importorskip("babel")
    from drd_cli.i18n import extract_messages

    found = extract_messages()
    where = {f for locs in found.values() for f, _line in locs}
    assert any(f.startswith("plugins/drd_plugins/ukryvani.py") for f in where)
    assert any(f.startswith("plugins/drd_plugins/_abilities.py") for f in where)
    assert "the zone holds {size} beings, more than a hrstka" in found


def test_importing_a_builtin_plugin_stays_light():
    """The toolkit (the engine) is loaded only when a resolver runs, not when a plugin is imported."""
    import subprocess
    import sys

    code = ("import sys, drd_plugins.plosna_protiakce, drd_plugins.kruhovy_sek, drd_plugins.prostredi;"
            "print(sorted(m for m in sys.modules if m.startswith('drd_cli.engine') or m == 'drd_cli.toolkit'))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
