"""SCENARIO-FORMAT §4.6 výzva under `environment:` (second spec audit): CS-ENV-1..3, R-CHAL."""

from drdtest import doc, final, run, step

P = """
a: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2}
b: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 1}
"""

FILE_ENV = """
environment:
  - id: boure
    until: 2
    challenge: {name: bouře, affects: [a, b], pool: telo, effect: {ohrozeni: 1}, react: {a: delayed}, rolls: {a: 10}}
"""


def test_SCENARIO_FORMAT_4_6_round_entry_adds_its_react_and_rolls_to_the_file_level_entry():
    # Round 1 adds b's reaction: a (file-level react) and b (round react) both undergo and resist.
    # Round 2 has no round entry: only a reacts, b accepts. Round 3 is past `until: 2`: no výzva.
    r = run(doc(P, "", extra=FILE_ENV, rounds="""
        - steps: []
          environment:
            - id: boure
              challenge: {react: {b: delayed}, rolls: {b: 10}}
        - steps: []
        - steps: []
        """))
    assert [(s["id"], s["round"]) for s in r["steps"]] == [("boure", 1), ("boure", 2)]
    first, second = r["steps"]
    assert first["actions"]["a"]["success"] is True and first["actions"]["b"]["success"] is True
    assert first["rolls"]["a"]["total"] == 10 and first["rolls"]["b"]["total"] == 10
    assert second["actions"]["a"]["success"] is True and second["actions"]["b"]["success"] is False
    assert final(r, "a")["ohrozeni"] == 2 and final(r, "b")["ohrozeni"] == 2


def test_SCENARIO_FORMAT_4_6_round_entry_overrides_the_same_participants_react():
    # The round's react for a (obrana, paid from Tělo) replaces the file-level `delayed` for a.
    r = run(doc(P, "", extra=FILE_ENV, rounds="""
        - spent: [a]
          steps: []
          environment:
            - id: boure
              challenge: {react: {a: obrana}}
        """))
    s = step(r, "boure")
    assert s["actions"]["a"]["success"] is True
    assert [m["name"] for m in s["manoeuvres"] if m["by"] == "a"] == ["obrana"]
    assert final(r, "a")["telo"] == 8


def test_R_CHAL_react_of_someone_the_vyzva_does_not_affect_is_ignored_and_logged():
    # b is neither in `affects` nor exempt-free: it does not undergo the výzva, keeps its initiative.
    r = run(doc(P, """
        - challenge: {name: oheň, affects: [a], pool: telo, effect: {ohrozeni: 1}, react: {b: delayed},
                      rolls: {b: 10}}
        - test: {actor: b, pool: telo, bonus_from: none, roll: 9}
        """))
    s = step(r, "1.1")
    assert "b" not in s["rolls"] and "b" not in s["actions"]
    assert any(e["rule"] == "R-CHAL" and " b" in e["text"] for e in s["log"])
    assert final(r, "a")["ohrozeni"] == 3 and final(r, "b")["ohrozeni"] == 1
