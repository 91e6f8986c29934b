"""Fourth spec audit, hiding (plugin `ukryvani`): CS-HIDE-3 for a trap (a výzva, not a contest) and a
step mixing a deceived in situation 2 with one attacked directly in situation 1."""

from __future__ import annotations

from drd_cli.testing import step
from tests.plugins.test_plugins_ukryvani import run

TRAP = ("hidden: past\ndeceived: [komori, straz]\nsituation: %s\n"
        "action: {targets: [komori], effect: {jizva: Noha v pasti}}\nrolls: {komori: %d, straz: 10}")


def test_CS_HIDE_3_a_trap_acting_directly_against_an_unaware_deceived_is_a_vyzva():
    """The book (Ukrývání): a trap harming the deceived is a výzva it may undergo defensively."""
    r = run(TRAP % ("unaware", 10))
    h = step(r, "h")
    assert h["hide"]["resolved_as"] == "challenge"
    assert h["actions"]["komori"]["success"] is True            # 10 ≥ 9: avoided, and the trap is found
    assert h["hide"]["revealed_by"] == ["komori"]               # straz (S1, not acted against) notices nothing
    assert r["final"]["komori"]["jizvy"] == []
    assert any(e["rule"] == "CS-HIDE-3" for e in h["log"])


def test_CS_HIDE_3_a_trap_vyzva_accepted_below_9_or_exhausted_against():
    r = run(TRAP % ("unaware", 7))
    assert r["final"]["komori"]["jizvy"] == ["Noha v pasti"]
    assert step(r, "h")["hide"]["revealed"] is False
    r = run(TRAP % ("unaware", 7), choices="{komori: exhaust}")
    h = step(r, "h")
    assert [(e["by"], e["vs"], e["cost"]) for e in h["exhaustions"]] == [("komori", "test", 1)]
    assert r["final"]["komori"]["jizvy"] == [] and h["hide"]["revealed"] is False   # CS-HIDE-4


def test_CS_HIDE_3_a_trap_without_a_roll_for_its_victim_springs_on_it():
    """R-CHAL: who is given nothing to react with accepts the výzva: the effect lands."""
    r = run("hidden: past\ndeceived: [komori]\nsituation: unaware\n"
            "action: {targets: [komori], effect: {jizva: Noha v pasti}}")
    assert step(r, "h")["hide"]["resolved_as"] == "challenge"
    assert r["final"]["komori"]["jizvy"] == ["Noha v pasti"]


def test_CS_HIDE_3_trap_in_situation_2_others_still_get_their_noticing_vyzva():
    r = run(TRAP % ("chance", 7))
    h = step(r, "h")
    assert h["hide"]["resolved_as"] == "challenge" and h["hide"]["revealed_by"] == ["straz"]
    assert r["final"]["komori"]["jizvy"] == ["Noha v pasti"]


MIXED = ("hidden: zlatka\ndeceived: [komori, straz]\nresists: true\nsituation: auto\n"
         "action: {pool: telo, bonus_from: kejklir, targets: [straz], effect: {ohrozeni: 1}}\n"
         "counter: {pool: telo}\nrolls: {zlatka: 10, komori: %d, straz: %d}")


def test_CS_HIDE_3_mixed_S2_suspicious_and_S1_attacked_counter_in_one_contest():
    """Komoří suspects Zlatka (S2), the guard does not but is attacked (S1, CS-HIDE-3): both counter
    the one action of the hidden in one contest (R-ORDER)."""
    r = run(MIXED % (8, 11), susp="zlatka")
    h = step(r, "h")
    assert h["hide"]["resolved_as"] == "contest" and h["order"] == ["straz", "zlatka", "komori"]
    assert h["hide"]["revealed_by"] == ["straz"]                # the guard's win stops it and reveals
    assert r["final"]["straz"]["ohrozeni"] == 1
    assert h["hide"]["suspicion_cleared"] == ["komori"]         # Komoří lost its pair: loses suspicion
    r = run(MIXED % (8, 7), susp="zlatka")
    h = step(r, "h")
    assert h["hide"]["revealed"] is False and r["final"]["straz"]["ohrozeni"] == 2


def test_SCENARIO_FORMAT_5_an_answer_that_decides_nothing_in_a_hide_step_is_ignored_and_logged():
    """Zlatka wins her pair: her `exhaust` decides nothing — no exhaustion, a §5 log line."""
    r = run("hidden: zlatka\ndeceived: [komori]\nresists: true\nsituation: chance\n"
            "action: {pool: telo, bonus_from: kejklir}\nrolls: {zlatka: 10, komori: 8}", choices="{zlatka: exhaust}")
    h = step(r, "h")
    assert h["exhaustions"] == [] and r["final"]["zlatka"]["ohrozeni"] == 2
    assert any(e["rule"] == "docs/scenario-format.md §6" and e["text"].startswith(r["participants"]["zlatka"]["name"]) for e in h["log"])
