"""Plugin `ukryvani`: the `hide` step (SCENARIO-FORMAT §4.7, CS-HIDE-1..4)."""

from __future__ import annotations

import glob
from pathlib import Path

import pytest

from drd_cli.errors import DrdError
from drd_cli.testing import resolve_text, step

HEAD = """
format: drd/1
participants:
  zlatka: {name: Zlatka, pools: {telo: 5, duse: 5, vliv: 6}, ohrozeni: 2, levels: {kejklir: 3}}
  komori: {name: Komoří, sudba: 6, ohrozeni: 1, charakteristika: 3 %(susp)s}
  straz: {name: Stráž, sudba: 6, ohrozeni: 1, charakteristika: 2}
rounds:
  - initiative: [zlatka, komori, straz]
    steps:
      - id: h
        hide:
%(hide)s
        choices: %(choices)s
"""


def run(hide: str, choices: str = "{}", susp: str = "", **kw) -> dict:
    text = HEAD % {"hide": "\n".join("          " + line for line in hide.strip().splitlines()),
                   "choices": choices, "susp": (", suspicion: [%s]" % susp) if susp else ""}
    return resolve_text(text, **kw)


# --------------------------------------------------------------------------- CS-HIDE-1 (not resisting)

def test_object_unaware_no_roll():
    r = run("hidden: tajný poklop\ndeceived: [komori]\nsituation: unaware")
    h = step(r, "h")
    assert h["kind"] == "hide"
    assert h["hide"] == {"situation": "unaware", "resolved_as": "none", "revealed": False, "revealed_by": [],
                         "suspicion_added": [], "suspicion_cleared": []}
    assert h["rolls"] == {}


def test_object_chance_is_a_challenge_per_deceived():
    r = run("hidden: tajný poklop\ndeceived: [komori, straz]\nsituation: chance\nrolls: {komori: 10, straz: 6}")
    h = step(r, "h")["hide"]
    assert h["resolved_as"] == "challenge"
    assert h["revealed"] is True and h["revealed_by"] == ["komori"]


def test_object_search_is_a_test_and_exhaustion_does_not_find():
    r = run("hidden: tajný poklop\ndeceived: [komori]\nsituation: search\nrolls: {komori: 6}",
            choices="{komori: exhaust}")
    s = step(r, "h")
    assert s["hide"]["resolved_as"] == "test"
    assert s["hide"]["revealed"] is False
    assert s["exhaustions"][0]["by"] == "komori"


def test_object_search_success_reveals_a_passive_participant():
    r = run("hidden: zlatka\nresists: false\ndeceived: [komori]\nsituation: search\nrolls: {komori: 9}")
    assert step(r, "h")["hide"]["revealed_by"] == ["komori"]
    assert r["final"]["zlatka"]["conditions"] == ["odhalen"]       # default `revealed`


def test_demanding_noticing_costs_before_the_roll():
    r = run("hidden: stopa\ndeceived: [komori]\nsituation: chance\ndemanding: true\nrolls: {komori: 12}")
    assert r["final"]["komori"]["sudba"] == 5


# --------------------------------------------------------------------------- CS-HIDE-2 (resisting)

def test_resisting_unaware_is_a_test_nobody_reacts_to():
    r = run("hidden: zlatka\ndeceived: [komori]\nsituation: unaware\nrolls: {zlatka: 7}")
    s = step(r, "h")
    assert s["hide"]["resolved_as"] == "test" and s["hide"]["revealed"] is True
    assert s["hide"]["revealed_by"] == ["komori"]
    assert "komori" not in s["rolls"]


def test_resisting_chance_contest_counter_wins_reveals_and_hits():
    r = run("hidden: zlatka\ndeceived: [komori]\nsituation: chance\n"
            "counter: {effect: {ohrozeni: 1}}\nrolls: {zlatka: 7, komori: 10}")
    s = step(r, "h")
    assert s["hide"]["resolved_as"] == "contest"
    assert s["hide"]["revealed_by"] == ["komori"]
    assert r["final"]["zlatka"]["ohrozeni"] == 3
    assert r["final"]["zlatka"]["conditions"] == ["odhalen"]


def test_hidden_exhausts_not_revealed_deceived_gains_suspicion():
    r = run("hidden: zlatka\ndeceived: [komori]\nsituation: chance\n"
            "counter: {effect: {ohrozeni: 1}}\nrolls: {zlatka: 7, komori: 10}", choices="{zlatka: exhaust}")
    h = step(r, "h")["hide"]
    assert h["revealed"] is False and h["suspicion_added"] == ["komori"]
    assert r["final"]["komori"]["suspicion"] == ["zlatka"]


def test_hidden_wins_deceived_loses_suspicion():
    r = run("hidden: zlatka\ndeceived: [komori]\nrolls: {zlatka: 11, komori: 8}", susp="zlatka")
    h = step(r, "h")["hide"]
    assert h["situation"] == "chance"           # auto + suspicion → S2
    assert h["suspicion_cleared"] == ["komori"]
    assert r["final"]["komori"]["suspicion"] == []


def test_deceived_exhaustion_keeps_prior_suspicion():
    r = run("hidden: zlatka\ndeceived: [komori]\naction: {self_effect: {vyhody: 1}}\n"
            "rolls: {zlatka: 11, komori: 8}", susp="zlatka", choices="{komori: deny}")
    h = step(r, "h")["hide"]
    assert h["revealed"] is False and h["suspicion_cleared"] == []
    assert r["final"]["komori"]["suspicion"] == ["zlatka"]
    assert r["final"]["zlatka"]["vyhody"] == 0


def test_auto_without_suspicion_is_unaware():
    r = run("hidden: zlatka\ndeceived: [komori]\nrolls: {zlatka: 9}")
    h = step(r, "h")["hide"]
    assert h["situation"] == "unaware" and h["resolved_as"] == "test"


def test_counter_actors_only_some_react():
    r = run("hidden: zlatka\ndeceived: [komori, straz]\nsituation: chance\ncounter: {actors: [straz]}\n"
            "rolls: {zlatka: 8, straz: 10}")
    s = step(r, "h")
    assert set(s["rolls"]) == {"zlatka", "straz"}
    assert s["hide"]["revealed_by"] == ["straz"]


def test_search_with_deceived_initiative():
    r = run("hidden: zlatka\ndeceived: [komori]\nsituation: search\ninitiative: deceived\n"
            "counter: {effect: {ohrozeni: 1}}\naction: {self_effect: {ohrozeni: -1}}\n"
            "rolls: {zlatka: 8, komori: 10}")
    s = step(r, "h")
    assert s["hide"]["initiative"] == "deceived"
    assert s["hide"]["revealed_by"] == ["komori"]
    assert r["final"]["zlatka"]["ohrozeni"] == 3


def test_search_initiative_roll_is_seeded_and_reproducible():
    hide = "hidden: zlatka\ndeceived: [komori]\nsituation: search\ninitiative: roll\nrolls: {zlatka: 8, komori: 10}"
    a = step(run(hide, seed=3), "h")["hide"]["initiative"]
    b = step(run(hide, seed=3), "h")["hide"]["initiative"]
    assert a == b and a in ("hidden", "deceived")


def test_unknown_key_is_exit_2():
    with pytest.raises(DrdError) as info:
        run("hidden: zlatka\ndeceived: [komori]\nsneaky: true")
    assert info.value.exit_code == 2


def test_disabled_plugin_is_exit_1():
    with pytest.raises(DrdError) as info:
        run("hidden: zlatka\ndeceived: [komori]", disable=("ukryvani",))
    assert info.value.exit_code == 1
    assert "ukryvani" in info.value.format()


def test_resisting_label_needs_an_actor():
    with pytest.raises(DrdError) as info:
        run("hidden: vzkaz\nresists: true\ndeceived: [komori]\nsituation: chance")
    assert info.value.exit_code == 1


@pytest.mark.parametrize("path", sorted(glob.glob(str(Path(__file__).parents[2] / "scenarios" / "zlatka-*.yaml"))))
def test_zlatka_scenarios(path):
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.check import compare_result

    loaded = load_scenario(path)
    try:
        result, code, err = resolve_scenario(loaded), 0, ""
    except DrdError as exc:
        result, code, err = None, exc.exit_code, exc.format()
    assert compare_result(loaded.scenario.expect.model_dump(exclude_none=True), result, code, err) == []


# --------------------------------------------------------------------------- spent initiative (R-RND-1)

SPENT = """
format: drd/1
participants:
  zlatka: {name: Zlatka, pools: {telo: 5, duse: 5, vliv: 6}, ohrozeni: 2, levels: {kejklir: 3}}
  komori: {name: Komoří, sudba: 6, ohrozeni: 1, charakteristika: 3 %(susp)s}
rounds:
  - initiative: [komori, zlatka]
    steps:
      - id: zamyka
        test: {actor: komori, label: zamyká sál, pool: telo, roll: 10}
      - id: h
        hide:
%(hide)s
        choices: {}
"""


def spent(hide: str, susp: str = "") -> dict:
    """Komoří has already spent his initiative action (step `zamyka`) when Zlatka hides."""
    text = SPENT % {"hide": "\n".join("          " + line for line in hide.strip().splitlines()),
                    "susp": (", suspicion: [%s]" % susp) if susp else ""}
    return resolve_text(text)


def test_R_RND_1_spent_deceived_cannot_counter_a_sneak_that_does_not_threaten_it():
    """CS-HIDE-2 S2 needs the deceived's counter; with its initiative spent it may only react from obrana,
    and only against an action that threatens it (R-RND-1, CS-IND-1): the file is refused at `counter`."""
    with pytest.raises(DrdError) as info:
        spent("hidden: zlatka\ndeceived: [komori]\nsituation: chance\n"
              "action: {pool: telo, self_effect: {vyhody: 1}}\ncounter: {pool: telo}\n"
              "rolls: {zlatka: 8, komori: 11}")
    assert info.value.exit_code == 1
    text = info.value.format()
    assert "R-RND-1" in text and "už má akci z iniciativy v kole 1 za sebou" in text
    assert text.startswith("<test>.yaml:17:11:")                    # the hide step's `counter:` key


def test_R_MAN_3_spent_deceived_counters_a_lie_aimed_at_it_from_obrana():
    """CS-HIDE-3: the hidden's action harms the deceived (a lie told to it): it may react defensively,
    from obrana (the manoeuvre is required and paid: 1 Sudba)."""
    r = spent("hidden: zlatka\ndeceived: [komori]\nsituation: chance\n"
              "action: {pool: vliv, targets: [komori], effect: {condition: oklamán}}\ncounter: {pool: duse}\n"
              "rolls: {zlatka: 8, komori: 11}")
    s = step(r, "h")
    assert s["hide"]["resolved_as"] == "contest" and s["hide"]["revealed_by"] == ["komori"]
    assert [(m["by"], m["name"]) for m in s["manoeuvres"]] == [("komori", "obrana")]
    assert r["final"]["komori"]["sudba"] == 5


def test_R_MAN_3_spent_deceived_from_obrana_allows_no_other_manoeuvre():
    with pytest.raises(DrdError) as info:
        spent("hidden: zlatka\ndeceived: [komori]\nsituation: chance\n"
              "action: {pool: vliv, targets: [komori], effect: {condition: oklamán}}\n"
              "counter: {pool: duse, manoeuvres: [presne]}\nrolls: {zlatka: 8, komori: 11}")
    assert info.value.exit_code == 1 and "R-MAN-3" in info.value.format()


def test_R_RND_1_auto_spent_deceived_has_no_chance_and_the_sneak_is_a_test():
    """`situation: auto` would make the suspecting komoří S2, but he cannot react this round: the hidden's
    action is a test he cannot react to (as in S1); Zlatka's success makes him lose his suspicion."""
    r = spent("hidden: zlatka\ndeceived: [komori]\nsituation: auto\n"
              "action: {pool: telo, self_effect: {vyhody: 1}}\nrolls: {zlatka: 10}", susp="zlatka")
    s = step(r, "h")
    assert s["hide"]["resolved_as"] == "test"
    assert "komori" not in s["rolls"]
    assert any(e["rule"] == "R-RND-1" for e in s["log"])
    assert r["final"]["komori"]["suspicion"] == [] and r["final"]["zlatka"]["vyhody"] == 1


def test_R_RND_1_spent_deceived_cannot_search_with_the_initiative():
    with pytest.raises(DrdError) as info:
        spent("hidden: zlatka\ndeceived: [komori]\nsituation: search\ninitiative: deceived\n"
              "rolls: {zlatka: 8, komori: 11}")
    assert info.value.exit_code == 1 and "R-RND-1" in info.value.format()


# --------------------------------------------------------------------------- several searchers (S3, deceived's initiative)

def test_CS_HIDE_2_several_deceived_search_each_its_own_pair_with_the_hidden():
    """Each searcher's search is an action answered by the hidden: one pair each (R-CONT, ties to the
    searcher), suspicion kept per deceived/hidden pair (CS-HIDE-4)."""
    r = run("hidden: zlatka\ndeceived: [komori, straz]\nsituation: search\ninitiative: deceived\n"
            "action: {pool: telo}\ncounter: {pool: telo}\nrolls: {zlatka: [11, 9], komori: 10, straz: 9}",
            susp="zlatka")
    s = step(r, "h")
    assert [(p["actor"], p["counter"], p["winner"], p["totals"]) for p in s["pairs"]] == [
        ("komori", "zlatka", "zlatka", [10, 11]), ("straz", "zlatka", "straz", [9, 9])]
    assert s["hide"]["revealed_by"] == ["straz"]
    assert s["hide"]["suspicion_cleared"] == ["komori"]                # lost his pair: suspicion gone
    assert r["final"]["zlatka"]["conditions"] == ["odhalen"]


def test_R_RND_1_the_hidden_answers_the_second_search_from_obrana():
    r = run("hidden: zlatka\ndeceived: [komori, straz]\nsituation: search\ninitiative: deceived\n"
            "action: {pool: telo}\nrolls: {zlatka: 12, komori: 10, straz: 9}")
    s = step(r, "h")
    assert [(m["by"], m["name"]) for m in s["manoeuvres"]] == [("zlatka", "obrana")]
    assert r["final"]["zlatka"]["telo"] == 4                            # obrana paid once, for the second
    assert [p["totals"] for p in s["pairs"]] == [[10, 12], [9, 12]]      # one given total for every pair
    assert s["hide"]["revealed_by"] == []


def test_CS_HIDE_4_per_pair_exhaustions_and_suspicion():
    """Zlatka exhausts against the guard only: the guard gains suspicion, komoří (who lost) does not."""
    r = run("hidden: zlatka\ndeceived: [komori, straz]\nsituation: search\ninitiative: deceived\n"
            "action: {pool: telo}\ncounter: {pool: telo, effect: {ohrozeni: 1}}\n"
            "rolls: {zlatka: [11, 8], komori: 10, straz: 9}",
            choices="{zlatka: {straz: exhaust}, komori: {zlatka: accept}}")
    s = step(r, "h")
    assert [(e["by"], e["vs"]) for e in s["exhaustions"]] == [("zlatka", "straz")]
    assert s["hide"]["revealed_by"] == [] and s["hide"]["suspicion_added"] == ["straz"]
    assert r["final"]["komori"]["suspicion"] == [] and r["final"]["straz"]["suspicion"] == ["zlatka"]


def test_CS_HIDE_2_a_list_of_hidden_rolls_must_match_the_searchers():
    with pytest.raises(DrdError) as info:
        run("hidden: zlatka\ndeceived: [komori, straz]\nsituation: search\ninitiative: deceived\n"
            "rolls: {zlatka: [11], komori: 10, straz: 9}")
    assert info.value.exit_code == 1 and "CS-HIDE-2" in info.value.format()
    with pytest.raises(DrdError) as info:
        run("hidden: zlatka\ndeceived: [komori]\nsituation: chance\nrolls: {zlatka: [11, 9], komori: 10}")
    assert info.value.exit_code == 1


# --------------------------------------------------------------------------- audit: náročnost, R-THR

def test_R_NAR_noticing_is_charged_once_by_the_core_challenge():
    """R-NAR: náročné noticing costs 1 (velmi náročné 2) of the výzva's pool before the roll, charged by
    the core výzva (`charge_narocnost=True`) and logged once."""
    r = run("hidden: stopa\ndeceived: [komori]\nsituation: chance\ndemanding: 2\nrolls: {komori: 12}")
    assert r["final"]["komori"]["sudba"] == 4
    s = step(r, "h")
    assert [e["rule"] for e in s["log"]].count("R-NAR") == 1
    assert s["hide"]["revealed_by"] == ["komori"]


def test_CS_ENV_2_a_deceived_who_cannot_pay_the_narocnost_has_no_chance_to_notice():
    """CS-ENV-2 with CS-HIDE-1: a deceived who cannot pay for noticing (náročnost) cannot react to the
    výzva; it has no chance to notice, as in situation 1: not revealed, no roll, suspicion unchanged —
    not a refused file (exit 1)."""
    text = HEAD % {"hide": "\n".join("          " + line for line in
                                     "hidden: zlatka\nresists: false\ndeceived: [komori]\nsituation: chance\n"
                                     "demanding: true\nrolls: {komori: 12}".splitlines()),
                   "choices": "{}", "susp": ", suspicion: [zlatka]"}
    r = resolve_text(text.replace("komori: {name: Komoří, sudba: 6", "komori: {name: Komoří, sudba: 0"))
    s = step(r, "h")
    assert s["hide"]["revealed"] is False and s["hide"]["suspicion_cleared"] == []
    assert "komori" not in s["rolls"]
    assert r["final"]["komori"]["sudba"] == 0 and r["final"]["komori"]["suspicion"] == ["zlatka"]
    assert r["final"]["zlatka"]["conditions"] == []
    assert any(e["rule"] == "CS-ENV-2" for e in s["log"]) and any(e["rule"] == "CS-HIDE-1" for e in s["log"])


def test_R_THR_a_spent_deceived_cannot_counter_from_obrana_an_action_that_only_helps_it():
    """R-THR: a hidden's action aimed at the deceived that only helps it (a flattering Výhoda) does not
    threaten it; with its initiative spent it cannot counter (CS-HIDE-2 S2 written in the file: exit 1)."""
    with pytest.raises(DrdError) as info:
        spent("hidden: zlatka\ndeceived: [komori]\nsituation: chance\n"
              "action: {pool: vliv, targets: [komori], effect: {vyhody: 1}}\ncounter: {pool: duse}\n"
              "rolls: {zlatka: 8, komori: 11}")
    assert info.value.exit_code == 1 and "R-RND-1" in info.value.format()
