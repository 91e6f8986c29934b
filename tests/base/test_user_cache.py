"""The user's cache folder (drd_cli/user_cache.py): nothing executable is loaded from it, and a
folder swapped for a link is neither read nor written through."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from drd_cli import user_cache

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW") or not hasattr(os, "getuid"),
                                reason="the cache is POSIX only")


class _Planted:
    """What a planted pickle would run when unpickled: it writes a marker file."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "ran"))


PROBE = r"""
import sys
from drd_cli.cli.app import app
try:
    app(sys.argv[1:], prog_name="drd")
except SystemExit as exc:
    code = exc.code
print("@@", "pickle" in sys.modules, code, file=sys.stderr)
"""


def test_a_planted_pickle_in_the_cache_is_never_unpickled(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    marker = tmp_path / "ran.txt"
    payload = pickle.dumps(_Planted(marker))
    # Every name the old validator cache used, and a few more: none of them is ever loaded.
    for name in ("scenario-validator-0123456789abcdef01234567.pickle", "dakara-validator-x.pickle",
                 "step-drd_plugins.ukryvani.HideSpec-x.pickle", "anything.pickle"):
        (cache / name).write_bytes(payload)
        os.chmod(cache / name, 0o600)
    env = {**os.environ, "DRD_CACHE_DIR": str(cache)}
    for args in (["resolve", str(ROOT / "scenarios" / "hanus-utek.yaml"), "--json"],
                 ["check", str(ROOT / "scenarios" / "hanus-utek.yaml")]):
        proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=120)
        assert proc.stderr.rsplit("@@", 1)[1].split() == ["False", "0"], proc.stderr
    assert not marker.exists()


def test_no_module_of_drd_unpickles_or_unmarshals_anything():
    for path in (ROOT / "drd_cli").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for word in ("import pickle", "import marshal", "import shelve", "import dill", "pickle.load",
                     "marshal.load", "allow_pickle"):
            assert word not in text, f"{path.relative_to(ROOT)}: {word}"


def test_a_cache_folder_swapped_for_a_link_is_not_read(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (elsewhere / "entry-points-x.json").write_bytes(b"{}")
    os.chmod(elsewhere / "entry-points-x.json", 0o600)
    link = tmp_path / "cache"
    link.symlink_to(elsewhere)
    assert user_cache.read_private(elsewhere / "entry-points-x.json") == b"{}"
    assert user_cache.read_private(link / "entry-points-x.json") is None


def test_a_cache_file_that_is_a_link_is_not_read(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    target = tmp_path / "target.json"
    target.write_bytes(b"{}")
    os.chmod(target, 0o600)
    (cache / "entry-points-x.json").symlink_to(target)
    assert user_cache.read_private(cache / "entry-points-x.json") is None


def test_a_cache_file_others_may_write_or_that_is_not_a_file_is_not_read(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    (cache / "open.json").write_bytes(b"{}")
    os.chmod(cache / "open.json", 0o622)
    (cache / "folder.json").mkdir()
    os.mkfifo(cache / "fifo.json")
    for name in ("open.json", "folder.json", "fifo.json", "missing.json"):
        assert user_cache.read_private(cache / name) is None, name
    os.chmod(cache, 0o777)
    (cache / "fine.json").write_bytes(b"{}")
    os.chmod(cache / "fine.json", 0o600)
    assert user_cache.read_private(cache / "fine.json") is None          # the folder is open to others


def test_nothing_is_written_through_a_cache_folder_swapped_for_a_link(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    link = tmp_path / "cache"
    link.symlink_to(elsewhere)
    user_cache.write_private(link, link / "entry-points-x.json", b"{}")
    assert list(elsewhere.iterdir()) == []
    open_folder = tmp_path / "open"
    open_folder.mkdir()
    os.chmod(open_folder, 0o777)                     # others may change it: not ours to write into
    user_cache.write_private(open_folder, open_folder / "x.json", b"{}")
    assert list(open_folder.iterdir()) == []


def test_a_folder_swapped_after_it_was_opened_is_not_written_through(tmp_path):
    cache = tmp_path / "cache"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    with user_cache.held_folder(cache, create=True) as dfd:
        assert dfd is not None
        cache.rename(tmp_path / "moved")
        cache.symlink_to(elsewhere)                  # the swap, between opening and writing
        assert user_cache.write_in(dfd, "x.json", b"{}")
    assert list(elsewhere.iterdir()) == []
    assert (tmp_path / "moved" / "x.json").read_bytes() == b"{}"
    assert (tmp_path / "moved" / "x.json").stat().st_mode & 0o777 == 0o600


def test_the_cache_is_written_atomically_and_privately(tmp_path):
    cache = tmp_path / "deep" / "cache"
    user_cache.write_private(cache, cache / "a.json", b"one")
    user_cache.write_private(cache, cache / "a.json", b"two")
    assert user_cache.read_private(cache / "a.json") == b"two"
    assert sorted(p.name for p in cache.iterdir()) == ["a.json"]
    assert cache.stat().st_mode & 0o777 == 0o700


def test_the_validators_an_older_drd_kept_are_removed_when_the_cache_is_written(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    for name in ("scenario-validator-x.pickle", "dakara-validator-x.pickle", "step-drd_plugins.a.B-x.pickle",
                 "mine.pickle"):
        (cache / name).write_bytes(b"old")
    env = {**os.environ, "DRD_CACHE_DIR": str(cache)}
    env.pop("DRD_DISABLE_PLUGIN_AUTOLOAD", None)
    subprocess.run([sys.executable, "-c", "from drd_cli import plugins; plugins.discover()"], env=env, check=True,
                   cwd=tmp_path, timeout=60)
    assert sorted(p.name for p in cache.iterdir() if p.suffix == ".pickle") == ["mine.pickle"]
