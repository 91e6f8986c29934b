"""Issue #13, item 1: nothing a user has is lost to an output.

* an `--output` that is an input (the scenario, a `--verify` file, the group profile), however
  spelled (`./x`, `../d/x`, a hard link, a symlink), is exit 2 and nothing is written;
* `-o` onto a symlink writes the link's target, atomically, in the target's folder; the link stays;
* our temp files are `.drd-<pid>-<random>.tmp`, and a leftover one (a drd killed mid-write) is
  removed by the next write to that folder;
* a failure to write standard output (full disk, closed stdout) is one line with the system's
  reason and exit 2, never exit 0 and never an internal error.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.safefiles import TEMP_PREFIX, clean_stale_temps, replace_atomically

ROOT = Path(__file__).resolve().parents[2]
HANUS = ROOT / "scenarios" / "hanus-utek.yaml"
EXE = os.path.join(os.path.dirname(sys.executable), "drd")
TEMP_NAME = re.compile(r"^\.drd-\d+-[A-Za-z0-9_]+\.tmp$")

runner = CliRunner()


def drd(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def boj(tmp_path, monkeypatch):
    """A copy of hanus-utek.yaml as boj.yaml in the cwd (tmp_path)."""
    path = tmp_path / "boj.yaml"
    shutil.copy(HANUS, path)
    monkeypatch.chdir(tmp_path)
    return path


def _unchanged(path: Path) -> bool:
    return path.read_bytes() == HANUS.read_bytes()


@pytest.mark.parametrize("spell", ["boj.yaml", "./boj.yaml", "../{dir}/boj.yaml", "{abs}", "hard.yaml", "link.yaml"])
@pytest.mark.parametrize("json_out", [False, True])
def test_output_that_is_the_scenario_is_refused(boj, spell, json_out):
    os.link(boj, boj.parent / "hard.yaml")
    os.symlink("boj.yaml", boj.parent / "link.yaml")
    out = spell.format(dir=boj.parent.name, abs=boj)
    res = drd("resolve", "boj.yaml", "-o", out, *(["--json"] if json_out else []))
    assert res.exit_code == 2, res.output
    assert "výstup je vstupní soubor" in res.stderr and "nic nebylo zapsáno" in res.stderr
    assert _unchanged(boj)
    assert os.path.islink(boj.parent / "link.yaml")
    assert sorted(os.listdir(boj.parent)) == ["boj.yaml", "hard.yaml", "link.yaml"]


def test_output_that_is_the_verify_file_or_the_group_is_refused(boj):
    transcript = boj.parent / "t.txt"
    assert drd("resolve", "boj.yaml", "--seed", "3", "-o", transcript).exit_code == 0
    before = transcript.read_bytes()
    res = drd("resolve", "boj.yaml", "--verify", transcript, "-o", transcript)
    assert res.exit_code == 2 and transcript.read_bytes() == before
    group = boj.parent / "g.yaml"
    group.write_text("name: g\nparams: {tie: counter}\n", encoding="utf-8")
    res = drd("resolve", "boj.yaml", "--group", "g.yaml", "-o", "./g.yaml")
    assert res.exit_code == 2, res.output
    assert group.read_text(encoding="utf-8") == "name: g\nparams: {tie: counter}\n"


@pytest.mark.parametrize("spell", ["boj.yaml", "./boj.yaml", "{abs}", "link.yaml", "groups/g.yaml", "base.yaml"])
def test_play_replay_onto_an_input_is_refused_and_nothing_is_written(boj, spell):
    """`drd play --replay X`: the rule of `-o` — the scenario, the group profile or a profile it
    extends, however spelled, is exit 2 before anything is asked, and every file stays as it was."""
    os.symlink("boj.yaml", boj.parent / "link.yaml")
    (boj.parent / "groups").mkdir()
    profile = "name: g\nextends: base.yaml\n"
    (boj.parent / "groups" / "g.yaml").write_text(profile, encoding="utf-8")
    (boj.parent / "base.yaml").write_text("name: base\n", encoding="utf-8")
    res = runner.invoke(app, ["play", "boj.yaml", "--group", "g", "--replay", spell.format(abs=boj)], input="\n")
    assert res.exit_code == 2, res.output
    assert "nic nebylo zapsáno" in res.stderr and "--replay" in res.stderr
    assert _unchanged(boj)
    assert (boj.parent / "groups" / "g.yaml").read_text(encoding="utf-8") == profile
    assert (boj.parent / "base.yaml").read_text(encoding="utf-8") == "name: base\n"
    assert sorted(os.listdir(boj.parent)) == ["base.yaml", "boj.yaml", "groups", "link.yaml"]


def test_a_replay_being_resumed_is_still_rewritten_in_place(boj):
    from drd_cli.cli.play import _refuse_replay_onto_input

    replay = boj.parent / "boj.replay.yaml"
    shutil.copy(boj, replay)
    _refuse_replay_onto_input(str(replay), str(replay), None)          # its default: allowed
    _refuse_replay_onto_input("./boj.replay.yaml", "boj.replay.yaml", None)


def test_schema_output_that_is_the_group_profile_is_refused(boj):
    group = boj.parent / "g.yaml"
    group.write_text("name: g\n", encoding="utf-8")
    base = boj.parent / "base.yaml"
    base.write_text("name: base\n", encoding="utf-8")
    group.write_text("name: g\nextends: base.yaml\n", encoding="utf-8")
    for target in ("g.yaml", "base.yaml"):          # the profile, and one it extends
        res = drd("schema", "--group", "g.yaml", "-o", target)
        assert res.exit_code == 2, res.output
        assert "nic nebylo zapsáno" in res.stderr
    assert group.read_text(encoding="utf-8") == "name: g\nextends: base.yaml\n"
    assert base.read_text(encoding="utf-8") == "name: base\n"
    assert drd("schema", "--group", "g.yaml", "-o", "schema.json").exit_code == 0


def test_output_through_a_symlink_writes_its_target_in_the_targets_folder(boj, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "vysledek.json").write_text("old", encoding="utf-8")
    os.symlink(shared / "vysledek.json", tmp_path / "v.json")
    res = drd("resolve", "boj.yaml", "--json", "-o", "v.json")
    assert res.exit_code == 0, res.output
    assert os.path.islink(tmp_path / "v.json")
    assert '"format": "drd-result/1"' in (shared / "vysledek.json").read_text(encoding="utf-8")
    assert sorted(os.listdir(shared)) == ["vysledek.json"]
    # a chain of links, and a dangling one (its target is created, the link stays)
    os.symlink("v.json", tmp_path / "w.json")
    os.symlink(shared / "novy.txt", tmp_path / "n.txt")
    assert drd("resolve", "boj.yaml", "-o", "w.json").exit_code == 0
    assert drd("resolve", "boj.yaml", "-o", "n.txt").exit_code == 0
    assert "Mistr Hanuš" in (shared / "novy.txt").read_text(encoding="utf-8")
    assert os.path.islink(tmp_path / "w.json") and os.path.islink(tmp_path / "n.txt")


def test_an_existing_output_keeps_its_permissions(boj, tmp_path):
    out = tmp_path / "r.txt"
    out.write_text("old", encoding="utf-8")
    os.chmod(out, 0o640)
    assert drd("resolve", "boj.yaml", "-o", "r.txt").exit_code == 0
    assert (os.stat(out).st_mode & 0o777) == 0o640


def test_output_onto_a_device_is_written_into_never_replaced(boj):
    res = drd("resolve", "boj.yaml", "-o", os.devnull)
    assert res.exit_code == 0, res.output
    assert not os.path.isfile(os.devnull)          # still the device
    if os.path.exists("/dev/full"):
        res = drd("resolve", "boj.yaml", "-o", "/dev/full")
        assert res.exit_code == 2 and "nelze zapsat /dev/full" in res.stderr
        assert not os.path.isfile("/dev/full")


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_leftover_temp_files_are_ours_by_name_and_cleaned_on_the_next_write(tmp_path):
    stale = tmp_path / f"{TEMP_PREFIX}{_dead_pid()}-abc123.tmp"
    stale.write_text("", encoding="utf-8")
    live = tmp_path / f"{TEMP_PREFIX}{os.getppid()}-zzz.tmp"     # a drd still writing: kept
    live.write_text("", encoding="utf-8")
    foreign = tmp_path / ".drd-poznamky.tmp"                       # not our pattern: kept
    foreign.write_text("mine", encoding="utf-8")
    replace_atomically(str(tmp_path / "out.txt"), "hello\n")
    assert sorted(os.listdir(tmp_path)) == sorted(["out.txt", live.name, foreign.name])
    # a day later even a temp whose pid is alive (reused by something else) goes
    assert clean_stale_temps(str(tmp_path), now=os.stat(live).st_mtime + 25 * 3600) == [live.name]


KILL_MID_WRITE = """
import os, sys
from drd_cli import safefiles
safefiles.os.replace = lambda a, b: os.kill(os.getpid(), 9)     # killed between write and rename
safefiles.replace_atomically(sys.argv[1], "x" * 1000)
"""


def test_kill_9_mid_write_leaves_a_recognisable_temp_that_the_next_write_removes(boj, tmp_path):
    out = tmp_path / "r.txt"
    out.write_text("old", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", KILL_MID_WRITE, str(out)], capture_output=True)
    assert proc.returncode == -signal.SIGKILL
    left = [n for n in os.listdir(tmp_path) if n.startswith(".drd-")]
    assert len(left) == 1 and TEMP_NAME.match(left[0]), left
    assert out.read_text(encoding="utf-8") == "old"
    assert drd("resolve", "boj.yaml", "-o", "r.txt").exit_code == 0
    assert sorted(os.listdir(tmp_path)) == ["boj.yaml", "r.txt"]


# --------------------------------------------------------------------------- standard output failures

needs_exe = pytest.mark.skipif(not os.path.exists(EXE), reason="console script not installed")


def _run_shell(cmd: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, COLUMNS="80", LANG="C.UTF-8"))


@needs_exe
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [f"resolve {HANUS}", f"resolve {HANUS} --json", "rules", "schema",
                                  f"resolve {HANUS} --format md"])
def test_full_disk_on_stdout_is_one_line_and_exit_2(args):
    res = _run_shell(f"exec '{EXE}' {args} > /dev/full")
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert res.stderr.strip().splitlines() == ["drd: nelze zapisovat na standardní výstup: No space left on device"]


@needs_exe
@pytest.mark.parametrize("args", [f"resolve {HANUS}", f"resolve {HANUS} --json", "rules --json", "plugins"])
def test_closed_stdout_is_one_line_and_exit_2(args):
    res = _run_shell(f"exec '{EXE}' {args} >&-")
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert res.stderr.strip().splitlines() == ["drd: nelze zapisovat na standardní výstup: Bad file descriptor"]


@needs_exe
def test_closed_stdout_does_not_matter_when_the_output_goes_to_a_file(tmp_path):
    res = _run_shell(f"exec '{EXE}' resolve {HANUS} -o {tmp_path / 'r.txt'} >&-")
    assert res.returncode == 0, res.stderr
    assert "Mistr Hanuš" in (tmp_path / "r.txt").read_text(encoding="utf-8")


@needs_exe
def test_closed_stderr_keeps_the_exit_code(tmp_path):
    res = _run_shell(f"exec '{EXE}' resolve {tmp_path / 'chybi.yaml'} 2>&-")
    assert res.returncode == 2 and "Traceback" not in res.stdout
