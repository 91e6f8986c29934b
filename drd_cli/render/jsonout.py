"""The result contract (SCENARIO-FORMAT §7) as JSON text: UTF-8 Czech kept as is, two-space indent."""

from __future__ import annotations

import json
from typing import Any


def _fallback(value: Any) -> Any:
    # The engine returns plain data; tuples/sets or ruamel scalars that slip through still serialise.
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, tuple):
        return list(value)
    return str(value)


def dumps(result: Any) -> str:
    """`result` as pretty JSON text ending with a newline."""
    return json.dumps(result, ensure_ascii=False, indent=2, default=_fallback) + "\n"
