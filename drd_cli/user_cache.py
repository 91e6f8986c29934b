"""The user's cache folder: files drd may keep between runs to start faster (issue #14).

Nothing in it is ever needed: a missing, unreadable or untrusted file only means the work is
done again. What is kept there is plain data, checked when it is read: the list of installed
plugin entry points (`entry_cache.py`). Nothing executable or pickled is ever loaded from it.

* **Where**: `$DRD_CACHE_DIR`, else `$XDG_CACHE_HOME/drd`, else `~/.cache/drd`;
  `DRD_NO_CACHE=1` switches every cache off (docs/cli.md "Environment").
* **Trust**: the folder is opened once, without following a symbolic link, and must then be a
  folder of the user running drd that nobody else may write; every file is opened relative to
  that held folder (`dir_fd`), again without following a link, and must be a regular file of the
  user's that nobody else may write. A folder swapped for a link, or a file planted by someone
  else, is neither read nor written through: the cache is simply not used.
* **Writing** is atomic (a temporary file in the held folder, then a rename inside it) and
  0600, so a concurrent run sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

DIR_ENV = "DRD_CACHE_DIR"
OFF_ENV = "DRD_NO_CACHE"
MAX_BYTES = 4 * 1024 * 1024
"""A cache file larger than this is not read (ours are a few kilobytes)."""

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def cache_dir() -> Path | None:
    """The folder, or None when the cache is off (or this system cannot open files safely)."""
    if os.environ.get(OFF_ENV, "").strip() not in ("", "0") or not hasattr(os, "getuid") or not _NOFOLLOW \
            or os.open not in os.supports_dir_fd:
        return None
    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "drd"


def _ours(st: os.stat_result, kind: int) -> bool:
    """Of this kind (S_IFDIR / S_IFREG), owned by this user, writable by nobody else."""
    return stat.S_IFMT(st.st_mode) == kind and st.st_uid == os.getuid() and not st.st_mode & 0o022


@contextlib.contextmanager
def held_folder(folder: Path, *, create: bool = False) -> Iterator[int | None]:
    """A descriptor of `folder` when it is the user's own folder (opened without following a
    link, then checked with fstat), else None; `create` makes it (0700) when missing."""
    fd = None
    try:
        if create:
            with contextlib.suppress(FileExistsError):
                folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                os.mkdir(folder, 0o700)
        fd = os.open(folder, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
        if not _ours(os.fstat(fd), stat.S_IFDIR):
            os.close(fd)
            fd = None
    except OSError:
        fd = None
    try:
        yield fd
    finally:
        if fd is not None:
            os.close(fd)


def read_in(dfd: int, name: str) -> bytes | None:
    """The bytes of file `name` in the held folder `dfd` when it is the user's alone (opened
    without following a link; checked with fstat), else None."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0), dir_fd=dfd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not _ours(st, stat.S_IFREG) or st.st_size > MAX_BYTES:
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
            if sum(map(len, chunks)) > MAX_BYTES:
                return None
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_private(path: Path) -> bytes | None:
    """The file's bytes when it and its folder are the user's alone, else None (never raises)."""
    with held_folder(path.parent) as dfd:
        return None if dfd is None else read_in(dfd, path.name)


def write_in(dfd: int, name: str, data: bytes) -> bool:
    """Writes `data` as file `name` of the held folder `dfd`, atomically, readable by the user
    only. False (and nothing left behind) when it cannot."""
    tmp = f".drd-{os.getpid()}-{os.urandom(6).hex()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=dfd)
    except OSError:
        return False
    try:
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dfd)
        return False


def write_private(folder: Path, path: Path, data: bytes) -> None:
    """Writes `data` to `path` (in `folder`, made when missing) atomically, readable by the user
    only. Never raises: a folder that is not the user's alone, or cannot be written, only means
    no cache."""
    with held_folder(folder, create=True) as dfd:
        if dfd is not None and path.parent == folder:
            write_in(dfd, path.name, data)


def names_in(dfd: int) -> list[str]:
    """The names of the files in the held folder (nothing when it cannot be listed)."""
    try:
        return os.listdir(dfd)
    except OSError:
        return []


def mtime_in(dfd: int, name: str) -> int:
    """When file `name` of the held folder was written (0 when unknown)."""
    try:
        return os.stat(name, dir_fd=dfd, follow_symlinks=False).st_mtime_ns
    except OSError:
        return 0


def remove_in(dfd: int, name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name, dir_fd=dfd)
