"""Štít předků makes one manoeuvre free once per round (R-MAN-2), in its scope; the group picks which."""

import drd_stit_predku

PLUGINS = {"stit-predku": drd_stit_predku}

SCENARIO = """
format: drd/1
participants:
  ulrich: {pools: {telo: 5, duse: 3, vliv: 3}, levels: {bojovnik: 2}, abilities: [stit-predku]}
rounds:
  - steps:
      - test: {actor: ulrich, pool: telo, manoeuvres: [presne], roll: 9}
  - steps:
      - test: {actor: ulrich, pool: telo, manoeuvres: [presne], roll: 9}
"""


def test_presne_is_free_in_every_round(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS)
    assert [s["manoeuvres"][0]["paid"] for s in result["steps"]] == ["free", "free"]
    assert result["steps"][0]["manoeuvres"][0]["via"] == "stit-predku"
    assert result["final"]["ulrich"]["telo"] == 5


def test_the_group_can_pick_obrana_instead(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS, params={"stit_predku_manoeuvre": "obrana"})
    assert [s["manoeuvres"][0]["paid"] for s in result["steps"]] == ["telo", "telo"]
    assert result["final"]["ulrich"]["telo"] == 3


def test_only_bodily_actions(drd_resolve):
    result = drd_resolve(SCENARIO.replace("pool: telo", "pool: duse"), plugins=PLUGINS)
    assert [s["manoeuvres"][0]["paid"] for s in result["steps"]] == ["duse", "duse"]


def test_the_means_key_narrows_the_scope(drd_resolve):
    melee = SCENARIO.replace("abilities: [stit-predku]", "abilities: [{id: stit-predku, means: melee}]")
    result = drd_resolve(melee.replace("roll: 9}\n  - steps", "roll: 9, means: melee}\n  - steps"),
                         plugins=PLUGINS)
    assert [s["manoeuvres"][0]["paid"] for s in result["steps"]] == ["free", "telo"]   # round 2: no means


def test_disabled(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS, disable=("stit-predku",))
    assert result["final"]["ulrich"]["telo"] == 3
