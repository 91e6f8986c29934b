"""Startup budget: the fast paths of `drd` must not import the heavy libraries (subprocess tests)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

HEAVY = ("rich", "pydantic", "ruamel", "pluggy", "drd_cli.engine", "drd_cli.api", "drd_cli.scenario.models")
# `drd stul`'s web stack (docs/stul.md): only that command (and `drd play --stul`) may import it.
WEB = ("starlette", "uvicorn", "jinja2", "segno", "anyio", "h11", "playwright", "drd_cli.table")

PROBE = textwrap.dedent("""
    import json, sys
    argv = json.loads(sys.argv[1])
    sys.argv = ["drd"] + argv
    from drd_cli.cli.app import main
    code = 0
    try:
        main(argv)
    except SystemExit as exc:
        code = exc.code or 0
    loaded = sorted({m.split(".")[0] if not m.startswith("drd_cli") else m for m in sys.modules})
    sys.stderr.write("\\n@@" + json.dumps({"code": code, "modules": loaded}) + "\\n")
""")


def probe(args: list[str], **env: str) -> tuple[int, set[str], str]:
    import json

    full_env = {k: v for k, v in os.environ.items() if not k.startswith("_DRD_")}
    full_env.update(env)
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True, text=True,
                          env=full_env, timeout=60)
    marker = proc.stderr.rsplit("@@", 1)
    assert len(marker) == 2, proc.stderr
    info = json.loads(marker[1])
    return info["code"], set(info["modules"]), proc.stdout


def heavy_in(modules: set[str]) -> set[str]:
    return {h for h in HEAVY + WEB if h in modules}


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["stul", "--help"], ["play", "--help"],
                                  ["resolve", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                           "scenarios", "hanus-chrani-jinocha.yaml")]])
def test_no_command_but_stul_imports_the_web_stack(args):
    code, modules, out = probe(args)
    assert code == 0, out
    assert not {w for w in WEB if w in modules}, args


def test_version_imports_nothing_heavy():
    code, modules, out = probe(["--version"])
    assert code == 0
    assert out.strip() == "drd 0.1.0"
    assert heavy_in(modules) == set()
    # `drd --version` alone is answered before typer is imported (issue #14: ≤ 1.25× `import typer`).
    assert "typer" not in modules


@pytest.mark.parametrize("args", [["-V"], ["resolve", "--version"]])
def test_version_spellings_behave_as_before(args):
    code, modules, out = probe(args)
    if args[0] == "resolve":
        assert code == 2                     # not an option of `resolve`: a usage error, as always
    else:
        assert code == 0 and out.strip() == "drd 0.1.0"


def test_a_command_builds_only_itself():
    code, modules, out = probe(["schema"])
    assert code == 0
    # The other command modules are not even imported.
    assert not {"drd_cli.cli.play", "drd_cli.cli.dakara", "drd_cli.cli.diff", "drd_cli.cli.rules_cmd"} & modules


def test_help_needs_neither_markdown_nor_pygments():
    for args in (["--help"], ["resolve", "--help"], ["dakara", "--help"]):
        code, modules, out = probe(args)
        assert code == 0
        assert not {"markdown_it", "pygments"} & modules, args


@pytest.mark.parametrize("words,cword,expect", [
    ("drd re", 1, "resolve"),
    ("drd resolve x --choose ", 4, "exhaust"),
    ("drd check --format ", 3, "github"),
    ("drd resolve --se", 2, "--seed"),
])
def test_completion_imports_nothing_heavy(words, cword, expect):
    code, modules, out = probe([], _DRD_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(cword))
    assert expect in out.split()
    assert heavy_in(modules) == set()


def test_help_imports_only_rich():
    code, modules, out = probe(["--help"])
    assert code == 0
    assert "resolve" in out and "check" in out and "schema" in out
    assert heavy_in(modules) <= {"rich"}


@pytest.mark.parametrize("command", ["resolve", "check", "schema", "diff"])
def test_command_help_imports_only_rich(command):
    code, modules, out = probe([command, "--help"])
    assert code == 0
    assert heavy_in(modules) <= {"rich"}


def test_console_script_version():
    exe = os.path.join(os.path.dirname(sys.executable), "drd")
    if not os.path.exists(exe):
        pytest.skip("console script not installed (pip install -e .)")
    proc = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "drd 0.1.0"


def test_play_help_imports_no_pydantic_ruamel_pluggy_or_engine():
    """`drd play --help` (issue #6): like every command's help, at most rich (which typer formats
    help with); never pydantic, ruamel, pluggy or the engine."""
    code, modules, out = probe(["play", "--help"])
    assert code == 0
    assert "--replay" in out
    assert heavy_in(modules) <= {"rich"}


def readme_example(folder) -> str:
    """The README's `hanus.yaml`, written into `folder`."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    body = re.search(r"Save this as `hanus.yaml`:\n\n```yaml\n(.*?)```", text, re.S).group(1)
    path = folder / "hanus.yaml"
    path.write_text(body, encoding="utf-8")
    return str(path)


FULL_NAMES = textwrap.dedent("""
    import json, sys
    from drd_cli.cli.app import main
    try:
        main(sys.argv[1:])
    except SystemExit as exc:
        sys.stderr.write("\\n@@" + json.dumps({"code": exc.code or 0, "modules": sorted(sys.modules)}) + "\\n")
""")


def full_probe(args: list[str], **env: str) -> tuple[int, set[str], str]:
    import json

    full_env = {k: v for k, v in os.environ.items() if not k.startswith("_DRD_")}
    full_env.update(env)
    proc = subprocess.run([sys.executable, "-c", FULL_NAMES, *args], capture_output=True, text=True,
                          env=full_env, timeout=60)
    info = json.loads(proc.stderr.rsplit("@@", 1)[1])
    return info["code"], set(info["modules"]), proc.stdout


def test_resolving_a_small_file_reads_no_metadata_and_builds_only_the_views_it_needs(tmp_path):
    """Issue #14: the second run of `drd resolve` takes the entry points from the user's cache
    (no importlib.metadata, no e-mail parser), builds no pydantic TypeAdapter for its options
    (no typer._adapters) and makes only the view classes the engine records (drd_cli/views)."""
    path = readme_example(tmp_path)
    env = {"DRD_CACHE_DIR": str(tmp_path / "cache")}
    first = full_probe(["resolve", path, "--json"], **env)
    code, modules, out = full_probe(["resolve", path, "--json"], **env)
    assert code == 0 and first[0] == 0 and out == first[2] and '"exhaustions"' in out
    assert "importlib.metadata" in first[1]
    assert not {"importlib.metadata", "email.parser", "typer._adapters"} & modules
    assert "drd_cli.views._records" in modules
    assert not {"drd_cli.views._participant", "drd_cli.views._action", "drd_cli.views._exhaustion"} & modules


def test_the_console_script_leaves_at_once_yet_loses_no_output(tmp_path):
    """`drd` ends its process without the interpreter's teardown when only drd's own code ran
    (cli/app.py `_leave_now`): everything written is there and the exit code is kept; with a
    local plugin loaded, the ordinary exit runs, with its last garbage collection (the plugin's
    unclosed file is flushed)."""
    # The console script's own call: main() with no arguments is the whole process.
    exe = [sys.executable, "-c", "import sys; from drd_cli.cli.app import main; sys.argv[0] = 'drd'; main()"]
    path = readme_example(tmp_path)
    env = {**os.environ, "DRD_CACHE_DIR": str(tmp_path / "cache")}
    ok = subprocess.run([*exe, "resolve", path, "--json"], capture_output=True, text=True, env=env, timeout=60)
    assert ok.returncode == 0 and ok.stdout.rstrip().endswith("}") and ok.stderr == ""
    bad = subprocess.run([*exe, "resolve", str(tmp_path / "missing.yaml")], capture_output=True, text=True,
                         env=env, timeout=60)
    assert bad.returncode == 2 and bad.stderr.endswith("\n") and "missing.yaml" in bad.stderr
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    trace = tmp_path / "trace.txt"
    (plugins / "stopa.py").write_text(textwrap.dedent(f"""
        from drd_cli.plugin import hookimpl

        _log = open({str(trace)!r}, "w", encoding="utf-8")   # never closed: flushed at the exit
        _log.write("imported\\n")

        @hookimpl
        def drd_plugin_info():
            return {{"title": "Stopa", "kind": "rule"}}
    """), encoding="utf-8")
    run = subprocess.run([*exe, "--plugins-dir", str(plugins), "resolve", path, "--json"], capture_output=True,
                         text=True, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    assert trace.read_text(encoding="utf-8") == "imported\n"
