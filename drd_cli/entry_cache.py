"""The installed plugin entry points, remembered between runs (issue #14).

Finding drd's plugins means asking `importlib.metadata` for the entry points of the group
`drd_cli.plugins`: importing it (with the e-mail parser it reads METADATA with) and reading
every installed distribution costs about 15 ms, the same answer on every run until something is
installed or removed. So the answer — each entry point's name, value, distribution and version,
nothing that is executed — is kept in the user's cache folder (`user_cache.py`: the user's
alone, written atomically) together with a **signature** of what it was read from, and is used
only while the signature is unchanged:

* every `sys.path` entry, in order;
* in each folder, the names of its `*.dist-info`, `*.egg-info` and `*.egg` (installing or
  removing a distribution adds or removes one), each with the size and modification time of its
  `entry_points.txt` and `METADATA` / `PKG-INFO` (an entry point or a version edited in place).
  Other files do not count: a folder such as the current one, where files come and go, keeps
  its signature while no distribution appears in it.

Computing it is a listing of each `sys.path` folder (about half a millisecond). A distribution
finder other than the standard one on `sys.meta_path` (which could offer distributions no
folder shows) switches the cache off, as does `DRD_NO_CACHE=1`.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

from .user_cache import cache_dir, read_private, write_private

PREFIX = "entry-points-"
SUFFIX = ".json"
KEEP = 16               # files kept (one per interpreter and sys.path: a venv's console script, `python -m`, …)
# What each kind of distribution folder keeps its entry points and its name and version in.
_META_FILES = {
    ".dist-info": ("entry_points.txt", "METADATA"),
    ".egg-info": ("entry_points.txt", "PKG-INFO"),
    ".egg": ("EGG-INFO/entry_points.txt", "EGG-INFO/PKG-INFO"),
}
_DIST_SUFFIXES = tuple(_META_FILES)

Row = tuple  # (entry point name, value, distribution name, version, EntryPoint or None)


def rows(group: str, read: Callable[[], list[Row]]) -> list[Row]:
    """The entry points of `group`: from the cache when its signature still holds, else from
    `read()` (which stores them). Rows from the cache carry None for the EntryPoint object."""
    folder = cache_dir()
    if folder is None or not _standard_finders() or not all(isinstance(item, str) for item in sys.path):
        return read()
    path = folder / f"{PREFIX}{_file_key()}{SUFFIX}"
    sig = signature(sys.path)
    data = read_private(path)
    if data is not None:
        try:
            kept = json.loads(data)
            if kept.get("group") == group and kept.get("signature") == sig:
                return [(name, value, dist, version, None) for name, value, dist, version in kept["rows"]]
        except (ValueError, TypeError, KeyError, AttributeError):
            pass                # unreadable or another shape: read anew, and overwrite it
    found = read()
    plain = [[name, value, dist, version] for name, value, dist, version, _ep in found]
    if all(isinstance(x, (str, type(None))) for row in plain for x in row):
        # ASCII with escapes: a path that is not valid UTF-8 (lone surrogates) survives the trip.
        text = json.dumps({"group": group, "signature": sig, "rows": plain})
        write_private(folder, path, text.encode("ascii"))
        _forget_oldest(folder)
    return found


def signature(paths: list[str]) -> list:
    """What the entry points were read from (see the module's docstring), as JSON-able lists."""
    sig: list = []
    for item in paths:
        where = item or "."
        try:
            st = os.stat(where)
        except OSError:
            sig.append([item])
            continue
        if not stat.S_ISDIR(st.st_mode):
            sig.append([item, st.st_mtime_ns, st.st_size])       # a zip file on sys.path
            continue
        dists: list = []
        try:
            with os.scandir(where) as listing:
                names = sorted(e.name for e in listing if e.name.lower().endswith(_DIST_SUFFIXES))
        except OSError:
            names = []
        for name in names:
            full = os.path.join(where, name)
            for meta in _META_FILES[os.path.splitext(name)[1].lower()]:
                try:
                    m = os.stat(os.path.join(full, meta))
                except OSError:
                    continue
                dists.append([name, meta, m.st_mtime_ns, m.st_size])
            if not os.path.isdir(full):                          # a PKG-INFO file named *.egg-info
                try:
                    m = os.stat(full)
                    dists.append([name, "", m.st_mtime_ns, m.st_size])
                except OSError:
                    pass
        sig.append([item, names, dists])
    return sig


def _file_key() -> str:
    """One cache file per interpreter and `sys.path` (the console script's differs from
    `python -m drd_cli`'s in its first entry), so that they do not overwrite each other."""
    import zlib

    text = "\0".join([sys.executable, sys.prefix, sys.version, *sys.path])
    return f"{zlib.crc32(os.fsencode(text)):08x}"


def _forget_oldest(folder: Path, keep: int = KEEP) -> None:
    """Removes all but the `keep` most recently written entry point files."""
    try:
        files = sorted(folder.glob(f"{PREFIX}*{SUFFIX}"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in files[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def _standard_finders() -> bool:
    """True when only the standard path finder can list distributions."""
    from importlib.machinery import PathFinder

    return all(finder is PathFinder or not hasattr(finder, "find_distributions") for finder in sys.meta_path)


def cached_files() -> list[Path]:
    """The entry point cache files in the cache folder (for tests and `drd` diagnostics)."""
    folder = cache_dir()
    return sorted(folder.glob(f"{PREFIX}*{SUFFIX}")) if folder is not None and folder.is_dir() else []
