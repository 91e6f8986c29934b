"""A character's changeable state (what a conflict, a rest or a healing changes) and writing it back."""

from __future__ import annotations

import os
from typing import Any

from ..scenario.references import participant_state, state_hash
from . import yamlfile

POOLS = ("telo", "duse", "vliv")


def file_state(model: Any) -> dict:
    """pools, max, jizvy, equipment, conditions, ohrozeni, vyhody of a character model (plain data)."""
    dump = model.model_dump(mode="json", exclude_defaults=True, exclude_none=True)

    def items(key: str) -> list:
        return list(dump.get(key, []))

    caps = None
    if model.max is not None:
        caps = {p: getattr(model.max, p) for p in POOLS if getattr(model.max, p) is not None} or None
    return {"pools": {p: getattr(model.pools, p) for p in POOLS}, "max": caps,
            "jizvy": items("jizvy"), "equipment": items("equipment"), "conditions": items("conditions"),
            "ohrozeni": model.ohrozeni, "vyhody": model.vyhody}


def current_hash(model: Any, kind: str = "postava") -> str:
    return state_hash(participant_state(model, kind))


def new_text(text: str, state: dict, old: dict | None = None) -> str:
    """The character file's text with `state` written in (comments and spelling kept).

    When only numbers the file already has change (pools, maxima, Ohrožení, Výhody: what most
    conflicts and rests change), they are replaced where they stand in the text; anything else
    goes through a ruamel round trip."""
    if old is not None:
        fast = _numbers_only(text, state, old)
        if fast is not None:
            return fast
    data = yamlfile.load(text)
    yamlfile.set_pools(data, "pools", state["pools"])
    if state.get("max"):
        yamlfile.set_pools(data, "max", state["max"])
    for key in ("jizvy", "equipment", "conditions"):
        yamlfile.set_list(data, key, state.get(key) or [])
    for key in ("ohrozeni", "vyhody"):
        if state.get(key) is not None:
            yamlfile.set_value(data, key, state[key])
        else:
            yamlfile.remove(data, key)
    return yamlfile.dump(data)


def _numbers_only(text: str, state: dict, old: dict) -> str | None:
    import re

    from ..scenario.load import load_text

    changes: list[tuple[tuple[str, ...], Any]] = []
    for key in ("jizvy", "equipment", "conditions"):
        if (state.get(key) or []) != (old.get(key) or []):
            return None
    for key in ("ohrozeni", "vyhody"):
        if state.get(key) != old.get(key):
            if old.get(key) is None or state.get(key) is None:
                return None
            changes.append(((key,), state[key]))
    for block in ("pools", "max"):
        new_block, old_block = state.get(block) or {}, old.get(block) or {}
        if set(new_block) != set(old_block):
            return None
        changes += [((block, p), v) for p, v in new_block.items() if old_block.get(p) != v]
    if not changes:
        return text
    data, source = load_text(text, "<postava>")
    lines = text.split("\n")
    edits = []
    for path, value in changes:
        node = data
        for part in path:
            found = yamlfile.key_of(node, part) if isinstance(node, dict) else None
            if found is None:
                return None
            node = node[found]
        if type(node) is not int:
            return None
        where = source.locate_value(path)
        line = lines[where.line - 1]
        m = re.match(r"\d+", line[where.col - 1:])
        if m is None or int(m.group(0)) != node:
            return None
        edits.append((where.line - 1, where.col - 1, len(m.group(0)), str(int(value))))
    for row, col, length, value in sorted(edits, reverse=True):
        lines[row] = lines[row][:col] + value + lines[row][col + length:]
    return "\n".join(lines)


def validated(text: str, path: str, kind: str = "postava") -> Any:
    """The model of a character/creature file's text; ScenarioError (exit 2) at its line."""
    from ..scenario.character import CharacterFile, CreatureFile
    from ..scenario.load import load_text
    from ..scenario.validate import validate_model

    data, source = load_text(text, path)
    return validate_model(CharacterFile if kind == "postava" else CreatureFile, data, source, path)


def write_state(tx: Any, campaign: Any, ident: str, state: dict, old: dict | None = None) -> str:
    """Adds the character file with `state` to the transaction; returns the new state's hash.
    `old` (the state the file holds now) lets plain number changes skip the round trip."""
    path = campaign.entity_path("postava", ident)
    with open(path, encoding="utf-8") as handle:
        text = new_text(handle.read(), state, old)
    model = validated(text, campaign.rel(path))
    tx.write(path, text)
    return current_hash(model)


def read_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def exists(campaign: Any, kind: str, ident: str) -> bool:
    return os.path.isfile(campaign.entity_path(kind, ident))
