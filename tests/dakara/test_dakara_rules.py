"""Unit tests of the pure Dakara rules, named after the SK rule they check (RULES.md §4)."""

from __future__ import annotations

import pytest

from drd_cli.dakara import rules


def test_sk1_contest_has_no_pre_roll_answer_and_is_always_rolled():
    res = rules.resolve("contest", 9, 1, dice=(1, 6))   # even a hopeless-for-the-opponent contest rolls
    assert res.answer is None and res.rolled and res.outcome == "win"


@pytest.mark.parametrize("mod,diff,answer", [(3, 3, "yes"), (3, 4, "no"), (-1, 0, "no"), (0, 0, "yes")])
def test_sk2_pre_roll_answer(mod, diff, answer):
    assert rules.pre_roll_answer(mod, diff) == answer


def test_sk2_yes_means_no_roll_even_with_dice():
    res = rules.resolve("test", 5, 2, risk="injury", dice=(1, 6))
    assert res.outcome == "auto-success" and not res.rolled and res.margin is None and res.injury == 0


def test_sk2_no_without_risking_is_withdrawn():
    res = rules.resolve("test", 3, 4, risk="injury", risk_it=False)
    assert res.outcome == "withdrawn" and not res.rolled


def test_sk2_modified_rating_sums_every_modifier_unclamped():
    assert rules.modified_rating(4, finta=2, tools=-1, situational=[-1, -2], helper_bonus=1) == 3
    assert rules.modified_rating(0, tools="none") == -2


def test_sk3_tie_succeeds_in_a_test():
    res = rules.resolve("test", 3, 4, risk="injury", dice=(3, 2))
    assert (res.player_total, res.narrator_total, res.margin, res.outcome) == (6, 6, 0, "success")


def test_sk3_tie_is_a_draw_in_a_contest():
    assert rules.resolve("contest", 3, 4, dice=(4, 3)).outcome == "draw"
    assert rules.resolve("contest", 3, 4, dice=(5, 3)).outcome == "win"
    res = rules.resolve("contest", 3, 4, dice=(1, 1))
    assert res.outcome == "loss" and res.margin == -1


@pytest.mark.parametrize("f,cls", [(1, "none"), (2, "none"), (3, "mild"), (5, "mild"), (6, "serious"), (11, "serious")])
def test_sk4_complication_classes(f, cls):
    assert rules.complication_for(f) == cls


@pytest.mark.parametrize("dice,margin,cls", [((4, 4), -2, "none"), ((3, 4), -3, "mild"), ((2, 5), -5, "mild"),
                                             ((1, 5), -6, "serious")])
def test_sk4_pickpocketing_vectors(dice, margin, cls):
    res = rules.resolve("test", 2, 4, risk="complication", dice=dice)
    assert (res.margin, res.complication, res.injury) == (margin, cls, 0)


def test_sk4_injury_risk_never_gives_a_complication():
    res = rules.resolve("test", 3, 4, risk="injury", dice=(1, 6))
    assert res.complication == "none" and res.injury == 6


def test_sk4_no_declared_risk_no_consequence():
    res = rules.resolve("contest", 3, 4, dice=(1, 6))
    assert res.outcome == "loss" and res.complication == "none" and res.injury == 0


@pytest.mark.parametrize("dice,injury", [((5, 6), 2), ((2, 4), 3), ((1, 6), 6)])
def test_sk5_roof_jump_injury_vectors(dice, injury):
    assert rules.resolve("test", 3, 4, risk="injury", dice=dice).injury == injury


def test_sk5_injury_formula_and_floor():
    assert rules.injury_for(4, 2, 1) == 5
    assert rules.injury_for(1, 0, 3) == 0
    assert rules.injury_for(1, 0, 3, floor=1) == 1


def test_sk5_death_only_above_kondice():
    assert rules.is_dead(19) and not rules.is_dead(18)
    assert not rules.is_dead(20, kondice=20)


def test_sk6_finta_adds_to_rating():
    # roof jump: difficulty 4, Běh 3 + finta 1 → yes
    assert rules.pre_roll_answer(rules.modified_rating(3, finta=1), 4) == "yes"


def test_sk7_helper_difficulties():
    assert rules.helper_difficulties(4, 3, "escalating") == [5, 6, 7]
    assert rules.helper_difficulties(4, 3, "shared") == [7, 7, 7]
    assert rules.helper_difficulties(4, 0) == []
    with pytest.raises(ValueError):
        rules.helper_difficulties(4, 1, "odd")


def test_sk7_helper_auto_roll_tie_and_decline():
    assert rules.resolve_helper(5, 5).auto
    tie = rules.resolve_helper(4, 6, (3, 1))
    assert tie.rolled and tie.success and tie.margin == 0
    assert not rules.resolve_helper(4, 6, (1, 1)).success
    declined = rules.resolve_helper(4, 6, declines=True)
    assert not declined.rolled and not declined.success


def test_sk8_tools_range_and_impossibility():
    assert rules.tool_modifier(2) == 2 and rules.tool_modifier("none") == -2
    for bad in (3, -3, "poor", True):
        with pytest.raises(ValueError):
            rules.tool_modifier(bad)
    assert rules.is_impossible("none", True) and not rules.is_impossible(-2, True)
    assert not rules.is_impossible("none", False)
    res = rules.resolve("test", 9, 1, impossible=True, dice=(6, 1))
    assert res.outcome == "impossible" and res.answer == "impossible" and not res.rolled
    assert rules.resolve("contest", 3, 3, impossible=True).outcome == "impossible"


def test_sk8_no_tools_turns_yes_into_no():
    assert rules.pre_roll_answer(rules.modified_rating(4, tools=-2), 3) == "no"


def test_sk9_situational_modifiers():
    assert rules.modified_rating(4, situational=[-1, -1]) == 2


def test_dice_outside_one_to_six_are_refused():
    with pytest.raises(ValueError):
        rules.resolve("test", 3, 4, risk="injury", dice=(0, 3))
    with pytest.raises(ValueError):
        rules.resolve_helper(1, 5, (7, 1))
