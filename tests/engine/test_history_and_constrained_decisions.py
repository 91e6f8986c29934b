"""Plugin API 3 in the engine: what the views say has happened (HistoryView, ConflictView), an
exhaustion a rule forbids (drd_may_exhaust), part payments (drd_may_pay `amount`), unknown answer
keys, and further tries of one action in a step type (StepAPI.test spends_initiative=False).

Every plugin here is written as a third-party author would, with the public module only.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from drd_cli.errors import DrdError
from drd_cli.plugin import StepType, StrictModel, hookimpl, scenario_models
from drd_cli.testing import resolve_text

SCENARIO = """
format: drd/1
participants:
  hero: {side: a, pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2, equipment: [stolička]}
  friend: {side: a, pools: {telo: 9, duse: 5, vliv: 9}, ohrozeni: 1}
  ogre: {sudba: 9, ohrozeni: 1}
rounds:
  - steps:
STEPS
"""


def doc(steps: str) -> str:
    return SCENARIO.replace("STEPS", steps)


def plugin(api: int = 3, **hooks) -> object:
    """A plugin object from hook functions, declaring plugin API `api`."""
    info = {"title": f"Pravidlo {api}", "kind": "house rule", "api_version": api}
    hooks["drd_plugin_info"] = lambda: info
    return type("Plugin", (), {name: staticmethod(hookimpl(fn)) for name, fn in hooks.items()})()


FAIL_TWICE = """      - {id: a, test: {actor: hero, pool: telo, roll: 5, manoeuvres: [presne]}, choices: {hero: exhaust}}
  - steps:
      - {id: b, contest: {action: {actor: ogre, pool: telo, targets: [hero], roll: 11, effect: {jizva: šrám}},
         counters: [{actor: hero, kind: harm, pool: telo, roll: 4}]}, choices: {hero: accept}}
  - steps:
      - {id: c, test: {actor: friend, pool: telo, roll: 5}, choices: {friend: {exhaust: true, jizva: {name: pád, gain: 2}}}}
  - steps:
      - {id: d, test: {actor: friend, pool: duse, roll: 5}, choices: {friend: {exhaust: true, sacrifice: stolička}}}
"""

# --------------------------------------------------------------------------- history

def test_the_history_counts_payments_exhaustions_gains_and_accepted_consequences():
    seen = {}

    def spy(payer, exhaustion, history, conflict):
        seen[(conflict.step, payer.id)] = (history, conflict.history("hero"), conflict.start)

    text = doc(FAIL_TWICE).replace("sacrifice: stolička", "jizva: {name: druhý, gain: 1}")
    resolve_text(text, plugins={"spy": plugin(drd_may_exhaust=spy)})
    first, _hero, start = seen[("a", "hero")]
    assert first.start == {"telo": 9, "duse": 9, "vliv": 9} and first.start_ohrozeni == 2
    assert start["ogre"] == {"sudba": 9}
    assert first.step.paid == {"telo": 1} and first.conflict.exhausted == 0     # přesně paid, before exhausting
    later, hero, _start = seen[("c", "friend")]
    assert hero.conflict.paid == {"telo": 3} and hero.conflict.exhausted == 2 and hero.conflict.exhaustions == 1
    assert hero.conflict.accepted == 1 and hero.conflict.jizvy == ("šrám",) and hero.step.paid == {}
    assert later.conflict.gained == {} and later.step.exhaustions == 0
    last, _hero, _start = seen[("d", "friend")]
    assert last.conflict.gained == {"telo": 2} and last.conflict.jizvy == ("pád",)
    assert last.conflict.exhausted == 1 and last.conflict.paid_points == 1


def test_the_history_names_items_given_up():
    seen = []
    hook = plugin(drd_may_exhaust=lambda payer, history: seen.append(history.conflict.items))
    resolve_text(doc("      - {test: {actor: hero, pool: duse, roll: 5}, choices: {hero: {exhaust: true, "
                     "sacrifice: stolička}}}\n      - {test: {actor: friend, pool: duse, roll: 5}, "
                     "choices: {friend: exhaust}}\n"), plugins={"spy": hook})
    assert seen == [(), ()]          # asked before paying; the friend gave nothing up
    got = []
    resolve_text(doc("      - {test: {actor: hero, pool: duse, roll: 5}, choices: {hero: {exhaust: true, "
                     "sacrifice: stolička}}}\n  - steps:\n      - {test: {actor: hero, pool: duse, roll: 5}, "
                     "choices: {hero: exhaust}}\n"),
                 plugins={"spy": plugin(drd_may_exhaust=lambda history: got.append(history.conflict.items))})
    assert got == [(), ("stolička",)]


def test_exhaustion_cost_hooks_may_read_the_conflict():
    def cheaper_later(exhaustion, entry, conflict):
        return -1 if conflict.history(exhaustion.payer.id).conflict.exhaustions else None

    r = resolve_text(doc("      - {test: {actor: hero, pool: telo, roll: 5}, choices: {hero: exhaust}}\n  - steps:\n"
                         "      - {test: {actor: hero, pool: telo, roll: 5}, choices: {hero: exhaust}}\n"),
                     plugins={"later": plugin(drd_exhaustion_cost=cheaper_later)})
    assert [s["exhaustions"][0]["cost"] for s in r["steps"]] == [2, 2]        # 2, then 3 − 1


# --------------------------------------------------------------------------- drd_may_exhaust

def never_twice(payer, history):
    if history.conflict.exhaustions:
        return {"allow": False, "note": "jen jednou za konflikt", "rule": "R-EXH-1"}
    return None


TWICE = ("      - {test: {actor: hero, pool: telo, roll: 5}, choices: {hero: exhaust}}\n  - steps:\n"
         "      - {id: druha, test: {actor: hero, pool: telo, roll: 5}, choices: {hero: exhaust}}\n")


def test_a_written_exhaust_a_rule_forbids_is_exit_1_naming_the_plugin_and_its_reason():
    with pytest.raises(DrdError) as err:
        resolve_text(doc(TWICE), plugins={"jednou": plugin(drd_may_exhaust=never_twice)}, lang="en")
    assert err.value.exit_code == 1
    text = str(err.value)
    assert "Pravidlo 3" in text and "jen jednou za konflikt" in text and "R-EXH-1" in text


def test_a_policy_accepts_what_a_rule_forbids():
    text = doc(TWICE.replace(", choices: {hero: exhaust}", ""))
    r = resolve_text(text, plugins={"jednou": plugin(drd_may_exhaust=never_twice)}, choose="exhaust", lang="en")
    assert [len(s["exhaustions"]) for s in r["steps"]] == [1, 0]
    assert any("may not exhaust here" in line["text"] for line in r["steps"][1]["log"])
    assert "jednou" in r["rules"]["enabled"]


def test_the_steps_decisions_say_a_forbidden_policy_exhaust_became_accept():
    text = doc(TWICE.replace(", choices: {hero: exhaust}", ""))
    r = resolve_text(text, plugins={"jednou": plugin(drd_may_exhaust=never_twice)}, choose="exhaust", lang="en")
    first, second = (s["decisions"] for s in r["steps"])
    assert first == [{"who": "hero", "vs": "test", "answer": "exhaust", "decided_by": "default"}]
    assert second == [{"who": "hero", "vs": "test", "answer": "accept", "decided_by": "default",
                       "forbidden_by": "jednou"}]
    defaulted = [line["text"] for line in r["steps"][1]["log"] if "exhaust" in line["text"] or "accept" in line["text"]]
    assert not any(": exhaust" in line for line in defaulted), defaulted


def test_no_objection_changes_nothing():
    calm = plugin(drd_may_exhaust=lambda payer: None)
    with_it, without = resolve_text(doc(TWICE), plugins={"klid": calm}), resolve_text(doc(TWICE))
    assert (with_it["steps"], with_it["final"], with_it["rules"]) == (without["steps"], without["final"], without["rules"])


def test_a_may_exhaust_answer_of_another_type_is_the_plugins_error():
    with pytest.raises(DrdError) as err:
        resolve_text(doc(TWICE), plugins={"spatny": plugin(drd_may_exhaust=lambda payer: "ne")})
    assert err.value.exit_code == 1 and "drd_may_exhaust" in str(err.value)


# --------------------------------------------------------------------------- part payments

PAID = "      - {test: {actor: hero, pool: telo, roll: 5}, choices: {hero: {exhaust: true, paid_by: friend}}}\n"


def purse(amount, api=3):
    return plugin(api, drd_may_pay=lambda cost: {"pool": "duse", "amount": amount})


def test_a_part_payment_lists_every_payer_and_leaves_the_rest_to_the_beneficiary():
    r = resolve_text(doc(PAID), plugins={"mesec": purse(1)})
    [entry] = r["steps"][0]["exhaustions"]
    assert entry["paid_by"] == {"id": "friend", "pool": "duse", "amount": 1}
    assert entry["payers"] == [{"id": "hero", "pool": "telo", "amount": 1}, {"id": "friend", "pool": "duse", "amount": 1}]
    assert (r["final"]["hero"]["telo"], r["final"]["friend"]["duse"], r["final"]["hero"]["ohrozeni"]) == (8, 4, 3)


def test_an_amount_of_the_whole_cost_is_a_full_payment():
    r = resolve_text(doc(PAID), plugins={"mesec": purse(7)})
    entry = r["steps"][0]["exhaustions"][0]
    assert entry["paid_by"] == {"id": "friend", "pool": "duse"} and "payers" not in entry
    assert (r["final"]["hero"]["telo"], r["final"]["friend"]["duse"]) == (9, 3)


def test_each_payer_must_afford_its_part():
    with pytest.raises(DrdError) as err:
        resolve_text(doc(PAID).replace("telo: 9, duse: 9", "telo: 0, duse: 9"), plugins={"mesec": purse(1)})
    assert err.value.exit_code == 1 and "R-EXH-4" in str(err.value)


def test_a_part_payment_of_an_activation():
    cost = plugin(drd_activation=lambda ability: {"cost": 3, "pool": "duse"} if ability == "kouzlo" else None)
    text = doc("      - {test: {actor: hero, pool: telo, roll: 9, activate: [{id: kouzlo, paid_by: friend}]}}\n")
    r = resolve_text(text.replace("equipment: [stolička]", "equipment: [stolička], abilities: [kouzlo]"),
                     plugins={"kouzlo": cost, "mesec": purse(2)})
    assert r["steps"][0]["activations"][0]["payers"] == [{"id": "hero", "pool": "duse", "amount": 1},
                                                         {"id": "friend", "pool": "duse", "amount": 2}]
    assert (r["final"]["hero"]["duse"], r["final"]["friend"]["duse"]) == (8, 3)


def test_an_api_2_plugins_amount_is_ignored_with_a_warning(capsys):
    r = resolve_text(doc(PAID), plugins={"stary": purse(1, api=2)})
    assert r["steps"][0]["exhaustions"][0]["paid_by"] == {"id": "friend", "pool": "duse"}   # all of it, as before
    assert r["final"]["friend"]["duse"] == 3
    resolve_text(doc(PAID), plugins={"stary": purse(1, api=2)})
    warned = capsys.readouterr().err
    assert "'amount'" in warned and "drd_may_pay" in warned and "stary" in warned


# --------------------------------------------------------------------------- unknown answer keys

def test_an_unknown_answer_key_is_the_plugins_error_under_api_3():
    typo = plugin(drd_exhaustion_cost=lambda entry: {"amount": -1, "reason": "levněji"})
    with pytest.raises(DrdError) as err:
        resolve_text(doc(TWICE), plugins={"preklep": typo}, lang="en")
    assert err.value.exit_code == 1
    assert "preklep" in str(err.value) and "drd_exhaustion_cost" in str(err.value) and "'reason'" in str(err.value)


def test_an_unknown_answer_key_is_warned_once_for_an_older_plugin(capsys):
    typo = plugin(1, drd_exhaustion_cost=lambda entry: {"amount": -1, "reason": "levněji"})
    r = resolve_text(doc(TWICE), plugins={"preklep": typo}, lang="en")
    assert [s["exhaustions"][0]["cost"] for s in r["steps"]] == [1, 2]       # the amount still counts
    assert capsys.readouterr().err.count("'reason'") == 1


# --------------------------------------------------------------------------- several rolls of one action

class Tries(StrictModel):
    actor: str
    first: bool = True


def resolve_tries(engine, spec, choices, path):
    for i, roll in enumerate((5, 9)):
        test = scenario_models.TestSpec.model_construct(actor=spec.actor, pool="vliv", roll=roll)
        engine.test(test, choices, path, spends_initiative=spec.first and i == 0)


TRIES = plugin(drd_step_types=lambda: {"pokusy": StepType(model=Tries, resolve=resolve_tries)})


def test_further_tries_spend_no_initiative():
    r = resolve_text(doc("      - {pokusy: {actor: hero}}\n"), plugins={"pokusy": TRIES})
    assert r["steps"][0]["actions"]["hero"]["success"] is True


def test_a_further_try_without_the_first_is_refused_under_r_rnd_1():
    with pytest.raises(DrdError) as err:
        resolve_text(doc("      - {pokusy: {actor: hero, first: false}}\n"), plugins={"pokusy": TRIES})
    assert err.value.exit_code == 1 and "R-RND-1" in str(err.value)


def test_the_first_try_still_spends_the_initiative():
    with pytest.raises(DrdError) as err:
        resolve_text(doc("      - {test: {actor: hero, pool: telo, roll: 9}}\n      - {pokusy: {actor: hero}}\n"),
                     plugins={"pokusy": TRIES})
    assert err.value.exit_code == 1 and "R-RND-1" in str(err.value)


def test_the_transcript_and_explain_name_every_payer_of_a_part_payment():
    from drd_cli.i18n import using
    from drd_cli.play.explain import explain_exhaustion
    from drd_cli.render.terminal import render_text

    r = resolve_text(doc(PAID), plugins={"mesec": purse(1)}, lang="en")
    with using("en"):
        text = render_text(r)
        lines = explain_exhaustion(r["steps"][0]["exhaustions"][0], lambda pid: r["participants"][pid]["name"])
    assert "friend pays 1 Duše of it" in text
    assert "  paid by: hero 1 Tělo, friend 1 Duše (R-ABIL-SHARE)" in lines


@settings(max_examples=25, deadline=None)
@given(amount=st.integers(0, 8), ohrozeni=st.integers(0, 5))
def test_a_part_payment_takes_exactly_the_cost_from_its_payers(amount, ohrozeni):
    text = doc(PAID).replace("ohrozeni: 2, equip", f"ohrozeni: {ohrozeni}, equip")
    r = resolve_text(text, plugins={"mesec": purse(amount)})
    [entry] = r["steps"][0]["exhaustions"]
    taken = (9 - r["final"]["hero"]["telo"]) + (5 - r["final"]["friend"]["duse"])
    assert taken == entry["cost"] == ohrozeni
    if "payers" in entry:
        assert sum(p["amount"] for p in entry["payers"]) == entry["cost"]
        assert entry["paid_by"]["amount"] == min(amount, entry["cost"])
