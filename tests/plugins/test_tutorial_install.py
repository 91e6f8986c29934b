"""The plugin tutorial (docs/plugins.md) really works after `pip install` (issues #4 and #10).

`examples/drd-stit-predku` is the tutorial's package: the ability `stit-predku`, the house rule
`za-druha` and the step type `varta` (with its own Czech and English catalogs). Once per test
session it is copied to a temporary folder and pip-installed from there with `--target` into
another temporary folder (no network, no build isolation: hatchling comes from the dev venv; the
venv itself is not touched); `pip install -e` is checked the same way. Every check then runs `drd`
in a subprocess with that folder on the path, as a user would after installing the package.
Rules: R-MAN-2 (a manoeuvre made free by an ability), CS-FOR-2 (exhausting for others), R-TEST.
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

from tests.plugins.plugin_support import FACADE_TRACKS_ACTED

ROOT = Path(__file__).parents[2]
TUTORIAL = ROOT / "examples" / "drd-stit-predku"
DRD = Path(sys.executable).parent / "drd"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("hatchling") is None,
                                reason="the build backend hatchling is not installed in this interpreter")

# Ulrich's přesně, free with the tutorial's Štít předků (examples/drd-stit-predku).
SCENARIO = (Path(__file__).parents[1] / "data" / "stit-predku.yaml").read_text(encoding="utf-8")

GROUP = """\
# Skupina se štítem předků
name: stit
disable: []   # nic nevypínáme
params: {tie: actor}
"""


def copy_package(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("tutorial-src") / "drd-stit-predku"
    shutil.copytree(TUTORIAL, src, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "build", "dist",
                                                                 "*.egg-info"))
    return src


#: What the wheel must carry besides dist-info: five modules and a package with its catalogs.
INSTALLED = {"drd_stit_predku.py", "drd_za_druha.py", "drd_varta/__init__.py", "drd_strop_za_konflikt.py",
             "drd_spolecny_mesec.py", "drd_vyjednavani.py",
             "drd_varta/locale/cs/LC_MESSAGES/drd_varta.po", "drd_varta/locale/cs/LC_MESSAGES/drd_varta.mo",
             "drd_varta/locale/en/LC_MESSAGES/drd_varta.po", "drd_varta/locale/en/LC_MESSAGES/drd_varta.mo"}


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The folder the tutorial package was pip-installed into (once per session)."""
    target = tmp_path_factory.mktemp("tutorial-site")
    pip_install(copy_package(tmp_path_factory), target)
    files = {f.relative_to(target).as_posix() for f in target.rglob("*")
             if f.is_file() and "__pycache__" not in f.parts and ".dist-info" not in f.parent.name}
    assert files == INSTALLED      # the compiled catalogs are shipped in the package
    return target


@pytest.fixture(scope="session")
def editable_site(tmp_path_factory) -> tuple[Path, Path]:
    """(site folder, source folder) of `pip install -e` of the tutorial package (once per session)."""
    src = copy_package(tmp_path_factory)
    target = tmp_path_factory.mktemp("tutorial-editable")
    pip_install(src, target, "-e")
    [pth] = target.glob("*.pth")
    assert pth.read_text(encoding="utf-8").strip() == str(src)     # the source folder itself is on the path
    return target, src


def pip_install(src: Path, target: Path, *extra: str) -> None:
    env = dict(os.environ, PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                        "--target", str(target), *extra, str(src)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


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
    listed = {p["id"]: p for p in json.loads(r.stdout)}
    rule, step = listed["za-druha"], listed["varta"]
    assert (rule["distribution"], rule["kind"], rule["status"], rule["enabled_by_default"]) == \
        ("drd-stit-predku", "house rule", "ok", False)
    assert rule["params"]["za_druha_sleva"]["default"] == 1 and "drd_exhaustion_cost" in rule["hooks"]
    assert (step["kind"], step["enabled_by_default"]) == ("step type", True)
    assert {"drd_step_types", "drd_render_entry"} <= set(step["hooks"])
    rec = listed["stit-predku"]
    assert (rec["distribution"], rec["version"], rec["kind"], rec["status"]) == \
        ("drd-stit-predku", "0.2.0", "ability", "ok")
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
    assert "22 passed" in r.stdout


# --------------------------------------------------------------------------- the house rule, the step type, the scope

# The vodník wins; Ulrich exhausts for Ctěna, his comrade: Ohrožení 2, no armour → 2 Tělo (CS-FOR-2).
COMRADE = """\
format: drd/1
participants:
  ctena: {side: družina, pools: {telo: 1, duse: 2, vliv: 3}, ohrozeni: 4}
  ulrich: {side: družina, pools: {telo: 7, duse: 4, vliv: 6}, ohrozeni: 2}
  vodnik: {side: běsi, sudba: 10, ohrozeni: 2}
rounds:
  - steps:
      - id: s
        contest:
          action: {actor: vodnik, pool: telo, targets: [ctena], roll: 11, effect: {condition: pod vodou}}
          counters:
            - {actor: ctena, kind: protect, protects: [ctena], pool: telo, roll: 8}
            - {actor: ulrich, kind: harm, pool: telo, roll: 9, effect: {ohrozeni: 1}}
        choices: {ulrich: {vodnik: {exhaust: [ctena]}}}
"""

WATCH = """\
format: drd/1
participants:
  vlasta: {name: Vlasta, pools: {telo: 3, duse: 4, vliv: 3}}
rounds:
  - steps:
      - {id: noc, varta: {watcher: vlasta, hours: 5, roll: 10}}
"""

# Štít předků limited to melee by its own key: the melee test gets přesně free, the shooting one pays.
SCOPED = """\
format: drd/1
participants:
  ulrich: {pools: {telo: 5, duse: 3, vliv: 3}, abilities: [{id: stit-predku, means: melee}]}
rounds:
  - steps:
      - {id: luk, test: {actor: ulrich, pool: telo, means: shooting, manoeuvres: [presne], roll: 9}}
  - steps:
      - {id: mec, test: {actor: ulrich, pool: telo, means: melee, manoeuvres: [presne], roll: 9}}
  - steps:
      - {id: rec, test: {actor: ulrich, pool: vliv, manoeuvres: [presne], roll: 9}}
"""


def resolve_file(drd, tmp_path, text: str, *args: str, installed: bool = True) -> dict:
    (tmp_path / "x.yaml").write_text(text, encoding="utf-8")
    r = drd("resolve", "x.yaml", "--json", *args, installed=installed)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_the_house_rule_is_off_until_enabled_and_then_acts(drd, tmp_path):
    """CS-FOR-2 with `za-druha`: installed but off, the result and its digest are as without it."""
    off = resolve_file(drd, tmp_path, COMRADE)
    assert off["final"]["ulrich"]["telo"] == 5 and "za-druha" not in off["rules"]["enabled"]
    assert off == resolve_file(drd, tmp_path, COMRADE, installed=False)       # the digest included
    on = resolve_file(drd, tmp_path, COMRADE, "--enable", "za-druha")
    assert on["final"]["ulrich"]["telo"] == 6 and "za-druha" in on["rules"]["enabled"]
    assert on["rules"]["params"]["za_druha_sleva"] == 1 and on["digest"] != off["digest"]
    [entry] = on["steps"][0]["exhaustions"][0]["breakdown"]
    assert entry["adjustments"] == [{"source": "za-druha", "amount": -1}]
    # its parameter, from the command line (a group or scenario would do the same)
    more = resolve_file(drd, tmp_path, COMRADE, "--enable", "za-druha", "--set", "za_druha_sleva=2")
    assert more["final"]["ulrich"]["telo"] == 7


def test_the_step_type_renders_its_entry_in_czech_and_in_english(drd, tmp_path):
    """R-TEST: the `varta` step's entry in words, from the package's own catalogs (.mo)."""
    (tmp_path / "v.yaml").write_text(WATCH, encoding="utf-8")
    cs = drd("resolve", "v.yaml", "--lang", "cs")
    assert cs.returncode == 0, cs.stderr
    assert "Vlasta na vartě (5 hodin): nikdo neprošel" in cs.stdout and "on watch" not in cs.stdout
    en = drd("resolve", "v.yaml", "--lang", "en")
    assert en.returncode == 0, en.stderr
    assert "Vlasta on watch (5 hours): nobody got past" in en.stdout and "na vartě" not in en.stdout
    md = drd("resolve", "v.yaml", "--lang", "cs", "--format", "md")
    assert md.returncode == 0 and "Vlasta na vartě (5 hodin)" in md.stdout and "{'watcher'" not in md.stdout
    step = json.loads(drd("resolve", "v.yaml", "--json").stdout)["steps"][0]
    assert step["varta"] == {"watcher": "vlasta", "name": "Vlasta", "hours": 5, "held": True}
    # a mistake inside the plugin's step: exit 2 at file:line:col, as for core steps
    (tmp_path / "v2.yaml").write_text(WATCH.replace("hours:", "hodin:"), encoding="utf-8")
    bad = drd("resolve", "v2.yaml")
    assert bad.returncode == 2 and re.search(r"v2\.yaml:6:\d+: .*'hodin'", bad.stderr), bad.stderr


def test_the_ability_acts_only_in_its_scope(drd, tmp_path):
    """R-MAN-2 with `{id: stit-predku, means: melee}`: only the melee, bodily action gets přesně free."""
    res = resolve_file(drd, tmp_path, SCOPED)
    assert [s["manoeuvres"][0]["paid"] for s in res["steps"]] == ["telo", "free", "vliv"]
    assert res["final"]["ulrich"] == {**res["final"]["ulrich"], "telo": 4, "vliv": 2}
    # a value the ability's card does not allow: exit 2 at the key
    (tmp_path / "b.yaml").write_text(SCOPED.replace("means: melee}]", "means: magic}]"), encoding="utf-8")
    bad = drd("resolve", "b.yaml")
    assert bad.returncode == 2 and "b.yaml:3:" in bad.stderr and "magic" in bad.stderr, bad.stderr


def test_pip_install_e_works_offline(editable_site, tmp_path):
    """`pip install -e` of the tutorial package: drd finds all three plugins in the source folder."""
    target, src = editable_site
    env = {k: v for k, v in os.environ.items() if k not in ("DRD_PLUGINS_DIR", "DRD_DISABLE_PLUGIN_AUTOLOAD")}
    env["NO_COLOR"] = "1"
    (tmp_path / "v.yaml").write_text(WATCH, encoding="utf-8")
    # A .pth file works in a site directory (not on PYTHONPATH): the folder is added as pip's would be.
    boot = "import site, sys; site.addsitedir(sys.argv.pop(1)); from drd_cli.cli.app import main; main()"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", boot, str(target), *args], capture_output=True, text=True,
                              cwd=tmp_path, env=env, timeout=120)

    listed = {p["id"]: p for p in json.loads(run("plugins", "--json").stdout)}
    assert {listed[i]["status"] for i in ("stit-predku", "za-druha", "varta")} == {"ok"}
    r = run("resolve", "v.yaml", "--lang", "cs")
    assert r.returncode == 0 and "Vlasta na vartě (5 hodin): nikdo neprošel" in r.stdout, r.stderr
    assert (src / "drd_varta" / "__init__.py").is_file()
