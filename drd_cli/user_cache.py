"""The user's cache folder: files drd may keep between runs to start faster (issue #14).

Nothing in it is ever needed: a missing, unreadable or untrusted file only means the work is
done again. What is kept there: the compiled validator of the scenario format
(`scenario/validator_cache.py`) and the list of installed plugin entry points
(`entry_cache.py`).

* **Where**: `$DRD_CACHE_DIR`, else `$XDG_CACHE_HOME/drd`, else `~/.cache/drd`;
  `DRD_NO_CACHE=1` switches every cache off (docs/cli.md "Environment").
* **Trust**: a file is read only when it and its folder belong to the user running drd and
  nobody else may write them (another user could otherwise choose what drd loads).
* **Writing** is atomic (a temporary file in the folder, then a rename) and 0600, so a
  concurrent run sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
from pathlib import Path

DIR_ENV = "DRD_CACHE_DIR"
OFF_ENV = "DRD_NO_CACHE"


def cache_dir() -> Path | None:
    """The folder, or None when the cache is off (or this system has no user ids to trust)."""
    if os.environ.get(OFF_ENV, "").strip() not in ("", "0") or not hasattr(os, "getuid"):
        return None
    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "drd"


def ours(item: Path) -> bool:
    """Owned by this user, writable by nobody else, not a symlink."""
    st = os.stat(item, follow_symlinks=False)
    return st.st_uid == os.getuid() and not st.st_mode & 0o022 and not item.is_symlink()


def read_private(path: Path) -> bytes | None:
    """The file's bytes when it and its folder are the user's alone, else None (never raises)."""
    try:
        if not path.exists() or not (ours(path.parent) and ours(path) and path.is_file()):
            return None
        return path.read_bytes()
    except OSError:
        return None


def write_private(folder: Path, path: Path, data: bytes, stale: str | None = None) -> None:
    """Writes `data` to `path` (in `folder`) atomically, readable by the user only; then removes
    the folder's other files matching the glob `stale` (older versions). Never raises: a folder
    that cannot be written only means no cache."""
    import tempfile

    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not ours(folder):
            return
        fd, tmp = tempfile.mkstemp(prefix=".drd-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        if stale:
            for old in folder.glob(stale):
                if old != path:
                    old.unlink(missing_ok=True)
    except Exception:  # noqa: BLE001 - an unwritable cache folder only means no cache
        return
