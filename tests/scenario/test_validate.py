"""pydantic errors → FILE:LINE:COL problems, tested with small strict models of our own."""

from __future__ import annotations

from typing import Annotated, Literal, Union

import pytest
from pydantic import AliasChoices, BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from drd_cli.errors import ScenarioError
from drd_cli.scenario.load import load_text
from drd_cli.scenario.validate import describe, validate_model


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


class Effect(Strict):
    ohrozeni: int | None = Field(default=None, validation_alias=AliasChoices("ohrozeni", "ohrožení"))
    note: str | None = None


class Jizva(Strict):
    name: str
    pool: Literal["telo", "duse", "vliv"] | None = None


class Zkouska(Strict):
    pool: Literal["telo", "duse", "vliv"]
    roll: int | None = None
    demanding: bool = False
    effect: Effect | list[Effect] | None = None
    jizva: str | Jizva | None = None


class Step(Strict):
    id: str | None = None
    test: Zkouska | None = None

    @model_validator(mode="after")
    def _needs_something(self) -> "Step":
        if self.test is None:
            raise ValueError("a step needs `test`")
        return self


class Hero(Strict):
    kind: Literal["hero"] = "hero"
    telo: int = Field(validation_alias=AliasChoices("telo", "tělo"), ge=0)


class Creature(Strict):
    kind: Literal["creature"] = "creature"
    sudba: int



@pytest.fixture(autouse=True)
def _english():
    """These tests pin the English wording (and the positions) of the messages; the Czech wording of
    the same errors is checked in tests/i18n/test_lang_errors.py."""
    from drd_cli import i18n

    with i18n.using("en"):
        yield

def _kind(value):
    if isinstance(value, dict):
        return "creature" if "sudba" in value else "hero"
    return None


Being = Annotated[Union[Annotated[Hero, Tag("hero")], Annotated[Creature, Tag("creature")]], Discriminator(_kind)]


class Doc(Strict):
    title: str
    seed: int = Field(default=0, ge=0)
    rolls: dict[str, int] = Field(default_factory=dict)
    beings: dict[str, Being] = Field(default_factory=dict)
    steps: list[Step] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list, max_length=2)


def problems(text: str, model=Doc) -> list[str]:
    data, source = load_text(text, "s.yaml")
    with pytest.raises(ScenarioError) as info:
        validate_model(model, data, source, "s.yaml")
    assert info.value.exit_code == 2
    return [p.format() for p in info.value.problems]


def test_valid_document_returns_model():
    data, source = load_text("title: Útěk\nseed: 7\nsteps:\n  - test: {pool: telo, roll: 11}\n", "s.yaml")
    doc = validate_model(Doc, data, source, "s.yaml")
    assert isinstance(doc, Doc)
    assert doc.steps[0].test.roll == 11


def test_word_for_number():
    assert problems("title: x\nsteps:\n  - test: {pool: telo, roll: deset}\n") == [
        "s.yaml:3:30: expected a whole number, got 'deset'"]


def test_yes_is_not_a_boolean():
    assert problems("title: x\nsteps:\n  - test:\n      pool: telo\n      demanding: yes\n") == [
        "s.yaml:5:18: expected true or false, got 'yes'"]


def test_missing_points_at_parent():
    assert problems("title: x\nsteps:\n  - id: a\n    test:\n      roll: 3\n") == [
        "s.yaml:4:5: missing required key 'pool'"]


def test_missing_top_level_key_points_at_root():
    assert problems("seed: 1\n") == ["s.yaml:1:1: missing required key 'title'"]


def test_unknown_key_with_suggestion():
    out = problems("title: x\nsteps:\n  - test:\n      pool: telo\n      rol: 3\n")
    assert out == ["s.yaml:5:7: unknown key 'rol'\n  → did you mean 'roll'?"]


def test_unknown_top_level_key_suggests_field():
    assert problems("titel: x\n")[-1] == "s.yaml:1:1: unknown key 'titel'\n  → did you mean 'title'?"


def test_unknown_key_suggests_alias():
    out = problems("title: x\nsteps:\n  - test: {pool: telo, effect: {ohrožen: 1}}\n")
    assert out == ["s.yaml:3:33: unknown key 'ohrožen'\n  → did you mean 'ohrožení'?"]


def test_unknown_key_without_close_match_has_no_hint():
    assert problems("title: x\nzcela_jinak: 1\n") == ["s.yaml:2:1: unknown key 'zcela_jinak'"]


def test_literal_with_suggestion():
    out = problems("title: x\nsteps:\n  - test: {pool: tlo}\n")
    assert out == ["s.yaml:3:18: expected 'telo', 'duse' or 'vliv', got 'tlo'\n  → did you mean 'telo'?"]


def test_union_noise_dropped_deepest_member_wins():
    # `effect` is Effect | list[Effect]: the mapping fits Effect, so "expected a list" is noise.
    out = problems("title: x\nsteps:\n  - test: {pool: telo, effect: {ohrožení: hodně}}\n")
    assert out == ["s.yaml:3:43: expected a whole number, got 'hodně'"]


def test_union_of_shapes_merged():
    out = problems("title: x\nsteps:\n  - test: {pool: telo, jizva: 3}\n")
    assert out == ["s.yaml:3:31: expected text or a mapping (key: value), got 3"]


def test_union_list_member_errors_point_into_list():
    out = problems("title: x\nsteps:\n  - test:\n      pool: telo\n      effect:\n        - {ohrozeni: 1}\n"
                   "        - {ohrozeni: x}\n")
    assert out == ["s.yaml:7:22: expected a whole number, got 'x'"]


def test_dict_values():
    assert problems("title: x\nrolls: {hanus: 10, stary: třináct}\n") == [
        "s.yaml:2:27: expected a whole number, got 'třináct'"]


def test_constraint_messages():
    assert problems("title: x\nseed: -3\n") == ["s.yaml:2:7: must be at least 0, got -3"]
    assert problems("title: x\ntags: [a, b, c]\n") == ["s.yaml:2:7: allows at most 2 item(s), got 3"]


def test_model_validator_message_at_the_item():
    assert problems("title: x\nsteps:\n  - id: a\n") == ["s.yaml:3:5: a step needs `test`"]


def test_discriminated_union_tags_are_stripped():
    out = problems("title: x\nbeings:\n  hanus: {tělo: -1}\n  stary: {sudba: dvanáct}\n")
    assert out == ["s.yaml:3:17: must be at least 0, got -1",
                   "s.yaml:4:18: expected a whole number, got 'dvanáct'"]


def test_discriminated_union_unknown_key_suggests_from_members():
    out = problems("title: x\nbeings:\n  stary: {sudba: 3, kinf: creature}\n")
    assert out == ["s.yaml:3:21: unknown key 'kinf'\n  → did you mean 'kind'?"]


def test_empty_value():
    assert problems("title:\n") == ["s.yaml:1:1: expected text, got an empty value"]


def test_all_problems_reported_in_document_order():
    out = problems("seed: x\ntitle: 3\nextra: 1\n")
    assert [line.split(": ")[0] for line in out] == ["s.yaml:1:7", "s.yaml:2:8", "s.yaml:3:1"]


def test_problems_carry_document_paths():
    data, source = load_text("title: x\nrolls: {hanus: deset}\n", "s.yaml")
    with pytest.raises(ScenarioError) as info:
        validate_model(Doc, data, source, "s.yaml")
    assert info.value.problems[0].path == ("rolls", "hanus")


def test_without_source_map_names_the_file():
    with pytest.raises(ScenarioError) as info:
        validate_model(Doc, {"seed": 1}, None, "plain.yaml")
    assert info.value.format() == "plain.yaml: missing required key 'title'"


@pytest.mark.parametrize("value,text", [(None, "an empty value"), (True, "true"), (3, "3"),
                                        ("deset", "'deset'"), ({}, "a mapping"), ([], "a list")])
def test_describe(value, text):
    assert describe(value) == text


def test_suggestion_prefers_the_ascii_spelling_on_a_tie():
    class Pools(Strict):
        telo: int = Field(default=0, validation_alias=AliasChoices("telo", "tělo"))
        pool: Literal["telo", "duse", "tělo", "duše"] = "telo"

    assert problems("tlo: 1\n", Pools) == ["s.yaml:1:1: unknown key 'tlo'\n  → did you mean 'telo'?"]
    assert problems("pool: tlo\n", Pools)[0].endswith("did you mean 'telo'?")


def test_validating_skips_pydantics_plugin_loader_and_leaves_it_intact():
    """While drd validates, pydantic's plugin loader (which imports importlib.metadata) is not
    imported; afterwards a model built outside drd's validation gets pydantic's real loader."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from drd_cli.scenario.validate import validate_model\n"
        "from drd_cli.scenario.models import Scenario\n"
        "from pydantic import BaseModel\n"
        "try:\n"
        "    validate_model(Scenario, {}, None, 'x.yaml')\n"
        "except Exception:\n"
        "    pass\n"
        "print('importlib.metadata' in sys.modules, 'pydantic.plugin._loader' in sys.modules)\n"
        "class Later(BaseModel):\n"
        "    x: int\n"
        "assert Later(x=1).x == 1\n"
        "print(hasattr(sys.modules['pydantic.plugin._loader'], 'entry_points'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "True"]
