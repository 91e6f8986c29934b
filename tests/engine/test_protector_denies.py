"""§5, CS-MULTI-5: a losing protector whom the winner does not threaten itself, answering a bare
`exhaust`, denies the winner's own gain (paid at the usual cost); exhausting for those it protects is
written `{exhaust: [ids]}`. Against a winner without a gain the bare answer stays refused (CS-FOR-1)."""

from __future__ import annotations

import pytest
from drdtest import final, run, step, violation

WAVE = """
format: drd/1
title: Vodníkova vlna
rules: {enable: [rozsahla-protiakce]}
participants:
  vodnik: {name: Vodník, sudba: 8, ohrozeni: 2}
  lavrisa: {name: Bosorka Lavriša, pools: {telo: 5, duse: 7, vliv: 5}, ohrozeni: 2}
  jur: {name: Jur, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 2}
  mstislav: {name: Mstislav, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 2}
rounds:
  - initiative: [vodnik, lavrisa, jur, mstislav]
    delay: [lavrisa]
    steps:
      - id: vlna
        contest:
          action: {actor: vodnik, pool: telo, targets: [jur, mstislav], manoeuvres: [rozsahle], roll: 8,
                   effect: {ohrozeni: 1}, %s}
          counters:
            - {actor: lavrisa, from: delayed, kind: protect, protects: [jur, mstislav], pool: duse,
               manoeuvres: [rozsahle], roll: 7}
        choices: {lavrisa: %s}
"""


@pytest.mark.parametrize("answer", ["exhaust", "deny"])
def test_CS_MULTI_5_a_losing_protector_not_threatened_denies_with_a_bare_exhaust(answer):
    r = run(WAVE % ("self_effect: {vyhody: 1}", answer))
    (exh,) = step(r, "vlna")["exhaustions"]
    assert exh["by"] == "lavrisa" and exh["denied"] == "vodnik" and exh["protected"] == []
    assert final(r, "vodnik")["vyhody"] == 0
    assert final(r, "lavrisa")["ohrozeni"] == 3


def test_CS_FOR_1_a_bare_exhaust_against_a_winner_without_gain_stays_refused():
    violation(WAVE % ("note: bez zisku", "exhaust"), "CS-FOR-1")


def test_CS_FOR_2_exhausting_for_the_protected_is_written_with_their_ids():
    r = run(WAVE % ("self_effect: {vyhody: 1}", "{exhaust: [jur, mstislav]}"))
    (exh,) = step(r, "vlna")["exhaustions"]
    assert exh["by"] == "lavrisa" and sorted(exh["protected"]) == ["jur", "mstislav"]
    assert exh["cost"] == 2 + 2 and exh.get("denied") is None          # CS-FOR-2: per protected, added up
    assert final(r, "vodnik")["vyhody"] == 1                            # his gain is not denied
    assert final(r, "jur")["ohrozeni"] == 2 and final(r, "mstislav")["ohrozeni"] == 2
