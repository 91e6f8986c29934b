"""Writing files so that nothing is lost: atomic replace, symlinks followed, our temp files
recognisable, read–modify–write under a lock, and an output that is an input refused.

Standard library only at import (imported by `drd_cli.cli._common`, which must stay light); the
errors of `write_atomic` load drd_cli.errors and drd_cli.i18n when they happen.

* `replace_atomically(path, text)` writes a temp file `.drd-<pid>-<random>.tmp` in the folder of
  the file that is really written (the target of a symlink, followed to the end), fsyncs it and
  renames it over the target. The link itself stays a link. A temp file left behind by a killed
  drd is removed by the next write to that folder (`clean_stale_temps`).
* `locked(path)` is an exclusive `fcntl.flock` on the folder holding the real file, for a
  read–modify–write (group profile edits, the trust records): two drd processes editing one
  profile take turns, so neither update is lost.
* `same_file(a, b)` / `refuse_overwriting_input`: an output that is one of the inputs, however
  spelled (`./x`, `../d/x`, a symlink, a hard link), is found by device and inode.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from collections.abc import Iterable, Iterator
from typing import Any

TEMP_PREFIX = ".drd-"
"""Temp files are `.drd-<pid>-<random>.tmp` beside the file being written (docs/cli.md)."""
TEMP_SUFFIX = ".tmp"
_TEMP_RE = re.compile(r"^\.drd-(\d+)-[A-Za-z0-9_]+\.tmp$")
STALE_AFTER = 24 * 3600
"""A temp file whose process still seems to exist is removed anyway after this many seconds
(the pid may have been reused by an unrelated process)."""


def real_target(path: str) -> str:
    """The file a write to `path` must replace: symlinks followed (also a dangling one's target)."""
    return os.path.realpath(os.path.abspath(path))


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True            # exists but belongs to someone else
    return True


def clean_stale_temps(folder: str, *, now: float | None = None) -> list[str]:
    """Removes our leftover temp files in `folder` (their process is gone, or they are a day old).

    A temp file of a drd that is writing right now is left alone: it is still needed. Returns
    the names removed; failures to list or remove are ignored (cleaning is a courtesy).
    """
    removed: list[str] = []
    now = time.time() if now is None else now
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        match = _TEMP_RE.match(name)
        if not match:
            continue
        full = os.path.join(folder, name)
        try:
            st = os.lstat(full)
        except OSError:
            continue
        if not os.path.isfile(full) or os.path.islink(full):
            continue
        if _pid_alive(int(match.group(1))) and now - st.st_mtime < STALE_AFTER:
            continue
        with contextlib.suppress(OSError):
            os.unlink(full)
            removed.append(name)
    return removed


def replace_atomically(path: str, text: str | Iterable[str]) -> str:
    """Writes `text` (UTF-8, `\\n` line ends; a string or its pieces) to the real file behind
    `path`, all at once: a reader sees the old file or the whole new one.

    Returns the real path written. OSError (the system's reason) if anything fails; then the old
    file is untouched and our temp file is gone.
    """
    target = real_target(path)
    if os.path.exists(target) and not os.path.isfile(target) and not os.path.isdir(target):
        # A device or a pipe (`-o /dev/stdout`, `/dev/null`, a fifo): written into, never
        # replaced by a regular file (as root a rename would replace /dev/null itself).
        with open(target, "w", encoding="utf-8", errors="replace", newline="\n") as handle:
            _write(handle, text)
        return target
    folder = os.path.dirname(target)
    clean_stale_temps(folder)
    try:
        mode = os.stat(target).st_mode & 0o7777     # an existing file keeps its permissions
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=TEMP_SUFFIX, dir=folder)
    try:
        # errors="replace": a character UTF-8 cannot hold (a lone surrogate) becomes "?", never a crash.
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace", newline="\n") as handle:
            _write(handle, text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):       # the rename itself is durable once the folder is synced
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    return target


def _write(handle: Any, text: str | Iterable[str]) -> None:
    if isinstance(text, str):
        handle.write(text)
        return
    for piece in text:
        handle.write(piece)


def same_file(a: str, b: str) -> bool:
    """True when `a` and `b` are one file (device and inode), however spelled; False if either is missing."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def overwritten_input(output: str, inputs: Iterable[str | os.PathLike | None]) -> str | None:
    """The input that `output` is (same file), or None."""
    for item in inputs:
        if item is not None and same_file(output, os.fspath(item)):
            return os.fspath(item)
    return None


@contextlib.contextmanager
def locked(path: str) -> Iterator[None]:
    """Holds an exclusive lock for a read–modify–write of the real file behind `path`.

    The lock is on the file's folder (flock on the directory), not on the file: the file is
    replaced by a rename, so a lock on its old inode would not keep the next writer out. Without
    fcntl (Windows) it is a no-op.
    """
    try:
        import fcntl
    except ImportError:          # pragma: no cover - not POSIX
        yield
        return
    folder = os.path.dirname(real_target(path))
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


# --------------------------------------------------------------------------- writes that report

def cannot_write(path: str, exc: OSError) -> Any:
    """The DrdError (exit 2) of an output file that cannot be written; the reason is the system's."""
    from .errors import DrdError, Location
    from .i18n import gettext

    return DrdError(gettext("cannot write {path}: {reason}").format(path=path, reason=exc.strerror or exc),
                    Location(path))


def write_atomic(path: str, text: str | Iterable[str], inputs: tuple = ()) -> None:
    """Writes `text` (UTF-8; a string or its pieces) to `path` all at once: a temp file beside the real file, then a rename.

    A reader never sees a half-written file, and a failure leaves any old file untouched. A
    symlink is followed: its target is written, the link stays. When `path` is one of `inputs`
    (same file, however spelled), nothing is written: DrdError, exit 2. (The errors and their
    words are drd's base layer too: drd_cli/errors.py, drd_cli/i18n.py.)
    """
    refuse_overwriting_input(path, inputs)
    try:
        replace_atomically(path, text)
    except OSError as exc:
        raise cannot_write(path, exc) from None


def refuse_overwriting_input(path: str | None, inputs: tuple) -> None:
    """DrdError (exit 2) when the output `path` is one of the `inputs` (by device and inode)."""
    if not path:
        return
    hit = overwritten_input(path, inputs)
    if hit is not None:
        from .errors import DrdError, Location
        from .i18n import gettext

        raise DrdError(gettext("the output is the input file {input}; nothing was written").format(
                           input=hit), Location(path),
                       hint=gettext("choose another --output file"))
