"""Za druha: off until enabled; then exhausting for a comrade costs za_druha_sleva less (CS-FOR-2)."""

import drd_za_druha

PLUGINS = {"za-druha": drd_za_druha}

# The vodník wins; Ulrich exhausts for Ctěna (his side): Ohrožení 2, no armour → 2 points.
SCENARIO = """
format: drd/1
participants:
  ctena: {side: družina, pools: {telo: 1, duse: 2, vliv: 3}, ohrozeni: 4}
  ulrich: {side: družina, pools: {telo: 7, duse: 4, vliv: 6}, ohrozeni: 2}
  vodnik: {side: běsi, sudba: 10, ohrozeni: 2}
rounds:
  - steps:
      - id: s
        contest:
          action: {actor: vodnik, pool: telo, targets: [ctena], roll: 11, effect: {condition: pod vodou}}
          counters:
            - {actor: ctena, kind: protect, protects: [ctena], pool: telo, roll: 8}
            - {actor: ulrich, kind: harm, pool: telo, roll: 9, effect: {ohrozeni: 1}}
        choices: {ulrich: {vodnik: {exhaust: [ctena]}}}
"""


def test_off_until_enabled(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS)
    assert result["final"]["ulrich"]["telo"] == 5
    assert "za-druha" not in result["rules"]["enabled"]


def test_enabled_it_costs_one_less(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS, enable=("za-druha",))
    [entry] = result["steps"][0]["exhaustions"][0]["breakdown"]
    assert entry["adjustments"] == [{"source": "za-druha", "amount": -1}]
    assert result["final"]["ulrich"]["telo"] == 6
    assert "za-druha" in result["rules"]["enabled"]


def test_the_group_sets_the_discount(drd_resolve):
    result = drd_resolve(SCENARIO, plugins=PLUGINS, enable=("za-druha",), params={"za_druha_sleva": 5})
    assert result["final"]["ulrich"]["telo"] == 7          # floored at 0


def test_not_for_another_side(drd_resolve):
    result = drd_resolve(SCENARIO.replace("ulrich: {side: družina", "ulrich: {side: žoldnéři"),
                         plugins=PLUGINS, enable=("za-druha",))
    assert result["final"]["ulrich"]["telo"] == 5
