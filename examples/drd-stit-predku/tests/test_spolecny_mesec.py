"""Společný měšec: a comrade pays part of another's exhaustion from his Duše (R-ABIL-SHARE)."""

import drd_spolecny_mesec

PLUGINS = {"spolecny-mesec": drd_spolecny_mesec}

# Ctěna (Ohrožení 3) exhausts for 3 Tělo; Ulrich, of her side, pays 2 of them from his Duše.
SCENARIO = """
format: drd/1
participants:
  ctena: {side: družina, pools: {telo: 4, duse: 2, vliv: 3}, ohrozeni: 3}
  ulrich: {side: družina, pools: {telo: 7, duse: 4, vliv: 6}}
rounds:
  - steps:
      - {id: s, test: {actor: ctena, pool: telo, roll: 5}, choices: {ctena: {exhaust: true, paid_by: ulrich}}}
"""


def test_the_comrade_pays_part_and_the_rest_is_hers(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS, enable=("spolecny-mesec",))
    [entry] = result["steps"][0]["exhaustions"]
    assert entry["paid_by"] == {"id": "ulrich", "pool": "duse", "amount": 2}
    assert entry["payers"] == [{"id": "ctena", "pool": "telo", "amount": 1},
                               {"id": "ulrich", "pool": "duse", "amount": 2}]
    assert (result["final"]["ctena"]["telo"], result["final"]["ulrich"]["duse"]) == (3, 2)
    assert result["final"]["ctena"]["ohrozeni"] == 4


def test_the_share_is_a_parameter(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS, enable=("spolecny-mesec",), params={"spolecny_mesec_podil": 5})
    assert result["steps"][0]["exhaustions"][0]["paid_by"] == {"id": "ulrich", "pool": "duse"}   # all of it
    assert (result["final"]["ctena"]["telo"], result["final"]["ulrich"]["duse"]) == (4, 1)


def test_not_for_another_side(drd_resolve):
    import pytest

    with pytest.raises(Exception) as err:
        drd_resolve(SCENARIO.replace("ulrich: {side: družina", "ulrich: {side: žoldnéři"), plugins=PLUGINS,
                    enable=("spolecny-mesec",))
    assert err.value.exit_code == 1
