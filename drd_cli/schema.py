"""The JSON Schema of a scenario file (`drd schema`): what an editor may accept is what drd accepts.

Pydantic describes each model under the field's own (ASCII) name only. drd also reads every
Czech spelling a field declares (`kola`, `účastníci`, `tělo`, …; scenario/models.py `cz()`), and
a file with `system: dakara` is read by the Dakara models instead. So the schema is built from the
models and then:
* every property gets its other spellings beside it (same sub-schema), and a required field is
  satisfied by any one of its spellings;
* the root is the DrD II scenario, or the Dakara scenario when `system` is `dakara`;
* the step types of the plugins that are on are typed step keys (built by the caller, see
  `scenario.models.build_scenario_model`).
"""

from __future__ import annotations

from typing import Any

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def scenario_schema(plugin_steps: dict[str, Any]) -> dict:
    """The schema of a scenario file for the step types in `plugin_steps` ({key: model})."""
    from .dakara.models import DakaraScenario
    from .scenario.models import build_scenario_model

    drd = _with_spellings(build_scenario_model(plugin_steps))
    dakara = _with_spellings(DakaraScenario, prefix="Dakara")
    defs = dict(drd.pop("$defs", {}))
    _campaign_references(drd, defs)
    defs.update(dakara.pop("$defs", {}))
    drd.pop("title", None)
    defs["DakaraScenario"] = dakara
    defs["DrdScenario"] = drd
    # The root's own `properties` only offer every top-level key for completion (a key of either
    # system, in either shape); the exact checks are the two branches.
    keys: dict[str, Any] = {}
    for branch in (drd, dakara):
        for key, sub in branch.get("properties", {}).items():
            keys.setdefault(key, [])
            if sub not in keys[key]:
                keys[key].append(sub)
    return _bounded(_for_users({
        "$schema": DIALECT,
        "title": "drd scenario (drd/1)",
        "description": "A scenario file of drd: DrD II by default, Dakara with `system: dakara` "
                       "(docs/scenario-format.md, docs/dakara.md).",
        "type": "object",
        "properties": {key: subs[0] if len(subs) == 1 else {"anyOf": subs} for key, subs in keys.items()},
        "if": {"type": "object", "properties": {"system": {"const": "dakara"}}, "required": ["system"]},
        "then": {"$ref": "#/$defs/DakaraScenario"},
        "else": {"$ref": "#/$defs/DrdScenario"},
        "$defs": defs,
    }))


# Keys whose integers are dice: each 1–6 (the engine refuses anything else, R-ROLL-2).
DICE_KEYS = frozenset({"dice", "kostky", "player", "narrator", "hráč", "vypravěč"})
ROLL_KEYS = ("roll", "hod")
OVERRIDE_KEYS = ("roll_beyond_dice", "hod_mimo_kostky")


def _bounded(value: Any) -> Any:
    """Dice bounded to 1–6 wherever a dice key is; a written total (`roll`, `rolls`) at least 2
    unless the action keeps it on purpose (`roll_beyond_dice: true`)."""
    if isinstance(value, list):
        for item in value:
            _bounded(item)
        return value
    if not isinstance(value, dict):
        return value
    props = value.get("properties")
    if isinstance(props, dict):
        for key, sub in props.items():
            if key in DICE_KEYS:
                _die(sub)
        if any(k in props for k in OVERRIDE_KEYS) and any(k in props for k in ROLL_KEYS):
            at_least: dict[str, dict[str, dict]] = {"properties": {k: {"minimum": 2} for k in ROLL_KEYS if k in props}}
            if "rolls" in props:
                at_least["properties"]["rolls"] = {"additionalProperties": {"minimum": 2}}
            value["if"] = {"anyOf": [{"required": [k], "properties": {k: {"const": True}}}
                                     for k in OVERRIDE_KEYS if k in props]}
            value["else"] = at_least
    for key, sub in value.items():
        if key not in ("if", "else"):
            _bounded(sub)
    return value


def _die(value: Any) -> None:
    """Every integer in `value` (not following $ref) becomes 1–6."""
    if isinstance(value, list):
        for item in value:
            _die(item)
    elif isinstance(value, dict):
        if value.get("type") == "integer":
            value["minimum"], value["maximum"] = 1, 6
        for sub in value.values():
            _die(sub)


def _campaign_references(drd: dict, defs: dict) -> None:
    """A participant may also name a campaign's character or creature (docs/scenario-format.md §2.1)."""
    from .scenario.character import ParticipantReference

    ref = _with_spellings(ParticipantReference)
    defs.update(ref.pop("$defs", {}))
    ref.pop("title", None)
    defs["ParticipantReference"] = ref
    for key, sub in drd.get("properties", {}).items():
        if sub.get("additionalProperties") == {"$ref": "#/$defs/Participant"}:
            sub["additionalProperties"] = {"anyOf": [{"$ref": "#/$defs/Participant"},
                                                     {"$ref": "#/$defs/ParticipantReference"}]}


def _for_users(value: Any) -> Any:
    """Descriptions come from the models' docstrings: they cite the user docs, not internal files."""
    from .citations import for_users

    if isinstance(value, dict):
        return {k: for_users(v) if k == "description" and isinstance(v, str) else _for_users(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_for_users(v) for v in value]
    return value


def _with_spellings(model: Any, prefix: str = "") -> dict:
    """`model`'s JSON Schema with every field's other spellings added, `$defs` renamed by `prefix`."""
    schema = model.model_json_schema()
    classes = _models_by_name(model)
    defs = schema.get("$defs", {})
    for name, sub in defs.items():
        if name in classes:
            _add_spellings(sub, classes[name])
    _add_spellings(schema, model)
    if prefix:
        names = {name: name if name.startswith(prefix) else prefix + name for name in defs}
        schema = _rename_refs(schema, names)
        schema["$defs"] = {names[name]: sub for name, sub in schema.get("$defs", {}).items()}
    return schema


def _models_by_name(root: Any) -> dict[str, Any]:
    """Every pydantic model reachable from `root`'s fields, by class name (= its `$defs` key)."""
    from pydantic import BaseModel

    found: dict[str, Any] = {}

    def visit(tp: Any) -> None:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if found.get(tp.__name__) is tp:
                return
            found.setdefault(tp.__name__, tp)
            for field in tp.model_fields.values():
                visit(field.annotation)
            return
        for arg in getattr(tp, "__args__", ()) or ():
            visit(arg)

    visit(root)
    return found


def _spellings(field_name: str, field: Any) -> list[str]:
    from pydantic import AliasChoices

    alias = field.validation_alias
    choices = alias.choices if isinstance(alias, AliasChoices) else [alias] if isinstance(alias, str) else []
    return [c for c in dict.fromkeys([field_name, *choices]) if isinstance(c, str)]


def _add_spellings(schema: dict, model: Any) -> None:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    required = list(schema.get("required", []))
    alternatives = []
    from .i18n import _
    from .schema_words import KEY_HELP

    for name, field in model.model_fields.items():
        names = _spellings(name, field)
        own = next((n for n in names if n in props), None)
        if own is None:
            continue
        help_text = KEY_HELP.get(name) or KEY_HELP.get(own)
        if help_text and isinstance(props[own], dict):
            props[own]["description"] = _(help_text)
        for other in names:
            props.setdefault(other, props[own])
        if own in required and len(names) > 1:
            required.remove(own)
            alternatives.append({"anyOf": [{"required": [n]} for n in names]})
    if "required" in schema:
        if required:
            schema["required"] = required
        else:
            del schema["required"]
    if alternatives:
        schema["allOf"] = list(schema.get("allOf", [])) + alternatives


def _rename_refs(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, sub in value.items():
            if key == "$ref" and isinstance(sub, str) and sub.startswith("#/$defs/"):
                target = sub[len("#/$defs/"):]
                out[key] = "#/$defs/" + names.get(target, target)
            else:
                out[key] = _rename_refs(sub, names)
        return out
    if isinstance(value, list):
        return [_rename_refs(v, names) for v in value]
    return value
