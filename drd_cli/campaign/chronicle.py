"""The chronicle (`kronika/`): one entry per applied conflict, adjustment, healing, import or undo.

An entry is `kronika/NNNN-<slug>.yaml` (written by drd; English keys like the JSON result):
`number`, `kind` (`conflict`, `adjust`, `heal`, `import`, `undo`), `when` (UTC), `who`, and per
character the state `before` and `after` with their hashes. A conflict's entry also names its
`file` and result `digest`, and keeps the result beside it (`NNNN-<slug>.json`) for
`drd kronika export`. Entries are never rewritten: an undo is an entry of its own (`undoes: N`).
"""

from __future__ import annotations

import datetime as _dt
import getpass
import json
import os
from typing import Any

from ..skills import slug

FOLDER = "kronika"
EXPORT_MARK = ".export.json"
KINDS = ("conflict", "adjust", "heal", "import", "undo")


def _loader() -> Any:
    import yaml  # type: ignore[import-untyped]

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def entries(campaign: Any) -> list[dict]:
    """Every entry, by number; `undone` is set on the entries a later undo took back."""
    import yaml  # type: ignore[import-untyped]

    folder = campaign.path(FOLDER)
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".yaml") and n[:4].isdigit())
    except OSError:
        return []
    out = []
    for name in names:
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            entry = yaml.load(handle, Loader=_loader())
        if isinstance(entry, dict) and isinstance(entry.get("number"), int):
            entry["_name"] = name
            out.append(entry)
    out.sort(key=lambda e: e["number"])
    undone = {e.get("undoes") for e in out if e.get("kind") == "undo"}
    for e in out:
        e["undone"] = e["number"] in undone
    return out


def next_number(existing: list[dict]) -> int:
    return max((e["number"] for e in existing), default=0) + 1


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def who() -> str:
    try:
        return os.environ.get("DRD_KDO") or getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name is no reason to fail
        return "?"


def new_entry(number: int, kind: str, **fields: Any) -> dict:
    entry = {"number": number, "kind": kind, "when": now(), "who": who()}
    entry.update({k: v for k, v in fields.items() if v is not None})
    return entry


def write_entry(tx: Any, campaign: Any, entry: dict, *, label: str, result: dict | None = None,
                player: dict | None = None) -> str:
    """Adds the entry (and the result beside it) to the transaction; returns the entry's file name."""
    import yaml  # type: ignore[import-untyped]

    base = f"{entry['number']:04d}-{slug(label)[:40] or entry['kind']}"
    clean = json.loads(json.dumps({k: v for k, v in entry.items() if not k.startswith("_") and k != "undone"}))
    if result is not None:
        clean["result"] = base + ".json"
        tx.write(campaign.path(FOLDER, base + ".json"), json.dumps(result, ensure_ascii=False, sort_keys=True))
    if player is not None:
        clean["player_result"] = base + ".player.json"
        tx.write(campaign.path(FOLDER, base + ".player.json"), json.dumps(player, ensure_ascii=False, sort_keys=True))
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    tx.write(campaign.path(FOLDER, base + ".yaml"),
             yaml.dump(clean, Dumper=dumper, allow_unicode=True, sort_keys=False, width=4096))
    return base + ".yaml"


def read_result(campaign: Any, entry: dict) -> dict | None:
    name = entry.get("result")
    if not name:
        return None
    try:
        with open(campaign.path(FOLDER, name), encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def applied(existing: list[dict], file: str) -> dict | None:
    """The entry that applied conflict `file` (campaign-relative) and was not undone, if any."""
    for e in reversed(existing):
        if e.get("kind") == "conflict" and e.get("file") == file and not e["undone"]:
            return e
    return None


def by_digest(existing: list[dict], digest: str) -> dict | None:
    for e in reversed(existing):
        if e.get("kind") == "conflict" and e.get("digest") == digest:
            return e
    return None


def last_touching(existing: list[dict], ident: str) -> dict | None:
    for e in reversed(existing):
        if ident in (e.get("characters") or {}):
            return e
    return None


def last_export(campaign: Any) -> int:
    try:
        with open(campaign.path(FOLDER, EXPORT_MARK), encoding="utf-8") as handle:
            return int(json.load(handle).get("last", 0))
    except (OSError, ValueError, AttributeError, TypeError):
        return 0


def mark_export(tx: Any, campaign: Any, last: int) -> None:
    tx.write(campaign.path(FOLDER, EXPORT_MARK), json.dumps({"last": last, "when": now()}))
