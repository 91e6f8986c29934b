"""The campaign's snapshot store (docs/kampan.md "Checking a transcript later"): the start states a
conflict was resolved from, kept by their hash in `kronika/snimky/<hex>.json`.

A result of a scenario that names campaign characters records `campaign.start` (each referenced
participant's state and its hash) and `campaign.snapshot`, the sha256 of that whole mapping; a
transcript's footer names the snapshot by the first 16 hex digits of it (`snímek 3f2a…`). Every
resolve, play or table session of such a scenario stores the snapshot (written atomically, once:
the file name is its content's hash), so `drd resolve FILE --verify TRANSCRIPT` finds the state the
transcript was made from after the characters changed, in any transcript format.

Standard library only (and drd's own base modules).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from typing import Any

FOLDER = ("kronika", "snimky")
FORMAT = "drd-snimek/1"
SHORT = 16
"""How many hex digits of the snapshot hash a transcript's footer shows."""
TOKEN = re.compile(r"(?:snímek|snapshot) ([0-9a-f]{16,64})\b")
"""The snapshot named on a transcript's footer line (Czech or English)."""


def snapshot_hash(start: dict[str, Any]) -> str:
    from .references import state_hash

    return state_hash(start)


def folder(root: str) -> str:
    return os.path.join(root, *FOLDER)


def path_of(root: str, digest: str) -> str:
    return os.path.join(folder(root), digest.removeprefix("sha256:") + ".json")


def store(root: str, start: dict[str, Any], digest: str | None = None) -> str | None:
    """Writes the snapshot unless the store has it; returns its path (None when it cannot be written:
    a read-only campaign still resolves, only its later --verify needs the chronicle)."""
    digest = digest or snapshot_hash(start)
    path = path_of(root, digest)
    if os.path.isfile(path):
        return path
    from ..safefiles import replace_atomically

    text = json.dumps({"format": FORMAT, "hash": digest, "start": start}, ensure_ascii=False, sort_keys=True,
                      indent=1) + "\n"
    try:
        os.makedirs(folder(root), exist_ok=True)
        replace_atomically(path, text)
    except OSError:
        return None
    return path


def token_in(text: str) -> tuple[str, int] | None:
    """(hex digits, offset) of the snapshot a transcript names, the last one in the text; or None."""
    found = list(TOKEN.finditer(text))
    if not found:
        return None
    return found[-1].group(1), found[-1].start(1)


class SnapshotProblem(Exception):
    """A named snapshot missing from the store, or a stored one whose content no longer has its hash."""

    def __init__(self, kind: str, path: str):
        super().__init__(kind)
        self.kind = kind          # "missing" | "changed" | "ambiguous"
        self.path = path


def load(root: str, short: str) -> dict[str, Any]:
    """The `start` mapping of the stored snapshot whose hash begins with `short`; SnapshotProblem if none."""
    base = folder(root)
    try:
        names = sorted(n for n in os.listdir(base) if n.startswith(short) and n.endswith(".json"))
    except OSError:
        names = []
    if not names:
        raise SnapshotProblem("missing", os.path.join(base, short + "….json"))
    if len(names) > 1:
        raise SnapshotProblem("ambiguous", os.path.join(base, short + "….json"))
    path = os.path.join(base, names[0])
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        start = data["start"]
        ok = isinstance(start, dict) and snapshot_hash(start) == "sha256:" + names[0][:-5]
    except (OSError, ValueError, KeyError, TypeError):
        ok, start = False, None
    if not ok or not isinstance(start, dict):      # (ok: a dict whose hash is its name)
        raise SnapshotProblem("changed", path)
    return start


def candidates(root: str, start: dict[str, Any], limit: int = 200) -> list[dict[str, Any]]:
    """Stored snapshots naming the same participants and files as `start`, newest first (for a
    --verify given a bare hash, which names no snapshot)."""
    base = folder(root)
    try:
        names = [n for n in os.listdir(base) if n.endswith(".json") and not n.startswith(".")]
    except OSError:
        return []
    shape = {pid: (s.get("kind"), s.get("id")) for pid, s in start.items()}
    with_times = []
    for name in names:
        with contextlib.suppress(OSError):
            with_times.append((os.stat(os.path.join(base, name)).st_mtime, name))
    out = []
    for _when, name in sorted(with_times, reverse=True):
        try:
            found = load(root, name[:-5])
        except SnapshotProblem:
            continue
        if {pid: (s.get("kind"), s.get("id")) for pid, s in found.items()} == shape:
            out.append(found)
        if len(out) >= limit:
            break
    return out
