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

A row is never taken on the file's word alone: each keeps the distribution folder it came from,
which must lie directly in a `sys.path` folder, and is used only when that distribution's own
`entry_points.txt` declares the same name and value in the group and its metadata the same name
and version (two small files, read without the e-mail parser). A row planted in the cache
therefore cannot make drd import a module no installed distribution names: the whole file is
read anew from `importlib.metadata` and replaced.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

from .user_cache import cache_dir, held_folder, mtime_in, names_in, read_in, remove_in, write_in

PREFIX = "entry-points-"
SUFFIX = ".json"
KEEP = 16               # files kept (one per interpreter and sys.path: a venv's console script, `python -m`, …)
MAX_ROWS = 10_000
# What each kind of distribution folder keeps its entry points and its name and version in.
_META_FILES = {
    ".dist-info": ("entry_points.txt", "METADATA"),
    ".egg-info": ("entry_points.txt", "PKG-INFO"),
    ".egg": ("EGG-INFO/entry_points.txt", "EGG-INFO/PKG-INFO"),
}
_DIST_SUFFIXES = tuple(_META_FILES)

Row = tuple  # (entry point name, value, distribution name, version, EntryPoint or None)


def rows(group: str, read: Callable[[], list[Row]]) -> list[Row]:
    """The entry points of `group`: from the cache when its signature still holds and every row
    is what its distribution's own files say (`_bound`), else from `read()` (which stores them).
    Rows from the cache carry None for the EntryPoint object."""
    folder = cache_dir()
    if folder is None or not _standard_finders() or not all(isinstance(item, str) for item in sys.path):
        return read()
    name = f"{PREFIX}{_file_key()}{SUFFIX}"
    sig = signature(sys.path)
    with held_folder(folder) as dfd:
        data = read_in(dfd, name) if dfd is not None else None
    if data is not None:
        kept = _kept_rows(data, group, sig)
        if kept is not None:
            return kept
    found = read()
    plain = [[ep_name, value, dist, version, _dist_folder(ep)] for ep_name, value, dist, version, ep in found]
    if all(isinstance(x, str) for row in plain for x in row):
        # ASCII with escapes: a path that is not valid UTF-8 (lone surrogates) survives the trip.
        text = json.dumps({"group": group, "signature": sig, "rows": plain})
        with held_folder(folder, create=True) as dfd:
            if dfd is not None and write_in(dfd, name, text.encode("ascii")):
                _forget_oldest(dfd)
    return found


def _kept_rows(data: bytes, group: str, sig: list) -> list[Row] | None:
    """The rows of a cache file, or None when it is of another group or signature, of another
    shape, or names an entry point its distribution's files do not declare (a planted row)."""
    try:
        kept = json.loads(data)
        if not isinstance(kept, dict) or kept.get("group") != group or kept.get("signature") != sig:
            return None
        found = kept["rows"]
        if not isinstance(found, list) or len(found) > MAX_ROWS:
            return None
        out: list[Row] = []
        declared: dict[str, tuple] = {}
        for row in found:
            if not (isinstance(row, list) and len(row) == 5 and all(isinstance(x, str) for x in row)):
                return None
            ep_name, value, dist, version, where = row
            if where not in declared:
                declared[where] = _declared(where, group)
            entries, meta = declared[where]
            if (ep_name, value) not in entries or meta != (dist, version):
                return None
            out.append((ep_name, value, dist, version, None))
        return out
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None


def _dist_folder(ep: object) -> str | None:
    """The distribution folder an entry point was read from, when it is a plain folder (or an
    egg-info file) directly in a `sys.path` folder; else None (such rows are not kept)."""
    path = getattr(getattr(ep, "dist", None), "_path", None)
    if not isinstance(path, Path):
        return None
    where = str(path)
    return where if _on_sys_path(where) else None


def _on_sys_path(where: str) -> bool:
    """`where` is a distribution folder (by its suffix) directly in a folder on `sys.path`."""
    if not where.lower().endswith(_DIST_SUFFIXES):
        return False
    parent = os.path.abspath(os.path.dirname(where) or ".")
    return any(os.path.abspath(item or ".") == parent for item in sys.path)


def _declared(where: str, group: str) -> tuple[set, tuple]:
    """({(name, value)} of `group` in the entry points file of distribution folder `where`,
    (its name, its version) from its metadata), read from the distribution itself."""
    if not _on_sys_path(where):
        return set(), (None, None)
    ep_file, meta_file = _META_FILES[os.path.splitext(where)[1].lower()]
    if not os.path.isdir(where):                 # a PKG-INFO file named *.egg-info
        ep_file, meta_file = "", ""
    entries: set = set()
    section = None
    for line in _lines(os.path.join(where, ep_file)) if ep_file else []:
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            key, _sep, value = line.partition("=")
            entries.add((key.strip(), value.strip()))
    headers: dict[str, str] = {}
    for line in _lines(os.path.join(where, meta_file) if meta_file else where):
        if not line.strip():
            break                                # the headers end at the first empty line
        key, sep, value = line.partition(":")
        if sep and key in ("Name", "Version") and key not in headers:
            headers[key] = value.strip()
    return entries, (headers.get("Name"), headers.get("Version"))


def _lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read(1 << 20).splitlines()
    except OSError:
        return []


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


def _forget_oldest(dfd: int, keep: int = KEEP) -> None:
    """Removes all but the `keep` most recently written entry point files of the held folder."""
    names = names_in(dfd)
    files = [n for n in names if n.startswith(PREFIX) and n.endswith(SUFFIX)]
    files.sort(key=lambda n: mtime_in(dfd, n), reverse=True)
    for old in files[keep:]:
        remove_in(dfd, old)
    for old in names:       # compiled validators an older drd kept (never read any more)
        if old.endswith(".pickle") and old.startswith(_OLD_PICKLES):
            remove_in(dfd, old)


_OLD_PICKLES = ("scenario-validator-", "dakara-validator-", "step-drd_plugins.")


def _standard_finders() -> bool:
    """True when only the standard path finder can list distributions."""
    from importlib.machinery import PathFinder

    return all(finder is PathFinder or not hasattr(finder, "find_distributions") for finder in sys.meta_path)


def cached_files() -> list[Path]:
    """The entry point cache files in the cache folder (for tests and `drd` diagnostics)."""
    folder = cache_dir()
    return sorted(folder.glob(f"{PREFIX}*{SUFFIX}")) if folder is not None and folder.is_dir() else []
