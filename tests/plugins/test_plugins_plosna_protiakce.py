"""Plugin `plosna-protiakce` (CS-OPT-AREA): Hrun cuts the rope bridge."""

from __future__ import annotations

from pathlib import Path

import pytest

from drd_cli.errors import DrdError
from drd_cli.testing import resolve_text, step

BRIDGE = (Path(__file__).parents[2] / "scenarios" / "hrun-provazovy-most.yaml").read_text(encoding="utf-8")


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


# --------------------------------------------------------------------------- exhausting for others

FOR = (Path(__file__).parents[2] / "scenarios" / "hrun-provazovy-most-vycerpani-za-jine.yaml").read_text(
    encoding="utf-8").split("\nexpect:")[0]
FOR_BASE = FOR.split("        choices:\n")[0]
FOR_CHOICES = FOR.split("        choices:\n")[1]


def for_others(choices: str, **kw) -> dict:
    """The exhaust-for-others bridge with its `choices` lines replaced (YAML lines, 10 spaces in)."""
    return resolve_text(FOR_BASE + "        choices:\n" + choices, **kw)


def test_CS_MULTI_3_a_non_reacting_target_of_the_area_counter_is_hit_when_nobody_exhausts():
    r = for_others("          strelec: accept\n")
    assert r["final"]["nosic"]["conditions"] == ["zřítil se z mostu"]      # Hrun's 12 ≥ 9
    assert step(r, "most")["exhaustions"] == []


def test_CS_FOR_2_loser_exhausts_for_itself_and_a_non_reacting_target_once():
    """Ohrožení 2 × 2 protected = 4 Sudba, Ohrožení +1 once; the protected keeps its Ohrožení."""
    r = for_others("          strelec: {hrun: {exhaust: [strelec, nosic]}}\n")
    [e] = step(r, "most")["exhaustions"]
    assert (e["by"], e["vs"], e["cost"], e["protected"], e["ohrozeni"]) == ("strelec", "hrun", 4,
                                                                            ["strelec", "nosic"], [2, 3])
    assert r["final"]["nosic"] == {**r["final"]["nosic"], "conditions": [], "ohrozeni": 1, "sudba": 3}
    assert r["final"]["strelec"]["conditions"] == []
    assert r["final"]["carodej_kultu"]["conditions"] == ["zřítil se z mostu"]   # nobody paid for him
    assert sorted(step(r, "most")["actions"]["hrun"]["affected"]) == ["carodej_kultu"]


def test_CS_FOR_1_a_participant_exhausts_for_the_loser_of_another_pair():
    """Skokan won his own pair; he is in the contest, so he may pay for the wizard's fall (at his own
    Ohrožení 2), when the wizard's pair is resolved (R-ORDER)."""
    r = for_others("          skokan: {hrun: {exhaust: [carodej_kultu]}}\n")
    [e] = step(r, "most")["exhaustions"]
    assert (e["by"], e["cost"], e["protected"], e["ohrozeni"]) == ("skokan", 2, ["carodej_kultu"], [2, 3])
    assert r["final"]["carodej_kultu"]["conditions"] == [] and r["final"]["carodej_kultu"]["ohrozeni"] == 2
    assert r["final"]["strelec"]["conditions"] == ["zřítil se z mostu"]
    s = step(r, "most")
    assert "carodej_kultu" not in s["actions"]["hrun"]["affected"]
    assert s["actions"]["carodej_kultu"]["success"] is False          # exhausting never wins (R-EXH-2)


def test_CS_FOR_1_both_exhaustions_in_resolution_order():
    r = for_others(FOR_CHOICES)
    assert [(e["by"], e["cost"]) for e in step(r, "most")["exhaustions"]] == [("strelec", 4), ("skokan", 2)]
    assert all(r["final"][p]["conditions"] == [] for p in ("carodej_kultu", "strelec", "nosic"))


def test_CS_MULTI_4_non_reacting_target_of_the_area_counter_cannot_exhaust_for_itself():
    with pytest.raises(DrdError) as info:
        for_others("          nosic: {hrun: exhaust}\n")
    assert info.value.exit_code == 1 and "CS-MULTI-4" in info.value.format()


def test_CS_FOR_1_someone_outside_the_contest_cannot_exhaust():
    with pytest.raises(DrdError) as info:
        for_others("          plavovlaska: {hrun: {exhaust: [strelec]}}\n")
    assert info.value.exit_code == 1 and "CS-FOR-1" in info.value.format()


def test_CS_FOR_1_protecting_someone_the_winner_does_not_threaten_is_refused():
    # plavovláska stands on the bank: Hrun's cut does not threaten her.
    with pytest.raises(DrdError) as info:
        for_others("          skokan: {hrun: {exhaust: [plavovlaska]}}\n")
    assert info.value.exit_code == 1 and "CS-FOR-1" in info.value.format()
    assert ":" in info.value.format()       # points into the file


@pytest.mark.parametrize("answer", ["exhaust", "{skokan: exhaust}", "deny", "{skokan: deny}"])
def test_CS_MULTI_5_a_bare_exhaust_with_nothing_at_stake_denies_the_answers_gain(answer):
    """§5: the jumper's win over Hrun only gains the jumper its footing, so Hrun's `exhaust` there
    means `deny` — paid, and the jumper stays on the bridge (it was silently dropped before)."""
    text = BRIDGE.split("\nexpect:")[0].replace("      - id: most\n",
                                                f"      - id: most\n        choices: {{hrun: {answer}}}\n")
    r = resolve_text(text)
    (exh,) = step(r, "most")["exhaustions"]
    assert exh["by"] == "hrun" and exh["denied"] == "skokan"
    assert r["final"]["skokan"]["conditions"] == []
    assert r["final"]["hrun"]["ohrozeni"] == 3


def test_CS_MULTI_5_exhaust_chosen_by_policy_does_not_deny():
    text = BRIDGE.split("\nexpect:")[0]
    r = resolve_text(text, choose="exhaust")
    assert r["final"]["skokan"]["conditions"] == ["na pevné zemi"]
