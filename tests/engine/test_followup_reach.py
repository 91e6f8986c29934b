"""CS-FOL-1, CS-IND-1, §4.1 `followup`, §5: a follow-up lands only on those its action got through
to — never on a target the action did not reach nor on one whose protection won — and the step's
`choices` answer it, for a test's follow-up as for a contest's."""

from __future__ import annotations

from pathlib import Path

import pytest
from drdtest import final, run, step, violation

ROOT = Path(__file__).parent.parent.parent

TEST_WITH_FOLLOWUP = """
format: drd/1
title: Otrávený šíp
participants:
  vlkava: {name: Vlkava, sudba: 8, ohrozeni: 2}
  jur: {name: Jur, pools: {telo: 6, duse: 5, vliv: 4}, ohrozeni: 2}
rounds:
  - initiative: [vlkava, jur]
    steps:
      - id: sip
        test:
          actor: vlkava
          pool: telo
          targets: [jur]
          roll: 10
          effect: {ohrozeni: 1}
          followup:
            challenge: {name: jed, pool: telo, effect: {jizva: otrava}, react: {jur: obrana}, rolls: {jur: 7}}
        choices: {jur: %s}
"""


def test_CS_FOL_1_a_tests_follow_up_reads_the_steps_choices():
    r = run(TEST_WITH_FOLLOWUP % "exhaust")
    assert final(r, "jur")["jizvy"] == []
    (exh,) = step(r, "sip")["exhaustions"]
    assert exh["by"] == "jur" and exh["cost"] == 3          # Ohrožení 3 after the arrow, no armour
    r = run(TEST_WITH_FOLLOWUP % "accept")
    assert final(r, "jur")["jizvy"] == ["otrava"]


CONTEST_WITH_FOLLOWUP = """
format: drd/1
title: Otrávená čepel
participants:
  vlkava: {name: Vlkava, pools: {telo: 6, duse: 5, vliv: 4}, ohrozeni: 2}
  jur: {name: Jur, pools: {telo: 6, duse: 5, vliv: 4}, ohrozeni: 2}
  ota: {name: Ota, pools: {telo: 6, duse: 5, vliv: 4}, ohrozeni: 2}
rounds:
  - initiative: [vlkava, jur, ota]
    steps:
      - id: sek
        contest:
          action:
            actor: vlkava
            pool: telo
            targets: [jur]
            roll: %d
            effect: {ohrozeni: 1}
            followup:
              challenge: {name: jed, %s pool: telo, effect: {jizva: otrava}}
          counters: [{actor: ota, kind: harm, pool: telo, roll: 5, effect: {ohrozeni: 1}}]
        choices: {vlkava: accept}
"""


def test_CS_FOL_1_an_explicit_affects_lands_only_where_the_action_got_through():
    # 8 < 9 against the non-reacting Jur, accepted: the blade did not get through, nor does the poison
    for affects in ("affects: [jur],", ""):
        r = run(CONTEST_WITH_FOLLOWUP % (8, affects))
        assert final(r, "jur")["jizvy"] == [], affects
        r = run(CONTEST_WITH_FOLLOWUP % (10, affects))
        assert final(r, "jur")["jizvy"] == ["otrava"], affects


def _sluices(kind: str, roll: int) -> str:
    text = (ROOT / "scenarios" / "borri-stavidla.yaml").read_text(encoding="utf-8").split("\nexpect:")[0]
    return text.replace("""            - {actor: borri, from: obrana, kind: harm, manoeuvres: [obrana], pool: duse,
               means: magic, roll: 10, effect: {ohrozeni: 1}, note: zasekne mechanismus iluzí}""",
                        f"""            - {{actor: borri, from: obrana, kind: {kind}, manoeuvres: [obrana], pool: duse,
               means: magic, roll: {roll}}}""")


def test_CS_IND_1_a_winning_protection_shields_from_the_follow_up_that_names_the_protected():
    r = run(_sluices("protect", 10))
    assert final(r, "borri")["conditions"] == [] and final(r, "borri")["ohrozeni"] == 2
    assert step(r, "paka")["actions"]["borri"]["success"] is True
    r = run(_sluices("protect", 7))                                  # the protection lost: the sewage lands
    assert final(r, "borri")["conditions"] == ["zmáčen splašky"]


OUT_OF_CONFLICT = """
format: drd/1
title: Otrávená čepel a útěk
participants:
  vlkava: {name: Vlkava, pools: {telo: 6, duse: 5, vliv: 4}, ohrozeni: 2}
  jur: {name: Jur, pools: {telo: 6, duse: 5, vliv: 4}, ohrozeni: 2}
rounds:
  - initiative: [vlkava, jur]
    steps:
      - id: sek
        test:
          actor: vlkava
          pool: telo
          targets: [jur]
          roll: 10
          effect: {condition: mimo konflikt}
          followup:
            challenge: {name: jed, %s pool: telo, effect: {jizva: otrava}}
"""


def test_CS_FOL_1_a_participant_out_of_the_conflict_undergoes_no_follow_up_however_named():
    """One reading everywhere (docs/scenario-format.md §9): `mimo konflikt` takes its holder out of
    every výzva — a challenge step, an environment entry, and a follow-up that reached it as a target."""
    for affects in ("", "affects: [jur],", "affects: all,"):
        r = run(OUT_OF_CONFLICT % affects)
        assert final(r, "jur")["jizvy"] == [], affects
        assert final(r, "jur")["conditions"] == ["mimo konflikt"]


IMPOSSIBLE = CONTEST_WITH_FOLLOWUP.replace(
    "  ota: {name: Ota,", "  kel: {name: Kel, pools: {telo: 6, duse: 5, vliv: 4}, ohrozeni: 2}\n"
    "  spac: {name: Spáč, pools: {telo: 6, duse: 5, vliv: 4}, ohrozeni: 2, conditions: [spí]}\n  ota: {name: Ota,")


@pytest.mark.parametrize("who,rule", [("kel", "CS-FOR-1"), ("jur", "CS-MULTI-4"), ("spac", "R-AWARE")])
@pytest.mark.parametrize("followup", [True, False])
def test_CS_FOR_1_impossible_answers_are_refused_with_or_without_a_follow_up(who, rule, followup):
    """§5: an outsider's exhaust, a non-reacting target's own, a sleeper's — refused (exit 1) whether
    or not the action has a follow-up that could have used a general answer."""
    text = (IMPOSSIBLE % (10, "")).replace("choices: {vlkava: accept}", f"choices: {{vlkava: accept, {who}: exhaust}}")
    if not followup:
        text = text.replace("            followup:\n              challenge: {name: jed,  pool: telo, "
                            "effect: {jizva: otrava}}\n", "")
        assert "followup" not in text
    violation(text, rule)
