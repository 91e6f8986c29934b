"""The `varta` step: a Duše test of the watcher (R-TEST), its entry in words in Czech and English."""

import pytest

import drd_varta

PLUGINS = {"varta": drd_varta}

SCENARIO = """
format: drd/1
participants:
  vlasta: {name: Vlasta, pools: {telo: 3, duse: 4, vliv: 3}}
rounds:
  - steps:
      - {id: noc, varta: {watcher: vlasta, hours: 3, roll: 10}}
"""


def test_the_watch_holds_and_is_told_in_czech(drd_resolve):
    step = drd_resolve(SCENARIO, plugins=PLUGINS, lang="cs")["steps"][0]
    assert step["varta"] == {"watcher": "vlasta", "name": "Vlasta", "hours": 3, "held": True}
    assert step["rendered"] == ["Vlasta na vartě (3 hodiny): nikdo neprošel"]


def test_and_in_english(drd_resolve):
    step = drd_resolve(SCENARIO.replace("roll: 10", "roll: 4"), plugins=PLUGINS, lang="en")["steps"][0]
    assert step["rendered"] == ["Vlasta on watch (3 hours): someone got past"]


def test_a_typo_in_the_step_is_exit_2(drd_resolve):
    with pytest.raises(Exception) as err:
        drd_resolve(SCENARIO.replace("hours:", "hodin:"), plugins=PLUGINS)
    assert err.value.exit_code == 2
