"""Exact odds (drd_cli.odds) against brute-force enumeration, known values and a hand count."""

from fractions import Fraction
from itertools import product

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from drd_cli import odds
from drd_cli.cli.odds_cmd import odds_app

D = range(1, 7)


def brute_test(bonus, presne, mode, target):
    n = 2 + (presne if mode == "keep-best-2-of-3" else 0)
    ok = tot = 0
    for faces in product(D, repeat=n):
        kept = sum(sorted(faces, reverse=True)[:2])
        total = kept + bonus + (presne if mode == "plus-one" else 0)
        ok += total >= target
        tot += 1
    return Fraction(ok, tot)


@given(st.integers(-4, 10), st.integers(0, 2), st.sampled_from(odds.PRESNE_MODES), st.integers(2, 14))
@settings(max_examples=60, deadline=None)
def test_test_odds_equal_brute_force(bonus, presne, mode, target):
    r = odds.test_odds(bonus, presne, mode, target)
    assert r["success"] == brute_test(bonus, presne, mode, target)
    assert r["success"] + r["failure"] == 1


@given(st.integers(-3, 8), st.integers(-3, 8), st.sampled_from(odds.TIES))
@settings(max_examples=60, deadline=None)
def test_contest_odds_equal_brute_force(a, b, tie):
    w = l_ = t = 0
    for x in product(D, repeat=4):
        ra, rc = x[0] + x[1] + a, x[2] + x[3] + b
        w += ra > rc
        l_ += ra < rc
        t += ra == rc
    r = odds.contest_odds(a, b, tie)
    if tie == "actor":
        assert (r["win"], r["lose"]) == (Fraction(w + t, 1296), Fraction(l_, 1296))
    elif tie == "counter":
        assert (r["win"], r["lose"]) == (Fraction(w, 1296), Fraction(l_ + t, 1296))
    else:
        assert (r["win"], r["lose"]) == (Fraction(w, w + l_), Fraction(l_, w + l_))
    assert r["win"] + r["lose"] == 1


@pytest.mark.parametrize("presne,mode", [(0, "plus-one"), (2, "plus-one"), (1, "keep-best-2-of-3"),
                                         (3, "keep-best-2-of-3")])
def test_distribution_sums_to_one(presne, mode):
    assert sum(odds.roll_distribution(1, presne, mode).values()) == 1


def test_known_values():
    assert odds.test_odds(0)["success"] == Fraction(10, 36)
    # 26/36 is +3 (2k6 ≥ 6), not +2 (2k6 ≥ 7 = 21/36); rpg-tools-anchors §4.2 agrees.
    assert odds.test_odds(2)["success"] == Fraction(21, 36)
    assert odds.test_odds(3)["success"] == Fraction(26, 36)
    assert odds.test_odds(0, 1, "keep-best-2-of-3")["success"] == Fraction(113, 216)
    assert odds.contest_odds(0, 0, "counter")["win"] == Fraction(575, 1296)
    assert odds.contest_odds(0, 0)["tie"] == Fraction(73, 648)


def test_exhaustion_cost():
    assert odds.exhaustion_cost(3) == 3
    assert odds.exhaustion_cost(3, armour=1) == 2
    assert odds.exhaustion_cost(1, armour=2) == 0
    assert odds.exhaustion_cost(3, armour=1, bodily=False) == 3
    r = odds.expected_exhaustion_cost(3, bonus=2)
    assert r["expected"] == Fraction(5, 12) * 3 and r["ohrozeni_after"] == 4


SCEN = """\
format: drd/1
title: t
participants:
  a: {name: Aneta, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1, levels: {lovec: 2}}
  b: {name: Bohous, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1, levels: {lovec: 1}}
  c: {name: Cyril, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 2, levels: {lovec: 1}}
  d: {name: Dan, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 0, levels: {lovec: 3}}
rounds:
  - steps:
      - id: s1
        test:
          actors: [a, b, c, d]
          label: skok
          bonus_from: lovec
          pool: telo
          failure: {condition: spadl}
"""


@pytest.fixture
def scen_path(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(SCEN, encoding="utf-8")
    return str(p)


RULES = {"disable": ("ukryvani",)}


def test_step_odds_hand_count(scen_path):
    from drd_cli.simulate import _load

    loaded = _load(scen_path)
    r = odds.step_odds(loaded, "s1", "accept", **RULES)
    # hand count: P(2k6 + L ≥ 9) per actor, independently
    assert r["success"] == {"a": Fraction(7, 12), "b": Fraction(5, 12), "c": Fraction(5, 12), "d": Fraction(13, 18)}
    assert r["combinations"] == 36 ** 4
    x = odds.step_odds(loaded, "s1", "exhaust", **RULES)
    assert all(v == 1 for v in x["success"].values())
    # exhausting on failure raises Ohrožení by 1
    assert x["ohrozeni"]["a"] == {1: Fraction(7, 12), 2: Fraction(5, 12)}
    for d in x["ohrozeni"].values():
        assert sum(d.values()) == 1


def test_step_odds_classes_match_full_enumeration(scen_path):
    from drd_cli.simulate import _load

    loaded = _load(scen_path)
    loaded.scenario.rounds[0].steps[0].test.actors = ["a", "b"]
    fast = odds.step_odds(loaded, "s1", "exhaust", **RULES)
    slow = odds.step_odds(loaded, "s1", "exhaust", classes=False, **RULES)
    assert fast["success"] == slow["success"] and fast["ohrozeni"] == slow["ohrozeni"]


runner = CliRunner()


def test_cli_test_and_contest():
    r = runner.invoke(odds_app, ["test", "--bonus", "2"])
    assert r.exit_code == 0 and "ÚSPĚCH" in r.output and "7/12" in r.output
    r = runner.invoke(odds_app, ["contest", "--bonus", "3", "--vs", "2", "--json"])
    assert r.exit_code == 0 and '"win"' in r.output
    r = runner.invoke(odds_app, ["exhaust", "--ohrozeni", "3", "--armour", "1"])
    assert r.exit_code == 0 and "cena 2" in r.output



@pytest.mark.parametrize("lang,kind,policy", [("cs", "závod", "vyčerpat se"), ("en", "race", "exhaust")])
def test_a_step_reports_heading_names_its_kind_and_policy_in_the_runs_language(lang, kind, policy):
    race = str(Path(__file__).parents[2] / "scenarios" / "techan-cuna-10-8-obe.yaml")
    r = runner.invoke(odds_app, ["file", race, "pereje", "--choose", "exhaust", "--lang", lang])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0].endswith(f"plavba peřejemi ({kind}), {'volby' if lang == 'cs' else 'choices'}: {policy}")


def test_the_czech_step_report_keeps_names_in_the_nominative(tmp_path):
    """Pairs read `A ✗ B`, never `A proti B` with B left in the nominative (docs/i18n.md)."""
    text = (Path(__file__).parents[2] / "scenarios" / "hanus-utek.yaml").read_text(encoding="utf-8")
    opened = tmp_path / "utek.yaml"
    opened.write_text(text.replace("label: útěk, pool: telo, roll: 10", "label: útěk, bonus_from: none, pool: telo")
                      .replace("pool: telo, roll: 13", "pool: telo"), encoding="utf-8")
    r = runner.invoke(odds_app, ["file", str(opened), "utek", "--lang", "cs"])
    assert r.exit_code == 0, r.output
    assert "Mistr Hanuš ✗ Nejstarší zlobr:" in r.output and " proti " not in r.output
    assert "Koho akce zasáhla:" in r.output


# The same step as benchmarks/bench_odds.py; TIE is filled in per test.
CONTEST4 = (Path(__file__).parents[1] / "data" / "ctyri-ve-stretu.yaml").read_text(encoding="utf-8").replace(
    "tie: actor", "tie: TIE")


def _brute_contest(loaded, choose):
    """Brute force over every face of the open dice: the step resolved with scripted dice each
    time, outcomes counted (no classes, no checkpoint: the whole scenario through `resolve`)."""
    from drd_cli.api import setup_rules
    from drd_cli.dice import ScriptedDice
    from drd_cli.engine.hooks import Hooks
    from drd_cli.engine.run import resolve

    setup = setup_rules(loaded, **RULES)
    hooks = Hooks(setup.pm, setup.profile.enabled)
    pairs, success, ohr = {}, {}, {}
    n = 0
    # Only the kept sum matters to the engine, so each sum is tried once, weighted by its faces.
    sums = {s: sum(1 for x in D for y in D if x + y == s) for s in range(2, 13)}
    for combo in product(sums, repeat=3):
        w = 1
        for s in combo:
            w *= sums[s]
        faces = []
        for s in combo:
            faces += [min(6, s - 1), s - min(6, s - 1)]
        res = resolve(loaded.scenario, setup.profile, ScriptedDice(faces), hooks, choose=choose)
        rec = res["steps"][0]
        n += w
        for p in rec["pairs"]:
            key = f"{p['actor']} vs {p['counter']}"
            pairs.setdefault(key, {}).setdefault(p["winner"], 0)
            pairs[key][p["winner"]] += w
        for pid, a in rec["actions"].items():
            success[pid] = success.get(pid, 0) + (w if a["success"] else 0)
        for pid, f in res["final"].items():
            ohr.setdefault(pid, {}).setdefault(f["ohrozeni"], 0)
            ohr[pid][f["ohrozeni"]] += w
    frac = lambda d: {k: Fraction(v, n) for k, v in d.items()}  # noqa: E731
    return ({k: frac(v) for k, v in pairs.items()}, frac(success),
            {k: dict(sorted(frac(v).items())) for k, v in ohr.items()})


@pytest.mark.parametrize("tie,choose", [("actor", "accept"), ("counter", "exhaust")])
def test_step_odds_contest_equals_brute_force(tmp_path, tie, choose):
    """R-CONT, R-ORDER, CS-MULTI-3/4: a contest with 3 open rollers (Dan's roll given) gives
    exactly the brute-force distribution, though only a few dozen classes are resolved."""
    from drd_cli.simulate import _load

    p = tmp_path / "c3.yaml"
    p.write_text(CONTEST4.replace("TIE", tie).replace("kind: protect,", "kind: protect, roll: 8,"), encoding="utf-8")
    loaded = _load(str(p))
    r = odds.step_odds(loaded, "boj", choose, **RULES)
    pairs, success, ohr = _brute_contest(loaded, choose)
    assert r["combinations"] == 36 ** 3
    assert r["pairs"] == pairs and r["success"] == success
    assert {k: dict(v) for k, v in r["ohrozeni"].items()} == ohr
    assert r["resolutions"] < 200 and r["dropped"] == 0


def test_step_odds_contest_4_rollers(tmp_path):
    """4 open rollers: 36^4 combinations, each pair's marginal is the plain R-CONT pair odds,
    every distribution sums to 1, and a few dozen resolutions suffice."""
    from drd_cli.simulate import _load

    p = tmp_path / "c4.yaml"
    p.write_text(CONTEST4.replace("TIE", "actor"), encoding="utf-8")
    r = odds.step_odds(_load(str(p)), "boj", "accept", **RULES)
    assert r["combinations"] == 36 ** 4 and len(r["open_rolls"]) == 4
    assert r["pairs"]["a vs b"]["a"] == odds.contest_odds(2, 1, "actor")["win"]
    assert r["pairs"]["a vs c"]["a"] == odds.contest_odds(2, 2, "actor")["win"]
    assert r["pairs"]["a vs d"]["a"] == odds.contest_odds(2, 0, "actor")["win"]
    assert all(sum(d.values()) == 1 for d in r["ohrozeni"].values())
    assert r["resolutions"] < 200


def test_step_odds_reroll_conditions_on_a_non_tie(tmp_path):
    """R-CONT tie: reroll — one pair re-rolled until it differs equals win/(win+lose)."""
    from drd_cli.simulate import _load

    p = tmp_path / "c1.yaml"
    p.write_text(CONTEST4.replace("TIE", "reroll").replace(
        "            - {actor: c, kind: harm, pool: duse, effect: {ohrozeni: 1}}\n"
        "            - {actor: d, kind: protect, pool: telo, effect: {ohrozeni: 1}, obstacle: {condition: spadl}}\n",
        "").replace("targets: [b, d]", "targets: [b]").replace("manoeuvres: [rozsahle], ", ""),
        encoding="utf-8")
    r = odds.step_odds(_load(str(p)), "boj", "accept", fast_method=False, **RULES)
    exact = odds.contest_odds(2, 1, "reroll")["win"]
    # The class method: re-rolls deeper than 2 are cut off and the rest renormalised: close.
    assert abs(r["pairs"]["a vs b"]["a"] - exact) < Fraction(1, 100)
    assert r["dropped"] > 0
    # The fast method (odds/fast_reroll.py): exact, the engine's cap of 20 re-rolls included
    # (after 20 tied re-rolls the actor wins), so it exceeds win/(win+lose) by a hair only.
    f = odds.step_odds(_load(str(p)), "boj", "accept", **RULES)
    assert f["method"] == "independent" and f["dropped"] == 0
    assert 0 < f["pairs"]["a vs b"]["a"] - exact < Fraction(1, 10 ** 15)


def test_cli_odds_file_shorthand(tmp_path):
    """`drd odds FILE STEP` is `drd odds file FILE STEP`; an unknown step is exit 2."""
    p = tmp_path / "c4.yaml"
    p.write_text(CONTEST4.replace("TIE", "actor"), encoding="utf-8")
    r = runner.invoke(odds_app, [str(p), "boj", "--json"])
    assert r.exit_code == 0, r.output
    import json

    data = json.loads(r.output)
    assert data["combinations"] == 36 ** 4 and data["pairs"]["a vs b"]
    r = runner.invoke(odds_app, [str(p), "boj"])
    assert r.exit_code == 0 and "Aneta ✗ Bohouš" in r.output and "Ohrožení po kroku" in r.output
    r = runner.invoke(odds_app, [str(p), "nic"])
    assert r.exit_code == 2


TWO_STEPS = """\
format: drd/1
title: příprava a boj
participants:
  a: {name: Aneta, pools: {telo: 9, duse: 5, vliv: 5}, ohrozeni: 1, levels: {valecnik: 2}}
  b: {name: Bohouš, sudba: 9, ohrozeni: 1, charakteristika: 1}
rounds:
  - steps:
      - id: priprava
        test: {actor: a, label: příprava, pool: telo, bonus_from: valecnik, roll: 5}
        choices: {a: exhaust}
      - id: boj
        contest:
          action: {actor: b, label: rána, pool: telo, targets: [a], effect: {ohrozeni: 2}}
          counters:
            - {actor: a, kind: harm, pool: telo, bonus_from: valecnik, effect: {ohrozeni: 1}}
"""


@pytest.mark.parametrize("choose", ["accept", "exhaust"])
def test_step_odds_from_a_checkpoint_equals_whole_resolutions(tmp_path, choose):
    """R-RND-1, R-MAN-3, R-EXH-1: the step is resolved from the state after the earlier step
    (Aneta exhausted: Ohrožení 2) and with the round's bookkeeping (she spent her initiative, so
    she counters from obrana); every sum pair resolved through the whole scenario agrees."""
    from drd_cli.api import setup_rules
    from drd_cli.dice import ScriptedDice
    from drd_cli.engine.hooks import Hooks
    from drd_cli.engine.run import resolve
    from drd_cli.simulate import _load

    p = tmp_path / "two.yaml"
    p.write_text(TWO_STEPS, encoding="utf-8")
    loaded = _load(str(p))
    r = odds.step_odds(loaded, "boj", choose, **RULES)
    setup = setup_rules(loaded, **RULES)
    hooks = Hooks(setup.pm, setup.profile.enabled)
    sums = {s: sum(1 for x in D for y in D if x + y == s) for s in range(2, 13)}
    ohr: dict = {}
    wins: dict = {}
    for sb, sa in product(sums, repeat=2):
        w = Fraction(sums[sb] * sums[sa], 36 * 36)
        faces = [min(6, sb - 1), sb - min(6, sb - 1), min(6, sa - 1), sa - min(6, sa - 1)]
        res = resolve(loaded.scenario, setup.profile, ScriptedDice(faces), hooks, choose=choose)
        step = res["steps"][1]
        assert any(e["rule"] == "R-MAN-3" for e in step["log"])          # from obrana
        ohr[res["final"]["a"]["ohrozeni"]] = ohr.get(res["final"]["a"]["ohrozeni"], 0) + w
        winner = step["pairs"][0]["winner"]
        wins[winner] = wins.get(winner, 0) + w
    assert dict(r["ohrozeni"]["a"]) == dict(sorted(ohr.items()))
    assert dict(r["pairs"]["b vs a"]) == dict(sorted(wins.items()))
    assert min(r["ohrozeni"]["a"]) >= 2     # the earlier exhaustion is in the checkpoint


def test_step_odds_refused_outcomes_are_counted(tmp_path):
    """R-EXH-4: Aneta's written `exhaust` against Bohouš cannot be paid with 0 Tělo at Ohrožení 1:
    whenever she loses the pair the rule refuses the step; that chance is reported as `refused`
    (the R-CONT chance that 2k6+2 loses to 2k6+1), the rest resolves normally."""
    from drd_cli.simulate import _load

    p = tmp_path / "r.yaml"
    p.write_text("""\
format: drd/1
title: nezaplatí
participants:
  a: {name: Aneta, pools: {telo: 0, duse: 5, vliv: 5}, ohrozeni: 1, levels: {valecnik: 2}}
  b: {name: Bohouš, sudba: 9, ohrozeni: 1, charakteristika: 1}
rounds:
  - steps:
      - id: boj
        contest:
          action: {actor: a, label: útok, pool: telo, bonus_from: valecnik, targets: [b], effect: {ohrozeni: 1}}
          counters:
            - {actor: b, kind: harm, pool: telo, effect: {ohrozeni: 1}}
        choices: {a: {b: exhaust}}
""", encoding="utf-8")
    r = odds.step_odds(_load(str(p)), "boj", "accept", **RULES)
    lose = odds.contest_odds(2, 1, "actor")["lose"]
    assert r["refused"] == lose
    assert r["success"]["a"] == 1 - lose
    r2 = runner.invoke(odds_app, [str(p), "boj"])
    assert r2.exit_code == 0 and "Pravidla zakazují" in r2.output
