"""Changing a character file in place: ruamel round-trip, so comments, key order, Czech key
spellings and flow style stay as the user wrote them; only the values that changed are replaced.
"""

from __future__ import annotations

import io
from typing import Any

from ..scenario import aliases

POOL_KEYS = ("telo", "duse", "vliv")


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def load(text: str) -> Any:
    return _yaml().load(text)


def dump(data: Any) -> str:
    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()


def key_of(mapping: Any, name: str) -> Any:
    """The key `mapping` spells `name` with (`telo` or `tělo`), or None."""
    if name in mapping:
        return name
    for other in aliases.spellings(name):
        if other in mapping:
            return other
    return None


def set_value(mapping: Any, name: str, value: Any) -> None:
    key = key_of(mapping, name)
    if key is None:
        mapping[name] = value
    elif mapping[key] != value:
        mapping[key] = value


def remove(mapping: Any, name: str) -> None:
    key = key_of(mapping, name)
    if key is not None:
        del mapping[key]


def set_pools(mapping: Any, name: str, values: dict) -> None:
    """`pools`/`max`: each pool's value replaced in the mapping the file has (flow style kept)."""
    from ruamel.yaml.comments import CommentedMap

    key = key_of(mapping, name)
    if key is None or not isinstance(mapping[key], dict):
        block = CommentedMap()
        block.fa.set_flow_style()
        for pool in POOL_KEYS:
            if values.get(pool) is not None:
                block[pool] = values[pool]
        mapping[name] = block
        return
    block = mapping[key]
    for pool in POOL_KEYS:
        if values.get(pool) is not None:
            set_value(block, pool, values[pool])


def item_name(item: Any) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        for key in ("name", "jméno", "nazev", "název", "id"):
            if key in item:
                return str(item[key])
    return str(item)


def set_list(mapping: Any, name: str, wanted: list) -> None:
    """A list of names or records, changed in place: items no longer wanted removed (by name),
    new ones appended; the items kept keep their comments and form."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    key = key_of(mapping, name)
    if key is None or not isinstance(mapping[key], list):
        if not wanted and key is None:
            return
        seq = CommentedSeq()
        seq.fa.set_flow_style()
        mapping[key or name] = seq
        key = key or name
    seq = mapping[key]
    want_names = [item_name(w) for w in wanted]
    remaining = list(want_names)
    for i in range(len(seq) - 1, -1, -1):
        n = item_name(seq[i])
        if n in remaining:
            continue
        del seq[i]
    have = [item_name(x) for x in seq]
    for w, n in zip(wanted, want_names):
        if n in have:
            have.remove(n)
            continue
        if isinstance(w, dict):
            record = CommentedMap()
            record.fa.set_flow_style()
            for k, v in w.items():
                if v is not None:
                    record[k] = v
            seq.append(record)
        else:
            seq.append(w)
    # Duplicates the wanted list no longer has (a second copy of an item lost): drop extras.
    counts: dict[str, int] = {}
    for n in want_names:
        counts[n] = counts.get(n, 0) + 1
    for i in range(len(seq) - 1, -1, -1):
        n = item_name(seq[i])
        if counts.get(n, 0) > 0:
            counts[n] -= 1
        else:
            del seq[i]
