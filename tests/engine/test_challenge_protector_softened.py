"""CS-ENV-3, §4.1 `softened`: a výzva protector below 9 who exhausts once for all it protects decided
the matter for each of them, so the výzva's `softened` lands on each protected instead of `effect`."""

from __future__ import annotations

from pathlib import Path

import pytest
from drdtest import final, run, step

BARRELS = (Path(__file__).parent.parent.parent / "scenarios" / "hrun-sudy-vycerpani.yaml").read_text(
    encoding="utf-8").split("\nexpect:")[0]


def barrels(roll: int = 7, **params) -> dict:
    text = (BARRELS.replace("effect: {jizva: Přejetý sudem}",
                            "effect: {jizva: Přejetý sudem}\n          softened: {ohrozeni: 1}")
            .replace("manoeuvres: [rozsahle], roll: 7", f"manoeuvres: [rozsahle], roll: {roll}"))
    return run(text, params=params or None)


def test_CS_ENV_3_softened_lands_on_each_protected_after_the_protectors_exhaustion():
    r = barrels()
    assert final(r, "hrun")["ohrozeni"] == 3 + 1          # 2 → 3 by exhausting, then softened
    for pid in ("borri", "zira", "jarik"):
        assert final(r, pid)["ohrozeni"] == 2 + 1, pid
        assert final(r, pid)["jizvy"] == []
    assert "CS-ENV-3" in {e["rule"] for e in step(r, "sudy")["log"] if "Ohrožení" in e["text"]}


@pytest.mark.parametrize("roll", [9, 11])
def test_CS_ENV_3_no_softened_when_the_protectors_roll_decided(roll):
    r = barrels(roll)
    for pid in ("borri", "zira", "jarik"):
        assert final(r, pid)["ohrozeni"] == 2, pid


def test_CS_ENV_3_softened_per_target_cost_too():
    text = BARRELS.replace("protects: [hrun, borri, zira, jarik]", "protects: [hrun, borri]").replace(
        "effect: {jizva: Přejetý sudem}", "effect: {jizva: Přejetý sudem}\n          softened: {ohrozeni: 1}")
    r = run(text, params={"challenge_protect_cost": "per-target"})
    assert final(r, "borri")["ohrozeni"] == 3
    assert final(r, "zira")["jizvy"] == ["Přejetý sudem"] and final(r, "zira")["ohrozeni"] == 2
