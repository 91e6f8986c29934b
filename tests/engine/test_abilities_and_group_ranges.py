"""Third spec audit: RULES.md §3 abilities and CS-RANGE-1..4 group sizes, `count`, `via:`."""

from __future__ import annotations

import pytest
from drdtest import doc, final, invalid, run, step, violation


def hero(ability: str, *, extra: str = "") -> str:
    return f"""
h: {{pools: {{telo: 6, duse: 6, vliv: 6}}, levels: {{bojovnik: 2, lovec: 2, kejklir: 2, mastickar: 2}},
    abilities: [{ability}], zone: krcma{extra}}}
a: {{sudba: 3, zone: krcma}}
b: {{sudba: 3, zone: krcma}}
"""


def area_test(means: str = "melee", pool: str = "telo", extra: str = "group: sevřená hrstka",
              manoeuvres: str = "[rozsahle]") -> str:
    return f"""
        - id: s
          test: {{actor: h, pool: {pool}, bonus_from: none, means: {means}, manoeuvres: {manoeuvres}, roll: 10,
                 area: true, zone: krcma, effect: {{ohrozeni: 1}}, {extra}}}
        """


def paid(r: dict) -> str:
    return step(r, "s")["manoeuvres"][0]["paid"]


@pytest.mark.parametrize("ability,means,pool", [
    ("kruhovy-sek", "melee", "telo"), ("dest-strel", "shooting", "telo"),
    ("smrst-dyk", "throwing", "telo"), ("pusobivy-recnik", "dealing", "vliv")])
def test_RULES_3_area_abilities_free_rozsahle_for_their_means_only(ability, means, pool):
    r = run(doc(hero(ability), area_test(means, pool)))
    assert paid(r) == "free" and final(r, "h")[pool] == 6
    assert sorted(step(r, "s")["actions"]["h"]["affected"]) == ["a", "b"]
    other = "magic" if means != "magic" else "melee"
    r = run(doc(hero(ability), area_test(other, pool)))
    assert paid(r) == pool and final(r, "h")[pool] == 5


@pytest.mark.parametrize("group,free", [
    ("sevřená hrstka", True), ("rozptýlená hrstka", False), ("sevřený houf", False),
    ("rozptýlený houf", False), ("horda", False)])
def test_CS_RANGE_4_only_a_sevrena_hrstka_is_small_enough(group, free):
    r = run(doc(hero("kruhovy-sek"), area_test(extra=f"group: {group}")))
    assert (paid(r) == "free") is free
    if not free:
        assert any(e["rule"] == "CS-RANGE-4" for e in step(r, "s")["log"])


@pytest.mark.parametrize("counts,free", [((6, 6), True), ((6, 7), False), ((1, 1), True), ((13, 1), False)])
def test_CS_RANGE_4_zone_members_counted_with_count(counts, free):
    people = f"""
h: {{pools: {{telo: 6, duse: 6, vliv: 6}}, levels: {{bojovnik: 2}}, abilities: [kruhovy-sek], zone: krcma}}
a: {{sudba: 3, zone: krcma, count: {counts[0]}}}
b: {{sudba: 3, zone: krcma, count: {counts[1]}}}
"""
    r = run(doc(people, area_test(extra="note: bez group")))
    assert (paid(r) == "free") is free


def test_CS_RANGE_3_chosen_targets_are_not_plosna_so_rozsahle_is_paid():
    r = run(doc(hero("kruhovy-sek"), """
        - id: s
          test: {actor: h, pool: telo, bonus_from: bojovnik, means: melee, manoeuvres: [rozsahle], roll: 10,
                 targets: [a, b], group: sevřená hrstka, effect: {ohrozeni: 1}}
        """))
    assert paid(r) == "telo" and final(r, "h")["telo"] == 5


def test_CS_RANGE_3_no_group_and_no_zone_the_ability_does_not_apply_and_says_why():
    r = run(doc(hero("kruhovy-sek"), """
        - id: s
          test: {actor: h, pool: telo, bonus_from: bojovnik, means: melee, manoeuvres: [rozsahle], roll: 10,
                 area: true, effect: {ohrozeni: 1}}
        """))
    assert paid(r) == "telo"
    assert any("Kruhový sek" in e["text"] for e in step(r, "s")["log"])


def test_RULES_3_dest_strel_needs_its_ammunition_held():
    ammo = ", equipment: [{name: šípy, enables: [dest-strel]}]"
    r = run(doc(hero("dest-strel", extra=ammo), area_test("shooting")))
    assert paid(r) == "free"
    r = run(doc(hero("dest-strel", extra=ammo), """
        - declare: {actor: h, label: plýtvání, self_effect: {lose: [šípy]}}
        """ + area_test("shooting")))
    assert paid(r) == "telo"


def test_RULES_3_an_ability_the_participant_does_not_list_gives_nothing():
    r = run(doc(hero("padny-uder"), area_test()))
    assert paid(r) == "telo"


def test_R_MAN_2_via_names_the_ability_that_makes_rozsahle_free():
    r = run(doc(hero("kruhovy-sek"), area_test(manoeuvres="[{name: rozsahle, pay: free, via: kruhovy-sek}]")))
    m = step(r, "s")["manoeuvres"][0]
    assert m["paid"] == "free" and final(r, "h")["telo"] == 6
    # free via an ability that does not apply (a houf) is refused
    violation(doc(hero("kruhovy-sek"), area_test(extra="group: sevřený houf",
                                                 manoeuvres="[{name: rozsahle, pay: free, via: kruhovy-sek}]")))


def test_RULES_3_rodova_zbran_one_free_obrana_per_round():
    people = """
h: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {bojovnik: 2}, abilities: [{id: rodova-zbran, weapon: meč}]}
a: {sudba: 6}
b: {sudba: 6}
"""
    atk = """
            - id: {sid}
              contest:
                action: {{actor: {who}, pool: telo, means: melee, targets: [h], roll: 7, effect: {{ohrozeni: 1}}}}
                counters: [{{actor: h, kind: protect, pool: telo, means: melee, bonus_from: bojovnik, manoeuvres: [obrana],
                             roll: 10}}]
"""
    rounds = "- spent: [h]\n  steps:\n" + atk.format(sid="x1", who="a") + atk.format(sid="x2", who="b") \
        + "- spent: [h]\n  steps:\n" + atk.format(sid="x3", who="a")
    r = run(doc(people, steps="", rounds=rounds))
    assert [step(r, s)["manoeuvres"][0]["paid"] for s in ("x1", "x2", "x3")] == ["free", "telo", "free"]
    assert final(r, "h")["telo"] == 5


def test_RULES_3_padny_uder_lowers_the_targets_armour_discount_by_one():
    people = """
h: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {bojovnik: 2}, abilities: [padny-uder]}
a: {sudba: 9, ohrozeni: 3, armour: 2}
"""
    y = doc(people, """
        - contest:
            action: {actor: h, pool: %s, bonus_from: bojovnik, targets: [a], roll: 10, effect: {ohrozeni: 1}}
            counters: [{actor: a, roll: 7}]
          choices: {a: exhaust}
        """)
    assert final(run(y % "telo"), "a")["sudba"] == 9 - (3 - 1)      # armour 2 counts as 1
    assert final(run(y % "vliv"), "a")["sudba"] == 9 - 3              # armour only against bodily
