"""Which key spellings name the same field: `rounds` and `kola`, `telo` and `tělo`.

The engine reports problems with document paths in the models' ASCII names; a file written with
the Czech spellings has those keys under another name. The models register every alias group here
when they are defined, and the source map uses it to find the key the file really has. This module
imports nothing, so the loader can use it without importing pydantic.
"""

from __future__ import annotations

_GROUPS: dict[str, tuple[str, ...]] = {}


def register(*names: str) -> None:
    """Records that all of `names` spell one key (the first is the model's own name)."""
    group = tuple(dict.fromkeys(names))
    for name in group:
        known = _GROUPS.get(name, ())
        _GROUPS[name] = tuple(dict.fromkeys(known + group))


def spellings(name: str) -> tuple[str, ...]:
    """Every other spelling of `name` (empty when it has none)."""
    return tuple(n for n in _GROUPS.get(name, ()) if n != name)
