"""Whatever a plugin does wrong is the plugin's failure: exit 1 naming it, never drd's bug (exit 3),
never silence, and machine output stays parseable (drd_cli/plugins/guard.py, docs/plugins.md).

Each case runs the real console script on a scenario with a plugin folder (`--plugins-dir`), the
way a user meets the plugin: a wrong answer from a hook, SystemExit at import or in a hook, a plugin
that prints, an absurd API version, a plugin declaring a core parameter.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

DRD = str(Path(sys.executable).parent / "drd")

# Ulrich's přesně test (R-MAN-2): asks drd_free_manoeuvre and drd_roll_modifier; `expect` makes
# `drd check` resolve it.
SCENARIO = """\
format: drd/1
seed: 7
participants:
  ulrich: {name: Ulrich, pools: {telo: 5, duse: 3, vliv: 3}, levels: {bojovnik: 2}}
rounds:
  - steps:
      - {id: t, test: {actor: ulrich, pool: telo, manoeuvres: [presne], bonus_from: bojovnik}}
expect: {exit: 0}
"""

HEAD = """\
from drd_cli.plugin import hookimpl

@hookimpl
def drd_plugin_info():
    return {"title": "Zlobivý", "kind": "house rule"}
"""


def _drd(tmp_path: Path, plugin: str, *args: str, head: str = HEAD) -> subprocess.CompletedProcess:
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    (folder / "zlobivy.py").write_text(textwrap.dedent(head) + textwrap.dedent(plugin), encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    argv = [DRD, "--plugins-dir", str(folder), *[str(scenario) if a == "FILE" else a for a in args]]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120,
                          env={**_env(), "LANG": "C.UTF-8", "LANGUAGE": "en"})


def _env() -> dict:
    import os

    return {k: v for k, v in os.environ.items() if k not in ("DRD_TRACE_PLUGINS", "DRD_PLUGINS_DIR")}


def _is_plugin_failure(r: subprocess.CompletedProcess, *words: str) -> None:
    assert r.returncode == 1, (r.returncode, r.stdout[-500:], r.stderr[-1500:])
    said = r.stderr + r.stdout      # `drd check` reports a file's failure on stdout
    assert "zlobivy" in said and "internal error" not in said and "Traceback" not in said, said
    for word in words:
        assert word in said, (word, said)


@pytest.mark.parametrize("hook, args, answer", [
    ("drd_roll_modifier", "participant, action, params", '"two"'),
    ("drd_roll_modifier", "participant, action, params", "float('nan')"),
    ("drd_roll_modifier", "participant, action, params", "10**5000"),
    ("drd_roll_modifier", "participant, action, params", "-10**30"),
    ("drd_roll_modifier", "participant, action, params", "{'amount': 'x'}"),
    ("drd_free_manoeuvre", "participant, action, manoeuvre, params", "True"),
    ("drd_free_manoeuvre", "participant, action, manoeuvre, params", "[1]"),
    ("drd_free_manoeuvre", "participant, action, manoeuvre, params", "'free'"),
    ("drd_free_manoeuvre", "participant, action, manoeuvre, params", "object()"),
    ("drd_free_manoeuvre", "participant, action, manoeuvre, params", "3.5"),
])
def test_a_wrong_answer_is_the_plugins_failure_naming_plugin_and_hook(tmp_path, hook, args, answer):
    r = _drd(tmp_path, f"\n@hookimpl\ndef {hook}({args}):\n    return {answer}\n", "resolve", "FILE", "--json")
    _is_plugin_failure(r, hook)
    assert r.stdout == ""


@pytest.mark.parametrize("command", [("resolve", "FILE"), ("check", "FILE"), ("schema",)])
def test_step_types_that_are_a_string_are_the_plugins_failure(tmp_path, command):
    r = _drd(tmp_path, "\n@hookimpl\ndef drd_step_types():\n    return 'hlidka'\n", *command)
    _is_plugin_failure(r, "drd_step_types")


def test_an_api_version_too_long_to_print_is_the_plugins_failure(tmp_path):
    head = HEAD.replace('"kind": "house rule"}', '"kind": "house rule", "api_version": 10**5000}')
    r = _drd(tmp_path, "", "resolve", "FILE", head=head)
    _is_plugin_failure(r, "API")


@pytest.mark.parametrize("code", ["0", "7", "None"])
def test_system_exit_at_import_is_the_plugins_failure(tmp_path, code):
    r = _drd(tmp_path, f"\nimport sys\nsys.exit({code})\n", "check", "FILE")
    _is_plugin_failure(r)


@pytest.mark.parametrize("code", ["0", "7"])
def test_system_exit_in_a_hook_is_the_plugins_failure_and_writes_nothing(tmp_path, code):
    plugin = f"\n@hookimpl\ndef drd_roll_modifier(participant, action, params):\n    raise SystemExit({code})\n"
    out = tmp_path / "out.txt"
    r = _drd(tmp_path, plugin, "resolve", "FILE", "-o", str(out))
    _is_plugin_failure(r, "drd_roll_modifier", "SystemExit")
    assert not out.exists()


def test_ctrl_c_in_a_hook_stays_the_users_interrupt(tmp_path):
    plugin = "\n@hookimpl\ndef drd_roll_modifier(participant, action, params):\n    raise KeyboardInterrupt\n"
    r = _drd(tmp_path, plugin, "resolve", "FILE")
    assert r.returncode == 130, (r.returncode, r.stderr)


PRINTS = """
print("hello from the import")

@hookimpl
def drd_roll_modifier(participant, action, params):
    print("hello from a hook")
    return None
"""


@pytest.mark.parametrize("command", [("resolve", "FILE", "--json"), ("plugins", "--json"), ("rules", "--json"),
                                     ("schema",)])
def test_what_a_plugin_prints_goes_to_stderr_and_json_stays_parseable(tmp_path, command):
    r = _drd(tmp_path, PRINTS, *command)
    assert r.returncode == 0, r.stderr
    json.loads(r.stdout)
    assert "hello from the import" in r.stderr


@pytest.mark.parametrize("command", [("resolve", "FILE"), ("check", "FILE")])
def test_a_plugin_declaring_a_core_parameter_is_exit_1_everywhere(tmp_path, command):
    head = HEAD.replace('"kind": "house rule"}',
                        '"kind": "house rule", "params": {"tie": {"default": "x", "type": "str"}}}')
    r = _drd(tmp_path, "", *command, head=head)
    assert r.returncode == 1, (r.returncode, r.stdout[-800:], r.stderr[-800:])
    assert "zlobivy" in r.stdout + r.stderr and "tie" in r.stdout + r.stderr
