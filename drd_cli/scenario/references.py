"""Participants that name a campaign's character or creature (SCENARIO-FORMAT §2.1, docs/kampan.md).

`hanus: {postava: hanus, ohrozeni: 3}` becomes the character's lasting state (read from
`postavy/hanus.yaml` of the campaign whose `drd-kampan.yaml` is found by walking up from the
scenario's folder) plus the keys of this conflict. `expand` does it on the loaded document,
before validation, so the rest of drd sees an ordinary participant; it returns what the result
records: each referenced participant's start state and its hash (`campaign.start`).
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from ..errors import Location, ScenarioError
from ..i18n import _

CAMPAIGN_FILE = "drd-kampan.yaml"

REF_KEYS = {"postava": "postava", "character": "postava", "bestie": "bestie", "creature": "bestie"}
FOLDERS = {"postava": "postavy", "bestie": "bestiar"}
# Keys a reference may carry for this conflict (what lasts comes from the file), → the model's name.
LOCAL_KEYS = {
    "ohrozeni": "ohrozeni", "ohrožení": "ohrozeni", "vyhody": "vyhody", "výhody": "vyhody",
    "side": "side", "strana": "side", "zone": "zone", "zóna": "zone",
    "conditions": "conditions", "stavy": "conditions", "count": "count", "počet": "count", "pocet": "count",
    "suspicion": "suspicion", "podezření": "suspicion", "secret": "secret", "tajné": "secret",
    "events": "events", "události": "events", "name": "name", "jméno": "name",
}
_PARTICIPANTS = ("participants", "účastníci")


def has_references(data: Any) -> bool:
    """Whether any participant of a loaded document names a character or a creature (cheap)."""
    if not isinstance(data, dict):
        return False
    for key in _PARTICIPANTS:
        parts = data.get(key)
        if isinstance(parts, dict):
            for entry in parts.values():
                if isinstance(entry, dict) and any(k in REF_KEYS for k in entry):
                    return True
    return False


def find_campaign(start: str) -> str | None:
    """The campaign folder holding `start` (a folder): the nearest with `drd-kampan.yaml`, as git does."""
    folder = os.path.abspath(start)
    while True:
        if os.path.isfile(os.path.join(folder, CAMPAIGN_FILE)):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def state_hash(state: dict[str, Any]) -> str:
    """sha256 of a state's canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def shown_path(path: str) -> str:
    """`path` relative to the current folder when it lies below it (messages stay short)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def read_entity(path: str, kind: str) -> tuple[Any, Any, Any]:
    """(model, data, source) of a character or creature file; ScenarioError at its own line."""
    from .character import CharacterFile, CreatureFile
    from .load import load_document
    from .validate import validate_model

    data, source = load_document(path)
    model = validate_model(CharacterFile if kind == "postava" else CreatureFile, data, source, path)
    return model, data, source


def participant_state(model: Any, kind: str) -> dict[str, Any]:
    """The lasting part of a character or creature, as participant keys (plain data)."""
    from ..digest import plain
    from .character import jizva_name
    from .models import CASES

    dump = model.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    state: dict[str, Any] = {}
    if model.name is not None:
        state["name"] = model.name
    if model.side is not None:
        state["side"] = model.side
    if kind == "postava":
        state["pools"] = {p: getattr(model.pools, p) for p in ("telo", "duse", "vliv")}
        if model.max is not None:
            caps = {p: getattr(model.max, p) for p in ("telo", "duse", "vliv") if getattr(model.max, p) is not None}
            if caps:
                state["max"] = caps
        for key in ("levels", "suroviny"):
            if key in dump:
                state[key] = dump[key]
    else:
        state["sudba"] = model.sudba
        for key in ("charakteristika", "count"):
            if key in dump:
                state[key] = dump[key]
    for key in ("ohrozeni", "vyhody", "abilities", "equipment", "conditions", "traits"):
        if key in dump:
            state[key] = dump[key]
    if model.armour:
        state["armour"] = model.armour
    if model.jizvy:
        state["jizvy"] = [jizva_name(j) for j in model.jizvy]
    # Grammatical gender and declined forms (docs/i18n.md): the transcript agrees and declines with them.
    if model.gender is not None:
        state["rod"] = {"f": "ž", "n": "s", "mz": "m"}.get(model.gender, model.gender)
    forms = {key: form for key, form in model.forms.items() if str(key).strip().lower() in CASES}
    if forms:
        state["pady"] = forms
    out: dict[str, Any] = plain(state)
    return out


def _ids(root: str, kind: str) -> list[str]:
    folder = os.path.join(root, FOLDERS[kind])
    try:
        return sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".yaml") and not n.startswith("."))
    except OSError:
        return []


def _missing(root: str, kind: str, ref_id: Any, where: Location) -> ScenarioError:
    import difflib

    ids = _ids(root, kind)
    close = difflib.get_close_matches(str(ref_id), ids, n=1, cutoff=0.5)
    folder = FOLDERS[kind] + "/"
    message = (_("no character {id!r} in the campaign ({folder})") if kind == "postava"
               else _("no creature {id!r} in the campaign's bestiary ({folder})")).format(id=ref_id, folder=folder)
    if close:
        hint = _("did you mean {option}?").format(option=repr(close[0]))
    elif ids:
        hint = _("known: {ids}").format(ids=", ".join(ids))
    else:
        hint = _("create one with `drd postava new ID` or `drd import …`") if kind == "postava" else \
            _("create one with `drd bestie new ID` or `drd import … --bestie`")
    return ScenarioError(message, where, hint=hint)


def expand(data: Any, source: Any, path: str, *,
           snapshot: dict[str, Any] | None = None) -> dict[str, Any]:
    """Replaces every reference in `data` by the participant it names (in place).

    `snapshot` ({participant id: a `campaign.start` entry}) gives start states to use instead of
    the files (`--verify` of a conflict resolved before the characters changed). Returns
    `{"root": folder, "start": {id: {kind, id, file, hash, state}}}`.
    """
    parts_key = next(k for k in _PARTICIPANTS if isinstance(data.get(k), dict))
    parts = data[parts_key]
    root = find_campaign(os.path.dirname(os.path.abspath(path)))
    start: dict[str, Any] = {}
    for pid, entry in list(parts.items()):
        refs = [k for k in entry if k in REF_KEYS] if isinstance(entry, dict) else []
        if not refs:
            continue
        where = (parts_key, pid, refs[0])
        if len(refs) > 1:
            raise ScenarioError(_("a participant names one character or creature, not {keys}").format(
                keys=" + ".join(refs)), source.locate((parts_key, pid, refs[1])))
        if root is None:
            raise ScenarioError(_("{key}: refers to a campaign, but no {file} was found in this folder or "
                                  "above").format(key=refs[0], file=CAMPAIGN_FILE), source.locate(where),
                                hint=_("create one with `drd kampan new --zde NAME` (docs/kampan.md)"))
        kind, ref_id = REF_KEYS[refs[0]], entry[refs[0]]
        if not isinstance(ref_id, str) or not ref_id or "/" in ref_id or ref_id.startswith("."):
            raise ScenarioError(_("{key}: expected the id of a campaign file, got {value!r}").format(
                key=refs[0], value=ref_id), source.locate_value(where))
        rel = f"{FOLDERS[kind]}/{ref_id}.yaml"
        if snapshot is not None and pid in snapshot:
            state, digest = snapshot[pid]["state"], snapshot[pid]["hash"]
        else:
            file = os.path.join(root, rel)
            if not os.path.isfile(file):
                raise _missing(root, kind, ref_id, source.locate_value(where))
            model, _data, _source = read_entity(shown_path(file), kind)
            state = participant_state(model, kind)
            digest = state_hash(state)
        parts[pid] = _merged(state, entry, refs[0], kind, source, (parts_key, pid))
        start[pid] = {"kind": kind, "id": ref_id, "file": rel, "hash": digest, "state": state}
        moment = [k for k in entry if LOCAL_KEYS.get(k) == "conditions"]
        if moment:
            start[pid]["moment"] = _condition_names(entry[moment[0]])
    return {"root": root, "start": start}


def _condition_names(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [i if isinstance(i, str) else str(i.get("name")) for i in items if isinstance(i, (str, dict))]


def _merged(state: dict[str, Any], entry: dict[Any, Any], ref_key: str, kind: str, source: Any,
            at: tuple[Any, ...]) -> dict[str, Any]:
    from ..digest import plain

    merged: dict[str, Any] = json.loads(json.dumps(state))
    for key, value in entry.items():
        if key == ref_key:
            continue
        name = LOCAL_KEYS.get(key)
        if name is None:
            raise ScenarioError(_("{key}: a reference gives only what belongs to this conflict (Ohrožení, Výhody, "
                                  "side, zone, conditions, count); what lasts is set in the {what} file").format(
                                      key=key, what=_("character") if kind == "postava" else _("creature")),
                                source.locate(at + (key,)),
                                hint=_("allowed here: {keys}").format(keys=", ".join(sorted(set(LOCAL_KEYS.values())))))
        value = plain(value)
        if name == "conditions" and isinstance(value, list):
            merged["conditions"] = list(merged.get("conditions", [])) + value
        else:
            merged[name] = value
    return merged
