"""Issue #13, item 3: nothing runs that nobody trusted (docs/cli.md, "Trust for local plugins").

The plugin folder here holds `spion.py`, a plugin that leaves a file `IMPORTED` in the cwd the
moment it is imported, and the step plugin `hlidka.py`. A profile naming that folder is trusted
only after `drd group trust`; a changed profile (or one it extends) is untrusted again. The
user's own config folder is trusted by default, but only when the whole chain lies in it.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.cli.plugins_cmd import PLUGINS_DIR_ENV

ROOT = Path(__file__).resolve().parents[2]
HLIDKA = ROOT / "tests" / "data" / "step_plugin" / "hlidka.py"
HANUS = ROOT / "scenarios" / "hanus-utek.yaml"
SPION = '''\
"""Leaves a mark when imported (a stand-in for any code that runs)."""
import pathlib

pathlib.Path("IMPORTED").write_text("ran", encoding="utf-8")


def drd_plugin_info():
    return {"title": "Spion", "kind": "rule"}
'''
HLIDKA_SCENARIO = """\
format: drd/1
participants:
  vlasta: {name: Vlasta, pools: {telo: 4, duse: 4, vliv: 2}}
rounds:
  - steps:
      - {id: h1, hlidka: {watcher: vlasta, roll: 9}}
"""

runner = CliRunner()


def drd(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def work(tmp_path, monkeypatch):
    """cwd with plug/ (spion, hlidka), groups/c.yaml naming it, s.yaml using hlidka."""
    (tmp_path / "plug").mkdir()
    (tmp_path / "plug" / "spion.py").write_text(SPION, encoding="utf-8")
    shutil.copy(HLIDKA, tmp_path / "plug" / "hlidka.py")
    (tmp_path / "groups").mkdir()
    (tmp_path / "groups" / "c.yaml").write_text("name: ctvrtek\nplugin_dirs: [../plug]\n", encoding="utf-8")
    (tmp_path / "s.yaml").write_text(HLIDKA_SCENARIO, encoding="utf-8")
    shutil.copy(HANUS, tmp_path / "hanus.yaml")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(PLUGINS_DIR_ENV, raising=False)
    return tmp_path


def imported(work: Path) -> bool:
    return (work / "IMPORTED").exists()


def trust_command(work: Path) -> str:
    return f"drd group trust {work / 'groups' / 'c.yaml'}"


@pytest.mark.parametrize("args", [["rules", "--group", "c"], ["rules", "--group", "c", "--json"],
                                  ["schema", "--group", "c"], ["plugins", "--group", "c"],
                                  ["plugins", "--group", "c", "--json"]])
def test_read_only_commands_list_untrusted_plugins_without_importing_them(work, args):
    res = drd(*args)
    assert res.exit_code == 0, res.output
    assert not imported(work)
    assert "nenačteno: profil není důvěryhodný" in res.output
    assert trust_command(work) in res.output


def test_rules_json_marks_the_untrusted_plugins(work):
    table = json.loads(drd("rules", "--group", "c", "--json").stdout)
    assert table["plugins"]["spion"]["not_loaded"] == "nenačteno: profil není důvěryhodný"
    assert table["plugins"]["spion"]["trust"] == trust_command(work)
    assert "not_loaded" not in table["plugins"]["kruhovy-sek"]
    assert table["group_file"] == os.path.join("groups", "c.yaml")


def test_a_run_that_needs_them_is_exit_1_with_the_command(work):
    for args in (["resolve", "hanus.yaml", "--group", "c"], ["resolve", "s.yaml", "--group", "c", "--json"],
                 ["simulate", "hanus.yaml", "-n", "2", "--group", "c"]):
        res = drd(*args)
        assert res.exit_code == 1, (args, res.output)
        assert "není důvěryhodný" in res.stderr and trust_command(work) in res.stderr
        assert "groups/c.yaml:2:1:" in res.stderr          # the `plugin_dirs:` that names them
    assert not imported(work)


def test_a_run_that_disables_them_all_needs_no_trust(work):
    res = drd("resolve", "hanus.yaml", "--group", "c", "--disable", "spion", "--disable", "hlidka")
    assert res.exit_code == 0, res.output
    assert not imported(work)


def test_editing_an_untrusted_group_imports_nothing(work):
    assert drd("rules", "set", "tie", "counter", "--group", "c").exit_code == 0
    assert drd("rules", "disable", "spion", "--group", "c").exit_code == 0   # its id is known by name
    # an unknown parameter makes drd look through every plugin's declarations: not these
    assert drd("rules", "set", "spion_mira", "1", "--group", "c").exit_code == 2
    assert not imported(work)


def test_trust_then_change_then_untrust(work):
    res = drd("group", "trust", "c")
    assert res.exit_code == 0, res.output
    assert "důvěryhodný: groups/c.yaml (sha256:" in res.stdout      # the profile as the user names it, relative
    assert str(work / "plug") in res.stdout
    r = drd("resolve", "s.yaml", "--group", "c", "--json")
    assert r.exit_code == 0, r.output
    assert imported(work)
    (work / "IMPORTED").unlink()
    # someone edits the profile: untrusted again, and the message says why
    with open(work / "groups" / "c.yaml", "a", encoding="utf-8") as fh:
        fh.write("params: {tie: counter}\n")
    r = drd("resolve", "s.yaml", "--group", "c")
    assert r.exit_code == 1 and "profil se od udělení důvěry změnil" in r.stderr
    assert not imported(work)
    assert drd("group", "trust", "groups/c.yaml").exit_code == 0          # by path: the same record
    assert drd("resolve", "s.yaml", "--group", "c").exit_code == 0
    (work / "IMPORTED").unlink()
    res = drd("group", "untrust", "c")
    assert res.exit_code == 0 and "důvěra odebrána" in res.stdout
    assert drd("resolve", "s.yaml", "--group", "c").exit_code == 1
    assert not imported(work)
    assert "nebyl důvěryhodný" in drd("group", "untrust", "c").stdout


def test_drd_own_edit_keeps_a_trusted_profile_trusted(work):
    assert drd("group", "trust", "c").exit_code == 0
    assert drd("rules", "set", "tie", "counter", "--group", "c").exit_code == 0
    assert drd("resolve", "s.yaml", "--group", "c").exit_code == 0


def test_a_change_in_an_extended_profile_untrusts_the_chain(work):
    (work / "groups" / "base.yaml").write_text("name: base\nplugin_dirs: [../plug]\n", encoding="utf-8")
    (work / "groups" / "c.yaml").write_text("name: ctvrtek\nextends: base\n", encoding="utf-8")
    assert drd("resolve", "s.yaml", "--group", "c").exit_code == 1          # through extends: still untrusted
    assert drd("group", "trust", "c").exit_code == 0
    assert drd("resolve", "s.yaml", "--group", "c").exit_code == 0
    (work / "IMPORTED").unlink()
    (work / "groups" / "base.yaml").write_text("name: base\nplugin_dirs: [../plug]\nnotes: x\n", encoding="utf-8")
    assert drd("resolve", "s.yaml", "--group", "c").exit_code == 1
    assert not imported(work)


def test_plugins_dir_on_the_command_line_needs_no_trust(work, monkeypatch):
    res = drd("rules", "--plugins-dir", "plug")
    assert res.exit_code == 0 and imported(work)
    (work / "IMPORTED").unlink()
    monkeypatch.setenv(PLUGINS_DIR_ENV, str(work / "plug"))     # `drd --plugins-dir plug resolve …`
    assert drd("resolve", "s.yaml").exit_code == 0 and imported(work)


def _config_groups() -> Path:
    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "drd" / "groups"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_profiles_in_the_users_config_folder_are_trusted_by_default(work, tmp_path):
    folder = _config_groups()
    (folder / "domaci.yaml").write_text(f"name: domaci\nplugin_dirs: [{work / 'plug'}]\n", encoding="utf-8")
    assert drd("resolve", "s.yaml", "--group", "domaci").exit_code == 0
    assert imported(work)


def test_a_config_profile_extending_a_local_one_is_not_trusted_by_default(work):
    folder = _config_groups()
    (folder / "domaci.yaml").write_text("name: domaci\nextends: base\n", encoding="utf-8")
    (work / "groups" / "base.yaml").write_text("name: base\nplugin_dirs: [../plug]\n", encoding="utf-8")
    res = drd("resolve", "s.yaml", "--group", "domaci")
    assert res.exit_code == 1, res.output
    assert f"drd group trust {folder / 'domaci.yaml'}" in res.stderr
    assert not imported(work)


def test_a_local_profile_shadowing_the_config_one_says_which_file_it_read(work):
    folder = _config_groups()
    (folder / "c.yaml").write_text("name: ctvrtek\nparams: {tie: counter}\n", encoding="utf-8")
    (work / "groups" / "c.yaml").write_text("name: ctvrtek\nparams: {target: 8}\n", encoding="utf-8")
    note = f"poznámka: skupina c: čtu {os.path.join('groups', 'c.yaml')}, který zastiňuje {folder / 'c.yaml'}"
    for args in (["resolve", "hanus.yaml", "--group", "c"], ["rules", "--group", "c"],
                 ["schema", "--group", "c"], ["rules", "set", "tie", "actor", "--group", "c"]):
        from drd_cli import groups

        groups._SHADOW_NOTED.clear()            # one note per process; each CLI run is a new process
        res = drd(*args)
        assert res.exit_code == 0, (args, res.output)
        assert note in res.stderr, (args, res.stderr)
    assert "Profil skupiny: groups/c.yaml" in drd("rules", "--group", "c").stdout


def test_the_trust_file_follows_the_environment(work, tmp_path, monkeypatch):
    store = tmp_path / "jinde" / "trust.json"
    monkeypatch.setenv("DRD_TRUST_FILE", str(store))
    assert drd("group", "trust", "c").exit_code == 0
    data = json.loads(store.read_text(encoding="utf-8"))
    assert data["format"] == "drd-trust/1"
    assert list(data["profiles"]) == [str(work / "groups" / "c.yaml")]
    monkeypatch.delenv("DRD_TRUST_FILE")
    assert drd("resolve", "s.yaml", "--group", "c").exit_code == 1        # the default file knows nothing
    default = Path(os.environ["XDG_DATA_HOME"]) / "drd" / "trusted.json"
    assert drd("group", "trust", "c").exit_code == 0 and default.is_file()


def test_a_damaged_trust_file_trusts_nothing_and_is_rewritten(work, monkeypatch):
    store = Path(os.environ["XDG_DATA_HOME"]) / "drd" / "trusted.json"
    store.parent.mkdir(parents=True)
    store.write_text("{not json", encoding="utf-8")
    assert drd("resolve", "s.yaml", "--group", "c").exit_code == 1
    assert drd("group", "trust", "c").exit_code == 0
    assert drd("resolve", "s.yaml", "--group", "c").exit_code == 0


def test_trusting_a_missing_or_broken_profile_is_exit_2(work):
    assert drd("group", "trust", "nic").exit_code == 2
    (work / "groups" / "zla.yaml").write_text("name: zla\nfoo: 1\n", encoding="utf-8")
    res = drd("group", "trust", "zla")
    assert res.exit_code == 2 and "groups/zla.yaml:2:1" in res.stderr


def test_the_library_api_refuses_untrusted_plugins_too(work):
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.plugins import PluginError

    with pytest.raises(PluginError, match="drd group trust"):
        resolve_scenario(load_scenario("s.yaml"), group="c")
    assert not imported(work)


# --------------------------------------------------------------------------- links and bytes read once

# Every command that reads a group profile and may import its plugin folders.
GROUP_COMMANDS = [
    ["resolve", "hanus.yaml", "--group", "g"],
    ["odds", "hanus.yaml", "utek", "--group", "g"],
    ["simulate", "hanus.yaml", "-n", "2", "--group", "g"],
    ["explain", "hanus.yaml", "--group", "g"],
    ["diff", "hanus.yaml", "--group", "g"],
    ["schema", "--group", "g"],
    ["plugins", "--group", "g"],
    ["rules", "--group", "g"],
    ["rules", "set", "tie", "actor", "--group", "g"],
]


def _trusted_elsewhere(tmp_path: Path) -> Path:
    """A trusted profile in another folder, whose plugin folder `../plug` there holds nothing."""
    other = tmp_path / "other"
    (other / "groups").mkdir(parents=True)
    (other / "plug").mkdir()
    profile = other / "groups" / "t.yaml"
    profile.write_text("name: t\nplugin_dirs: [../plug]\n", encoding="utf-8")
    assert drd("group", "trust", str(profile)).exit_code == 0
    return profile


@pytest.mark.parametrize("args", GROUP_COMMANDS, ids=lambda a: "-".join(a[:2]))
def test_a_link_to_a_trusted_profile_imports_the_folders_beside_the_real_file(work, tmp_path, args):
    """`groups/g.yaml` → a trusted profile elsewhere: its `../plug` is the trusted one's folder,
    never `plug/` beside the link (which holds the plugin that leaves a mark)."""
    (work / "groups" / "g.yaml").symlink_to(_trusted_elsewhere(tmp_path))
    res = drd(*args)
    assert res.exit_code in (0, 1), res.output
    assert not imported(work)
    assert "Traceback" not in res.output


@pytest.mark.parametrize("args", GROUP_COMMANDS, ids=lambda a: "-".join(a[:2]))
def test_a_link_into_the_users_config_folder_is_not_trusted_by_default(work, args):
    folder = _config_groups()
    (folder / "domaci.yaml").write_text("name: domaci\nplugin_dirs: [../../../plug]\n", encoding="utf-8")
    (work / "groups" / "g.yaml").symlink_to(folder / "domaci.yaml")
    (folder.parents[2] / "plug").mkdir(exist_ok=True)
    shutil.copy(work / "plug" / "spion.py", folder.parents[2] / "plug" / "spion.py")
    res = drd(*args, "--enable", "spion") if args[0] in ("resolve",) else drd(*args)
    assert not (work / "IMPORTED").exists(), res.output
    assert "Traceback" not in res.output
    if args[0] == "resolve":
        assert res.exit_code == 1 and "drd group trust" in res.stderr


def test_the_config_folders_own_file_is_still_trusted_by_default(work):
    folder = _config_groups()
    (folder / "domaci.yaml").write_text(f"name: domaci\nplugin_dirs: [{work / 'plug'}]\n", encoding="utf-8")
    from drd_cli import trust

    assert trust.status("domaci").reason == "config"
    (work / "groups" / "g.yaml").symlink_to(folder / "domaci.yaml")
    assert not trust.status(str(work / "groups" / "g.yaml")).trusted


def test_trust_is_decided_from_the_bytes_whose_folders_are_imported(work, monkeypatch):
    """Each profile is read once: the hash is of the parsed bytes, so a file changed after it
    was read (between two readings, before) cannot be imported under the old file's trust."""
    from drd_cli import groups, trust

    assert drd("group", "trust", "c").exit_code == 0
    reads: list[str] = []
    real_read = groups.read_profile

    def read_then_swap(path):
        profile = real_read(path)
        reads.append(str(path))
        # The file changes on disk the moment after it was read: too late to matter.
        Path(path).write_text("name: ctvrtek\nplugin_dirs: [../plug]\nenable: [spion]\n", encoding="utf-8")
        return profile

    monkeypatch.setattr(groups, "read_profile", read_then_swap)
    layer, dirs = groups.group_layer("c")
    allowed, untrusted = trust.split_group_dirs("c", dirs)
    assert reads == [os.path.join("groups", "c.yaml")]             # read once, for both
    assert untrusted is None and allowed == [str(work / "plug")]
    assert "spion" not in layer.enable                              # what was parsed is what was hashed
    assert dirs.files[0].data == b"name: ctvrtek\nplugin_dirs: [../plug]\n"
    assert trust.chain_digest(dirs.files) == trust.status("c", dirs.files).digest
    monkeypatch.setattr(groups, "read_profile", real_read)
    assert not trust.status("c").trusted                            # the swapped file: not trusted


@pytest.mark.parametrize("args", GROUP_COMMANDS, ids=lambda a: "-".join(a[:2]))
def test_a_profile_swapped_after_trust_imports_nothing(work, args):
    assert drd("group", "trust", "c").exit_code == 0
    (work / "groups" / "c.yaml").unlink()
    (work / "groups" / "c.yaml").write_text("name: ctvrtek\nplugin_dirs: [../plug]\n# changed\n", encoding="utf-8")
    (work / "groups" / "g.yaml").symlink_to(work / "groups" / "c.yaml")
    res = drd(*[a if a != "g" else "c" for a in args])
    assert not imported(work), res.output
    assert "Traceback" not in res.output


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file ownership is a POSIX notion")
def test_a_trust_file_every_user_may_write_trusts_nothing(work):
    assert drd("group", "trust", "c").exit_code == 0
    from drd_cli import trust

    assert trust.status("c").trusted
    store = trust.trust_file()
    os.chmod(store, 0o666)
    assert not trust.status("c").trusted
    os.chmod(store, 0o644)
    os.chmod(store.parent, 0o777)
    assert not trust.status("c").trusted
    os.chmod(store.parent, 0o755)
    assert trust.status("c").trusted
