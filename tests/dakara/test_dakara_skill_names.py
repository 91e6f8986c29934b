"""A Dakara skill reads with its diacritics (docs/dakara.md "Skills"): the transcript, the log and the
errors say `Kapsářství`, never the ASCII id `kapsarstvi`; a file may write either, and the JSON
result keeps the ASCII id."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from drd_cli import i18n
from drd_cli.dakara.engine import resolve_dakara
from drd_cli.dakara.models import parse_dakara
from drd_cli.dakara.skills import display_name, given_names, skill_id, skill_key
from drd_cli.errors import RuleViolation, ScenarioError
from drd_cli.render.md import render_markdown
from drd_cli.render.terminal import render_text

ROOT = Path(__file__).resolve().parents[2]


def _scenario(skills: dict, step_skill: str, **step) -> dict:
    return {"format": "drd/1", "system": "dakara",
            "participants": {"zlatka": {"name": "Zlatka", "skills": skills}},
            "rounds": [{"steps": [{"id": "kupec", "skill": {"actor": "zlatka", "skill": step_skill, "difficulty": 4,
                                                           "risk": "complication",
                                                           "dice": {"player": 3, "narrator": 4}, **step}}]}]}


def test_the_names_keep_their_diacritics():
    assert display_name("kapsarstvi") == "Kapsářství"
    assert display_name("sifrovani") == "Šifrování"
    assert display_name("beh") == "Běh"
    assert display_name("Kapsářství") == "Kapsářství"
    assert display_name("vareni-piva") == "vareni-piva"          # an unknown word stays as written
    assert display_name("vareni-piva", given_names(["Vaření piva"])) == "Vaření piva"
    assert skill_key("KAPSÁŘSTVÍ") == skill_key("kapsarstvi") == "kapsarstvi"
    assert skill_id("Kapsářství") == "kapsarstvi"
    assert skill_id("boj_zblizka") == "boj_zblizka"             # an ASCII id is reported as written


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_the_kapsar_transcript_shows_the_czech_name(lang):
    doc = YAML(typ="safe").load((ROOT / "scenarios" / "dakara-kapsar.yaml").read_text(encoding="utf-8"))
    with i18n.using(lang):
        result = resolve_dakara(parse_dakara(doc), seed=1)
        text = render_text(result, width=1000)
        md = render_markdown(result)
    assert result["steps"][0]["skill"] == "kapsarstvi"            # the JSON contract keeps the id
    assert result["skill_names"] == {"kapsarstvi": "Kapsářství"}
    for out in (text, md):
        assert "Kapsářství (" in out and "Kapsářství 2" in out
        assert "kapsarstvi" not in out
    assert all("kapsarstvi" not in e["text"] for s in result["steps"] for e in s["log"])


@pytest.mark.parametrize("skills, step_skill", [({"Kapsářství": 2}, "kapsarstvi"),
                                                ({"kapsarstvi": 2}, "Kapsářství"),
                                                ({"Kapsářství": 2}, "kapsářství")])
def test_the_id_and_the_czech_name_are_one_skill(skills, step_skill):
    result = resolve_dakara(parse_dakara(_scenario(skills, step_skill)), seed=1)
    step = result["steps"][0]
    assert step["rating"] == 2 and step["skill"] == "kapsarstvi"
    assert not [e for e in step["log"] if "rating 0" in e["text"] or "hodnocení 0" in e["text"]]
    assert step["log"][0]["text"].count("Kapsářství") == 1


def test_a_file_spelling_names_an_unknown_skill():
    result = resolve_dakara(parse_dakara(_scenario({"Vaření piva": 3}, "vareni-piva")), seed=1)
    assert result["steps"][0]["skill"] == "vareni-piva"
    with i18n.using("cs"):
        assert "dovednost Vaření piva (hodnocení 3)" in render_text(result, width=1000)


def test_one_skill_twice_is_refused():
    with pytest.raises(ScenarioError) as err:
        parse_dakara(_scenario({"Síla": 2, "sila": 3}, "sila"))
    assert err.value.problems[0].path == ("participants", "zlatka", "skills")
    assert "Síla" in err.value.problems[0].message and "sila" in err.value.problems[0].message


def test_a_missing_skill_error_names_the_skills_in_czech():
    sc = _scenario({"kapsarstvi": 2}, "sifrovani")
    sc["rules"] = {"params": {"missing_skill": "error"}}
    with i18n.using("cs"), pytest.raises(RuleViolation) as err:
        resolve_dakara(parse_dakara(sc), seed=1)
    assert "Šifrování" in str(err.value) and "Kapsářství" in str(err.value)
    assert "sifrovani" not in str(err.value) and "kapsarstvi" not in str(err.value)
