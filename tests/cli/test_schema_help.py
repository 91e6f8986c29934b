"""`drd schema` for editors: every property carries its help text (in the run's language, from the
catalogs), dice are bounded to 1–6 and a written total to at least 2 (unless `roll_beyond_dice`), so
an editor catches `dice: [6, 7]` before drd does; every file in scenarios/ still validates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

jsonschema = pytest.importorskip("jsonschema")

from drd_cli.cli.app import app  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BASE = """\
format: drd/1
participants:
  jur: {{name: Jur, sudba: 6, charakteristika: 1}}
  vlk: {{name: Vlk, sudba: 4, charakteristika: 1}}
rounds:
  - steps:
      - contest:
          action: {{actor: vlk, targets: [jur], pool: telo, {roll}}}
          counters: [{{actor: jur, kind: harm, pool: telo, roll: 8}}]
"""
DAKARA = """\
format: drd/1
system: dakara
participants: {{z: {{name: Zlatka, skills: {{kapsarstvi: 2}}}}}}
rounds:
  - steps:
      - skill: {{actor: z, skill: kapsarstvi, difficulty: 4, dice: {{player: {p}, narrator: 3}}}}
"""


def _schema(*args: str) -> dict:
    res = CliRunner().invoke(app, ["schema", *args])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    jsonschema.Draft202012Validator.check_schema(out)
    return out


@pytest.fixture(scope="module")
def schema() -> dict:
    return _schema()


def _properties(value, skip=("if", "then", "else", "not")):
    """Every (name, sub-schema) declared under a `properties` (not inside a condition)."""
    if isinstance(value, dict):
        for name, sub in (value.get("properties") or {}).items():
            yield name, sub
        for key, sub in value.items():
            if key not in skip:
                yield from _properties(sub, skip)
    elif isinstance(value, list):
        for sub in value:
            yield from _properties(sub, skip)


def _described(sub) -> str | None:
    if not isinstance(sub, dict):
        return None
    return sub.get("description") or next((s.get("description") for s in sub.get("anyOf", [])
                                           if isinstance(s, dict) and s.get("description")), None)


def test_every_property_has_a_description(schema):
    props = list(_properties(schema))
    assert len(props) > 500
    missing = sorted({name for name, sub in props if not _described(sub)})
    assert not missing, missing


def test_descriptions_are_in_the_runs_language(schema):
    roll = schema["$defs"]["ActionSpec"]["properties"]["roll"]["description"]
    assert "součet" in roll.lower()
    assert schema["$defs"]["ActionSpec"]["properties"]["hod"]["description"] == roll    # the Czech spelling too
    english = _schema("--lang", "en")["$defs"]["ActionSpec"]["properties"]["roll"]["description"]
    assert "total" in english


def _errors(schema: dict, text: str) -> list[str]:
    data = YAML(typ="safe").load(text)
    return [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]


@pytest.mark.parametrize("roll", ["dice: [6, 7]", "dice: [0, 3]", "kostky: [6, 7]", "roll: 1", "hod: -3"])
def test_the_dice_and_range_errors_are_refused(schema, roll):
    assert _errors(schema, BASE.format(roll=roll))


@pytest.mark.parametrize("roll", ["dice: [6, 6]", "roll: 13", "roll: 0, roll_beyond_dice: true",
                                  "hod: 1, hod_mimo_kostky: true"])
def test_good_dice_and_a_kept_total_pass(schema, roll):
    assert _errors(schema, BASE.format(roll=roll)) == []


def test_a_dakara_die_is_bounded_too(schema):
    assert _errors(schema, DAKARA.format(p=7))
    assert _errors(schema, DAKARA.format(p=6)) == []


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_scenario_passes(schema, path):
    assert _errors(schema, path.read_text(encoding="utf-8")) == []
