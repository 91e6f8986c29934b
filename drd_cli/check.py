"""Compare a resolution against a scenario's `expect:` block (SCENARIO-FORMAT §8). Pure: no I/O.

The expectation is a *subset* of the result at every depth (docs/scenario-format.md §8.3):
* a mapping matches when every key it names matches (keys it does not mention are ignored);
* a list of mappings matches when each expected mapping matches a distinct element of the
  result's list, in the same relative order (other elements of the result are ignored);
* the set-like lists (`SET_LIKE`: `affected`, `protected`, `jizvy`, …, and `rules.enabled`) match
  as sets: the same elements, in any order (an element that is a mapping matches as a subset);
* every other list matches element by element, in order, with the same length;
* an empty list expects an empty list.
`expect.steps` is keyed by step id while the result's `steps` is a list, so steps are matched by
their `id`. `expect.exit` is the exit code the run must end with (0 resolved, 1 a rule forbids
something, 2 the file is invalid); `expect.error`, if given, must appear in the error text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .i18n import _

_ABSENT = object()


@dataclass(frozen=True)
class Difference:
    """One way the result differs from the expectation.

    `path` is where in the expectation the entry is (keys from the `expect:` block, e.g.
    ("final", "hanus", "telo")), so it can be located in the file; `text` is the report line.
    """

    path: tuple
    expected: Any
    actual: Any
    text: str

    @property
    def dotted(self) -> str:
        return dotted(self.path)


def dotted(path: tuple) -> str:
    """("final", "hanus", "telo") → "final.hanus.telo"; indices as [0]."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(result)"


def show(value: Any) -> str:
    """A value as the report shows it: JSON spelling (true, null, "text", [1, 2])."""
    if value is _ABSENT:
        return "nothing (missing)"
    try:
        return json.dumps(_plain(value), ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError):
        return repr(value)


def _plain(value: Any) -> Any:
    # ruamel's CommentedMap/ScalarInt etc. serialise fine, but make sure of plain containers.
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def same(expected: Any, actual: Any) -> bool:
    """Whole-value equality that does not confuse true with 1 or "1" with 1."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return expected == actual
    if isinstance(expected, dict) and isinstance(actual, dict):
        if set(map(str, expected)) != set(map(str, actual)):
            return False
        amap = {str(k): v for k, v in actual.items()}
        return all(same(v, amap[str(k)]) for k, v in expected.items())
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(same(e, a) for e, a in zip(expected, actual))
    if isinstance(expected, str) and isinstance(actual, str):
        return str(expected) == str(actual)
    if expected is None or actual is None:
        return expected is None and actual is None
    return type(expected) is type(actual) and expected == actual


# SCENARIO-FORMAT §8: the lists whose order means nothing, named by the key that holds them.
SET_LIKE = frozenset({"affected", "protected", "jizvy", "conditions", "equipment", "suspicion", "disabled",
                      "revealed_by", "suspicion_added", "suspicion_cleared"})


def _list_name(path: tuple) -> str | None:
    """The key a list sits under (None when it is an element of another list)."""
    return path[-1] if path and isinstance(path[-1], str) else None


def is_set_like(path: tuple) -> bool:
    """Whether the list at `path` (a path in the expectation) compares as a set."""
    if tuple(str(p) for p in path[-2:]) == ("rules", "enabled"):
        return True
    return _list_name(path) in SET_LIKE


def matches(expected: Any, actual: Any, path: tuple = ()) -> bool:
    """True when `expected` is a subset of `actual` in the §8 sense."""
    return not compare(expected, actual, path)


def compare(expected: Any, actual: Any, path: tuple = ()) -> list[Difference]:
    """Differences between `expected` (a subset in the §8 sense) and `actual`."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [_diff(path, expected, actual)]
        out: list[Difference] = []
        amap = {str(k): v for k, v in actual.items()}
        for key, value in expected.items():
            sub = amap.get(str(key), _ABSENT)
            if sub is _ABSENT:
                out.append(_diff(path + (key,), value, _ABSENT))
            else:
                out.extend(compare(value, sub, path + (key,)))
        return out
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)):
            return [_diff(path, expected, actual)]
        if not expected:
            return [] if not actual else [_diff(path, expected, actual)]
        if is_set_like(path):
            return _compare_set(list(expected), list(actual), path)
        if all(isinstance(e, dict) for e in expected):
            return _compare_in_order(list(expected), list(actual), path)
        if len(expected) != len(actual):
            return [_diff(path, expected, actual)]
        if all(not isinstance(e, (dict, list, tuple)) for e in expected):
            return [] if all(same(e, a) for e, a in zip(expected, actual)) else [_diff(path, expected, actual)]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out.extend(compare(e, a, path + (i,)))
        return out
    if same(expected, actual):
        return []
    return [_diff(path, expected, actual)]


def _compare_set(expected: list, actual: list, path: tuple) -> list[Difference]:
    """Set-like lists: a one-to-one pairing of expected and actual elements, order ignored."""
    if len(expected) == len(actual) and _perfect_matching(expected, actual, path):
        return []
    return [Difference(path, expected, actual, _("{path}: expected {expected} (in any order), got {actual}").format(
        path=dotted(path), expected=show(expected), actual=show(actual)))]


def _perfect_matching(expected: list, actual: list, path: tuple) -> bool:
    """Whether every expected element pairs with its own actual element (Kuhn's augmenting paths;
    the lists are short, and a greedy pairing could fail where mappings overlap)."""
    fits = [[j for j, a in enumerate(actual) if matches(e, a, path + (i,))] for i, e in enumerate(expected)]
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(expected)))


def _compare_in_order(expected: list, actual: list, path: tuple) -> list[Difference]:
    """A list of mappings: each expected mapping matches a distinct later element of the result.

    Taking the earliest element that matches is never worse than a later one (it leaves more of
    the list for the mappings still to place), so one pass decides."""
    j = 0
    for i, e in enumerate(expected):
        while j < len(actual) and not matches(e, actual[j], path + (i,)):
            j += 1
        if j == len(actual):
            return [Difference(path + (i,), e, actual, _(
                "{path}: expected {expected}, no element of the result matches it (in this order; the result "
                "has {actual})").format(path=dotted(path + (i,)), expected=show(e), actual=show(actual)))]
        j += 1
    return []


def _diff(path: tuple, expected: Any, actual: Any) -> Difference:
    return Difference(path, expected, actual, _("{path}: expected {expected}, got {actual}").format(
        path=dotted(path), expected=show(expected), actual=show(actual)))


def steps_by_id(steps: Any) -> dict[str, dict]:
    """The result's step list as {id: step}; with a repeated id the first step keeps it."""
    out: dict[str, dict] = {}
    for step in steps or []:
        if isinstance(step, dict) and "id" in step:
            out.setdefault(str(step["id"]), step)
    return out


def compare_result(expect: dict, result: dict | None, exit_code: int, error_text: str = "",
                   other_texts: tuple[str, ...] = ()) -> list[Difference]:
    """Everything in `expect` (the `expect:` block as a dict) that the run did not give.

    `result` is the result dict when the run resolved (exit 0), else None; `exit_code` is how
    the run ended; `error_text` the formatted error when it did not resolve; `other_texts` the
    same error in the other languages (`expect.error` may quote any of them).
    """
    expect = dict(expect or {})
    out: list[Difference] = []
    want_exit = expect.pop("exit", 0)
    want_error = expect.pop("error", None)
    if not same(want_exit, exit_code):
        text = _("exit: expected {expected}, got {actual}").format(expected=show(want_exit), actual=exit_code)
        if error_text:
            text += f" ({error_text.splitlines()[0]})"
        out.append(Difference(("exit",), want_exit, exit_code, text))
    if want_error is not None and not any(str(want_error) in t for t in (error_text, *other_texts)):
        got = show(error_text) if error_text else _("no error")
        out.append(Difference(("error",), want_error, error_text,
                              _("error: expected a message containing {quote}, got {got}").format(
                                  quote=show(want_error), got=got)))
    if result is None:
        # Nothing resolved: the rest of the expectation cannot be checked (the exit says why).
        return out
    for key, value in expect.items():
        if key == "steps" and isinstance(value, dict):
            by_id = steps_by_id(result.get("steps"))
            for step_id, step_expect in value.items():
                step = by_id.get(str(step_id), _ABSENT)
                if step is _ABSENT:
                    known = ", ".join(by_id) or "–"
                    out.append(Difference(("steps", step_id), step_expect, _ABSENT,
                                          _("steps.{id}: no step with this id (steps: {known})").format(
                                              id=step_id, known=known)))
                else:
                    out.extend(compare(step_expect, step, ("steps", step_id)))
        else:
            out.extend(compare(value, result.get(key, _ABSENT), (key,)))
    return out


def default_steps(result: dict | None, differences: list[Difference]) -> list[dict]:
    """The steps where a default answer decided (`decisions[].decided_by: default`) that may have
    caused `differences`: every such step up to the last step a difference names (every one when
    a difference is about the final state or the whole run)."""
    if not result or not differences:
        return []
    steps = [s for s in result.get("steps") or [] if isinstance(s, dict)]
    order = {str(s.get("id")): i for i, s in enumerate(steps)}
    named = [order[str(d.path[1])] for d in differences
             if len(d.path) > 1 and d.path[0] == "steps" and str(d.path[1]) in order]
    last = max(named) if named and len(named) == len(differences) else len(steps) - 1
    return [s for s in steps[:last + 1]
            if any(d.get("decided_by") == "default" for d in s.get("decisions") or ())]
