"""The `vyjednavani` step: Vliv tries against a dropping difficulty, one initiative (R-TEST, R-RND-1)."""

import pytest

import drd_vyjednavani

PLUGINS = {"vyjednavani": drd_vyjednavani}

SCENARIO = """
format: drd/1
participants:
  vlasta: {pools: {telo: 3, duse: 4, vliv: 5}}
rounds:
  - steps:
      - {id: trh, vyjednavani: {actor: vlasta, difficulty: 12, tries: 3, rolls: [9, 10, 11]}}
"""


def test_the_third_try_succeeds_against_ten(drd_resolve):
    step = drd_resolve(SCENARIO, plugins=PLUGINS)["steps"][0]
    assert step["vyjednavani"] == {"actor": "vlasta", "success": True,
                                   "tries": [{"target": 12, "roll": 9}, {"target": 11, "roll": 10},
                                             {"target": 10, "roll": 11}]}


def test_at_most_k_tries(drd_resolve):
    step = drd_resolve(SCENARIO.replace("tries: 3", "tries: 2"), plugins=PLUGINS)["steps"][0]
    assert [t["target"] for t in step["vyjednavani"]["tries"]] == [12, 11]
    assert step["vyjednavani"]["success"] is False


def test_the_step_still_spends_the_initiative(drd_resolve):
    twice = SCENARIO + "      - {id: znovu, test: {actor: vlasta, pool: vliv, roll: 9}}\n"
    with pytest.raises(Exception) as err:
        drd_resolve(twice, plugins=PLUGINS)
    assert err.value.exit_code == 1 and "R-RND-1" in str(err.value)
