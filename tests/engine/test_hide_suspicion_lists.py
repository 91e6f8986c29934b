"""SCENARIO-FORMAT §7: `hide.suspicion_added` / `suspicion_cleared` list exactly the deceived whose
suspicion of the hidden changed in that step — checked against the state before and after every
hide step of the book's hiding scenarios, and on a pair of steps that first add, then clear it."""

from __future__ import annotations

from pathlib import Path

import pytest
from drdtest import run, scenario, setup

from drd_cli.dice import SeededDice
from drd_cli.engine.run import resolve
from drd_cli.engine.state import initial_state

ROOT = Path(__file__).resolve().parents[2]
HIDING = sorted(p for p in (ROOT / "scenarios").glob("*.yaml") if "hide:" in p.read_text(encoding="utf-8")
                and "exit: 0" in p.read_text(encoding="utf-8").split("\nexpect:")[-1])


def _steps_with_states(text: str):
    sc = scenario(text.split("\nexpect:")[0])
    profile, hooks = setup(sc)
    states = [initial_state(sc)]
    resolve(sc, profile, SeededDice(1), hooks, observe=lambda data, state: states.append(state))
    result = resolve(sc, profile, SeededDice(1), hooks)
    return result, states


@pytest.mark.parametrize("path", HIDING, ids=lambda p: p.stem)
def test_the_lists_are_the_change_of_state(path):
    result, states = _steps_with_states(path.read_text(encoding="utf-8"))
    seen = 0
    for i, s in enumerate(result["steps"]):
        hide = s.get("hide")
        if hide is None:
            continue
        seen += 1
        before, after = states[i].participants, states[i + 1].participants
        deceived = [pid for pid in after if pid in s["actions"] or pid in hide["revealed_by"]
                    or pid in hide["suspicion_added"] or pid in hide["suspicion_cleared"]]
        hidden = [pid for pid in s["actions"] if pid not in deceived] or [None]
        for d in deceived:
            for h in hidden:
                if h is None or h == d:
                    continue
                gained = h in after[d].suspicion and h not in before[d].suspicion
                lost = h in before[d].suspicion and h not in after[d].suspicion
                assert (d in hide["suspicion_added"]) is gained, (s["id"], d, h)
                assert (d in hide["suspicion_cleared"]) is lost, (s["id"], d, h)
    assert seen


TWO_STEPS = """
format: drd/1
title: podezření přibude a zmizí
participants:
  zlatka: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {kejklir: 2}, ohrozeni: 1}
  komori: {sudba: 8, charakteristika: 2}
rounds:
  - steps:
      - id: prvni
        hide: {hidden: zlatka, deceived: [komori], resists: true, situation: chance,
               action: {pool: telo}, counter: {pool: telo}, rolls: {zlatka: 7, komori: 9}}
        choices: {zlatka: exhaust}
  - steps:
      - id: druhy
        hide: {hidden: zlatka, deceived: [komori], resists: true, situation: chance,
               action: {pool: telo}, counter: {pool: telo}, rolls: {zlatka: 11, komori: 5}}
"""


def test_an_exhausting_hidden_adds_the_suspicion_and_a_later_success_clears_it():
    r = run(TWO_STEPS)
    first, second = (s["hide"] for s in r["steps"])
    assert first["suspicion_added"] == ["komori"] and first["suspicion_cleared"] == []
    assert first["revealed"] is False
    assert second["suspicion_added"] == [] and second["suspicion_cleared"] == ["komori"]
    assert r["final"]["komori"]["suspicion"] == []
