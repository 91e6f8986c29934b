"""`drd schema` accepts what drd accepts (SCENARIO-FORMAT §1: the whole format, Czech spellings
included): every file in scenarios/ and tests/data/, and every YAML example in the user's docs,
validates against it with a standard JSON Schema validator; what drd refuses, it refuses too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

jsonschema = pytest.importorskip("jsonschema")

from drd_cli.cli.app import app  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "scenarios").glob("*.yaml")) + sorted((ROOT / "tests" / "data").glob("*.yaml"))
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


@pytest.fixture(scope="module")
def schema() -> dict:
    res = CliRunner().invoke(app, ["schema"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    jsonschema.Draft202012Validator.check_schema(out)
    return out


def _validator(schema: dict, ref: str | None = None):
    sub = schema if ref is None else {"$ref": ref, "$defs": schema["$defs"]}
    return jsonschema.Draft202012Validator(sub)


def _errors(schema: dict, data, ref: str | None = None) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in _validator(schema, ref).iter_errors(data)]


def _load(text: str):
    return YAML(typ="safe").load(text)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_scenario_file_validates(schema, path):
    assert _errors(schema, _load(path.read_text(encoding="utf-8"))) == []


def _doc_blocks():
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in re.finditer(r"```ya?ml\n(.*?)```", text, re.S):
            line = text[:m.start()].count("\n") + 1
            yield pytest.param(m.group(1), id=f"{doc.name}:{line}")


@pytest.mark.parametrize("block", list(_doc_blocks()))
def test_every_yaml_example_in_the_docs_validates(schema, block):
    try:
        data = _load(block)
    except Exception:   # noqa: BLE001 - an excerpt with "…" in the middle of a file (play.md)
        assert "…" in block
        return
    drd = schema["$defs"]["DrdScenario"]
    if isinstance(data, dict) and "format" in data:
        assert _errors(schema, data) == []
    elif isinstance(data, list):                        # a list of steps
        for item in data:
            assert _errors(schema, item, "#/$defs/Step") == []
    else:                                               # a part of a file or of a step
        for key, value in data.items():
            where = drd["properties"].get(key) or schema["$defs"]["Step"]["properties"].get(key)
            assert where is not None, f"{key} is neither a file key nor a step key"
            assert _errors({**where, "$defs": schema["$defs"]}, value) == [], key


MINIMAL_CZ = """
format: drd/1
název: Čeština všude
účastníci:
  hanus: {jméno: Mistr Hanuš, zdroje: {tělo: 4, duše: 9, vliv: 5}, ohrožení: 3}
  stary: {sudba: 12}
kola:
  - iniciativa: [hanus, stary]
    kroky:
      - id: utek
        střet:
          action: {actor: hanus, pool: tělo, hod: 10, manévry: [přesně]}
          protiakce: [{actor: stary, kind: harm, hod: 13, účinek: {stav: chycen, ohrožení: 1}}]
        volby: {hanus: exhaust}
"""


def _accepted_by_drd(text: str, tmp_path) -> bool:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(app, ["check", str(path)]).exit_code == 0


def test_czech_spellings_drd_reads_validate(schema, tmp_path):
    assert _accepted_by_drd(MINIMAL_CZ, tmp_path)
    assert _errors(schema, _load(MINIMAL_CZ)) == []


@pytest.mark.parametrize("bad", [
    "format: drd/1\nparticipants: {a: {sudba: 3}}\nrounds: []\nunknown_key: 1\n",
    "format: drd/2\nparticipants: {a: {sudba: 3}}\n",
    "format: drd/1\nparticipants: {a: {sudba: 3, tělo: 4}}\n",
    "format: drd/1\nsystem: dakara\nparticipants: {a: {sudba: 3}}\n",       # a DrD II being in Dakara
    "format: drd/1\nsystem: dakara\nparticipants: {a: {skills: {beh: 3}}}\nrounds: [{steps: [{test: {actor: a}}]}]\n",
    "format: drd/1\nrounds: []\n",                                              # no participants
])
def test_what_drd_refuses_the_schema_refuses(schema, bad, tmp_path):
    assert not _accepted_by_drd(bad, tmp_path)
    assert _errors(schema, _load(bad))


SUROVINY = """\
format: drd/1
participants:
  a: {pools: {telo: 3, duse: 3, vliv: 3}, suroviny: 2, abilities: [neobvykle-jedy, umeni-improvizace]}
rounds:
  - steps:
      - test: {actor: a, roll: 10, activate: [{id: neobvykle-jedy, variant: dlouhy},
                                               {id: umeni-improvizace, improvised: 1, base: false}]}
"""


def test_suroviny_and_an_activations_own_keys(schema, tmp_path):
    """A participant's `suroviny` (a whole number ≥ 0) and the ability's keys on an `activate:` item."""
    assert _accepted_by_drd(SUROVINY, tmp_path)
    assert _errors(schema, _load(SUROVINY)) == []
    bad = SUROVINY.replace("suroviny: 2", "suroviny: -1")
    assert not _accepted_by_drd(bad, tmp_path)
    assert any("suroviny" in e for e in _errors(schema, _load(bad)))
    assert _errors(schema, _load(SUROVINY.replace("suroviny: 2", "suroviny: dvě")))


def test_a_dakara_file_and_its_czech_spellings(schema, tmp_path):
    text = ("format: drd/1\nsystem: dakara\núčastníci: {kaja: {dovednosti: {beh: 3}, zranění: 2}}\n"
            "kola: [{kroky: [{skill: {actor: kaja, dovednost: beh, obtížnost: 4}}]}]\n")
    assert _accepted_by_drd(text, tmp_path)
    assert _errors(schema, _load(text)) == []


def test_plugin_step_types_are_typed_keys(schema):
    step = schema["$defs"]["Step"]["properties"]
    assert "hide" in step
    hide = schema["$defs"]["HideSpec"]["properties"]
    assert {"action", "counter", "revealed", "ukrytý"} <= set(hide)


def test_every_key_the_schema_knows_is_documented(schema):
    """Every key (and Czech spelling) a file may use appears in the user docs, in backticks or as
    `key:` in an example (docs/scenario-format.md, docs/dakara.md for Dakara files)."""
    docs = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8") + \
        (ROOT / "docs" / "dakara.md").read_text(encoding="utf-8")
    missing = []
    for name, sub in schema["$defs"].items():
        for key in sub.get("properties", {}):
            if key == "from_":          # the Python field name, accepted but never documented
                continue
            if f"`{key}`" not in docs and not re.search(r"[{ ,\n`]" + re.escape(key) + r":", docs):
                missing.append(f"{name}.{key}")
    assert missing == []
