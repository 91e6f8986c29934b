"""A book scenario as a group brings it to the table (not a test module): every roll and answer
taken out, so `drd play` and `drd stul` ask for everything."""

from __future__ import annotations

from pathlib import Path
from typing import Any

STRIP = {"roll", "hod", "dice", "kostky", "rolls", "hody", "choices", "volby"}


def _strip(node: Any, inside: bool = False) -> None:
    """Removes rolls and answers inside steps and environment actions; where a hero's roll is
    removed and no profession is named for it, `bonus_from: none` (dice need one, R-ROLL-1)."""
    if isinstance(node, dict):
        rolled = inside and any(k in node for k in ("roll", "hod", "dice", "kostky", "rolls", "hody"))
        if rolled and "bonus_from" not in node and any(k in node for k in ("actor", "actors", "react")):
            node["bonus_from"] = {pid: "none" for pid in node["react"]} if "react" in node else "none"
        for key in list(node):
            if inside and key in STRIP:
                del node[key]
            else:
                _strip(node[key], inside or key in ("steps", "kroky", "environment", "prostředí"))
    elif isinstance(node, list):
        for item in node:
            _strip(item, inside)


def skeleton(source: Path, dest: Path) -> Path:
    """`source` with every roll and answer taken out (and its `expect`): everything is asked at the table."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    doc = yaml.load(source.read_text(encoding="utf-8"))
    _strip(doc)
    for key in ("expect", "extra_dice"):
        doc.pop(key, None)
    with dest.open("w", encoding="utf-8") as fh:
        yaml.dump(doc, fh)
    return dest
