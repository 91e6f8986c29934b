"""Plugin-declared rules parameters (SCENARIO-FORMAT §6) and the #4 "bad input" cases, end to end.

The plugin is the tutorial's module (examples/drd-stit-predku), loaded as a local plugin
(`stit_predku.py` in a --plugins-dir folder → id `stit-predku`), so these run in-process and fast;
tests/plugins/test_tutorial_install.py does the same through a real pip install. Rule of the ability:
R-MAN-2 (a manoeuvre made free); its parameter `stit_predku_manoeuvre` picks which one.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.cli.plugins_cmd import PLUGINS_DIR_ENV
from drd_cli.errors import DrdError
from drd_cli.rules import ParamSpec, param_spec_from
from drd_cli.testing import drd_resolve  # noqa: F401 - the fixture plugin authors use

ROOT = Path(__file__).parents[2]
MODULE = ROOT / "examples" / "drd-stit-predku" / "drd_stit_predku.py"

# Ulrich's přesně, free with the tutorial's Štít předků (examples/drd-stit-predku).
SCENARIO = (Path(__file__).parents[1] / "data" / "stit-predku.yaml").read_text(encoding="utf-8")

GROUP = """\
# Naše skupina
name: nase
enable: []        # nic navíc
params:
  tie: counter    # remízy
"""


@pytest.fixture
def work(tmp_path, monkeypatch):
    """tmp_path with ./plugins/stit_predku.py (on DRD_PLUGINS_DIR), ./s.yaml and ./groups/nase.yaml."""
    (tmp_path / "plugins").mkdir()
    shutil.copy(MODULE, tmp_path / "plugins" / "stit_predku.py")
    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "groups").mkdir()
    (tmp_path / "groups" / "nase.yaml").write_text(GROUP, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(PLUGINS_DIR_ENV, str(tmp_path / "plugins"))
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path



def drd(*args: str):
    return CliRunner().invoke(app, list(args))


def resolve_json(*args: str) -> dict:
    r = drd("resolve", *args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def telo(result: dict) -> int:
    return result["final"]["ulrich"]["telo"]


# --------------------------------------------------------------------------- the parameter in every layer

def test_plugin_param_default_group_scenario_command_line(work):
    """R-MAN-2 via stit-predku: the parameter decides which manoeuvre is free; each layer overrides."""
    assert telo(resolve_json("s.yaml")) == 5                         # default presne → free
    r = drd("rules", "set", "stit_predku_manoeuvre", "obrana", "--group", "nase")
    assert r.exit_code == 0, r.output
    assert telo(resolve_json("s.yaml", "--group", "nase")) == 4      # group: obrana → přesně paid
    (work / "s2.yaml").write_text(SCENARIO + "rules: {params: {stit_predku_manoeuvre: presne}}\n", encoding="utf-8")
    assert telo(resolve_json("s2.yaml", "--group", "nase")) == 5     # scenario beats group
    res = resolve_json("s2.yaml", "--group", "nase", "--set", "stit_predku_manoeuvre=obrana")
    assert telo(res) == 4                                            # command line beats scenario
    # With obrana the plugin changed nothing here (přesně is paid), so the result does not name it
    # nor its parameter (docs/plugins.md "Lifecycle"); `drd rules` shows the value in effect.
    assert "stit_predku_manoeuvre" not in res["rules"]["params"]


def test_drd_rules_lists_plugin_param_with_origin_and_plugin(work):
    t = json.loads(drd("rules", "--json").stdout)
    assert t["params"]["stit_predku_manoeuvre"] == {"value": "presne", "origin": "default", "rule": "R-MAN-2",
                                                    "plugin": "stit-predku", "active": True,
                                                    "allowed": "presne | obrana"}
    assert t["params"]["tie"]["plugin"] is None
    (work / "s2.yaml").write_text(SCENARIO + "rules: {params: {stit_predku_manoeuvre: obrana}}\n", encoding="utf-8")
    t = json.loads(drd("rules", "s2.yaml", "--group", "nase", "--json").stdout)
    assert t["params"]["stit_predku_manoeuvre"]["origin"] == "scenario"
    assert t["params"]["tie"]["origin"] == "group nase"
    r = drd("rules", "s2.yaml", "--set", "stit_predku_manoeuvre=presne")
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.stdout.splitlines() if "stit_predku_manoeuvre" in ln)
    # The origin word follows the language (docs/i18n.md): Czech by default, English with --lang en.
    assert "presne" in line and "(příkazová řádka; R-MAN-2; plugin stit-predku)" in line
    r = drd("rules", "s2.yaml", "--set", "stit_predku_manoeuvre=presne", "--lang", "en")
    assert "(command line; R-MAN-2; plugin stit-predku)" in r.stdout


def test_group_set_keeps_comments_and_order_and_types_the_value(work):
    g = work / "groups" / "nase.yaml"
    assert drd("rules", "set", "stit_predku_manoeuvre", "obrana", "--group", "nase").exit_code == 0
    assert drd("rules", "set", "target", "8", "--group", "nase").exit_code == 0
    text = g.read_text(encoding="utf-8")
    assert text == ("# Naše skupina\nname: nase\nenable: []        # nic navíc\nparams:\n"
                    "  tie: counter    # remízy\n  stit_predku_manoeuvre: obrana\n  target: 8\n")


@pytest.mark.usefixtures("english")
@pytest.mark.parametrize("args, message", [
    (["stit_predku_manoeuvre", "mocne"], "stit_predku_manoeuvre must be one of presne, obrana, not 'mocne'"),
    (["stit_predku_manevr", "obrana"], "did you mean 'stit_predku_manoeuvre'?"),
    (["uplne_neznamy_parametr_xyz", "1"], "known: challenge_protect_cost"),
])
def test_group_set_refused_leaves_the_file_byte_identical(work, args, message):
    g = work / "groups" / "nase.yaml"
    before = g.read_bytes()
    r = drd("rules", "set", *args, "--group", "nase")
    assert r.exit_code == 2 and message in r.output, r.output
    assert g.read_bytes() == before


@pytest.mark.usefixtures("english")
def test_unknown_plugin_param_in_group_and_scenario_files_is_exit_2_with_location(work):
    g = work / "groups" / "nase.yaml"
    g.write_text(GROUP + "  stit_predku_manevr: obrana\n", encoding="utf-8")
    r = drd("resolve", "s.yaml", "--group", "nase")
    assert r.exit_code == 2
    assert re.search(r"groups/nase\.yaml:6:3: unknown rules parameter 'stit_predku_manevr'; did you mean "
                     r"'stit_predku_manoeuvre'\?", r.output), r.output
    (work / "s2.yaml").write_text(SCENARIO + "rules:\n  params: {stit_predku_manoeuvre: mocne}\n",
                                  encoding="utf-8")
    r = drd("resolve", "s2.yaml")
    assert r.exit_code == 2
    assert "s2.yaml:8:12: stit_predku_manoeuvre must be one of presne, obrana, not 'mocne'" in r.output, r.output


@pytest.mark.usefixtures("english")
def test_command_line_unknown_param_names_the_known_ones(work):
    r = drd("resolve", "s.yaml", "--set", "stit_predku_manoevre=obrana")
    assert r.exit_code == 2
    assert "command line: unknown rules parameter 'stit_predku_manoevre'; did you mean 'stit_predku_manoeuvre'?" \
        in r.output
    r = drd("resolve", "s.yaml", "--set", "qqq=1")
    assert r.exit_code == 2 and "stit_predku_manoeuvre" in r.output and "tie" in r.output   # the list of known


# --------------------------------------------------------------------------- a parameter of a disabled plugin

def test_param_of_a_disabled_plugin_is_accepted_but_inactive(work):
    """Documented decision (docs/plugins.md): kept, checked, listed as inactive, never used."""
    g = work / "groups" / "nase.yaml"
    g.write_text(GROUP.replace("enable: []", "disable: [stit-predku]") + "  stit_predku_manoeuvre: obrana\n",
                 encoding="utf-8")
    res = resolve_json("s.yaml", "--group", "nase")
    assert telo(res) == 4 and res["steps"][0]["manoeuvres"][0]["paid"] == "telo"
    assert "stit_predku_manoeuvre" not in res["rules"]["params"]
    t = json.loads(drd("rules", "--group", "nase", "--json").stdout)
    assert t["params"]["stit_predku_manoeuvre"] == {"value": "obrana", "origin": "group nase", "rule": "R-MAN-2",
                                                    "plugin": "stit-predku", "active": False,
                                                    "allowed": "presne | obrana"}
    assert "NEAKTIVNÍ" in drd("rules", "--group", "nase").stdout
    # still checked
    r = drd("resolve", "s.yaml", "--group", "nase", "--set", "stit_predku_manoeuvre=mocne")
    assert r.exit_code == 2 and "musí být jedno z presne, obrana" in r.output
    # enabling it for one run makes the group's value count
    assert telo(resolve_json("s.yaml", "--group", "nase", "--enable", "stit-predku")) == 4
    assert telo(resolve_json("s.yaml", "--group", "nase", "--enable", "stit-predku",
                             "--set", "stit_predku_manoeuvre=presne")) == 5


def test_set_on_a_group_where_the_plugin_is_off_writes_and_notes(work):
    g = work / "groups" / "nase.yaml"
    g.write_text("name: nase\ndisable: [stit-predku]\n", encoding="utf-8")
    r = drd("rules", "set", "stit_predku_manoeuvre", "obrana", "--group", "nase")
    assert r.exit_code == 0, r.output
    assert "drd rules enable stit-predku --group nase" in r.output
    assert "stit_predku_manoeuvre: obrana" in g.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- declarations

@pytest.mark.usefixtures("english")
def test_param_declarations():
    spec = param_spec_from("p", "p_count", {"default": 1, "type": "int", "rule": "R-X"})
    assert (spec.kind, spec.plugin, spec.parse("3")) == (int, "p", 3)
    with pytest.raises(ValueError, match="whole number"):
        spec.parse("-1")
    flag = param_spec_from("p", "p_flag", {"default": False})
    assert flag.kind is bool and flag.parse("ano") is True and flag.parse("off") is False
    with pytest.raises(ValueError, match="true or false"):
        flag.parse("snad")
    given = param_spec_from("p", "p_mode", ParamSpec("x", "a", "R-Y", "help", choices=("a", "b")))
    assert (given.name, given.plugin, given.describe()) == ("p_mode", "p", "a | b")
    for bad in ({"choices": ["a"]}, {"default": "c", "choices": ["a", "b"]}, {"default": 1, "colour": "red"}):
        with pytest.raises(ValueError):
            param_spec_from("p", "p_bad", bad)


@pytest.mark.usefixtures("english")
def test_bad_declarations_stop_the_run_naming_the_plugin(drd_resolve):
    from drd_cli.hookspecs import hookimpl

    class Clash:
        @hookimpl
        def drd_plugin_info(self):
            return {"title": "x", "params": {"tie": {"default": "actor"}}}

    class Broken:
        @hookimpl
        def drd_plugin_info(self):
            return {"title": "y", "params": {"y_mode": {"choices": ["a"]}}}

    with pytest.raises(DrdError) as info:
        drd_resolve(SCENARIO.replace("[stit-predku]", "[]"), plugins={"kolize": Clash()})
    assert "plugin 'kolize' declares the parameter 'tie'" in info.value.format()
    with pytest.raises(DrdError) as info:
        drd_resolve(SCENARIO.replace("[stit-predku]", "[]"), plugins={"rozbity": Broken()})
    assert info.value.exit_code == 1 and "plugin 'rozbity' declares its parameters wrongly" in info.value.format()
    assert "--disable rozbity" in info.value.format()


def test_hooks_see_the_params_in_effect(drd_resolve):
    """drd_round_end gets `params` (core and the plugin's own), read-only."""
    from drd_cli.hookspecs import hookimpl

    seen = []

    class Spy:
        @hookimpl
        def drd_plugin_info(self):
            return {"title": "spy", "params": {"spy_level": {"default": 2, "type": "int"}}}

        @hookimpl
        def drd_round_end(self, round_index, params):
            seen.append((round_index, params["spy_level"], params["tie"]))
            with pytest.raises(TypeError):
                params["tie"] = "x"       # read-only
            return None

    drd_resolve(SCENARIO.replace("[stit-predku]", "[]"), plugins={"spy": Spy()}, params={"spy_level": "7"})
    assert seen == [(1, 7, "actor")]


# --------------------------------------------------------------------------- bad input of #4

@pytest.mark.usefixtures("english")
def test_missing_ability_plugin_is_exit_2_naming_it(work, monkeypatch):
    monkeypatch.delenv(PLUGINS_DIR_ENV)
    r = drd("resolve", "s.yaml")
    assert r.exit_code == 2
    assert "s.yaml:3:" in r.output and "unknown ability 'stit-predku'" in r.output
    assert "--plugins-dir" in r.output


def test_ability_listed_while_its_plugin_is_off_does_nothing(work):
    res = resolve_json("s.yaml", "--disable", "stit-predku")
    assert res["steps"][0]["manoeuvres"][0]["paid"] == "telo" and telo(res) == 4


@pytest.mark.usefixtures("english")
def test_manoeuvre_via_a_disabled_ability_is_exit_1_naming_the_plugin(work):
    (work / "s2.yaml").write_text(SCENARIO.replace("manoeuvres: [presne]",
                                                   "manoeuvres: [{name: presne, via: stit-predku}]"),
                                  encoding="utf-8")
    assert telo(resolve_json("s2.yaml")) == 5
    r = drd("resolve", "s2.yaml", "--disable", "stit-predku")
    assert r.exit_code == 1
    assert re.search(r"s2\.yaml:6:\d+: manoeuvre 'presne' is made free via the ability 'stit-predku', whose "
                     r"plugin stit-predku is disabled", r.output), r.output
    assert "--enable stit-predku" in r.output


@pytest.mark.usefixtures("english")
def test_step_type_of_a_disabled_plugin_is_exit_1(work):
    r = drd("resolve", str(ROOT / "scenarios" / "zlatka-brana.yaml"), "--disable", "ukryvani")
    assert r.exit_code == 1 and "plugin ukryvani, which is disabled" in r.output
    assert "enable: [ukryvani]" in r.output


def test_rozsahla_counter_without_the_rule_is_exit_1_naming_it():
    r = drd("resolve", str(ROOT / "scenarios" / "ohnivec-vetrny-stit-bez-pravidla.yaml"))
    assert r.exit_code == 1
    assert "rozsahla-protiakce" in r.output and "[CS-OPT-AID]" in r.output
    assert re.search(r"ohnivec-vetrny-stit-bez-pravidla\.yaml:\d+:\d+:", r.output)


@pytest.mark.usefixtures("english")
def test_unknown_ids_in_an_extended_group_point_into_that_file(work):
    base = work / "groups" / "zaklad.yaml"
    base.write_text("name: zaklad\nenable: [plosna-protiakc]\nparams:\n  targte: 8\n", encoding="utf-8")
    (work / "groups" / "nase.yaml").write_text("name: nase\nextends: zaklad\nparams: {tie: counter}\n",
                                               encoding="utf-8")
    r = drd("rules", "--group", "nase")
    assert r.exit_code == 2
    assert re.search(r"groups/zaklad\.yaml:2:10: unknown rule or plugin id 'plosna-protiakc'", r.output), r.output
    assert re.search(r"groups/zaklad\.yaml:4:3: unknown rules parameter 'targte'", r.output), r.output
    base.write_text("name: zaklad\nenable: [plosna-protiakce]\n", encoding="utf-8")
    t = json.loads(drd("rules", "--group", "nase", "--json").stdout)
    assert t["plugins"]["plosna-protiakce"]["origin"] == "group zaklad"
    assert t["params"]["tie"]["origin"] == "group nase"


@pytest.mark.usefixtures("english")
def test_a_broken_enabled_plugin_does_not_stop_drd_rules(work):
    (work / "plugins" / "rozbity.py").write_text("import modul_ktery_neexistuje_xyz\n", encoding="utf-8")
    r = drd("rules", "--json")
    assert r.exit_code == 0, r.output
    rec = json.loads(r.stdout)["plugins"]["rozbity"]
    assert rec["enabled"] is True and "failed to load" in rec["error"] and "--disable rozbity" in rec["error"]
    r = drd("resolve", "s.yaml")
    assert r.exit_code == 1 and "rozbity" in r.output and "--disable rozbity" in r.output
    assert telo(resolve_json("s.yaml", "--disable", "rozbity")) == 5


def test_hooks_built_from_a_setup_carry_the_params(work):
    """Callers that build Hooks(setup.pm, enabled) themselves (odds, simulate) still give hooks `params`."""
    from drd_cli.api import setup_rules
    from drd_cli.engine.hooks import Hooks

    setup = setup_rules(None, params={"stit_predku_manoeuvre": "obrana"}, group="nase")
    hooks = Hooks(setup.pm, setup.profile.enabled)
    assert hooks.params["stit_predku_manoeuvre"] == "obrana" and hooks.params["tie"] == "counter"


@pytest.mark.usefixtures("english")
def test_followup_without_prostredi_names_the_plugin(tmp_path):
    """CS-FOL-1: a follow-up (without `threatens`) while prostredi is off → exit 1 naming prostredi, not
    a misleading "not threatened" refusal of the reaction it would allow."""
    text = (ROOT / "scenarios" / "horici-stodola.yaml").read_text(encoding="utf-8")
    text = text.replace("            threatens: [jarik, borri, zira]\n", "")
    (tmp_path / "f.yaml").write_text(text, encoding="utf-8")
    r = drd("resolve", str(tmp_path / "f.yaml"))
    assert r.exit_code == 0, r.output
    r = drd("resolve", str(tmp_path / "f.yaml"), "--disable", "prostredi")
    assert r.exit_code == 1
    assert re.search(r"f\.yaml:\d+:\d+: a follow-up action \(`followup`\) needs the plugin prostredi, which is "
                     r"disabled \[CS-FOL-1\]", r.output), r.output
    assert "--enable prostredi" in r.output
