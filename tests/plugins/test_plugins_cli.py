"""`drd plugins`, `drd rules`, `drd group new`, --plugins-dir, DRD_TRACE_PLUGINS."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from drd_cli.cli import plugins_cmd, rules_cmd

ROOT = Path(__file__).parents[2]


@pytest.fixture
def app():
    a = typer.Typer()

    @a.callback()
    def _root() -> None:
        """test root"""

    plugins_cmd.mount(a)
    rules_cmd.mount(a)
    return a


def invoke(app, args, **kw):
    return CliRunner().invoke(app, args, **kw)


def test_plugins_lists_builtins_with_hooks(app):
    r = invoke(app, ["plugins", "--json"])
    assert r.exit_code == 0, r.output
    data = {p["id"]: p for p in json.loads(r.stdout)}
    assert data["ukryvani"]["kind"] == "step type" and "drd_step_types" in data["ukryvani"]["hooks"]
    assert data["plosna-protiakce"]["enabled_by_default"] is False
    assert data["kruhovy-sek"]["distribution"] == "drd-cli"
    assert "drd_resolve_contest" in data["plosna-protiakce"]["hooks"]


def test_broken_local_plugin_is_listed_not_a_crash(app, tmp_path):
    (tmp_path / "rozbity.py").write_text("import neexistujici_modul_xyz\n", encoding="utf-8")
    r = invoke(app, ["plugins", "--json", "--plugins-dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    rec = {p["id"]: p for p in json.loads(r.stdout)}["rozbity"]
    assert rec["status"] == "broken" and "--disable rozbity" in rec["error"]


def test_rules_origins(app, tmp_path):
    g = tmp_path / "g.yaml"
    g.write_text("name: G\nenable: [rozsahla-protiakce]\nparams: {tie: counter}\n", encoding="utf-8")
    r = invoke(app, ["rules", "--json", "--group", str(g), "--set", "target=8",
                     str(ROOT / "scenarios" / "hrun-provazovy-most.yaml")])
    assert r.exit_code == 0, r.output
    t = json.loads(r.stdout)
    assert t["plugins"]["rozsahla-protiakce"] == {"enabled": True, "origin": "group G"}
    assert t["plugins"]["plosna-protiakce"] == {"enabled": True, "origin": "scenario"}
    assert t["plugins"]["ukryvani"]["origin"] == "default"
    assert t["params"]["tie"]["origin"] == "group G" and t["params"]["tie"]["value"] == "counter"
    assert t["params"]["target"] == {"value": 8, "origin": "command line", "rule": "R-TEST", "plugin": None,
                                     "active": True, "allowed": "whole number ≥ 0"}


GROUP = """# Naše skupina
name: Naše   # jméno
enable: [rozsahla-protiakce]
disable: []
params: {tie: counter}   # remízy
"""


def test_rules_edit_keeps_comments_and_order(app, tmp_path):
    g = tmp_path / "nase.yaml"
    g.write_text(GROUP, encoding="utf-8")
    assert invoke(app, ["rules", "disable", "kruhovy-sek", "--group", str(g)]).exit_code == 0
    assert invoke(app, ["rules", "enable", "plosna-protiakce", "--group", str(g)]).exit_code == 0
    assert invoke(app, ["rules", "set", "target", "8", "--group", str(g)]).exit_code == 0
    text = g.read_text(encoding="utf-8")
    assert text.startswith("# Naše skupina\nname: Naše   # jméno\n")
    assert "# remízy" in text
    assert "enable: [rozsahla-protiakce, plosna-protiakce]" in text
    assert "disable: [kruhovy-sek]" in text
    assert "target: 8" in text
    assert [ln.split(":")[0] for ln in text.splitlines() if ln and not ln.startswith("#")] == \
        ["name", "enable", "disable", "params"]
    # and the group still works
    r = invoke(app, ["rules", "--json", "--group", str(g)])
    t = json.loads(r.stdout)
    assert t["plugins"]["kruhovy-sek"]["enabled"] is False and t["params"]["target"]["value"] == 8


@pytest.mark.parametrize("args", [["enable", "neznamy-plugin"], ["set", "neznamy", "1"], ["set", "tie", "nikdo"]])
def test_rules_edit_unknown_is_exit_2_and_file_unchanged(app, tmp_path, args):
    g = tmp_path / "nase.yaml"
    g.write_text(GROUP, encoding="utf-8")
    r = invoke(app, ["rules", *args, "--group", str(g)])
    assert r.exit_code == 2
    assert g.read_text(encoding="utf-8") == GROUP


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root can write anywhere")
def test_rules_edit_unwritable_leaves_file(app, tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    g = d / "nase.yaml"
    g.write_text(GROUP, encoding="utf-8")
    d.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        r = invoke(app, ["rules", "enable", "plosna-protiakce", "--group", str(g)])
        assert r.exit_code != 0
        assert g.read_text(encoding="utf-8") == GROUP
    finally:
        d.chmod(stat.S_IRWXU)


def test_rules_edit_write_failure_leaves_file(app, tmp_path, monkeypatch):
    g = tmp_path / "nase.yaml"
    g.write_text(GROUP, encoding="utf-8")

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    r = invoke(app, ["rules", "enable", "plosna-protiakce", "--group", str(g)])
    assert r.exit_code != 0
    assert g.read_text(encoding="utf-8") == GROUP
    assert [p.name for p in tmp_path.iterdir()] == ["nase.yaml"]     # no temp file left behind


def test_group_new(app, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke(app, ["group", "new", "ctvrtek"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "groups" / "ctvrtek.yaml").is_file()
    assert invoke(app, ["group", "new", "ctvrtek"]).exit_code == 1
    assert invoke(app, ["rules", "enable", "plosna-protiakce", "--group", "ctvrtek"]).exit_code == 0
    r = invoke(app, ["rules", "--json", "--group", "ctvrtek"])
    assert json.loads(r.stdout)["plugins"]["plosna-protiakce"]["origin"] == "group ctvrtek"


def test_group_new_comments_follow_the_language(app, tmp_path, monkeypatch):
    """The new profile is commented in the table's language; both versions load as the same profile."""
    from drd_cli.groups import group_layer

    monkeypatch.chdir(tmp_path)
    assert invoke(app, ["group", "new", "cesky"]).exit_code == 0
    assert invoke(app, ["group", "new", "english", "--lang", "en"]).exit_code == 0
    cz = (tmp_path / "groups" / "cesky.yaml").read_text(encoding="utf-8")
    en = (tmp_path / "groups" / "english.yaml").read_text(encoding="utf-8")
    assert "# Profil herní skupiny cesky" in cz and "vypnout pluginy" in cz
    assert "# Game group profile english" in en and "switch plugins off" in en
    assert "Profil" not in en and "Game group" not in cz
    layers = [group_layer(str(tmp_path / "groups" / f"{n}.yaml"))[0] for n in ("cesky", "english")]
    assert layers[0].enable == layers[1].enable and layers[0].disable == layers[1].disable
    assert layers[0].params == layers[1].params == {}
    refused = invoke(app, ["group", "new", "cesky"])
    assert refused.exit_code == 1 and "už existuje" in refused.output


def test_example_groups_load():
    from drd_cli.groups import group_layer

    layer, _ = group_layer(str(ROOT / "groups" / "ctvrtek.yaml"))
    assert "rozsahla-protiakce" in layer.enable and layer.params == {"tie": "counter"}
    layer, _ = group_layer(str(ROOT / "groups" / "puristi.yaml"))
    assert "kruhovy-sek" in layer.disable


def test_global_plugins_dir_is_passed_through_env(monkeypatch):
    monkeypatch.delenv(plugins_cmd.PLUGINS_DIR_ENV, raising=False)
    rest = plugins_cmd.take_global_plugins_dir(["--plugins-dir", "/a", "--plugins-dir=/b", "plugins", "--json"])
    assert rest == ["plugins", "--json"]
    assert os.environ[plugins_cmd.PLUGINS_DIR_ENV] == os.pathsep.join(["/a", "/b"])


def test_trace_plugins(monkeypatch, capsys):
    from drd_cli.plugins import build_manager, discover

    monkeypatch.setenv("DRD_TRACE_PLUGINS", "1")
    pm = build_manager({"ukryvani"}, discover())
    pm.hook.drd_step_types()
    assert "[drd] drd_step_types → ukryvani" in capsys.readouterr().err


def test_drd_entry_point_mounts_commands():
    import subprocess

    exe = Path(sys.executable).parent / "drd"
    r = subprocess.run([str(exe), "plugins", "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert any(p["id"] == "ukryvani" for p in json.loads(r.stdout))


def test_plugins_kind_takes_the_code_or_the_word_in_either_language():
    """`--kind ability`, `--kind schopnost` and `--kind Schopnost` list the same plugins, whatever
    the run's language; an unknown kind is exit 2 with did-you-mean and the kinds there are."""
    from drd_cli.cli.app import app

    env = {"COLUMNS": "200", "NO_COLOR": "1"}
    ids = {}
    for kind, lang in (("ability", "cs"), ("schopnost", "cs"), ("Schopnost", "en"), ("ability", "en")):
        res = CliRunner().invoke(app, ["plugins", "--kind", kind, "--json", "--lang", lang], env=env)
        assert res.exit_code == 0, res.output
        ids[(kind, lang)] = [r["id"] for r in json.loads(res.output)]
    assert len(set(map(tuple, ids.values()))) == 1 and "gladiator" in ids[("ability", "cs")]
    assert "schopnosti" not in ids[("ability", "cs")]            # a rule area, not an ability
    res = CliRunner().invoke(app, ["plugins", "--kind", "oblast pravidel", "--json"], env=env)
    assert {r["kind"] for r in json.loads(res.output)} == {"rule area"}
    res = CliRunner().invoke(app, ["plugins", "--kind", "abilty", "--lang", "en"], env=env)
    assert res.exit_code == 2 and "did you mean 'ability'?" in res.output and "step type" in res.output, res.output


def test_boolean_values_are_written_as_the_user_writes_them():
    """`padny_uder_natural = false`, never Python's `False` (drd plugins, drd rules)."""
    from drd_cli.cli.app import app

    env = {"COLUMNS": "200", "NO_COLOR": "1"}
    out = CliRunner().invoke(app, ["plugins", "--lang", "en"], env=env).output
    assert "padny_uder_natural = false (true | false; R-ABIL-PROT)" in out, out
    out = CliRunner().invoke(app, ["rules", "--lang", "en"], env=env).output
    import re

    assert "False" not in out and re.search(r"\n  padny_uder_natural +false ", out), out
