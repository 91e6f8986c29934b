"""Third spec audit, hiding (plugin `ukryvani`): CS-HIDE-1 náročnost, CS-HIDE-3 direct action,
CS-HIDE-4 suspicion moving a later check from S1 to S2."""

from __future__ import annotations

from drd_cli.testing import step
from tests.plugins.test_plugins_ukryvani import run

ATTACK = """
hidden: zlatka
deceived: [komori]
resists: true
situation: unaware
action: {pool: telo, bonus_from: kejklir, targets: [komori], effect: {ohrozeni: 1}}
%s
rolls: {zlatka: 8%s}
"""


def test_CS_HIDE_3_an_attack_from_behind_lets_the_unaware_deceived_react_defensively():
    r = run(ATTACK % ("counter: {pool: telo, kind: protect}", ", komori: 10"))
    h = step(r, "h")
    assert h["hide"]["situation"] == "unaware" and h["hide"]["resolved_as"] == "contest"
    assert h["actions"]["komori"]["success"] is True            # dodged: the attack misses it
    assert r["final"]["komori"]["ohrozeni"] == 1
    assert h["hide"]["revealed_by"] == ["komori"]               # success of the deceived reveals (CS-HIDE-4)
    assert any(e["rule"] == "CS-HIDE-3" for e in h["log"])


def test_CS_HIDE_3_the_attacker_winning_hits_and_stays_hidden():
    r = run((ATTACK % ("counter: {pool: telo, kind: protect}", ", komori: 6")).replace("zlatka: 8", "zlatka: 11"))
    h = step(r, "h")
    assert h["hide"]["resolved_as"] == "contest" and h["hide"]["revealed"] is False
    assert r["final"]["komori"]["ohrozeni"] == 2


def test_CS_HIDE_2_unaware_deceived_not_acted_against_still_cannot_react():
    """S1 with a sneak past (no target): a test the deceived cannot react to, even with a counter given."""
    r = run("hidden: zlatka\ndeceived: [komori]\nresists: true\nsituation: unaware\n"
            "action: {pool: telo, bonus_from: kejklir}\ncounter: {pool: telo}\nrolls: {zlatka: 10, komori: 12}")
    assert step(r, "h")["hide"]["resolved_as"] == "test"


def test_CS_HIDE_1_demanding_search_costs_the_searcher_before_its_test():
    r = run("hidden: tajný poklop\ndeceived: [komori]\nsituation: search\ndemanding: true\nrolls: {komori: 10}")
    h = step(r, "h")
    assert h["hide"]["resolved_as"] == "test"
    assert r["final"]["komori"]["sudba"] == 5                     # 1 Sudba for the náročnost (R-NAR)


def test_CS_HIDE_4_the_hidden_exhausts_against_a_counter_without_an_effect_and_is_not_revealed():
    """Being revealed is the consequence of the deceived's win; the hidden may exhaust against it
    even when the counter declares no effect of its own."""
    r = run("hidden: zlatka\ndeceived: [komori]\nsituation: chance\nrolls: {zlatka: 7, komori: 10}",
            choices="{zlatka: exhaust}")
    h = step(r, "h")
    assert h["hide"]["revealed"] is False and h["hide"]["suspicion_added"] == ["komori"]
    assert [(e["by"], e["vs"], e["cost"]) for e in h["exhaustions"]] == [("zlatka", "komori", 2)]
    assert r["final"]["zlatka"]["conditions"] == [] and r["final"]["komori"]["suspicion"] == ["zlatka"]
    # accepting: revealed
    r = run("hidden: zlatka\ndeceived: [komori]\nsituation: chance\nrolls: {zlatka: 7, komori: 10}")
    assert step(r, "h")["hide"]["revealed"] is True and r["final"]["zlatka"]["conditions"] == ["odhalen"]


def test_CS_HIDE_4_the_hidden_exhausting_moves_the_next_auto_check_from_S1_to_S2():
    text = """
format: drd/1
participants:
  zlatka: {pools: {telo: 5, duse: 5, vliv: 6}, ohrozeni: 2, levels: {kejklir: 3}}
  komori: {sudba: 6, ohrozeni: 1, charakteristika: 3}
rounds:
  - steps:
      - id: a
        hide: {hidden: zlatka, deceived: [komori], resists: true, situation: chance,
               action: {pool: telo, bonus_from: kejklir}, rolls: {zlatka: 7, komori: 10}}
        choices: {zlatka: exhaust}
  - steps:
      - id: b
        hide: {hidden: zlatka, deceived: [komori], resists: true, situation: auto,
               action: {pool: telo, bonus_from: kejklir}, rolls: {zlatka: 10, komori: 8}}
"""
    from drd_cli.testing import resolve_text

    r = resolve_text(text)
    a, b = step(r, "a")["hide"], step(r, "b")["hide"]
    assert a["revealed"] is False and a["suspicion_added"] == ["komori"]
    assert b["situation"] == "chance" and b["resolved_as"] == "contest"
    # the hidden wins in round 2: the deceived loses its suspicion (CS-HIDE-4)
    assert b["suspicion_cleared"] == ["komori"] and r["final"]["komori"]["suspicion"] == []
