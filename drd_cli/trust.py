"""Trust for local plugin code named by group profiles, in the manner of `direnv allow` / `mise trust`.

A group profile may name plugin folders (`plugin_dirs:`, directly or through `extends:`); their
Python files run when imported. drd imports them only when the profile is trusted:

* `drd group trust NAME|PATH` records the profile's real path and a SHA-256 of its chain (every
  file of the profile and of what it extends, each with its real path and bytes) in the trust file:
  `$DRD_TRUST_FILE`, else `$XDG_DATA_HOME/drd/trusted.json` (default `~/.local/share/drd/trusted.json`).
  A change to any file of the chain (or an `extends:` that now finds another file) makes the hash
  differ: untrusted again until trusted anew. `drd group untrust` removes the record.
* A chain lying entirely in the user's own config folder (`~/.config/drd/groups`) is trusted
  by default: those files are the user's (as `mise` trusts its global config). One file elsewhere
  in the chain (a downloaded `./groups/base.yaml` it extends), or a symbolic link to one of those
  files (from anywhere), and it needs `drd group trust`.
* Links are resolved first and trust is about the real file: the record is of its real path, a
  relative `plugin_dirs:` folder is relative to the real file (never to a link's folder), and
  each file is read once — the bytes hashed are the bytes whose `plugin_dirs:` are imported
  (`groups.ProfileFile`), so a file changed between two readings cannot slip through.
* `--plugins-dir DIR` on the command line is the user's own choice and needs no trust.
* Only the profile files are hashed, not the plugin code in the folders: trusting a profile
  trusts the folders it names, as they are now and later.

An untrusted profile's plugins are never imported: they are known by id (from the file names) so
that `drd rules`, `drd schema` and `drd plugins` can list them as not loaded, and a run that would
use one is exit 1 with the command that trusts the profile.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import DrdError, Location, ScenarioError
from .i18n import _

TRUST_ENV = "DRD_TRUST_FILE"
FORMAT = "drd-trust/1"


def trust_file() -> Path:
    """Where trust records live: $DRD_TRUST_FILE, else $XDG_DATA_HOME/drd/trusted.json."""
    env = os.environ.get(TRUST_ENV)
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "drd" / "trusted.json"


def chain_digest(chain: list[Any]) -> str:
    """sha256 over each file of the chain in order: its real path and its bytes — the bytes
    read once (`groups.ProfileFile`), or, for a plain path, read now."""
    h = hashlib.sha256()
    for item in chain:
        if hasattr(item, "real") and hasattr(item, "data"):
            real, data = str(item.real), item.data
        else:
            real = os.path.realpath(item)
            try:
                with open(real, "rb") as fh:
                    data = fh.read()
            except OSError:
                data = b"\xff<unreadable>"
        h.update(real.encode("utf-8", "surrogateescape") + b"\0")
        h.update(data)
        h.update(b"\0")
    return "sha256:" + h.hexdigest()


def _read_store() -> dict:
    """The trust records {real path: {"sha256", "chain", "trusted_at"}}; a missing or damaged file trusts nothing."""
    path = trust_file()
    try:
        with open(path, "rb") as fh:
            if not _ours_alone(os.fstat(fh.fileno())) or not _ours_alone(os.stat(path.parent)):
                return {}          # another user could have written it: it trusts nothing
            data = json.loads(fh.read().decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    profiles = data.get("profiles") if isinstance(data, dict) else None
    return profiles if isinstance(profiles, dict) else {}


def _ours_alone(st: os.stat_result) -> bool:
    """Owned by the user running drd and not writable by every user (POSIX; elsewhere always).
    (A group-writable one is accepted: with a umask of 002 the group is the user's own.)"""
    if not hasattr(os, "getuid"):
        return True
    return st.st_uid == os.getuid() and not st.st_mode & 0o002


def _write_store(profiles: dict) -> None:
    from .safefiles import cannot_write, write_atomic

    path = trust_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(str(path), exc) from None
    write_atomic(str(path), json.dumps({"format": FORMAT, "profiles": profiles}, ensure_ascii=False, indent=2,
                                       sort_keys=True) + "\n")


def _in_config_dir(profile: Any) -> bool:
    """The profile is a file of the user's config folder itself: its real file lies there, and
    the path it was found at is not a link (a link into that folder, from anywhere, is not)."""
    from .groups import config_dir

    root = os.path.realpath(config_dir()).rstrip(os.sep) + os.sep
    named = os.path.abspath(profile.named)
    return not os.path.islink(named) and str(profile.real).startswith(root)


@dataclass
class TrustStatus:
    """Whether the profile named by `--group` may have its plugin folders imported, and why."""

    profile: str                   # real path of the named profile (the one to trust)
    chain: list[Path]
    digest: str
    trusted: bool
    reason: str                    # "recorded", "config" (the user's own folder), "changed", "unknown"
    files: list = field(default_factory=list)      # the chain as read (groups.ProfileFile), hashed

    @property
    def command(self) -> str:
        return f"drd group trust {shlex.quote(self.profile)}"


def status(name: str, files: list | None = None) -> TrustStatus:
    """The trust of group `name` (a name or path), from its chain and the trust file. `files`:
    the chain as already read (`groups.profile_files`); the decision is about those bytes."""
    from .groups import profile_files

    files = profile_files(name) if files is None else files
    chain = [profile.named for profile in files]
    real = str(files[0].real)
    digest = chain_digest(files)
    record = _read_store().get(real)
    if isinstance(record, dict) and record.get("sha256") == digest:
        return TrustStatus(real, chain, digest, True, "recorded", files)
    if all(_in_config_dir(p) for p in files):
        return TrustStatus(real, chain, digest, True, "config", files)
    return TrustStatus(real, chain, digest, False, "changed" if isinstance(record, dict) else "unknown", files)


def trust(name: str, files: list | None = None) -> TrustStatus:
    """Records group `name`'s chain as trusted (under a lock: concurrent trusts lose nothing):
    the bytes of `files` when given (what the user was shown, or what drd itself wrote)."""
    from .safefiles import locked

    path = trust_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(str(path)):
        st = status(name, files)
        profiles = _read_store()
        profiles[st.profile] = {"sha256": st.digest, "chain": [str(p.real) for p in st.files],
                                "trusted_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}
        _write_store(profiles)
    return TrustStatus(st.profile, st.chain, st.digest, True, "recorded", st.files)


def untrust(name: str) -> tuple[str, bool]:
    """Removes the record of group `name` (or of a path that no longer exists); (real path, was it recorded)."""
    from .groups import find_group
    from .safefiles import locked

    try:
        real = os.path.realpath(find_group(name))
    except ScenarioError:
        real = os.path.realpath(name)
    path = trust_file()
    if not path.exists():
        return real, False
    with locked(str(path)):
        profiles = _read_store()
        had = profiles.pop(real, None) is not None
        if had:
            _write_store(profiles)
    return real, had


def retrust_after_edit(before: TrustStatus | None, name: str, written: bytes | None = None) -> None:
    """After `drd rules … --group` edited a profile the user had trusted, records the new hash:
    of the bytes drd wrote (`written`, the named profile's) and the rest of the chain as it was
    read before the edit.

    Only drd's own edit (enable/disable/params) is re-trusted; a change by anyone else still
    untrusts the profile.
    """
    if before is not None and before.trusted and before.reason == "recorded":
        files = None
        if written is not None and before.files:
            first = before.files[0]
            files = [type(first)(first.named, first.real, written), *before.files[1:]]
        trust(name, files)


# --------------------------------------------------------------------------- untrusted plugin folders

@dataclass
class Untrusted:
    """Plugin folders a group profile names that are not imported, because it is not trusted."""

    status: TrustStatus
    dirs: list[str]
    ids: dict[str, str] = field(default_factory=dict)       # plugin id → its file (never imported)
    location: Location | None = None                       # the `plugin_dirs:` that names them

    @property
    def reason(self) -> str:
        """Why the profile is not trusted, in a few words."""
        if self.status.reason == "changed":
            return _("profile changed since it was trusted")
        return _("profile not trusted")

    @property
    def reason_text(self) -> str:
        return _("not loaded: {reason}").format(reason=self.reason)

    def note(self) -> str:
        """One line for stderr naming the plugins not loaded and the command that trusts the profile."""
        ids = ", ".join(sorted(self.ids)) or ", ".join(self.dirs)
        return _("note: plugins {ids} of group profile {profile}: {reason} → {command}").format(
            ids=ids, profile=self.status.profile, reason=self.reason_text, command=self.status.command)

    # Adding these plugins to a run's entries, and refusing a run that enables one, is the plugin
    # host's: drd_cli.plugins.add_untrusted and drd_cli.plugins.refuse_untrusted.


def split_group_dirs(name: str, dirs: list[str]) -> tuple[list[str], Untrusted | None]:
    """(the folders that may be imported, the untrusted rest or None) of group `name`'s plugin
    folders; `dirs` as `groups.group_layer` gives them, with the bytes it read (`dirs.files`):
    trust is decided from those bytes, never from a second reading."""
    if not dirs:
        return [], None
    st = status(name, getattr(dirs, "files", None))
    if st.trusted:
        return list(dirs), None
    ids: dict[str, str] = {}
    for folder in dirs:
        for path in sorted(Path(folder).glob("*.py")):
            ids.setdefault(path.stem.replace("_", "-"), str(path))
    location = None
    from .groups import parse_profile

    for file in st.files:
        try:
            model, source = parse_profile(file)
        except DrdError:
            continue
        if model.plugin_dirs:
            location = source.locate(("plugin_dirs",))
            break
    return [], Untrusted(st, list(dirs), ids, location)
