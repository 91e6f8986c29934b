"""The result contract (SCENARIO-FORMAT §7) as JSON text: UTF-8 Czech kept as is, two-space indent."""

from __future__ import annotations

import json
from json.encoder import encode_basestring as _string
from typing import Any, Iterator

_INF = float("inf")


def _fallback(value: Any) -> Any:
    # The engine returns plain data; tuples/sets or ruamel scalars that slip through still serialise.
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, tuple):
        return list(value)
    return str(value)


def dumps(result: Any) -> str:
    """`result` as pretty JSON text ending with a newline.

    Byte for byte the text of `json.dumps(result, ensure_ascii=False, indent=2, default=…)`
    (tests/render/test_render.py), written by `_text`, which follows the standard library's encoder
    rule for rule: with an indent that encoder is its pure-Python generator one, and a
    5,000-step battle's result took longer to print than to resolve.
    """
    return _text(result, "\n") + "\n"


def chunks(result: Any, *, depth: int = 2) -> Iterator[str]:
    """The text of `dumps(result)` in pieces, for writing as it is made: the mappings and lists
    of the top `depth` levels are cut into their items (a battle's `steps` is one list of
    thousands), so the whole text is never held at once (`"".join(chunks(r)) == dumps(r)`)."""
    yield from _chunks(result, "\n", depth)
    yield "\n"


def _chunks(value: Any, newline: str, depth: int) -> Iterator[str]:
    if depth <= 0 or not value or not isinstance(value, (list, tuple, dict)):
        yield _text(value, newline)
        return
    inner = newline + "  "
    if isinstance(value, dict):
        yield "{"
        for i, (key, item) in enumerate(value.items()):
            yield ("," if i else "") + inner + ((_KEYS.get(key) if type(key) is str else None) or _head(key))
            yield from _chunks(item, inner, depth - 1)
        yield newline + "}"
        return
    yield "["
    for i, item in enumerate(value):
        yield ("," if i else "") + inner
        yield from _chunks(item, inner, depth - 1)
    yield newline + "]"


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str | None:
    """A mapping key as JSON text of the key, as json.dumps converts it (None: not a JSON key)."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    return None


_KEYS: dict[str, str] = {}
"""Text keys as JSON strings with their separator (`"telo": `): a result has a few dozen
distinct keys, repeated thousands of times."""


def _head(key: Any) -> str:
    """A mapping key as JSON text with its separator (`"telo": `), kept in `_KEYS` for text keys."""
    text = _key(key)
    if text is None:
        raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")
    head = _string(text) + ": "
    if type(key) is str and len(_KEYS) < 10_000:
        _KEYS[key] = head
    return head


def _text(value: Any, newline: str) -> str:
    """`value` as indented JSON; `newline` is "\\n" plus the indent of `value`'s level.

    Follows `json.encoder._make_iterencode` case by case; items of the plain JSON types (exactly
    str, int, bool, None) are written in line. Each mapping and list is joined on its own, so a
    large result is never held as millions of small pieces at once (the standard encoder's way:
    a 5,000-step battle's result cost ten times its size in memory)."""
    if isinstance(value, str):
        return _string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        inner = newline + "  "
        parts: list[str] = []
        append = parts.append
        for item in value:
            kind = type(item)
            if kind is str:
                append(_string(item))
            elif kind is int:
                append(int.__repr__(item))
            elif item is None:
                append("null")
            elif kind is bool:
                append("true" if item else "false")
            elif not item and (kind is list or kind is dict):
                append("[]" if kind is list else "{}")
            else:
                append(_text(item, inner))
        return "[" + inner + ("," + inner).join(parts) + newline + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = newline + "  "
        keys = _KEYS
        parts = []
        append = parts.append
        for key, item in value.items():
            head = (keys.get(key) if type(key) is str else None) or _head(key)
            kind = type(item)
            if kind is str:
                append(head + _string(item))
            elif kind is int:
                append(head + int.__repr__(item))
            elif item is None:
                append(head + "null")
            elif kind is bool:
                append(head + ("true" if item else "false"))
            elif not item and (kind is list or kind is dict):
                append(head + ("[]" if kind is list else "{}"))     # `modifiers: []`, `affected: []`
            else:
                append(head + _text(item, inner))
        return "{" + inner + ("," + inner).join(parts) + newline + "}"
    return _text(_fallback(value), newline)
