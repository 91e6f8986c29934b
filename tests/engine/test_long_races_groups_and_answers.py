"""Fourth spec audit: CS-DUR `long` on a race, a declare and a multi-actor test; CS-RANGE-4 `group`
against a zone's `count`s; an effect's `to:` on a two-target action (SCENARIO-FORMAT §4.1); §5 answers
with `vs: test` and answers that decide nothing, in every step kind."""

from __future__ import annotations

from drdtest import doc, run, step

PEOPLE = """
a: {pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1, levels: {bojovnik: 2}}
b: {pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1, levels: {bojovnik: 2}}
c: {sudba: 6, ohrozeni: 1, charakteristika: 2}
x: {sudba: 6, ohrozeni: 1, charakteristika: 2}
"""


def one(steps: str, people: str = PEOPLE, **kw) -> tuple[dict, dict]:
    r = run(doc(people, steps), **kw)
    return r, step(r, "s")


def ignored(s: dict, who: str) -> bool:
    """The §5 log line ("<who>: volba … nepoužije se", "<who> (proti: …): volba …") starts with the participant."""
    return any(e["rule"] == "docs/scenario-format.md §6" and e["text"].split()[0].rstrip(":") == who for e in s["log"])


# ------------------------------------------------------------------ CS-DUR on race, declare, several actors

def test_CS_DUR_long_race_completed_past_the_obstacle_continuing_after_its_consequence():
    """§7: nobody interrupts a racer; `continuing` when it took the obstacle's consequence."""
    r, s = one("""
        - id: s
          race: {actors: [a, b], pool: telo, long: honicka, rolls: {a: 10, b: 8}, obstacle: {ohrozeni: 1}}
        """)
    assert s["actions"]["a"]["long"] == {"id": "honicka", "status": "completed", "retry": False, "barred": []}
    assert s["actions"]["b"]["long"]["status"] == "continuing"
    assert r["final"]["b"]["ohrozeni"] == 2


def test_CS_DUR_long_declare_is_completed_nobody_can_interrupt_it():
    _, s = one("""
        - id: s
          declare: {actor: a, label: příprava, long: val}
        """)
    assert s["actions"]["a"]["long"] == {"id": "val", "status": "completed", "retry": False, "barred": []}


def test_CS_DUR_long_test_with_several_actors_each_actor_carries_the_groups_status():
    _, s = one("""
        - id: s
          test: {actors: [a, b], mode: any, pool: telo, bonus_from: bojovnik, long: strom, rolls: {a: 10, b: 8}}
        """)
    assert {p: s["actions"][p]["long"]["status"] for p in "ab"} == {"a": "completed", "b": "completed"}
    _, s = one("""
        - id: s
          test: {actors: [a, b], mode: all, pool: telo, bonus_from: bojovnik, long: strom, rolls: {a: 10, b: 8}}
        """)
    assert {p: s["actions"][p]["long"]["status"] for p in "ab"} == {"a": "interrupted", "b": "interrupted"}


# ------------------------------------------------------------------ CS-RANGE-4 group vs zone counts

def test_CS_RANGE_4_group_sevrena_hrstka_decides_over_a_larger_zone_count_with_a_warning():
    """RULES §3: the limit is checked against `group` (or, without it, the zone's members); a hrstka is
    only 'about 12', so 16 beings in the zone are a warning, not a refusal."""
    people = """
h: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {bojovnik: 2}, abilities: [kruhovy-sek], zone: krcma}
p: {sudba: 3, zone: krcma, count: 10}
q: {sudba: 3, zone: krcma, count: 6}
"""
    area = """
        - id: s
          test: {actor: h, pool: telo, bonus_from: none, means: melee, manoeuvres: [rozsahle], roll: 10,
                 area: true, zone: krcma, effect: {ohrozeni: 1}%s}
        """
    r, s = one(area % ", group: sevřená hrstka", people)
    assert s["manoeuvres"][0]["paid"] == "free" and r["final"]["h"]["telo"] == 6
    assert any(e["rule"] == "CS-RANGE-4" and "16" in e["text"] for e in s["log"])
    r, s = one(area % "", people)                       # without `group` the zone's 16 are too many
    assert s["manoeuvres"][0]["paid"] == "telo" and r["final"]["h"]["telo"] == 5


# ------------------------------------------------------------------ §4.1 `to:` lands once per target

TWO = "manoeuvres: [rozsahle], targets: [c, x], effect: [{ohrozeni: 1}, {vyhody: 1, to: [b]}]"


def test_SCENARIO_FORMAT_4_1_to_item_lands_once_per_target_reached_in_a_test():
    r, s = one("""
        - id: s
          test: {actor: a, pool: telo, bonus_from: bojovnik, roll: 10, %s}
        """ % TWO)
    assert (r["final"]["c"]["ohrozeni"], r["final"]["x"]["ohrozeni"]) == (2, 2)
    assert r["final"]["b"]["vyhody"] == 2


def test_SCENARIO_FORMAT_4_1_to_item_lands_once_per_target_reached_in_a_contest():
    """c counters and loses (its pair), x did not react (CS-MULTI-3 at 10 ≥ 9): two landings on b;
    when c's counter stops the action, none."""
    r, _ = one("""
        - id: s
          contest: {action: {actor: a, pool: telo, bonus_from: bojovnik, roll: 10, %s},
                    counters: [{actor: c, roll: 7}]}
        """ % TWO, enable=["rozsahla-protiakce"])
    assert r["final"]["b"]["vyhody"] == 2
    r, _ = one("""
        - id: s
          contest: {action: {actor: a, pool: telo, bonus_from: bojovnik, roll: 10, %s},
                    counters: [{actor: c, roll: 12}]}
        """ % TWO, enable=["rozsahla-protiakce"])
    assert r["final"]["b"]["vyhody"] == 0


# ------------------------------------------------------------------ §5 choices

def test_SCENARIO_FORMAT_5_vs_test_answers_the_obstacle_in_a_contest():
    """CS-MULTI-3 (b): the winner's 8 < 9 meets the obstacle; `{test: exhaust}` pays it once."""
    r, s = one("""
        - id: s
          contest: {action: {actor: a, pool: telo, bonus_from: bojovnik, roll: 8, obstacle: {ohrozeni: 2},
                             targets: [c], effect: {ohrozeni: 1}}, counters: [{actor: c, roll: 6}]}
          choices: {a: {test: exhaust}}
        """)
    assert [(e["by"], e["vs"], e["cost"]) for e in s["exhaustions"]] == [("a", "test", 1)]
    assert r["final"]["a"]["ohrozeni"] == 2 and r["final"]["c"]["ohrozeni"] == 2


def test_SCENARIO_FORMAT_5_vs_test_in_a_vyzva_and_an_answer_that_decides_nothing_is_logged():
    r, s = one("""
        - id: s
          challenge: {name: bouře, affects: [a, b], pool: telo, effect: {ohrozeni: 1},
                      react: {a: initiative, b: initiative}, rolls: {a: 7, b: 10}}
          choices: {a: {test: exhaust}, b: {test: exhaust}}
        """)
    assert [(e["by"], e["vs"]) for e in s["exhaustions"]] == [("a", "test")]
    assert ignored(s, "b") and not ignored(s, "a")
    assert r["final"]["b"]["ohrozeni"] == 1


def test_SCENARIO_FORMAT_5_an_answer_that_decides_nothing_is_logged_in_test_contest_race_declare():
    for body in ("test: {actor: a, pool: telo, bonus_from: bojovnik, roll: 10}",
                 "contest: {action: {actor: a, pool: telo, bonus_from: bojovnik, roll: 10, targets: [c],"
                 " effect: {ohrozeni: 1}}, counters: [{actor: c, roll: 6}]}",
                 "race: {actors: [a, b], pool: telo, rolls: {a: 10, b: 9}, obstacle: {ohrozeni: 1}}",
                 "declare: {actor: a, label: příprava}"):
        _, s = one("""
        - id: s
          %s
          choices: {a: exhaust}
        """ % body)
        assert s["exhaustions"] == [] and ignored(s, "a"), body
