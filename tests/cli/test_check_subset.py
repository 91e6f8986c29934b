"""SCENARIO-FORMAT §8: `expect` is a subset of the result at every depth (drd_cli/check.py).

Examples pin each clause; hypothesis checks the invariants on generated results: a result
matches itself, anything cut down from it the way §8 allows still matches, and a change the
clauses do not allow is reported."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drd_cli.check import SET_LIKE, compare, compare_result, is_set_like, matches


@pytest.fixture(autouse=True)
def _english():
    from drd_cli import i18n

    with i18n.using("en"):
        yield


EXH = [{"by": "jur", "vs": "vlkava", "pool": "telo", "cost": 2, "protected": ["jur", "ctibor"], "denied": None,
        "ohrozeni": [2, 3], "gained": {"jizva": None, "sacrifice": None}},
       {"by": "vlkava", "vs": "test", "pool": "telo", "cost": 1, "protected": ["vlkava"], "denied": None,
        "ohrozeni": [1, 2], "gained": {"jizva": None, "sacrifice": None}}]
RESULT = {"format": "drd-result/1", "rules": {"enabled": ["prostredi", "ukryvani", "kruhovy-sek"]},
          "steps": [{"id": "s", "order": ["vlkava", "jur"], "exhaustions": EXH,
                     "actions": {"vlkava": {"success": True, "affected": ["mstislav", "jur"]}}}],
          "final": {"jur": {"jizvy": ["Rána", "Pád"], "conditions": [{"name": "zraněn", "rounds": 2}, "chycen"]}}}


def check(expect):
    return compare_result(expect, RESULT, 0)


def test_a_book_example_names_only_the_cost_the_book_gives():
    assert check({"steps": {"s": {"exhaustions": [{"by": "jur", "cost": 2, "ohrozeni": [2, 3]}]}}}) == []


def test_list_of_mappings_keeps_relative_order_and_distinct_elements():
    assert check({"steps": {"s": {"exhaustions": [{"by": "jur"}, {"by": "vlkava"}]}}}) == []
    assert check({"steps": {"s": {"exhaustions": [{"by": "vlkava"}, {"by": "jur"}]}}})
    assert check({"steps": {"s": {"exhaustions": [{"by": "jur"}, {"by": "jur"}]}}})       # distinct
    assert check({"steps": {"s": {"exhaustions": [{"pool": "telo"}, {"pool": "telo"}]}}}) == []


def test_set_like_lists_ignore_order_but_not_content():
    assert check({"steps": {"s": {"actions": {"vlkava": {"affected": ["jur", "mstislav"]}}}}}) == []
    assert check({"steps": {"s": {"actions": {"vlkava": {"affected": ["jur"]}}}}})
    assert check({"steps": {"s": {"exhaustions": [{"protected": ["ctibor", "jur"]}]}}}) == []
    assert check({"final": {"jur": {"jizvy": ["Pád", "Rána"]}}}) == []
    assert check({"final": {"jur": {"conditions": ["chycen", {"name": "zraněn"}]}}}) == []
    assert check({"rules": {"enabled": ["kruhovy-sek", "prostredi", "ukryvani"]}}) == []
    assert check({"rules": {"enabled": ["kruhovy-sek"]}})
    [d] = check({"final": {"jur": {"jizvy": ["Pád"]}}})
    assert d.path == ("final", "jur", "jizvy") and "in any order" in d.text


def test_other_lists_in_order_and_an_empty_list_expects_empty():
    assert check({"steps": {"s": {"order": ["vlkava", "jur"]}}}) == []
    assert check({"steps": {"s": {"order": ["jur", "vlkava"]}}})
    assert check({"steps": {"s": {"exhaustions": [{"ohrozeni": [3, 2]}]}}})
    assert check({"steps": {"s": {"exhaustions": []}}})
    assert check({"final": {"jur": {"jizvy": []}}})
    assert compare([], []) == []


def test_every_set_like_key_of_the_spec():
    assert SET_LIKE == {"affected", "protected", "jizvy", "conditions", "equipment", "suspicion", "disabled",
                        "revealed_by", "suspicion_added", "suspicion_cleared"}
    assert is_set_like(("rules", "enabled")) and not is_set_like(("steps", "s", "order"))


# ----------------------------------------------------------------------------- properties

ids = st.sampled_from(["a", "b", "c", "d", "e"])
scalars = st.one_of(st.integers(-3, 12), st.booleans(), st.none(), ids)
KEYS = ["by", "cost", "name", "order", "ohrozeni", "affected", "jizvy", "exhaustions", "rounds"]


def values(depth: int):
    if depth <= 0:
        return scalars
    sub = values(depth - 1)
    return st.one_of(
        scalars,
        st.lists(scalars, max_size=4),
        st.lists(st.dictionaries(st.sampled_from(KEYS), sub, max_size=3), max_size=4),
        st.dictionaries(st.sampled_from(KEYS), sub, max_size=4),
    )


results = st.dictionaries(st.sampled_from(KEYS), values(3), max_size=5)


def cut_down(value, path, rnd: random.Random):
    """A sub-expectation §8 allows: keys dropped, mappings of a list dropped (order kept), set-like
    lists shuffled."""
    if isinstance(value, dict):
        keep = [k for k in value if rnd.random() < 0.7]
        return {k: cut_down(value[k], path + (k,), rnd) for k in keep}
    if isinstance(value, list):
        if is_set_like(path):
            items = [cut_down(v, path + (i,), rnd) for i, v in enumerate(value)]
            rnd.shuffle(items)
            return items
        if value and all(isinstance(v, dict) for v in value):
            kept = [v for v in value if rnd.random() < 0.6] or value[:1]
            return [cut_down(v, path + (i,), rnd) for i, v in enumerate(kept)]
        return [cut_down(v, path + (i,), rnd) if isinstance(v, (dict, list)) else v for i, v in enumerate(value)]
    return value


@settings(max_examples=300, deadline=None)
@given(results)
def test_a_result_matches_itself(result):
    assert compare(result, result) == []


@settings(max_examples=300, deadline=None)
@given(results, st.integers(0, 10_000))
def test_what_SCENARIO_FORMAT_8_lets_a_file_leave_out_still_matches(result, seed):
    expect = cut_down(result, (), random.Random(seed))
    assert compare(expect, result) == [], expect


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), scalars, min_size=1), st.data())
def test_a_changed_or_missing_value_is_reported(result, data):
    key = data.draw(st.sampled_from(sorted(result)))
    other = data.draw(scalars.filter(lambda v: not (v == result[key] and type(v) is type(result[key]))))
    assert compare({key: other}, result)
    missing = data.draw(st.sampled_from([k for k in KEYS if k not in result] or ["zzz"]))
    assert compare({missing: 1}, result)


@settings(max_examples=200, deadline=None)
@given(st.lists(ids, min_size=1, max_size=5, unique=True), st.data())
def test_a_list_of_mappings_out_of_order_is_reported(names, data):
    result = {"exhaustions": [{"by": n, "cost": i} for i, n in enumerate(names)]}
    picked = data.draw(st.lists(st.sampled_from(names), min_size=2, max_size=len(names), unique=True)
                       if len(names) > 1 else st.just(names))
    expect = {"exhaustions": [{"by": n} for n in picked]}
    in_order = [n for n in names if n in picked] == picked
    assert (compare(expect, result) == []) is in_order


@settings(max_examples=200, deadline=None)
@given(st.lists(ids, max_size=5), st.lists(ids, max_size=5))
def test_set_like_lists_match_exactly_as_multisets(expected, actual):
    ok = sorted(expected) == sorted(actual)
    assert matches({"affected": expected}, {"affected": actual}) is ok
    assert matches({"jizvy": expected}, {"jizvy": actual}) is ok
