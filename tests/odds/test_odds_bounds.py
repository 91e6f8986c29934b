"""Bounded step odds (#14) and what-if odds (#15): exact where they were exact, an estimate past
the budget that contains the exact answer, and přesně's odds and price from the engine itself."""

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from drd_cli import odds, odds_step
from drd_cli.api import load_scenario
from drd_cli.cli.odds_cmd import odds_app

DATA = Path(__file__).parents[1] / "data"
RULES = {"disable": ("ukryvani",)}
runner = CliRunner()


def _load(name, tmp_path=None, text=None):
    if text is None:
        return load_scenario(str(DATA / name))
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return load_scenario(str(p))


def _plain(r):
    """The exact numbers of a result as strings, in the shape of odds-before-bounds.json."""
    out = {k: {kk: (str(vv) if not isinstance(vv, dict) else {str(a): str(b) for a, b in vv.items()})
               for kk, vv in r[k].items()} for k in ("success", "pairs", "hit", "exhausts", "ohrozeni")}
    return out | {"classes": r["classes"], "refused": str(r["refused"])}


PINNED = json.loads((DATA / "odds-before-bounds.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", sorted(PINNED))
def test_exact_results_are_those_of_the_implementation_before_the_bounds(case):
    """R-CONT, R-ORDER, CS-MULTI-3: 4 and 6 open rollers are still exact, fraction for fraction
    and class for class as the enumeration before #14 gave them (pinned in the JSON file; the
    6-roller step then took ≈ 8 s)."""
    name, policy = case.split()
    r = odds.step_odds(_load(name), "boj", policy, fast_method=False)
    assert r["exact"] is True and r["samples"] is None
    assert _plain(r) == PINNED[case]
    # The fast method, where it answers (a protector with an obstacle, state by state), agrees.
    fast = odds.step_odds(_load(name), "boj", policy)
    assert fast["exact"] is True
    assert {k: v for k, v in _plain(fast).items() if k != "classes"} == \
        {k: v for k, v in PINNED[case].items() if k != "classes"}


def _reference_classes(per_call, act_consts, cnt_consts):
    """Every combination of totals, keyed as `_key_function` keys a core contest."""
    n = len(per_call) - 1
    groups = {}
    for combo in product(*per_call):
        av, cs = combo[0][0], [t for t, _f, _c in combo[1:]]
        w = 1
        for _t, _f, c in combo:
            w *= c
        key = ((tuple(sorted(range(n), key=lambda j: (-cs[j], j))),
                tuple(c >= k for c, ks in zip(cs, cnt_consts) for k in ks)),
               tuple((c > av) - (c < av) for c in cs), tuple(av >= k for k in act_consts))
        groups[key] = groups.get(key, 0) + w
    return groups


@given(st.lists(st.integers(-1, 4), min_size=2, max_size=4), st.lists(st.booleans(), min_size=4, max_size=4),
       st.booleans(), st.sampled_from([[9], [7, 9], [9, 11]]))
@settings(max_examples=40, deadline=None)
def test_contest_classes_equal_the_enumeration_of_every_total(bonuses, obstacles, actor_checks, consts):
    """The state-by-state construction of a contest's classes gives exactly the classes (and
    their numbers of faces) of enumerating every combination of totals."""
    per_call = [[(k + b, f, c) for k, f, c in odds_step._classes(2)] for b in bonuses]
    cnt_consts = [consts if o else [] for o in obstacles[:len(bonuses) - 1]]
    act = consts if actor_checks else []
    got = odds_step._contest_classes(per_call, act, cnt_consts, 10 ** 6)
    assert {k: w for k, (_faces, w) in got.items()} == _reference_classes(per_call, act, cnt_consts)
    # each representative really is in its class
    for key, (faces, _w) in got.items():
        totals = [sum(f) + b for f, b in zip(faces, bonuses)]
        assert key in _reference_classes([[(t, tuple(f), 1)] for t, f in zip(totals, faces)], act, cnt_consts)


def test_nine_rollers_are_a_labelled_estimate_with_exact_pairs():
    """9 open rollers (36^9 combinations) forced to an estimate (budget 0; the fast method answers
    them exactly otherwise): every number an Estimate with its interval, `exact` false, the
    samples counted; who wins each pair stays exact (R-CONT: it depends on the two totals only)."""
    r = odds.step_odds(_load("devet-ve-stretu.yaml"), "boj", samples=400, budget=0)
    assert r["exact"] is False and r["samples"] == 400 and r["confidence"] == 0.95
    assert r["pairs_exact"] and r["pairs"]["a vs b"]["b"] == odds.contest_odds(2, 1, "actor")["lose"]
    for p in r["success"].values():
        assert isinstance(p, odds_step.Estimate) and p.low <= p.value <= p.high and p.n == 400
    assert all(abs(sum(float(v) for v in d.values()) - 1) < 1e-9 for d in r["ohrozeni"].values())


def test_the_estimate_contains_the_exact_answer():
    """The same 4-roller step forced to an estimate (budget 0): the exact success of every
    action and who is hit lie in their 95 % intervals, and nearly every other number does too."""
    loaded = _load("ctyri-ve-stretu.yaml")
    exact = odds.step_odds(loaded, "boj", "exhaust")
    est = odds.step_odds(loaded, "boj", "exhaust", budget=0, samples=4000)
    assert est["exact"] is False and exact["exact"] is True
    for key in ("success", "hit"):
        for pid, p in exact[key].items():
            e = est[key][pid]
            assert e.low <= float(p) <= e.high, (key, pid, p, e)
    inside = total = 0
    for pid, d in exact["ohrozeni"].items():
        for o, p in d.items():
            e = est["ohrozeni"][pid].get(o)
            total += 1
            inside += e is not None and e.low <= float(p) <= e.high
    assert inside >= 0.85 * total
    # fewer resolutions than samples: each class met is resolved once
    assert est["resolutions"] <= exact["classes"] + 10


def test_estimates_are_reproducible_for_a_seed():
    loaded = _load("devet-ve-stretu.yaml")
    a = odds.step_odds(loaded, "boj", samples=200, seed=3, budget=0)
    b = odds.step_odds(loaded, "boj", samples=200, seed=3, budget=0)
    assert {k: v.value for k, v in a["success"].items()} == {k: v.value for k, v in b["success"].items()}


def test_wilson_interval():
    e = odds_step.Estimate.share(0, 100)
    assert e.value == 0 and e.low == 0 and 0.03 < e.high < 0.04
    e = odds_step.Estimate.share(50, 100)
    assert 0.40 < e.low < 0.41 and 0.59 < e.high < 0.60


def test_cli_estimate_json_and_czech_text():
    f = str(DATA / "devet-ve-stretu.yaml")
    r = runner.invoke(odds_app, [f, "boj", "--samples", "300", "--budget", "0", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["exact"] is False and data["samples"] == 300
    low, high = data["success"]["a"]["interval"]
    assert low <= data["success"]["a"]["p"] <= high
    assert "fraction" in data["pairs"]["a vs b"]["a"]           # pairs stay exact
    r = runner.invoke(odds_app, [f, "boj", "--samples", "300", "--budget", "0"])
    assert r.exit_code == 0 and "ODHAD" in r.output and "300 vzorků" in r.output
    assert "≈" in r.output and "přesný výpočet" in r.output
    assert "," in r.output.split("ÚSPĚCH ≈ ")[1][:6]             # Czech decimal comma
    r = runner.invoke(odds_app, [f, "boj", "--samples", "300", "--budget", "0", "--lang", "en"])
    assert r.exit_code == 0 and "ESTIMATE from 300 samples" in r.output


def test_cli_exact_json_says_exact():
    r = runner.invoke(odds_app, [str(DATA / "ctyri-ve-stretu.yaml"), "boj", "--json"])
    data = json.loads(r.output)
    assert data["exact"] is True and data["samples"] is None and data["method"] == "independent"
    assert data["why_not_fast"] is None


# --------------------------------------------------------------------------- what-if (#15)

CONTEST4 = (DATA / "ctyri-ve-stretu.yaml").read_text(encoding="utf-8")


def test_what_if_presne_equals_the_step_written_with_presne(tmp_path):
    """R-ROLL-3, R-MAN-2: Aneta's option 's přesně' is exactly the step with přesně written in
    her action, and it costs 1 Tělo; the change is against the step as written."""
    loaded = _load("c4.yaml", tmp_path, CONTEST4)
    w = odds.what_if(loaded, "boj")
    aneta = next(r for r in w["rollers"] if r["who"] == "a")
    opt = aneta["options"][0]
    written = _load("c4p.yaml", tmp_path, CONTEST4.replace("manoeuvres: [rozsahle]", "manoeuvres: [rozsahle, presne]"))
    assert opt["win"] == odds.step_odds(written, "boj")["success"]["a"]
    assert opt["delta"] == opt["win"] - aneta["win"] and opt["delta"] > 0
    assert opt["cost"] == {"paid": "telo", "amount": 1, "via": None}
    assert aneta["win"] == odds.step_odds(loaded, "boj")["success"]["a"]


@pytest.mark.parametrize("mode", ["plus-one", "keep-best-2-of-3"])
def test_what_if_counter_wins_its_pair_as_r_cont(tmp_path, mode):
    """A counter's přesně (+1, or the third die kept best two of three) moves its pair exactly as
    R-CONT with přesně says; it is paid with 1 Sudba."""
    text = CONTEST4.replace("rules: {params: {tie: actor}}", f"rules: {{params: {{tie: actor, presne: {mode}}}}}")
    w = odds.what_if(_load("c4.yaml", tmp_path, text), "boj")
    assert w["presne_mode"] == mode
    bohous = next(r for r in w["rollers"] if r["who"] == "b")
    assert bohous["role"] == "counter" and bohous["vs"] == "a"
    assert bohous["win"] == odds.contest_odds(2, 1, "actor")["lose"]
    assert bohous["options"][0]["win"] == odds.contest_odds(2, 1, "actor", vs_presne=1, presne_mode=mode)["lose"]
    assert bohous["options"][0]["cost"]["paid"] == "sudba"


ONE_PAIR = """\
format: drd/1
title: jedna dvojice
participants:
  a: {name: Aneta, pools: {telo: 9, duse: 5, vliv: 5}, ohrozeni: 2, levels: {valecnik: 1}}
  b: {name: Bohouš, sudba: SUDBA, ohrozeni: 1, charakteristika: 1}
rounds:
  - steps:
      - id: boj
        contest:
          action: {actor: a, label: útok, pool: telo, bonus_from: valecnik, targets: [b], effect: {ohrozeni: 1}}
          counters:
            - {actor: b, kind: harm, pool: telo, effect: {ohrozeni: 1}}
"""


def test_what_if_counter_exhaustion_chance_and_cost(tmp_path):
    """R-EXH-1: when Bohouš wins, Aneta (Ohrožení 2, enough Tělo) has to exhaust for 2: the chance
    is his win chance and the expected cost twice it, with and without his přesně."""
    w = odds.what_if(_load("p.yaml", tmp_path, ONE_PAIR.replace("SUDBA", "5")), "boj")
    b = next(r for r in w["rollers"] if r["who"] == "b")
    lose = odds.contest_odds(1, 1, "actor")["lose"]
    assert b["actor_exhausts"] == lose and b["actor_cost"] == 2 * lose
    lose2 = odds.contest_odds(1, 2, "actor")["lose"]
    assert b["options"][0]["actor_exhausts"] == lose2 and b["options"][0]["actor_cost"] == 2 * lose2


def test_what_if_unaffordable_presne_is_said_not_offered(tmp_path):
    """R-MAN-2: with no Sudba left Bohouš cannot pay přesně: no option, the rules' reason instead."""
    w = odds.what_if(_load("p.yaml", tmp_path, ONE_PAIR.replace("SUDBA", "0")), "boj")
    b = next(r for r in w["rollers"] if r["who"] == "b")
    assert b["options"] == [] and b["unavailable"][0]["rule"] == "R-MAN-2"
    lines = "\n".join(odds.what_if_lines(w, {"a": "Aneta", "b": "Bohouš"}))
    assert "přesně nejde" in lines


def test_what_if_lines_and_cli_in_both_languages(tmp_path):
    p = tmp_path / "c4.yaml"
    p.write_text(CONTEST4, encoding="utf-8")
    r = runner.invoke(odds_app, [str(p), "boj", "--what-if"])
    assert r.exit_code == 0, r.output
    assert "Co kdyby" in r.output and "s přesně: úspěch 56,8 % (+12,2), stojí 1 Tělo" in r.output
    assert "s přesně: výhra 44,4 % (+10,8), stojí 1 Sudba" in r.output and "se musí vyčerpat" in r.output
    r = runner.invoke(odds_app, [str(p), "boj", "--what-if", "--lang", "en"])
    assert "with přesně: success 56.8 % (+12.2), costs 1 Tělo" in r.output
    r = runner.invoke(odds_app, [str(p), "boj", "--what-if", "--json"])
    data = json.loads(r.output)
    assert data["base"]["exact"] is True
    opt = data["rollers"][0]["options"][0]
    assert opt["manoeuvre"] == "presne" and opt["delta"]["fraction"] and opt["cost"]["paid"] == "telo"


def test_what_if_only_one_roller_for_play(tmp_path):
    """`only=` limits the options to the one about to roll (what `drd play` needs before a roll)."""
    w = odds.what_if(_load("c4.yaml", tmp_path, CONTEST4), "boj", only="c")
    assert [r["who"] for r in w["rollers"]] == ["c"]
    assert isinstance(w["rollers"][0]["win"], Fraction)


def test_progress_reports_resolutions_then_samples():
    """The progress callback (the bar on a terminal) sees resolutions of an exact answer up to
    the number of classes, and samples of an estimate up to the samples drawn."""
    loaded = _load("ctyri-ve-stretu.yaml")
    seen = []
    r = odds.step_odds(loaded, "boj", progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (r["classes"], r["classes"]) and all(d <= t for d, t in seen)
    seen.clear()
    odds.step_odds(loaded, "boj", budget=0, samples=600, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (256, 600) and seen[-1] == (600, 600)
    seen.clear()
    r = odds.step_odds(loaded, "boj", budget=0, time_limit=0.2, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (r["samples"], r["samples"]) and all(t is None for _d, t in seen[:-1])


def test_what_if_counter_numbers_keep_the_state_before_the_step(tmp_path):
    """R-EXH-1: the earlier failed test is accepted under `--choose accept`, so Aneta enters the
    contest at Ohrožení 2 (not 3, as if she had exhausted then): her expected cost against
    Bohouš is 2 × his win chance; only the step's own decisions are answered `exhaust`."""
    text = ONE_PAIR.replace("SUDBA", "5").replace("  - steps:\n", """  - steps:
      - id: priprava
        test: {actor: a, label: příprava, pool: telo, bonus_from: valecnik, roll: 5}
  - steps:
""")
    w = odds.what_if(_load("p2.yaml", tmp_path, text), "boj", "accept")
    b = next(r for r in w["rollers"] if r["who"] == "b")
    lose = odds.contest_odds(1, 1, "actor")["lose"]
    assert b["actor_exhausts"] == lose and b["actor_cost"] == 2 * lose


def test_contest_classes_give_up_past_their_state_limit():
    per_call = [[(k + b, f, c) for k, f, c in odds_step._classes(2)] for b in (2, 1, 0, 3)]
    assert odds_step._contest_classes(per_call, [], [[], [], []], 10) is None
    assert len(odds_step._contest_classes(per_call, [], [[], [], []], 10 ** 6)) > 10


JOINT = """\
format: drd/1
title: společný skok
participants:
  a: {name: Aneta, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1, levels: {lovec: 2}}
  b: {name: Bohouš, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 2, levels: {lovec: 1}}
  c: {name: Cyril, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 0, levels: {lovec: 3}}
rounds:
  - steps:
      - id: skok
        test: {actors: [a, b, c], label: skok, bonus_from: lovec, pool: telo, failure: {ohrozeni: 1}}
"""


@pytest.mark.parametrize("policy", ["accept", "exhaust"])
def test_a_test_step_estimate_contains_its_exact_answer(tmp_path, policy):
    """R-TEST, R-EXH-1: a joint test forced to an estimate: each actor's success and Ohrožení
    lie in their intervals around the exact (independent) odds, and the distributions sum to 1."""
    loaded = _load("j.yaml", tmp_path, JOINT)
    exact = odds.step_odds(loaded, "skok", policy, **RULES)
    est = odds.step_odds(loaded, "skok", policy, budget=0, samples=3000, **RULES)
    assert exact["success"]["c"] == (1 if policy == "exhaust" else odds.test_odds(3)["success"])
    for pid, p in exact["success"].items():
        e = est["success"][pid]
        assert e.low <= float(p) <= e.high
    for d in est["ohrozeni"].values():
        assert abs(sum(v.value for v in d.values()) - 1) < 1e-9


def test_cli_what_if_who_limits_to_one_roller_and_refuses_unknown_ids(tmp_path):
    p = tmp_path / "c4.yaml"
    p.write_text(CONTEST4, encoding="utf-8")
    r = runner.invoke(odds_app, [str(p), "boj", "--what-if", "--who", "c", "--json"])
    assert r.exit_code == 0, r.output
    assert [x["who"] for x in json.loads(r.output)["rollers"]] == ["c"]
    r = runner.invoke(odds_app, [str(p), "boj", "--what-if", "--who", "x"])
    assert r.exit_code == 2 and "neznámý účastník 'x'" in r.output
