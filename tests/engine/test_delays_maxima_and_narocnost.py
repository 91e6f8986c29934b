"""Spec gaps closed by the conformance audit (docs/spec-audit.md): declared delays (SCENARIO-FORMAT §3,
R-RND-1), pool maxima (RULES §1.1, R-EXH-4), equipment `per: conflict` (R-MAN-2) and the náročnost
of a výzva (R-NAR, R-CHAL, SCENARIO-FORMAT §4.6)."""

import pytest
from drdtest import doc, exhaustions, final, rules_logged, run, step, violation

from drd_cli.errors import RuleViolation, ScenarioError
from drd_cli.testing import resolve_text

TWO = """
a: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2}
b: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 1}
"""

CONTEST = """
- contest:
    action: {actor: a, pool: telo, targets: [b], roll: 8, effect: {ohrozeni: 1}}
    counters: [{actor: b, from: delayed, kind: protect, roll: 10}]
"""


# --------------------------------------------------------------------------- declared delays

def test_R_RND_1_counter_from_delayed_needs_the_rounds_delay():
    """SCENARIO-FORMAT §3: `delay:` is declared and checked; `from: delayed` without it is exit 1."""
    err = violation(doc(TWO, CONTEST), "R-RND-1")
    assert err.problems[0].path[-1] == "from"
    r = run(doc(TWO, "", rounds="- delay: [b]\n  steps:\n" + "\n".join("    " + x for x in CONTEST.splitlines())))
    assert step(r)["actions"]["b"]["success"] is True and final(r, "b")["ohrozeni"] == 1


def test_R_RND_1_undeclared_delay_points_at_file_and_line():
    text = doc(TWO, CONTEST)
    with pytest.raises(RuleViolation) as info:
        resolve_text(text)
    problem = info.value.problems[0]
    assert problem.rule == "R-RND-1" and info.value.exit_code == 1
    line = text.splitlines()[problem.location.line - 1]
    assert "from: delayed" in line and problem.location.file == "<test>.yaml"


def test_R_RND_1_main_action_from_delayed_needs_the_delay_and_still_spends_the_initiative():
    """A delayed action is the actor's one action of that round: a second one is exit 1."""
    violation(doc(TWO, "- test: {actor: a, from: delayed, roll: 9}"), "R-RND-1")
    ok = run(doc(TWO, "", rounds="""
        - delay: [a]
          steps:
            - test: {actor: a, from: delayed, roll: 9}
        """))
    assert step(ok)["actions"]["a"]["success"] is True
    assert any("odložen" in e["text"] for e in step(ok)["log"])
    violation(doc(TWO, "", rounds="""
        - delay: [a]
          steps:
            - test: {actor: a, from: delayed, roll: 9}
            - test: {actor: a, roll: 9}
        """), "R-RND-1")


def test_R_RND_1_declared_delay_is_the_default_source_of_a_counter():
    r = run(doc(TWO, "", rounds="""
        - delay: [b]
          steps:
            - contest:
                action: {actor: a, pool: telo, targets: [b], roll: 8, effect: {ohrozeni: 1}}
                counters: [{actor: b, kind: protect, roll: 10}]
        """))
    assert any(e["rule"] == "R-RND-1" and "odložené" in e["text"] for e in step(r)["log"])
    assert step(r)["manoeuvres"] == []          # not from defence: no obrana was needed


def test_R_RND_1_delay_is_checked_in_a_vyzva_counter_and_a_declare():
    steps = """
        - challenge:
            name: kamení
            affects: [a, b]
            effect: {ohrozeni: 1}
            counters: [{actor: b, from: delayed, kind: protect, roll: 10}]
        """
    violation(doc(TWO, steps), "R-RND-1")
    violation(doc(TWO, "- declare: {actor: a, from: delayed, self_effect: {vyhody: 1}}"), "R-RND-1")


def test_R_RND_1_a_spent_initiative_cannot_be_delayed():
    violation(doc(TWO, "", rounds="""
        - spent: [a]
          delay: [a]
          steps: []
        """), "R-RND-1")


def test_R_RND_1_delay_lasts_one_round():
    violation(doc(TWO, "", rounds="""
        - delay: [b]
          steps: []
        - steps:
            - contest:
                action: {actor: a, pool: telo, targets: [b], roll: 8, effect: {ohrozeni: 1}}
                counters: [{actor: b, from: delayed, kind: protect, roll: 10}]
        """), "R-RND-1")


# --------------------------------------------------------------------------- pool maxima

JIZVA_EXHAUST = """
- contest:
    action: {actor: b, pool: telo, targets: [a], roll: 10, effect: {ohrozeni: 1}}
    counters: [{actor: a, kind: harm, pool: telo, roll: 5}]
  choices: {a: {jizva: {name: Zlomené žebro, gain: 5}}}
"""


def test_pool_maximum_caps_the_surplus_of_a_jizva_after_paying():
    """RULES §1.1 (optional maximum) + R-EXH-4: the Jizva's 5 pays the cost 2; the surplus 3 would
    lift Tělo to 9, over the maximum 6, so it stops at 6. Without a maximum it stays 9."""
    capped = "a: {pools: {telo: 6, duse: 6, vliv: 6}, max: {telo: 6}, ohrozeni: 2}\nb: {sudba: 5}"
    r = run(doc(capped, JIZVA_EXHAUST))
    assert exhaustions(r)[0]["cost"] == 2 and final(r, "a")["telo"] == 6
    assert any("maximum" in e["text"] for e in step(r)["log"])
    free = "a: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 2}\nb: {sudba: 5}"
    assert final(run(doc(free, JIZVA_EXHAUST)), "a")["telo"] == 9


def test_pool_maximum_does_not_block_paying_with_a_jizva_at_the_maximum():
    """Hanuš-like: at his maximum, the Jizva's points still pay the exhaustion first."""
    full = "a: {pools: {telo: 1, duse: 6, vliv: 6}, max: {telo: 1}, ohrozeni: 3}\nb: {sudba: 5}"
    r = run(doc(full, JIZVA_EXHAUST.replace("gain: 5", "gain: 3")))
    assert exhaustions(r)[0]["cost"] == 3 and final(r, "a")["telo"] == 1


def test_pool_maximum_only_for_pools_it_names_and_checked_at_the_start():
    only_duse = "a: {pools: {telo: 6, duse: 6, vliv: 6}, max: {duse: 6}, ohrozeni: 2}\nb: {sudba: 5}"
    assert final(run(doc(only_duse, JIZVA_EXHAUST)), "a")["telo"] == 9
    for bad in ("a: {pools: {telo: 7, duse: 6, vliv: 6}, max: {telo: 6}}", "a: {sudba: 5, max: {telo: 6}}"):
        with pytest.raises(ScenarioError) as info:
            resolve_text(doc(bad, "- test: {actor: a, roll: 9}"))
        assert info.value.exit_code == 2 and info.value.problems[0].location.line == 4


# --------------------------------------------------------------------------- per: conflict

def _bow_rounds(per: str) -> str:
    hero = ("a: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {lovec: 1}, equipment: [{name: luk, free: presne, per: %s}]}"
            % per)
    return doc(hero, "", rounds="""
        - steps:
            - test: {actor: a, pool: telo, manoeuvres: [presne], roll: 9}
        - steps:
            - test: {actor: a, pool: telo, manoeuvres: [presne], roll: 9}
        """)


def test_R_MAN_2_item_free_per_round_is_free_again_next_round():
    r = run(_bow_rounds("round"))
    assert [s["manoeuvres"][0]["paid"] for s in r["steps"]] == ["free", "free"]
    assert final(r, "a")["telo"] == 6


def test_R_MAN_2_item_free_per_conflict_is_free_once_in_the_whole_conflict():
    r = run(_bow_rounds("conflict"))
    assert [s["manoeuvres"][0]["paid"] for s in r["steps"]] == ["free", "telo"]
    assert final(r, "a")["telo"] == 5


# --------------------------------------------------------------------------- náročná výzva

def _vyzva(demanding: str, react: str = "delayed", hero: str = "{telo: 6, duse: 6, vliv: 6}", extra: str = "") -> str:
    return doc(f"a: {{pools: {hero}, ohrozeni: 1{extra}}}", f"""
        - challenge: {{name: sráz, label: šplh, affects: [a], pool: telo, effect: {{jizva: Pád}},
                      react: {{a: {react}}}, rolls: {{a: 10}}{demanding}}}
        """)


def test_R_NAR_a_demanding_vyzva_costs_before_the_roll():
    """R-NAR / SCENARIO-FORMAT §4.6: `demanding` of a výzva is paid by whoever undergoes it."""
    assert final(run(_vyzva("")), "a")["telo"] == 6
    r = run(_vyzva(", demanding: true"))
    assert final(r, "a")["telo"] == 5 and "R-NAR" in rules_logged(r)
    assert final(run(_vyzva(", demanding: 2")), "a")["telo"] == 4
    assert final(run(_vyzva(", demanding: true"), params={"narocnost_cost": 2}), "a")["telo"] == 4
    # from defence: obrana 1 and náročnost 1
    assert final(run(_vyzva(", demanding: true", react="obrana")), "a")["telo"] == 4


def test_R_NAR_vyzva_demanding_through_a_condition_and_false_overrides_it():
    cond = ", conditions: [{name: ve zbroji, demanding: [šplh]}]"
    assert final(run(_vyzva("", extra=cond)), "a")["telo"] == 5
    assert final(run(_vyzva(", demanding: false", extra=cond)), "a")["telo"] == 6


def test_R_NAR_accepting_a_demanding_vyzva_costs_nothing():
    r = run(doc("a: {pools: {telo: 6, duse: 6, vliv: 6}, ohrozeni: 1}", """
        - challenge: {name: sráz, affects: [a], pool: telo, effect: {jizva: Pád}, demanding: true}
        """))
    assert final(r, "a")["telo"] == 6 and final(r, "a")["jizvy"] == ["Pád"]


def test_CS_ENV_2_who_cannot_pay_the_narocnost_cannot_react_and_suffers():
    r = run(_vyzva(", demanding: 2", hero="{telo: 1, duse: 6, vliv: 6}"))
    assert final(r, "a")["telo"] == 1 and final(r, "a")["jizvy"] == ["Pád"]
    assert step(r)["actions"]["a"]["success"] is False and "a" not in step(r)["rolls"]


def test_R_NAR_a_condition_forbidding_the_vyzvas_label_refuses_undergoing_it():
    violation(_vyzva("", extra=", conditions: [{name: zlomená ruka, forbids: [šplh]}]"), "R-NAR")
