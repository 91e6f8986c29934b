"""SCENARIO-FORMAT §4.1 lists race actions among those that may carry manoeuvres: a racer's přesně
adds to its roll (R-ROLL-3) and is paid from the race's pool (R-MAN-2), like any action's."""

from __future__ import annotations

from drdtest import doc, final, invalid, run, step

RACERS = """
techan: {pools: {telo: 5, duse: 3, vliv: 2}, levels: {hranicar: 2}}
cuna: {pools: {telo: 4, duse: 3, vliv: 2}, levels: {hranicar: 1}}
"""


def race(manoeuvres: str, **kw) -> dict:
    return run(doc(RACERS, f"""
        - id: s
          race:
            actors: [techan, cuna]
            pool: telo
            bonus_from: hranicar
            dice: {{techan: [3, 3], cuna: [4, 3]}}
            {manoeuvres}
            effect: {{condition: pozadu}}
        """), **kw)


def test_CS_RACE_1_R_ROLL_3_a_racers_presne_breaks_the_tie_and_is_paid():
    without = race("")
    assert step(without, "s")["race"]["faster_than"] == {"techan": [], "cuna": []}     # 8 : 8
    r = race("manoeuvres: {techan: [presne]}")
    s = step(r, "s")
    assert s["rolls"]["techan"]["total"] == 9 and s["rolls"]["cuna"]["total"] == 8
    assert s["race"]["faster_than"]["techan"] == ["cuna"]
    assert s["manoeuvres"] == [{"by": "techan", "name": "presne", "paid": "telo", "cost": 1, "via": None}]
    assert final(r, "techan")["telo"] == 4 and final(r, "cuna")["telo"] == 4
    assert final(r, "cuna")["conditions"] == ["pozadu"]


def test_R_MAN_2_one_list_is_every_racers():
    r = race("manoeuvres: [presne]")
    s = step(r, "s")
    assert s["rolls"]["techan"]["total"] == 9 and s["rolls"]["cuna"]["total"] == 9
    assert final(r, "techan")["telo"] == 4 and final(r, "cuna")["telo"] == 3


def test_manoeuvres_for_someone_not_racing_is_an_invalid_file():
    err = invalid(doc(RACERS, """
        - id: s
          race: {actors: [techan, cuna], pool: telo, bonus_from: hranicar, manoeuvres: {nikdo: [presne]}}
        """))
    assert err.problems[0].path[-2:] == ("manoeuvres", "nikdo")
