"""`skill:` on an action (SCENARIO-FORMAT §4.1, docs/scenario-format.md "Skills"): ids, Czech names,
normalisation, and an unknown skill as exit 2 at file:line:col with "did you mean"."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st
from typer.testing import CliRunner

from drd_cli import skills
from drd_cli.cli.app import app

SCENARIO = """\
format: drd/1
title: dovednost
participants:
  a: {name: Bořek, pools: {telo: 5, duse: 5, vliv: 5}}
rounds:
  - steps:
      - test: {actor: a, skill: %s, roll: 10}
"""


def test_ids_are_the_slugs_of_the_czech_names():
    assert skills.slug("Běžný boj zblízka") == "bezny-boj-zblizka"
    assert len(skills.SKILLS) == 26 and len(skills.BY_ID) == 26
    for s in skills.SKILLS:
        assert s.id == skills.slug(s.name)
        assert s.pool in ("telo", "duse", "vliv")


@pytest.mark.parametrize("skill", skills.SKILLS, ids=lambda s: s.id)
def test_id_and_czech_name_normalise_to_the_id(skill):
    assert skills.normalise(skill.id) == skill.id
    assert skills.normalise(skill.name) == skill.id
    assert skills.normalise(skill.name.upper()) == skill.id


def test_aliases():
    assert skills.normalise("Masti a (běžné) jedy") == "masti-a-jedy"
    assert skills.normalise("boj-zblizka") == "bezny-boj-zblizka"


@given(st.text(min_size=1, max_size=30))
def test_normalise_gives_a_known_id_or_none(text):
    out = skills.normalise(text)
    assert out is None or out in skills.BY_ID


def test_the_resolved_action_keeps_the_id(tmp_path):
    from drd_cli.api import load_scenario

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO % "Orientace v divočině", encoding="utf-8")
    loaded = load_scenario(str(path))
    assert loaded.scenario.rounds[0].steps[0].test.skill == "orientace-v-divocine"


@pytest.mark.usefixtures("english")
def test_unknown_skill_is_exit_2_at_the_value_with_did_you_mean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(SCENARIO % "bezny-boj-zblzka", encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml"])
    assert r.exit_code == 2
    assert "s.yaml:7:33: unknown skill 'bezny-boj-zblzka'" in r.output
    assert "did you mean 'bezny-boj-zblizka'?" in r.output
    assert "Traceback" not in r.output


@pytest.mark.usefixtures("english")
def test_nonsense_skill_points_to_the_list(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(SCENARIO % "qqqqqq", encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml"])
    assert r.exit_code == 2 and "docs/scenario-format.md" in r.output


def test_docs_list_every_skill():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    for s in skills.SKILLS:
        assert f"| `{s.id}` | {s.name} |" in text
