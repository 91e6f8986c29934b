"""SCENARIO-FORMAT §7 (the JSON result: every documented key, with its type) and §8 (`expect`),
plus keys of §2/§4.6 whose strictness the audit checked (docs/spec-audit.md)."""

import json

import pytest
from drdtest import doc, final, run, step

from drd_cli.check import compare_result
from drd_cli.errors import ScenarioError
from drd_cli.testing import resolve_text

PARTS = """
hero: {pools: {telo: 6, duse: 5, vliv: 4}, ohrozeni: 2, levels: {bojovnik: 2}, equipment: [meč],
       conditions: [{name: zraněn, rounds: 3}]}
ogre: {sudba: 7, ohrozeni: 1, charakteristika: 3}
"""

STEPS = """
- steps:
    - id: boj
      contest:
        action: {actor: hero, pool: telo, bonus_from: bojovnik, targets: [ogre], dice: [3, 4],
                 manoeuvres: [mocne], effect: {ohrozeni: 1}}
        counters: [{actor: ogre, kind: harm, dice: [6, 6], effect: {jizva: Rána}}]
      choices: {hero: {jizva: {name: Rána do boku, gain: 2}}}
- steps:
    - id: skok
      test: {actor: ogre, roll: 5, failure: {condition: spadl}}
"""


def _types(value):
    return type(value).__name__


def test_SCENARIO_FORMAT_7_every_documented_key_with_its_type():
    r = run(doc(PARTS, '', rounds=STEPS))
    json.dumps(r)                                                # plain JSON, nothing exotic
    assert r["format"] == "drd-result/1" and r["system"] == "drd2"
    assert set(r) >= {"format", "title", "system", "seed", "rules", "steps", "final"}
    assert isinstance(r["rules"]["enabled"], list) and isinstance(r["rules"]["params"], dict)
    assert {"tie", "target", "presne"} <= set(r["rules"]["params"])
    for s in r["steps"]:
        assert set(s) >= {"id", "round", "kind", "rolls", "order", "manoeuvres", "actions", "exhaustions", "log"}
        assert (_types(s["id"]), _types(s["round"]), _types(s["kind"])) == ("str", "int", "str")
        for roll in s["rolls"].values():
            assert set(roll) == {"total", "dice", "bonus", "source", "modifiers"}
            if roll["dice"] is not None:   # §7: total = dice + bonus + modifiers
                kept = sorted(roll["dice"], reverse=True)[:2]
                assert roll["total"] == sum(kept) + roll["bonus"] + sum(m["amount"] for m in roll["modifiers"])
            assert roll["source"] in ("given", "seeded", "entered")
        for a in s["actions"].values():
            assert isinstance(a["success"], bool) and isinstance(a["affected"], list)
        for entry in s["log"]:
            assert set(entry) == {"rule", "text"}
    boj = step(r, "boj")
    assert boj["rolls"]["hero"] == {"total": 9, "dice": [3, 4], "bonus": 2, "source": "given", "modifiers": []}
    assert boj["rolls"]["ogre"] == {"total": 15, "dice": [6, 6], "bonus": 3, "source": "given", "modifiers": []}
    assert boj["order"] == ["ogre", "hero"]
    assert boj["manoeuvres"] == [{"by": "hero", "name": "mocne", "paid": "telo", "cost": 1, "via": None}]
    [e] = boj["exhaustions"]
    assert set(e) == {"by", "vs", "pool", "cost", "protected", "denied", "ohrozeni", "gained", "breakdown"}
    # §7: the breakdown per protected sums to the cost (Ohrožení 2, no armour, no mocně here)
    assert e["breakdown"] == [{"protected": "hero", "ohrozeni": 2, "armour": [], "mocne": 0, "adjustments": [],
                               "cost": 2}]
    assert sum(b["cost"] for b in e["breakdown"]) == e["cost"]
    assert (e["by"], e["vs"], e["pool"], e["cost"], e["protected"], e["denied"], e["ohrozeni"]) == \
        ("hero", "ogre", "telo", 2, ["hero"], None, [2, 3])
    assert e["gained"] == {"jizva": {"name": "Rána do boku", "gain": 2}, "sacrifice": None}
    assert step(r, "skok")["rolls"]["ogre"] == {"total": 5, "dice": None, "bonus": None, "source": "given", "modifiers": []}
    hero, ogre = final(r, "hero"), final(r, "ogre")
    assert set(hero) >= {"telo", "duse", "vliv", "ohrozeni", "vyhody", "jizvy", "conditions", "equipment",
                         "suspicion"} and "sudba" not in hero
    assert set(ogre) >= {"sudba", "ohrozeni", "vyhody", "jizvy", "conditions", "equipment", "suspicion"}
    assert "telo" not in ogre
    # a condition with a time limit appears as {name, rounds}; `rounds` counts the rounds still left
    assert hero["conditions"] == [{"name": "zraněn", "rounds": 1}]
    assert ogre["conditions"] == ["spadl"]
    assert (hero["telo"], hero["jizvy"], hero["equipment"]) == (6 - 1 + 2 - 2, ["Rána do boku"], ["meč"])


def test_SCENARIO_FORMAT_7_seeded_dice_are_recorded_as_seeded():
    r = run(doc("ogre: {sudba: 7, charakteristika: 2}", "- test: {actor: ogre}"), seed=3)
    roll = step(r)["rolls"]["ogre"]
    assert roll["source"] == "seeded" and len(roll["dice"]) == 2 and roll["total"] == sum(roll["dice"]) + 2
    assert r["seed"] == 3


# --------------------------------------------------------------------------- §8 expect

def test_SCENARIO_FORMAT_8_expect_may_name_any_part_of_the_result():
    text = doc(PARTS, "", rounds=STEPS, extra="""
        expect:
          exit: 0
          title: t
          system: drd2
          rules: {params: {tie: actor}}
          final: {hero: {ohrozeni: 3}}
          steps: {boj: {actions: {hero: {success: false}}}}
        """)
    r = resolve_text(text)
    from drd_cli.testing import load_text_scenario

    expect = load_text_scenario(text).scenario.expect
    raw = {"exit": 0, "title": "t", "system": "drd2", "rules": {"params": {"tie": "actor"}},
           "final": {"hero": {"ohrozeni": 3}}, "steps": {"boj": {"actions": {"hero": {"success": False}}}}}
    assert expect is not None and compare_result(raw, r, 0) == []
    diffs = compare_result({"rules": {"params": {"tie": "counter"}}}, r, 0)
    assert [d.path for d in diffs] == [("rules", "params", "tie")]


def test_SCENARIO_FORMAT_8_expect_exit_1_with_a_rule_forbidding_something():
    diffs = compare_result({"exit": 1, "final": {"x": {"telo": 1}}}, None, 1, "f.yaml:3:5: error [R-RND-1]")
    assert diffs == []                            # nothing resolved: only exit (and error) are compared
    diffs = compare_result({"exit": 0}, None, 1, "f.yaml:3:5: error [R-RND-1]")
    assert [d.path for d in diffs] == [("exit",)]


# --------------------------------------------------------------------------- §4.6 exempt

def test_SCENARIO_FORMAT_4_6_exempt_spares_holders_and_unknown_exempt_keys_are_invalid():
    parts = "a: {pools: {telo: 6, duse: 6, vliv: 6}, conditions: [v závětří]}\nb: {sudba: 5}"
    r = run(doc(parts, "- challenge: {name: bouře, affects: all, exempt: {condition: v závětří}, "
                       "effect: {ohrozeni: 1}}"))
    assert step(r)["affected"] == ["b"] and final(r, "a")["ohrozeni"] == 0
    with pytest.raises(ScenarioError) as info:
        resolve_text(doc(parts, "- challenge: {name: bouře, affects: all, exempt: {stav_x: v závětří}}"))
    assert info.value.exit_code == 2 and "stav_x" in info.value.format()
