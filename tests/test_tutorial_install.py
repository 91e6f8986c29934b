"""The plugin tutorial (docs/plugins.md) really works after `pip install` (issue #4, done when).

`examples/drd-stit-predku` is the tutorial's package. Once per test session it is copied to a
temporary folder and pip-installed from there with `--target` into another temporary folder (no
network, no build isolation: hatchling comes from the dev venv; /work/venv itself is not touched).
Every check then runs `drd` in a subprocess with that folder on PYTHONPATH, as a user would after
installing the package. Rule: R-MAN-2 (a manoeuvre made free by an ability).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.plugin_support import FACADE_TRACKS_ACTED

ROOT = Path(__file__).parent.parent
TUTORIAL = ROOT / "examples" / "drd-stit-predku"
DRD = Path(sys.executable).parent / "drd"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("hatchling") is None,
                                reason="the build backend hatchling is not installed in this interpreter")

# Ulrich's přesně, free with the tutorial's Štít předků (examples/drd-stit-predku).
SCENARIO = (Path(__file__).parent / "data" / "stit-predku.yaml").read_text(encoding="utf-8")

GROUP = """\
# Skupina se štítem předků
name: stit
disable: []   # nic nevypínáme
params: {tie: actor}
"""


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The folder the tutorial package was pip-installed into (once per session)."""
    src = tmp_path_factory.mktemp("tutorial-src") / "drd-stit-predku"
    shutil.copytree(TUTORIAL, src, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "build", "dist",
                                                                 "*.egg-info"))
    target = tmp_path_factory.mktemp("tutorial-site")
    env = dict(os.environ, PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                        "--target", str(target), str(src)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (target / "drd_stit_predku.py").is_file()
    return target


@pytest.fixture
def drd(site, tmp_path):
    """Runs `drd ARGS` in `tmp_path` with the installed package on the path → CompletedProcess."""
    # This test really installs a plugin, so it turns the suite's autoload switch off (tests/conftest.py).
    env = {k: v for k, v in os.environ.items()
           if k not in ("DRD_PLUGINS_DIR", "DRD_TRACE_PLUGINS", "DRD_DISABLE_PLUGIN_AUTOLOAD")}
    env.update(PYTHONPATH=str(site), NO_COLOR="1")

    def run(*args: str, installed: bool = True) -> subprocess.CompletedProcess:
        e = env if installed else {k: v for k, v in env.items() if k != "PYTHONPATH"}
        return subprocess.run([str(DRD), *args], capture_output=True, text=True, cwd=tmp_path, env=e, timeout=120)

    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "groups").mkdir()
    (tmp_path / "groups" / "stit.yaml").write_text(GROUP, encoding="utf-8")
    return run


def resolve_json(drd, *args: str) -> dict:
    r = drd("resolve", "s.yaml", "--json", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_drd_plugins_lists_the_installed_distribution(drd):
    r = drd("plugins", "--json")
    assert r.returncode == 0, r.stderr
    rec = {p["id"]: p for p in json.loads(r.stdout)}["stit-predku"]
    assert (rec["distribution"], rec["version"], rec["kind"], rec["status"]) == \
        ("drd-stit-predku", "0.1.0", "ability", "ok")
    assert rec["enabled_by_default"] is True and "drd_free_manoeuvre" in rec["hooks"]
    assert rec["params"] == {"stit_predku_manoeuvre": {"default": "presne", "allowed": "presne | obrana",
                                                       "rule": "R-MAN-2",
                                                       "help": "which manoeuvre the shield makes free once per round"}}


def test_installed_ability_changes_the_resolution_and_a_group_switches_it_off(drd):
    """R-MAN-2: with the plugin, přesně is free (Tělo stays 5); a group disabling it → paid (Tělo 4)."""
    on = resolve_json(drd, "--group", "stit")
    man = on["steps"][0]["manoeuvres"][0]
    assert (man["paid"], man["via"]) == ("free", "stit-predku") and on["final"]["ulrich"]["telo"] == 5
    assert "stit-predku" in on["rules"]["enabled"]     # it acted (made přesně free), so the result names it

    r = drd("rules", "disable", "stit-predku", "--group", "stit")
    assert r.returncode == 0, r.stderr
    off = resolve_json(drd, "--group", "stit")
    assert off["steps"][0]["manoeuvres"][0]["paid"] == "telo" and off["final"]["ulrich"]["telo"] == 4
    assert "stit-predku" not in off["rules"]["enabled"]
    r = drd("rules", "--group", "stit", "--json")
    assert json.loads(r.stdout)["plugins"]["stit-predku"] == {"enabled": False, "origin": "group stit"}


def test_without_the_install_the_ability_is_missing(drd):
    """The same scenario without the package: exit 2 naming the ability and how to get it."""
    r = drd("resolve", "s.yaml", installed=False)
    assert r.returncode == 2
    assert "s.yaml:3:" in r.stderr and "'stit-predku'" in r.stderr and "nainstalovaný" in r.stderr


def test_the_plugins_own_parameter_everywhere(drd, tmp_path):
    """stit_predku_manoeuvre (declared by the plugin): group file, command line, scenario, `drd rules`."""
    group = tmp_path / "groups" / "stit.yaml"
    r = drd("rules", "set", "stit_predku_manoeuvre", "obrana", "--group", "stit")
    assert r.returncode == 0, r.stderr
    text = group.read_text(encoding="utf-8")
    assert text.startswith("# Skupina se štítem předků\nname: stit\ndisable: []   # nic nevypínáme\n")
    assert "params: {tie: actor, stit_predku_manoeuvre: obrana}" in text
    # obrana is now the free one, so přesně is paid
    assert resolve_json(drd, "--group", "stit")["final"]["ulrich"]["telo"] == 4
    # the command line beats the group
    assert resolve_json(drd, "--group", "stit", "--set", "stit_predku_manoeuvre=presne")["final"]["ulrich"]["telo"] == 5
    table = json.loads(drd("rules", "--group", "stit", "--json").stdout)
    assert table["params"]["stit_predku_manoeuvre"] == {
        "value": "obrana", "origin": "group stit", "rule": "R-MAN-2", "plugin": "stit-predku", "active": True,
        "allowed": "presne | obrana"}
    # the scenario's rules: beat the group
    (tmp_path / "s2.yaml").write_text(SCENARIO + "rules: {params: {stit_predku_manoeuvre: presne}}\n",
                                      encoding="utf-8")
    r = drd("rules", "s2.yaml", "--group", "stit", "--json")
    assert json.loads(r.stdout)["params"]["stit_predku_manoeuvre"]["origin"] == "scenario"
    r = drd("resolve", "s2.yaml", "--group", "stit", "--json")
    assert json.loads(r.stdout)["final"]["ulrich"]["telo"] == 5
    if FACADE_TRACKS_ACTED:     # it acted (přesně free), so its parameter is in the result
        assert json.loads(r.stdout)["rules"]["params"]["stit_predku_manoeuvre"] == "presne"


def test_bad_values_of_the_plugins_parameter(drd, tmp_path):
    group = tmp_path / "groups" / "stit.yaml"
    r = drd("rules", "set", "stit_predku_manoeuvre", "mocne", "--group", "stit")
    assert r.returncode == 2 and "musí být jedno z presne, obrana" in r.stderr
    r = drd("rules", "set", "stit_predku_manevr", "obrana", "--group", "stit")
    assert r.returncode == 2 and "nemysleli jste 'stit_predku_manoeuvre'" in r.stderr
    assert group.read_text(encoding="utf-8") == GROUP
    r = drd("resolve", "s.yaml", "--set", "stit_predku_manoeuvre=mocne")
    assert r.returncode == 2 and "příkazová řádka: stit_predku_manoeuvre musí být jedno z presne, obrana" in r.stderr
    (tmp_path / "s3.yaml").write_text(SCENARIO + "rules:\n  params:\n    stit_predku_manoeuvre: 3\n",
                                      encoding="utf-8")
    r = drd("resolve", "s3.yaml")
    assert r.returncode == 2 and re.search(r"s3\.yaml:9:5: stit_predku_manoeuvre musí být jedno z", r.stderr), r.stderr


def test_the_tutorials_own_tests_pass_against_the_installed_package(site, tmp_path):
    """The package's tests (they use the `drd_resolve` fixture of drd_cli.testing) pass when installed."""
    # Only the tests and pyproject.toml: the module must come from the installed copy.
    tests = tmp_path / "pkg"
    shutil.copytree(TUTORIAL / "tests", tests / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(TUTORIAL / "pyproject.toml", tests)
    env = {k: v for k, v in os.environ.items() if k != "DRD_DISABLE_PLUGIN_AUTOLOAD"}   # it uses the installed copy
    env["PYTHONPATH"] = str(site)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=tests, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "3 passed" in r.stdout
