"""The seed's examples as scenarios (scenarios/dakara-*.yaml) and the engine's error paths."""

from __future__ import annotations

import copy
import glob
import json
import os
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from drd_cli.dakara.engine import dakara_params, expect_differences, resolve_dakara
from drd_cli.dakara.load import add_locations, load_dakara_file
from drd_cli.dakara.models import parse_dakara
from drd_cli.dice import ScriptedDice
from drd_cli.errors import RuleViolation, ScenarioError

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(glob.glob(str(ROOT / "scenarios" / "dakara-*.yaml")))


def load(path):
    return parse_dakara(YAML(typ="safe").load(Path(path).read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(f) for f in FILES])
def test_scenario_meets_its_expect(path):
    sc = load(path)
    assert sc.expect is not None, "every seed scenario checks itself"
    result = resolve_dakara(sc, seed=1)
    assert expect_differences(result, sc.expect) == []
    json.dumps(result, ensure_ascii=False)           # the result is plain JSON data


def test_at_least_the_seed_examples_exist():
    names = {os.path.basename(f) for f in FILES}
    assert {"dakara-strecha-s-rozbehem.yaml", "dakara-strecha-z-mista.yaml", "dakara-kapsar.yaml",
            "dakara-sifra.yaml"} <= names


def test_result_shape():
    r = resolve_dakara(load(ROOT / "scenarios/dakara-strecha-z-mista.yaml"), seed=5)
    assert r["format"] == "drd-result/1" and r["system"] == "dakara" and r["seed"] == 5
    assert r["rules"]["params"] == {"helpers": "escalating", "finta_cap": 2, "kondice": 18, "injury_floor": 0,
                                    "missing_skill": "zero"}
    st = r["steps"][0]
    assert st["kind"] == "skill" and st["round"] == 1 and st["id"] == "skok"
    assert st["rolls"] == {"kaja": {"total": 5, "dice": [2], "bonus": 3, "source": "given"},
                           "narrator": {"total": 8, "dice": [4], "bonus": 4, "source": "given"}}
    assert [e["rule"] for e in st["log"]] == ["SK-1", "SK-2", "SK-4", "SK-3", "SK-5", "SK-5"]
    assert r["final"]["kaja"] == {"injury": 7, "dead": False, "conditions": []}


def base(**skill):
    step = {"actor": "kaja", "skill": "beh", "difficulty": 4, **skill}
    return {"format": "drd/1", "system": "dakara", "seed": 3,
            "participants": {"kaja": {"name": "Kája", "skills": {"beh": 3}}, "bara": {"skills": {"beh": 5}},
                             "jur": {"skills": {"beh": 4}}},
            "rounds": [{"steps": [{"skill": step}]}]}


P = ("rounds", 0, "steps", 0, "skill")


def run(doc, params=None, dice=None):
    return resolve_dakara(parse_dakara(doc), params, dice)


def test_seeded_dice_are_reproducible_and_recorded():
    doc = base(risk="complication")
    a, b = run(doc), run(doc)
    assert a["steps"] == b["steps"] and a["seed"] == 3
    assert a["steps"][0]["rolls"]["kaja"]["source"] == "seeded"


def test_scripted_dice_source_name_is_recorded():
    r = run(base(risk="complication", dice={"player": 2}), dice=ScriptedDice([5]))
    rolls = r["steps"][0]["rolls"]
    assert rolls["kaja"]["source"] == "given" and rolls["narrator"] == {
        "total": 9, "dice": [5], "bonus": 4, "source": "entered"}


def test_default_step_ids_are_round_dot_index():
    assert run(base(risk="injury"))["steps"][0]["id"] == "1.1"


def test_risk_it_defaults_to_whether_a_risk_was_declared():
    assert run(base())["steps"][0]["outcome"] == "withdrawn"
    assert run(base(risk="injury", risk_it=False))["steps"][0]["outcome"] == "withdrawn"
    assert run(base(risk="injury"))["steps"][0]["outcome"] in ("success", "failure")


def test_helpers_shared_parameter():
    doc = base(helpers=[{"actor": "bara"}, {"actor": "jur", "declines": True}])
    esc = run(doc)["steps"][0]["helpers"]
    assert [h["difficulty"] for h in esc] == [5, 6]
    shared = run(doc, {"helpers": "shared"})["steps"][0]["helpers"]
    assert [h["difficulty"] for h in shared] == [6, 6]


def test_rolled_helper_uses_helper_dice():
    doc = base(helpers=[{"actor": "jur"}], helper_dice={"jur": {"player": 2, "narrator": 1}})
    h = run(doc)["steps"][0]["helpers"][0]
    assert h["rolled"] and h["success"] and h["margin"] == 0          # 4+2 = 6 vs 5+1 = 6: a tie helps
    assert h["rolls"]["jur"]["source"] == "given"
    assert run(doc)["steps"][0]["answer"] == "yes"                     # 3 + 1 ≥ 4


def test_injury_accumulates_across_steps_and_death_blocks_acting():
    doc = base(risk="injury", injury_modifier=13, dice={"player": 1, "narrator": 6})   # 6 + 13 = 19
    doc["rounds"].append({"steps": [{"skill": {"actor": "kaja", "skill": "beh", "difficulty": 1}}]})
    with pytest.raises(RuleViolation) as ei:
        run(doc)
    p = ei.value.problems[0]
    assert p.rule == "SK-5" and p.path == ("rounds", 1, "steps", 0, "skill", "actor")
    r = run(base(risk="injury", injury_modifier=12, dice={"player": 1, "narrator": 6}))
    assert r["final"]["kaja"] == {"injury": 18, "dead": False, "conditions": []}
    r = run(base(risk="injury", injury_modifier=12, dice={"player": 1, "narrator": 6}), {"kondice": 17})
    assert r["final"]["kaja"]["dead"] is True


# ----------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("skill,exc,rule,where", [
    ({"finta": 3}, RuleViolation, "SK-6", ("finta",)),
    ({"helpers": [{"actor": "kaja"}]}, RuleViolation, "SK-7", ("helpers", 0, "actor")),
    ({"helpers": [{"actor": "bara"}, {"actor": "bara"}]}, RuleViolation, "SK-7", ("helpers", 1, "actor")),
    ({"helpers": [{"actor": "nikdo"}]}, ScenarioError, None, ("helpers", 0, "actor")),
    ({"actor": "nikdo"}, ScenarioError, None, ("actor",)),
    ({"difficulty": None, "opponent": "kaja"}, RuleViolation, "SK-1", ("opponent",)),
    ({"opponent": "bara"}, ScenarioError, None, ("difficulty",)),
    ({"difficulty": None}, ScenarioError, None, ()),
    ({"opponent_finta": 1}, ScenarioError, None, ("opponent_finta",)),
    ({"risk": "complication", "injury_modifier": 2}, RuleViolation, "SK-4", ("injury_modifier",)),
    ({"risk_it": True}, RuleViolation, "SK-4", ("risk_it",)),
    ({"helper_dice": {"jur": {"player": 1}}}, ScenarioError, None, ("helper_dice", "jur")),
])
def test_rule_and_reference_errors_carry_paths(skill, exc, rule, where):
    doc = base(**skill)
    doc["rounds"][0]["steps"][0]["skill"] = {k: v for k, v in doc["rounds"][0]["steps"][0]["skill"].items()
                                             if v is not None}
    with pytest.raises(exc) as ei:
        run(doc)
    p = ei.value.problems[0]
    assert p.path == P + where and p.rule == rule
    assert ei.value.exit_code == (1 if exc is RuleViolation else 2)


def test_finta_cap_parameter():
    assert run(base(finta=1), {"finta_cap": 2})["steps"][0]["answer"] == "yes"
    with pytest.raises(RuleViolation):
        run(base(finta=2), {"finta_cap": 1})


def test_missing_skill_zero_with_note_or_error():
    r = run(base(skill="zpev", difficulty=0))
    st = r["steps"][0]
    assert st["rating"] == 0 and st["answer"] == "yes"
    assert any("nemá" in e["text"] and e["rule"] == "SK-2" for e in st["log"])
    with pytest.raises(RuleViolation) as ei:
        run(base(skill="zpev"), {"missing_skill": "error"})
    assert ei.value.problems[0].path == P + ("skill",) and ei.value.exit_code == 1


@pytest.mark.parametrize("params,key", [({"helpers": "both"}, "helpers"), ({"kondice": -1}, "kondice"),
                                        ({"tie": "actor"}, "tie"), ({"finta_cap": "x"}, "finta_cap")])
def test_bad_params(params, key):
    with pytest.raises(ScenarioError) as ei:
        dakara_params(params)
    assert ei.value.problems[0].path == ("rules", "params", key)


def test_shared_profile_params_are_accepted_and_non_dakara_ones_ignored():
    # what the shared rules profile (drd_cli/rules.py) hands over: every parameter, DrD II's too
    profile_params = {"target": 9, "tie": "actor", "presne": "plus-one", "helpers": "escalating", "finta_cap": 2,
                      "kondice": 18, "injury_floor": 0, "missing_skill": "zero"}
    r = run(base(risk="injury"), profile_params)
    assert r["rules"]["params"] == {"helpers": "escalating", "finta_cap": 2, "kondice": 18, "injury_floor": 0,
                                    "missing_skill": "zero"}
    with pytest.raises(RuleViolation):
        run(base(finta=2), {**profile_params, "finta_cap": 1})


def test_params_from_strings():
    assert dakara_params({"kondice": "20", "finta_cap": 1})["kondice"] == 20


def test_scenario_rules_params_are_used_when_no_params_given():
    doc = base(helpers=[{"actor": "bara"}, {"actor": "jur"}])
    doc["rules"] = {"params": {"helpers": "shared"}}
    assert run(doc)["steps"][0]["helpers"][0]["difficulty"] == 6
    doc["rules"] = {"enable": ["rozsahla-protiakce"]}
    with pytest.raises(ScenarioError) as ei:
        run(doc)
    assert ei.value.problems[0].path == ("rules", "enable", 0)


@pytest.mark.parametrize("skill,where", [
    ({"finta": -1}, ("finta",)),
    ({"tools": 3}, ("tools",)),
    ({"tools": -3}, ("tools",)),
    ({"tools": "bad"}, ("tools",)),
    ({"dice": {"player": 7}}, ("dice", "player")),
    ({"dice": {"player": 0}}, ("dice", "player")),
    ({"helper_dice": {"jur": {"narrator": 9}}}, ("helper_dice", "jur", "narrator")),
    ({"risk": "both"}, ("risk",)),
    ({"unknown": 1}, ("unknown",)),
    ({"difficulty": "4"}, ("difficulty",)),
])
def test_schema_errors_carry_paths(skill, where):
    with pytest.raises(ScenarioError) as ei:
        parse_dakara(base(**skill))
    assert P + where in [p.path for p in ei.value.problems]
    assert ei.value.exit_code == 2


def test_reserved_participant_id():
    doc = base()
    doc["participants"]["narrator"] = {"skills": {}}
    with pytest.raises(ScenarioError):
        parse_dakara(doc)


BAD_FILE = """\
format: drd/1
system: dakara
participants:
  kaja: {skills: {beh: 3}}
  bara: {skills: {beh: 5}}
rounds:
  - steps:
      - skill:
          actor: kaja
          skill: beh
          difficulty: 4
          finta: 3
          helpers: [{actor: kaja}]
          dice: {player: 7, narrator: 2}
"""


def test_file_line_col_for_schema_errors(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(BAD_FILE, encoding="utf-8")
    with pytest.raises(ScenarioError) as ei:
        load_dakara_file(str(f))
    assert f"{f}:14:18: rounds.0.steps.0.skill.dice.player" in ei.value.format()


def test_file_line_col_for_rule_violations(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(BAD_FILE.replace("player: 7", "player: 6"), encoding="utf-8")
    sc, doc = load_dakara_file(str(f))
    with pytest.raises(RuleViolation) as ei:
        resolve_dakara(sc)
    text = add_locations(ei.value, doc, str(f)).format()
    assert text.startswith(f"{f}:12:11: finta +3 překračuje strop +2") and "[SK-6]" in text
    f.write_text(BAD_FILE.replace("finta: 3", "finta: 2").replace("player: 7", "player: 6"), encoding="utf-8")
    sc, doc = load_dakara_file(str(f))
    with pytest.raises(RuleViolation) as ei:
        resolve_dakara(sc)
    assert add_locations(ei.value, doc, str(f)).format().startswith(f"{f}:13:22:")


def test_yaml_syntax_error_has_position(tmp_path):
    f = tmp_path / "broken.yaml"
    f.write_text("format: drd/1\nsystem: [dakara\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as ei:
        load_dakara_file(str(f))
    assert str(f) + ":" in ei.value.format()


def test_engine_agrees_with_odds_over_all_36_dice():
    from fractions import Fraction

    from drd_cli.dakara.odds import skill_odds
    counts = {}
    for p in range(1, 7):
        for g in range(1, 7):
            st = run(base(risk="injury", injury_modifier=1, dice={"player": p, "narrator": g}))["steps"][0]
            key = (st["outcome"], st["complication"], st["injury"])
            counts[key] = counts.get(key, 0) + Fraction(1, 36)
    assert counts == skill_odds("test", 3, 4, risk="injury", injury_modifier=1).outcomes
