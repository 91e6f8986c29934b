"""Property tests: random small contests, tests and races keep the engine's invariants.

* Ohrožení, Výhody, pools and Sudba never go negative;
* every exhaustion raises its payer's Ohrožení by exactly 1, and its cost follows R-EXH-1/3 and
  CS-FOR-2 (recomputed from the payer's Ohrožení before it, the protected's armour and the
  winner's mocně);
* the same seed gives the same result;
* the engine raises nothing but DrdError subclasses; a --choose policy never forces an
  unaffordable exhaustion (R-EXH-4 only for written answers).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))

from drd_cli.dice import SeededDice  # noqa: E402
from drd_cli.errors import DrdError, RuleViolation  # noqa: E402

from drdtest import run, scenario  # noqa: E402

IDS = ["a", "b", "c", "d", "e"]
POOLS = ["telo", "duse", "vliv"]
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def participant(draw):
    p: dict = {"ohrozeni": draw(st.integers(0, 5)), "vyhody": draw(st.integers(0, 2)),
               "armour": draw(st.integers(0, 2))}
    if draw(st.booleans()):
        p["pools"] = {k: draw(st.integers(0, 7)) for k in POOLS}
    else:
        p["sudba"] = draw(st.integers(0, 12))
    if draw(st.booleans()):
        p["equipment"] = [{"name": "zbroj", "armour": draw(st.integers(0, 2))}, "meč"]
    return p


def roll_keys(draw) -> dict:
    """A given total, given dice, or nothing (seeded); heroes then say `bonus_from: none`."""
    how = draw(st.sampled_from(["roll", "roll", "dice", "seeded"]))
    if how == "roll":
        # Totals up to 15 stand for bonuses the generated participants do not model: kept on purpose.
        return {"roll": draw(st.integers(2, 15)), "roll_beyond_dice": True}
    out = {"bonus_from": "none"}
    if how == "dice":
        out["dice"] = [draw(st.integers(1, 6)), draw(st.integers(1, 6))]
    return out


def effect(draw) -> dict:
    e = {"ohrozeni": draw(st.integers(-2, 3))}
    if draw(st.booleans()):
        e["vyhody"] = draw(st.integers(-2, 2))
    return e


def manoeuvres(draw) -> list:
    return draw(st.lists(st.sampled_from(["mocne", "lstive", "presne"]), max_size=2))


ANSWERS = st.sampled_from(["accept", "exhaust", "exhaust", "deny"])


@st.composite
def contest_step(draw, ids):
    actor = draw(st.sampled_from(ids))
    others = [i for i in ids if i != actor]
    counters_by = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
    targets = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
    man = manoeuvres(draw)
    if len(targets) > 1:
        man.append("rozsahle")
    action = {"actor": actor, "pool": draw(st.sampled_from(POOLS)), "targets": targets, "manoeuvres": man,
              "effect": effect(draw), **roll_keys(draw)}
    if draw(st.booleans()):
        action["self_effect"] = effect(draw)
    if draw(st.booleans()):
        action["softened"] = {"vyhody": -1}
    if draw(st.integers(0, 3)) == 0:
        action["obstacle"] = {"jizva": "Pád"}
    counters = []
    for pid in counters_by:
        kind = draw(st.sampled_from(["harm", "protect"])) if pid in targets else "harm"
        c = {"actor": pid, "kind": kind, "pool": draw(st.sampled_from(POOLS)), "manoeuvres": manoeuvres(draw),
             **roll_keys(draw)}
        if kind == "harm" or draw(st.booleans()):
            c["effect"] = effect(draw)
        if draw(st.booleans()):
            c["self_effect"] = effect(draw)
        counters.append(c)
    involved = [actor] + counters_by
    choices = {}
    for pid in involved:
        if draw(st.booleans()):
            choices[pid] = draw(ANSWERS)
        elif draw(st.booleans()):
            vs = draw(st.sampled_from(["test"] + [x for x in involved if x != pid]))
            choices[pid] = {vs: draw(ANSWERS)}
    if targets and counters_by and draw(st.booleans()):
        payer = draw(st.sampled_from(counters_by))        # CS-FOR-2: exhausting for several
        choices[payer] = {actor: {"exhaust": targets[:3]}}
    return {"contest": {"action": action, "counters": counters}, "choices": choices}


@st.composite
def single_test_step(draw, ids):
    actors = draw(st.lists(st.sampled_from(ids), unique=True, min_size=1, max_size=3))
    spec = {"actors": actors, "mode": draw(st.sampled_from(["individual", "any", "all"])),
            "pool": draw(st.sampled_from(POOLS)), "bonus_from": "none", "manoeuvres": manoeuvres(draw),
            "failure": effect(draw), "self_effect": effect(draw)}
    if draw(st.booleans()):
        spec["rolls"] = {a: draw(st.integers(2, 14)) for a in actors}
        spec["roll_beyond_dice"] = True          # 13–14: bonuses the generated file does not model
    choices = {a: draw(ANSWERS) for a in actors if draw(st.booleans())}
    return {"test": spec, "choices": choices}


@st.composite
def race_step(draw, ids):
    actors = draw(st.lists(st.sampled_from(ids), unique=True, min_size=2, max_size=3))
    spec = {"actors": actors, "pool": draw(st.sampled_from(POOLS)), "bonus_from": "none",
            "effect": {"condition": "pozadu"}}
    if draw(st.booleans()):
        spec["rolls"] = {a: draw(st.integers(2, 14)) for a in actors}
        spec["roll_beyond_dice"] = True          # 13–14: bonuses the generated file does not model
    if draw(st.booleans()):
        spec["obstacle"] = {"jizva": "Potlučený"}
    choices = {}
    for a in actors:
        if draw(st.booleans()):
            choices[a] = draw(st.sampled_from(["accept", "exhaust"]))
        elif draw(st.booleans()):
            choices[a] = {draw(st.sampled_from(["test"] + [x for x in actors if x != a])): "exhaust"}
    return {"race": spec, "choices": choices}


@st.composite
def scenarios(draw, kinds=("contest", "test", "race"), with_choices: bool = True):
    n = draw(st.integers(2, 5))
    ids = IDS[:n]
    parts = {pid: draw(participant()) for pid in ids}
    rounds = []
    for i in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(kinds))
        strat = {"contest": contest_step, "test": single_test_step, "race": race_step}[kind]
        s = draw(strat(ids))
        s["id"] = f"s{i}"
        if not with_choices:
            s["choices"] = {}
        rounds.append({"steps": [s]})
    return {"format": "drd/1", "title": "prop", "seed": draw(st.integers(1, 10**6)),
            "participants": parts, "rounds": rounds}


# --------------------------------------------------------------------------- the invariants

def resolve_or_error(doc: dict, **kw):
    """The result, or None when the engine refused the file with a DrdError (anything else fails)."""
    try:
        return run(doc, **kw)
    except DrdError as exc:
        assert exc.exit_code in (1, 2)
        return None


def check_non_negative(result: dict) -> None:
    for pid, f in result["final"].items():
        for key in ("telo", "duse", "vliv", "sudba", "ohrozeni", "vyhody"):
            if key in f:
                assert f[key] >= 0, (pid, key, f)


def armour_of(doc: dict, pid: str) -> int:
    p = doc["participants"][pid]
    items = sum(e.get("armour", 0) for e in p.get("equipment", []) if isinstance(e, dict))
    return p.get("armour", 0) + items


def sides_of(stepdoc: dict) -> dict:
    """pid → (mocně count, threatened pool) of each action or counter of a contest step."""
    c = stepdoc.get("contest")
    if not c:
        return {}
    out = {}
    for side in [c["action"]] + c["counters"]:
        out[side["actor"]] = (side.get("manoeuvres", []).count("mocne"), side.get("pool", "telo"))
    return out


def expected_cost(doc: dict, stepdoc: dict, kind: str, e: dict) -> int:
    ohr = e["ohrozeni"][0]
    if e["vs"] == "test" or kind in ("test", "race"):
        return ohr                      # tests, races, the 9 in a contest: no armour, no mocně
    mocne, pool = sides_of(stepdoc)[e["vs"]]
    if not e["protected"]:
        return max(0, ohr + mocne)
    return sum(max(0, ohr - (armour_of(doc, p) if pool == "telo" else 0) + mocne) for p in e["protected"])


def check_exhaustions(doc: dict, result: dict) -> None:
    steps = {s["id"]: s for r in doc["rounds"] for s in r["steps"]}
    for s in result["steps"]:
        for e in s["exhaustions"]:
            before, after = e["ohrozeni"]
            assert after == before + 1, e
            assert e["cost"] >= 0, e
            assert e["cost"] == expected_cost(doc, steps[s["id"]], s["kind"], e), (s["kind"], e)
            payer = doc["participants"][e["by"]]
            if "sudba" in payer:
                assert e["pool"] == "sudba"
            elif s["kind"] == "contest" and e["vs"] != "test":
                assert e["pool"] == sides_of(steps[s["id"]])[e["vs"]][1]


@SETTINGS
@given(scenarios())
def test_invariants_hold_for_random_conflicts(doc):
    result = resolve_or_error(doc)
    if result is None:
        return
    check_non_negative(result)
    check_exhaustions(doc, result)


@SETTINGS
@given(scenarios(), st.sampled_from(["accept", "exhaust"]))
def test_same_seed_same_result(doc, choose):
    try:
        first = run(doc, dice=SeededDice(doc["seed"]), choose=choose)
    except DrdError as exc:
        again = None
        try:
            run(doc, dice=SeededDice(doc["seed"]), choose=choose)
        except DrdError as exc2:
            again = exc2
        assert again is not None and again.format() == exc.format()
        return
    second = run(doc, dice=SeededDice(doc["seed"]), choose=choose)
    assert json.dumps(first, sort_keys=True, ensure_ascii=False) == json.dumps(second, sort_keys=True,
                                                                               ensure_ascii=False)


@SETTINGS
@given(scenarios(with_choices=False))
def test_policy_exhaust_never_forces_an_unaffordable_exhaustion(doc):
    try:
        result = run(doc, choose="exhaust")
    except RuleViolation as exc:
        assert all(p.rule != "R-EXH-4" for p in exc.problems), exc.format()
        return
    except DrdError:
        return
    check_non_negative(result)
    check_exhaustions(doc, result)


@SETTINGS
@given(scenarios(kinds=("contest",)))
def test_written_unaffordable_exhaustion_is_refused_not_paid(doc):
    """Give the loser pools too small to pay: the engine refuses (exit 1) or the costs were payable."""
    for p in doc["participants"].values():
        p["ohrozeni"] = max(p["ohrozeni"], 3)
        if "pools" in p:
            p["pools"] = {k: min(v, 1) for k, v in p["pools"].items()}
        else:
            p["sudba"] = min(p["sudba"], 1)
    result = resolve_or_error(doc)
    if result is not None:
        check_non_negative(result)
        check_exhaustions(doc, result)


@st.composite
def for_several(draw):
    """A winning action against several targets; one losing counter-actor exhausts for several (CS-FOR-2)."""
    n = draw(st.integers(3, 5))
    ids = IDS[:n]
    parts = {}
    for pid in ids:
        p = {"ohrozeni": draw(st.integers(0, 5)), "armour": draw(st.integers(0, 3))}
        if draw(st.booleans()):
            p["pools"] = {k: 40 for k in POOLS}
        else:
            p["sudba"] = 40
        parts[pid] = p
    targets = ids[1:]
    payer = draw(st.sampled_from(targets))
    protected = draw(st.lists(st.sampled_from(targets), unique=True, min_size=1))
    mocne = draw(st.integers(0, 2))
    pool = draw(st.sampled_from(POOLS))
    action = {"actor": "a", "pool": pool, "targets": targets, "manoeuvres": ["rozsahle"] + ["mocne"] * mocne,
              "roll": draw(st.integers(9, 15)), "roll_beyond_dice": True, "effect": {"ohrozeni": 1}}
    counter = {"actor": payer, "roll": draw(st.integers(2, 8))}
    doc = {"format": "drd/1", "participants": parts,
           "rounds": [{"steps": [{"id": "s", "contest": {"action": action, "counters": [counter]},
                                  "choices": {payer: {"a": {"exhaust": protected}}}}]}]}
    return doc, payer, protected, mocne, pool


@SETTINGS
@given(for_several())
def test_CS_FOR_2_cost_is_summed_per_protected_and_ohrozeni_rises_once(case):
    doc, payer, protected, mocne, pool = case
    result = run(doc)
    [e] = result["steps"][0]["exhaustions"]
    ohr = doc["participants"][payer]["ohrozeni"]
    armour = {p: doc["participants"][p]["armour"] if pool == "telo" else 0 for p in protected}
    assert e["ohrozeni"] == [ohr, ohr + 1]
    assert sorted(e["protected"]) == sorted(protected)
    assert e["cost"] == sum(max(0, ohr - armour[p] + mocne) for p in protected)
    for p in protected:
        if p != payer:
            assert result["final"][p]["ohrozeni"] == doc["participants"][p]["ohrozeni"]
    check_non_negative(result)


@settings(max_examples=50, deadline=None)
@given(scenarios())
def test_generated_scenarios_are_valid_models(doc):
    """The generator produces files the strict models accept (otherwise the properties test nothing)."""
    scenario(doc)
