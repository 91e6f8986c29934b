"""Compare a resolution against a scenario's `expect:` block (SCENARIO-FORMAT §8). Pure: no I/O.

The expectation is a *subset* of the result: mappings are compared key by key (keys the
expectation does not mention are ignored), lists and scalars are compared whole. `expect.steps`
is keyed by step id while the result's `steps` is a list, so steps are matched by their `id`.
`expect.exit` is the exit code the run must end with (0 resolved, 1 a rule forbids something,
2 the file is invalid); `expect.error`, if given, must appear in the error text.
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


def compare(expected: Any, actual: Any, path: tuple = ()) -> list[Difference]:
    """Differences between `expected` (a subset) and `actual`: dicts recursively, the rest whole."""
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
    if same(expected, actual):
        return []
    return [_diff(path, expected, actual)]


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
