"""Third spec audit, CS-OPT-AREA (`plosna-protiakce`): a plošná counter pulling beings in."""

from __future__ import annotations

import pytest

from drd_cli.errors import DrdError
from drd_cli.testing import resolve_text, step

HEAD = """
format: drd/1
rules: {enable: [plosna-protiakce]}
participants:
  hrun: {pools: {telo: 8, duse: 3, vliv: 3}, ohrozeni: 2, levels: {bojovnik: 3}, zone: břeh}
  mag: {sudba: 5, ohrozeni: 2, zone: most}
  nosic: {sudba: 3, ohrozeni: 1, zone: most}
  strelec: {sudba: 4, ohrozeni: 2, zone: most}
rounds:
  - steps:
      - id: most
        contest:
          action: {actor: mag, pool: telo, targets: [hrun], roll: %(mag)s, effect: {condition: sražen}}
          counters:
            - {actor: hrun, kind: harm, area: true, area_via: environment, zone: most, pool: telo,
               bonus_from: bojovnik, roll: %(hrun)s, effect: {condition: zřítil se}}
%(more)s
        choices: %(choices)s
"""


def bridge(mag=7, hrun=8, more="", choices="{}", **kw):
    return resolve_text(HEAD % {"mag": mag, "hrun": hrun, "more": more, "choices": choices}, **kw)


def test_CS_OPT_AREA_pulled_in_beings_who_do_not_answer_meet_the_9_below_it_only_by_exhausting():
    """Hrun's 8 beats the mage's 7 (it lands on the mage, who reacted by acting); nosič and the
    archer did not answer: 8 < 9, so only Hrun's exhaustion (once, CS-MULTI-2/3) reaches them."""
    r = bridge()
    f = r["final"]
    assert "zřítil se" in f["mag"]["conditions"]
    assert f["nosic"]["conditions"] == [] and f["strelec"]["conditions"] == []
    assert f["hrun"]["conditions"] == []                    # the mage's action was stopped
    r = bridge(choices="{hrun: {test: exhaust}}")
    f = r["final"]
    assert f["nosic"]["conditions"] == ["zřítil se"] and f["strelec"]["conditions"] == ["zřítil se"]
    [e] = step(r, "most")["exhaustions"]
    assert (e["by"], e["vs"], e["cost"]) == ("hrun", "test", 2)


def test_CS_OPT_AREA_a_pulled_in_being_answers_the_area_counter_and_wins():
    more = "            - {actor: strelec, answers: hrun, kind: protect, protects: [strelec], pool: telo, roll: 11}"
    r = bridge(hrun=12, more=more)
    assert r["final"]["strelec"]["conditions"] == ["zřítil se"]     # 11 < 12: its dodge failed
    r2 = bridge(hrun=12, more=more.replace("roll: 11", "roll: 13"))
    assert r2["final"]["strelec"]["conditions"] == []
    assert r2["final"]["nosic"]["conditions"] == ["zřítil se"]


def test_CS_OPT_AREA_answers_must_name_a_participant_of_the_contest():
    more = "            - {actor: strelec, answers: nosic, kind: harm, pool: telo, roll: 11}"
    with pytest.raises(DrdError) as info:
        bridge(more=more)
    assert info.value.exit_code in (1, 2)


def test_CS_OPT_AREA_off_by_default():
    text = HEAD.replace("rules: {enable: [plosna-protiakce]}\n", "")
    with pytest.raises(DrdError) as info:
        resolve_text(text % {"mag": 7, "hrun": 8, "more": "", "choices": "{}"})
    assert info.value.exit_code == 1 and "CS-OPT-AREA" in info.value.format()
