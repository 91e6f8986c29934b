"""Strop za konflikt: past N points of exhaustion per conflict the loser must accept (R-EXH-1)."""

import pytest

import drd_strop_za_konflikt

PLUGINS = {"strop-za-konflikt": drd_strop_za_konflikt}

# Ohrožení 2: the first exhaustion costs 2, the second 3 — 5 points, over the cap of 4.
SCENARIO = """
format: drd/1
participants:
  ulrich: {pools: {telo: 9, duse: 3, vliv: 3}, ohrozeni: 2}
rounds:
  - steps:
      - {id: prvni, test: {actor: ulrich, pool: telo, roll: 5}, choices: {ulrich: exhaust}}
  - steps:
      - {id: druha, test: {actor: ulrich, pool: telo, roll: 5}, choices: {ulrich: exhaust}}
"""


def test_off_until_enabled(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS)
    assert [e["cost"] for s in result["steps"] for e in s["exhaustions"]] == [2, 3]


def test_a_written_exhaust_past_the_cap_is_refused(drd_resolve):
    with pytest.raises(Exception) as err:
        drd_resolve(SCENARIO, plugins=PLUGINS, enable=("strop-za-konflikt",))
    assert err.value.exit_code == 1
    assert "Strop za konflikt" in str(err.value)


def test_a_policy_accepts_instead(drd_resolve):
    result = drd_resolve(SCENARIO.replace(", choices: {ulrich: exhaust}", ""), plugins=PLUGINS,
                         enable=("strop-za-konflikt",), choose="exhaust")
    assert [len(s["exhaustions"]) for s in result["steps"]] == [1, 0]
    assert result["final"]["ulrich"]["telo"] == 7


def test_the_group_sets_the_cap(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS, enable=("strop-za-konflikt",), params={"strop_za_konflikt": 5})
    assert result["final"]["ulrich"]["telo"] == 4
