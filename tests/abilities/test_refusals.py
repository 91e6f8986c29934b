"""An ability that does not apply says which of its conditions failed and what would be allowed
(R-ABIL-DEF: Bystrost's counter type and range; R-ABIL-SHARE: Moudrý rádce's dealing and earshot)."""

from __future__ import annotations

from abilities_support import action, participant
from drd_cli.plugin import CostView


def test_R_ABIL_DEF_bystrost_with_a_bodily_counter_says_a_duse_counter_would_be_allowed():
    from drd_plugins.obrana_jinych import bystrost

    lada = participant("lada", abilities=("bystrost",), zone="cesta")
    jasan = participant("jasan", zone="cesta")
    answer = bystrost.drd_may_react(reactor=lada, action=action("carodej", pool="duse", means="magic"),
                                    harmed=(jasan,), counter=action("lada", pool="telo", kind="protect"))
    assert answer["allow"] is False
    assert "pool: duse" in answer["note"] and "telo" in answer["note"]


def test_R_ABIL_DEF_bystrost_out_of_sight_names_the_zone_condition():
    from drd_plugins.obrana_jinych import bystrost

    lada = participant("lada", abilities=("bystrost",), zone="cesta")
    jasan = participant("jasan", zone="les")
    answer = bystrost.drd_may_react(reactor=lada, action=action("carodej", pool="duse"), harmed=(jasan,),
                                    counter=action("lada", pool="duse", kind="protect"))
    assert answer["allow"] is False and "Jasan" in answer["note"]


def test_R_ABIL_DEF_bystrost_in_sight_with_a_duse_counter_is_allowed():
    from drd_plugins.obrana_jinych import bystrost

    lada = participant("lada", abilities=("bystrost",), zone="cesta")
    jasan = participant("jasan", zone="cesta")
    answer = bystrost.drd_may_react(reactor=lada, action=action("carodej", pool="duse"), harmed=(jasan,),
                                    counter=action("lada", pool="duse", kind="protect"))
    assert answer["allow"] is True


def test_R_ABIL_SHARE_moudry_radce_in_melee_names_the_dealing_condition():
    from drd_plugins.sdileni import moudry_radce

    ambroz = participant("ambroz", abilities=("moudry-radce",), zone="trh")
    vojta = participant("vojta", zone="trh")
    cost = CostView("narocnost", 1, "telo", None)
    melee = action("vojta", pool="telo", means="melee")
    why = moudry_radce.refusal(ambroz, vojta, cost, melee)
    assert "means: dealing" in why and "melee" in why
    assert moudry_radce.drd_may_pay(payer=ambroz, beneficiary=vojta, cost=cost, action=melee) == {
        "allow": False, "note": why}


def test_R_ABIL_SHARE_moudry_radce_out_of_earshot_names_both_zones():
    from drd_plugins.sdileni import moudry_radce

    ambroz = participant("ambroz", abilities=("moudry-radce",), zone="trh")
    vojta = participant("vojta", zone="brana")
    why = moudry_radce.refusal(ambroz, vojta, CostView("narocnost", 1, "vliv", None),
                               action("vojta", pool="vliv", means="dealing"))
    assert "trh" in why and "brana" in why


def test_R_ABIL_SHARE_moudry_radce_in_a_dealing_within_earshot_pays():
    from drd_plugins.sdileni import moudry_radce

    ambroz = participant("ambroz", abilities=("moudry-radce",), zone="trh")
    vojta = participant("vojta", zone="trh")
    cost, dealing = CostView("narocnost", 1, "vliv", None), action("vojta", pool="vliv", means="dealing")
    assert moudry_radce.refusal(ambroz, vojta, cost, dealing) is None
    assert moudry_radce.drd_may_pay(payer=ambroz, beneficiary=vojta, cost=cost, action=dealing) == {"pool": "vliv"}


# ----------------------------------------------------------------- the words reach the user (exit 1)

def _refusal(text: str):
    import pytest

    from drd_cli.errors import DrdError
    from drd_cli.testing import resolve_text

    with pytest.raises(DrdError) as info:
        resolve_text(text)
    assert info.value.exit_code == 1
    return info.value.format()


def test_R_ABIL_SHARE_the_refusal_says_which_condition_failed():
    said = _refusal("""
format: drd/1
title: Rádce v rvačce
participants:
  ambroz: {name: Ambrož, pools: {telo: 5, duse: 5, vliv: 6}, abilities: [moudry-radce], zone: trh}
  vojta: {name: Vojta, pools: {telo: 5, duse: 5, vliv: 5}, zone: trh}
  zlodej: {name: Zloděj, sudba: 4, zone: trh}
rounds:
  - steps:
      - test: {actor: vojta, pool: telo, means: melee, demanding: true, paid_by: ambroz, bonus_from: none,
               roll: 10, targets: [zlodej], effect: {ohrozeni: 1}}
""")
    assert "R-ABIL-SHARE" in said and "means: dealing" in said


def test_R_ABIL_DEF_the_refusal_says_a_duse_counter_would_be_allowed():
    said = _refusal("""
format: drd/1
title: Bystrost proti kouzlu
participants:
  lada: {name: Láďa, pools: {telo: 5, duse: 5, vliv: 5}, abilities: [bystrost], zone: cesta}
  jasan: {name: Jasan, pools: {telo: 5, duse: 5, vliv: 5}, zone: cesta}
  carodej: {name: Čaroděj, sudba: 6, zone: cesta}
rounds:
  - spent: [lada]
    steps:
      - contest:
          action: {actor: carodej, pool: duse, means: magic, targets: [jasan], roll: 9, effect: {ohrozeni: 1}}
          counters: [{actor: lada, from: obrana, kind: protect, protects: [jasan], pool: telo, roll: 10}]
""")
    assert "CS-IND-1" in said and "pool: duse" in said
