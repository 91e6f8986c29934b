"""R-TEST, CS-MULTI-1, CS-COOP-2, CS-RACE-1, R-CHAL, CS-ENV-2/3, CS-PREP-1: tests, races, výzvy, declare."""

from drdtest import doc, exhaustions, final, run, step, violation

THREE = """
a: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 1}
b: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2}
c: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 3}
"""


def test_R_TEST_success_at_9_failure_below_and_target_param():
    steps = "- test: {actor: a, roll: %d, failure: {condition: spadl}, self_effect: {vyhody: 1}}"
    r = run(doc(THREE, steps % 9))
    assert step(r)["actions"]["a"]["success"] is True and final(r, "a")["vyhody"] == 1
    r = run(doc(THREE, steps % 8))
    assert step(r)["actions"]["a"]["success"] is False and final(r, "a")["conditions"] == ["spadl"]
    r = run(doc(THREE, steps % 9), params={"target": 10})
    assert step(r)["actions"]["a"]["success"] is False
    r = run(doc(THREE, "- test: {actor: a, roll: 7, target: 7}"))
    assert step(r)["actions"]["a"]["success"] is True


def test_R_TEST_exhausting_turns_failure_into_success():
    r = run(doc(THREE, """
        - test: {actor: c, pool: duse, roll: 5, failure: {condition: spadl}, softened: {note: s odřeninami,
                 jizva: Odřenina}}
          choices: {c: exhaust}
        """))
    [e] = exhaustions(r)
    assert (e["vs"], e["pool"], e["cost"], e["ohrozeni"], e["protected"]) == ("test", "duse", 3, [3, 4], ["c"])
    assert step(r)["actions"]["c"]["success"] is True
    assert final(r, "c")["conditions"] == [] and final(r, "c")["jizvy"] == ["Odřenina"]


def _multi(mode: str, rolls: str, choices: str = "{}") -> dict:
    return run(doc(THREE, f"""
        - test: {{actors: [a, b, c], mode: {mode}, rolls: {rolls}, failure: {{ohrozeni: 1}},
                  self_effect: {{vyhody: 1}}}}
          choices: {choices}
        """))


def test_CS_MULTI_1_individual():
    r = _multi("individual", "{a: 9, b: 5, c: 5}", "{b: exhaust}")
    acts = step(r)["actions"]
    assert [acts[x]["success"] for x in "abc"] == [True, True, False]
    assert [final(r, x)["ohrozeni"] for x in "abc"] == [1, 3, 4]
    assert [final(r, x)["vyhody"] for x in "abc"] == [1, 1, 0]


def test_CS_COOP_2_any_one_success_or_one_exhaustion_suffices():
    r = _multi("any", "{a: 5, b: 9, c: 5}")
    assert all(step(r)["actions"][x]["success"] for x in "abc") and exhaustions(r) == []
    # nobody reaches 9: the first actor in `actors` answering exhaust pays, once
    r = _multi("any", "{a: 5, b: 5, c: 5}", "{b: exhaust, c: exhaust}")
    assert [e["by"] for e in exhaustions(r)] == ["b"]
    assert all(step(r)["actions"][x]["success"] for x in "abc")
    r = _multi("any", "{a: 5, b: 5, c: 5}")
    assert [final(r, x)["ohrozeni"] for x in "abc"] == [2, 3, 4]


def test_CS_MULTI_1_all_must_succeed_or_exhaust():
    r = _multi("all", "{a: 9, b: 5, c: 9}", "{b: exhaust}")
    assert all(step(r)["actions"][x]["success"] for x in "abc")
    assert [final(r, x)["vyhody"] for x in "abc"] == [1, 1, 1]
    # one accepts: failure lands on everyone; exhaustions already paid stay paid
    r = _multi("all", "{a: 5, b: 5, c: 9}", "{a: exhaust, b: accept}")
    assert not any(step(r)["actions"][x]["success"] for x in "abc")
    assert [e["by"] for e in exhaustions(r)] == ["a"]
    assert [final(r, x)["ohrozeni"] for x in "abc"] == [3, 3, 4]


def test_R_TEST_rolls_for_someone_not_taking_the_test():
    violation(doc(THREE, "- test: {actors: [a, b], rolls: {a: 9, c: 9}}"), "R-TEST")


def _race(rolls: str, choices: str = "{}", ohr: str = "") -> dict:
    return run(doc(f"""
        techan: {{pools: {{telo: 9, duse: 6, vliv: 6}}, ohrozeni: 2}}
        cuna: {{pools: {{telo: 9, duse: 6, vliv: 6}}, ohrozeni: 3{ohr}}}
        eagle: {{sudba: 9, ohrozeni: 1}}
        """, f"""
        - race:
            actors: [techan, cuna]
            rolls: {rolls}
            obstacle: {{jizva: Potlučený}}
            effect: {{condition: pozadu}}
          choices: {choices}
        """))


def test_CS_RACE_1_both_over_9_only_speed_matters():
    r = _race("{techan: 11, cuna: 9}")
    assert final(r, "cuna")["conditions"] == ["pozadu"] and final(r, "cuna")["jizvy"] == []
    assert step(r)["race"] == {"faster_than": {"techan": ["cuna"], "cuna": []}}
    assert step(r)["actions"]["cuna"] == {"success": True, "affected": [], "kept_up": False}
    assert step(r)["actions"]["techan"]["affected"] == ["cuna"]


def test_CS_RACE_1_exhaust_against_obstacle_first_then_the_faster_one_costing_one_more():
    r = _race("{techan: 10, cuna: 8}", "{cuna: exhaust}")
    ex = exhaustions(r)
    assert [(e["vs"], e["cost"], e["ohrozeni"]) for e in ex] == [("test", 3, [3, 4]), ("techan", 4, [4, 5])]
    assert final(r, "cuna")["conditions"] == [] and final(r, "cuna")["jizvy"] == []
    assert final(r, "cuna")["telo"] == 2


def test_CS_RACE_1_exhaust_against_just_one_of_the_two():
    r = _race("{techan: 10, cuna: 8}", "{cuna: {techan: exhaust, test: accept}}")
    assert [e["vs"] for e in exhaustions(r)] == ["techan"]
    assert exhaustions(r)[0]["cost"] == 3
    assert final(r, "cuna")["jizvy"] == ["Potlučený"] and final(r, "cuna")["conditions"] == []
    assert step(r)["actions"]["cuna"]["success"] is False


def test_CS_RACE_1_the_winner_below_9_must_exhaust_too():
    r = _race("{techan: 7, cuna: 6}", "{techan: exhaust}")
    assert [(e["by"], e["vs"]) for e in exhaustions(r)] == [("techan", "test")]
    assert final(r, "techan")["jizvy"] == [] and final(r, "cuna")["jizvy"] == ["Potlučený"]


def test_CS_RACE_1_equal_rolls_neither_is_faster():
    r = _race("{techan: 10, cuna: 10}")
    assert step(r)["race"]["faster_than"] == {"techan": [], "cuna": []}
    assert final(r, "cuna")["conditions"] == [] and final(r, "techan")["conditions"] == []


def test_CS_RACE_1_armour_does_not_discount_race_exhaustions():
    r = _race("{techan: 10, cuna: 8}", "{cuna: exhaust}", ohr=", armour: 2")
    assert [e["cost"] for e in exhaustions(r)] == [3, 4]


def test_CS_RACE_1_three_racers_every_pair_compared():
    r = run(doc("""
        a: {pools: {telo: 9, duse: 6, vliv: 6}, ohrozeni: 1}
        b: {pools: {telo: 9, duse: 6, vliv: 6}, ohrozeni: 1}
        c: {pools: {telo: 9, duse: 6, vliv: 6}, ohrozeni: 1}
        """, """
        - race: {actors: [a, b, c], rolls: {a: 9, b: 11, c: 10}, effect: {ohrozeni: 1}}
          choices: {a: exhaust}
        """))
    assert step(r)["race"]["faster_than"] == {"a": [], "b": ["a", "c"], "c": ["a"]}
    # a exhausts against b (11) first, then c (10): 1 then 2
    assert [(e["vs"], e["cost"]) for e in exhaustions(r)] == [("b", 1), ("c", 2)]
    assert final(r, "c")["ohrozeni"] == 2


def test_CS_RACE_1_needs_two_racers():
    violation(doc(THREE, "- race: {actors: [a], rolls: {a: 9}}"), "CS-RACE-1")


def test_R_CHAL_accept_without_rolling_or_undergo_it():
    r = run(doc(THREE, """
        - challenge: {name: sesuv, affects: [a, b, c], pool: telo, effect: {ohrozeni: 1},
                      react: {b: delayed, c: obrana}, rolls: {b: 9, c: 5}}
          choices: {c: exhaust}
        """))
    s = step(r)
    assert s["affected"] == ["a"]
    assert s["rolls"].keys() == {"b", "c"}
    assert [final(r, x)["ohrozeni"] for x in "abc"] == [2, 2, 4]
    assert final(r, "c")["telo"] == 6 - 1 - 3              # obrana 1, exhaustion 3
    assert s["manoeuvres"] == [{"by": "c", "name": "obrana", "paid": "telo", "cost": 1, "via": None}]


def test_R_CHAL_undergoing_uses_the_delayed_initiative():
    violation(doc(THREE, """
        - challenge: {name: sesuv, affects: [a], effect: {ohrozeni: 1}, react: {a: delayed}, rolls: {a: 9}}
        - test: {actor: a, roll: 9}
        """), "R-RND-1")


def test_CS_ENV_2_cannot_pay_obrana_suffers_automatically():
    r = run(doc("a: {pools: {telo: 0, duse: 0, vliv: 0}}", """
        - challenge: {name: oheň, affects: [a], effect: {jizva: Popálen}, react: {a: obrana}, rolls: {a: 12},
                      deadly: true}
        """))
    assert final(r, "a")["jizvy"] == ["Popálen"]
    assert any(e["rule"] == "CS-ENV-2" for e in step(r)["log"])


def test_CS_ENV_3_protector_once_for_all_or_per_target():
    rounds = """
        - delay: [c]
          steps:
            - challenge:
                name: déšť
                affects: [a, b, c]
                effect: {ohrozeni: 1}
                counters: [{actor: c, from: delayed, kind: protect, protects: [a, b, c], manoeuvres: [rozsahle],
                            roll: 7}]
              choices: {c: exhaust}
        """
    r = run(doc(THREE, "", rounds=rounds), enable=["rozsahla-protiakce"])
    [e] = exhaustions(r)
    assert (e["cost"], e["ohrozeni"]) == (3, [3, 4])
    assert [final(r, x)["ohrozeni"] for x in "ab"] == [1, 2]
    rich = THREE.replace("c: {pools: {telo: 6", "c: {pools: {telo: 12")
    r = run(doc(rich, "", rounds=rounds), enable=["rozsahla-protiakce"],
            params={"challenge_protect_cost": "per-target"})
    assert exhaustions(r)[0]["cost"] == 9
    violation(doc(THREE, "", rounds=rounds), "CS-OPT-AID")


def test_CS_PREP_1_declare_does_not_use_the_action_unless_from_initiative():
    r = run(doc(THREE, """
        - declare: {actor: a, self_effect: {ohrozeni: -1}}
        - test: {actor: a, roll: 9}
        """))
    assert final(r, "a")["ohrozeni"] == 0
    violation(doc(THREE, """
        - declare: {actor: a, from: initiative, self_effect: {ohrozeni: -1}}
        - test: {actor: a, roll: 9}
        """), "R-RND-1")


def test_choice_for_someone_with_no_decision_is_ignored_and_logged():
    r = run(doc(THREE, """
        - test: {actor: a, roll: 10}
          choices: {a: exhaust, b: accept}
        """))
    assert exhaustions(r) == []
    assert sum(e["rule"] == "docs/scenario-format.md §6" for e in step(r)["log"]) == 2


def test_choices_naming_an_unknown_participant_are_invalid():
    from drdtest import invalid

    invalid(doc(THREE, """
        - test: {actor: a, roll: 10}
          choices: {zz: exhaust}
        """))
