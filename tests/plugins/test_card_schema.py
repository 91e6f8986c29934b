"""An ability card that breaks its schema (docs/plugins.md "Ability cards") is an error naming the
plugin and the field, when the plugin's info is read; API 3 refuses unknown fields, older APIs keep them."""

from __future__ import annotations

import pytest

from drd_cli.plugin import DrdError, hookimpl
from drd_cli.testing import resolve_text

SCENARIO = """
format: drd/1
participants:
  hero: {pools: {telo: 9, duse: 9, vliv: 9}, abilities: [karta]}
rounds:
  - steps:
      - test: {actor: hero, pool: telo, roll: 10}
"""

GOOD = {"name": "Karta", "mechanic": "nic", "scope": {"means": ["melee"], "area": True}, "activation": None}


def plugin(card: dict, api: int = 3) -> object:
    info = {"title": "Karta", "kind": "ability", "api_version": api, "ability": card}
    return type("Plugin", (), {"drd_plugin_info": staticmethod(hookimpl(lambda: info))})()


def test_a_valid_card_is_accepted():
    assert resolve_text(SCENARIO, plugins={"karta": plugin(GOOD)})["final"]["hero"]["telo"] == 9


@pytest.mark.parametrize("change,field", [
    ({"name": None}, "name"),
    ({"mechanic": 3}, "mechanic"),
    ({"scope": ["melee"]}, "scope"),
    ({"scope": {"means": [1]}}, "scope"),
    ({"activation": {"cost": -1, "pool": "duse"}}, "activation"),
    ({"class": "E"}, "class"),
    ({"status": "hotová"}, "status"),
    ({"keys": {"weapon": "meč"}}, "keys"),
    ({"example": 3}, "example"),
])
def test_a_card_breaking_the_schema_names_the_plugin_and_the_field(change, field):
    with pytest.raises(DrdError) as err:
        resolve_text(SCENARIO, plugins={"karta": plugin({**GOOD, **change})}, lang="en")
    text = err.value.format()
    assert err.value.exit_code == 1 and "'karta'" in text and f"'{field}'" in text and "Ability cards" in text


def test_an_older_plugins_card_may_leave_out_the_required_fields():
    assert resolve_text(SCENARIO, plugins={"karta": plugin({"name": "Karta"}, api=1)})["steps"]
    with pytest.raises(DrdError):
        resolve_text(SCENARIO, plugins={"karta": plugin({"name": "Karta"})})


def test_an_unknown_field_is_an_error_under_api_3_only():
    with pytest.raises(DrdError) as err:
        resolve_text(SCENARIO, plugins={"karta": plugin({**GOOD, "mechanika": "x"})}, lang="en")
    assert "'mechanika'" in err.value.format() and "did you mean 'mechanic'" in err.value.format()
    assert resolve_text(SCENARIO, plugins={"karta": plugin({**GOOD, "mechanika": "x"}, api=2)})["steps"]
