"""Plugin `plosna-protiakce` (CS-OPT-AREA): Hrun cuts the rope bridge."""

from __future__ import annotations

from pathlib import Path

import pytest

from drd_cli.errors import DrdError
from drd_cli.testing import resolve_text, step

BRIDGE = (Path(__file__).parent.parent / "scenarios" / "hrun-provazovy-most.yaml").read_text(encoding="utf-8")


def bridge(carodej=9, hrun=12, strelec=10, skokan=13, **kw):
    text = (BRIDGE.split("\nexpect:")[0]
            .replace("targets: [hrun], roll: 9", f"targets: [hrun], roll: {carodej}")
            .replace("means: melee, roll: 12", f"means: melee, roll: {hrun}")
            .replace("means: shooting, roll: 10", f"means: shooting, roll: {strelec}")
            .replace("roll: 13, self_effect", f"roll: {skokan}, self_effect"))
    return resolve_text(text, **kw)


def test_book_order_from_the_highest_roll():
    r = bridge()
    s = step(r, "most")
    assert s["order"] == ["skokan", "hrun", "strelec", "carodej_kultu"]
    assert s["actions"]["carodej_kultu"]["success"] is False
    assert s["actions"]["strelec"] == {"success": False, "affected": []}
    assert s["actions"]["skokan"]["success"] is True
    assert sorted(s["actions"]["hrun"]["affected"]) == ["carodej_kultu", "strelec"]
    assert r["final"]["skokan"]["conditions"] == ["na pevné zemi"]
    assert r["final"]["carodej_kultu"]["conditions"] == ["zřítil se z mostu"]
    assert r["final"]["plavovlaska"]["conditions"] == []        # on the other bank, not in the area


def test_CS_OPT_AREA_pairs_recorded_with_the_answered_side_as_actor():
    """Each pair of the general contest, highest roll first (R-ORDER); `actor` is the answered side."""
    s = step(bridge(), "most")
    got = [(x["actor"], x["counter"], x["winner"], x["totals"], x["rule"]) for x in s["pairs"]]
    assert got == [("hrun", "skokan", "skokan", [12, 13], "CS-OPT-AREA"),
                   ("hrun", "strelec", "hrun", [12, 10], "CS-OPT-AREA"),
                   ("carodej_kultu", "hrun", "hrun", [9, 12], "CS-OPT-AREA")]


def test_stopped_counter_neither_lands_nor_stops_but_defends():
    r = bridge(strelec=14)
    s = step(r, "most")
    assert r["final"]["hrun"]["jizvy"] == ["Šíp v rameni"]       # the archer stopped Hrun first
    assert r["final"]["carodej_kultu"]["conditions"] == []        # Hrun's later win lands nothing…
    assert r["final"]["strelec"]["conditions"] == []
    assert r["final"]["hrun"]["conditions"] == []                 # …and the wind blast (9 < 12) does not land
    assert s["actions"]["hrun"]["success"] is False
    assert s["actions"]["carodej_kultu"]["success"] is False


def test_answered_side_is_the_actor_for_ties():
    r = bridge(strelec=12)
    assert r["final"]["strelec"]["conditions"] == ["zřítil se z mostu"]
    r = bridge(strelec=12, params={"tie": "counter"})
    assert r["final"]["hrun"]["jizvy"] == ["Šíp v rameni"]


def test_loser_may_exhaust_against_the_area_counter():
    text = BRIDGE.split("\nexpect:")[0].replace("      - id: most\n", "      - id: most\n        choices: {strelec: exhaust}\n")
    r = resolve_text(text)
    assert r["final"]["strelec"]["conditions"] == []
    assert r["final"]["strelec"]["ohrozeni"] == 3


def test_without_the_rule_it_is_refused():
    with pytest.raises(DrdError) as info:
        bridge(disable=("plosna-protiakce",))
    assert info.value.exit_code == 1
    assert "CS-OPT-AREA" in info.value.format()
