"""§7 `affected` in a hide step (CS-HIDE-2, CS-HIDE-4): a counter lists whom its own `effect` landed
on; the revelation is the step's `hide.revealed`, never an effect."""

from __future__ import annotations

from pathlib import Path

import pytest

from drd_cli.testing import resolve_text, step

KITCHEN = (Path(__file__).parent.parent.parent / "scenarios" / "zlatka-kuchyne-strazni-vyhraji.yaml").read_text(
    encoding="utf-8").split("\nexpect:")[0]


@pytest.mark.parametrize("situation", ["search", "chance"])
def test_CS_HIDE_4_a_revealing_counter_without_effect_affects_nobody(situation):
    text = (KITCHEN.replace(", effect: {ohrozeni: 1}}", "}")
            .replace("situation: search", f"situation: {situation}"))
    s = step(resolve_text(text), "kuchyne")
    assert s["hide"]["revealed"] is True
    assert s["actions"]["strazni"]["affected"] == []


def test_CS_HIDE_4_a_revealing_counter_with_effect_lists_whom_it_landed_on():
    s = step(resolve_text(KITCHEN), "kuchyne")
    assert s["hide"]["revealed"] is True
    assert s["actions"]["strazni"]["affected"] == ["zlatka"]
