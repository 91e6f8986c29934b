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


def new_text(text: str, state: dict) -> str:
    """The character file's text with `state` written in (comments and spelling kept)."""
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


def validated(text: str, path: str, kind: str = "postava") -> Any:
    """The model of a character/creature file's text; ScenarioError (exit 2) at its line."""
    from ..scenario.character import CharacterFile, CreatureFile
    from ..scenario.load import load_text
    from ..scenario.validate import validate_model

    data, source = load_text(text, path)
    return validate_model(CharacterFile if kind == "postava" else CreatureFile, data, source, path)


def write_state(tx: Any, campaign: Any, ident: str, state: dict) -> str:
    """Adds the character file with `state` to the transaction; returns the new state's hash."""
    path = campaign.entity_path("postava", ident)
    with open(path, encoding="utf-8") as handle:
        text = new_text(handle.read(), state)
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
