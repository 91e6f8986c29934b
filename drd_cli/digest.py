"""The footer hash of a transcript: SHA-256 over what decided the result, so a shared log can be checked.

`digest(result, scenario)` hashes a canonical JSON (sorted keys, no spaces, UTF-8) of:

* `scenario` — the scenario file's data as loaded (the YAML document as plain mappings, lists
  and scalars), without its `expect:` block. Data, not bytes: re-indenting the file, editing a
  comment or reordering keys does not change the hash; changing a value does. `expect:` only
  checks a result and cannot change it, so it is left out.
* `rules` — the rules in effect of the result: the built-in plugins that are on and the other
  plugins that acted, with the core parameters and those plugins' ones (RulesProfile.to_result), so
  a plugin that is installed but unused changes no digest.
* `seed` — the seed the open dice came from.
* `dice` — every roll in the result, step by step: who, total, dice, bonus and source
  (`given`/`seeded`/`entered`), and `draws`: any further dice a caller recorded from its dice
  source (e.g. `drd play`), in order.

Nothing language-dependent goes in (no log texts, no rendered words): a Czech and an English
transcript of the same run carry the same hash, and so do the text, Markdown, HTML and JSON forms.
Standard library only.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from typing import Any, Iterator

VERSION = 1
PREFIX = "sha256:"


_SCALARS = frozenset((str, int, bool, float, type(None)))


def plain(value: Any) -> Any:
    """A YAML document (ruamel CommentedMap/Seq, scalars with comments) as plain JSON data."""
    # Exactly str, int, bool, float or None is already plain (the rules below give it back as
    # it is); checked first, and in line for items, since a document is mostly such scalars.
    scalars = _SCALARS
    if type(value) in scalars:
        return value
    if isinstance(value, dict) or (hasattr(value, "items") and hasattr(value, "keys")):
        return {k if type(k) is str else str(k): v if type(v) in scalars else plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if type(v) in scalars else plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    return str(value)


def _already_plain(value: Any) -> bool:
    """Whether `plain(value)` would only copy `value`: mappings with text keys, lists, and
    exactly str, int, bool, float or None inside (what the fast reader gives for most files)."""
    scalars = _SCALARS
    stack = [value]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in scalars:
            continue
        if isinstance(node, dict):
            for k, v in node.items():
                if type(k) is not str:
                    return False
                if type(v) not in scalars:
                    stack.append(v)
        elif isinstance(node, list):
            stack.extend(v for v in node if type(v) not in scalars)
        else:
            return False
    return True


def _rolls(result: dict) -> list[dict]:
    return list(_each_roll(result))


def _each_roll(result: dict) -> Iterator[dict]:
    """The `dice` entries of the payload, one by one."""
    for step in result.get("steps") or []:
        if not isinstance(step, dict):
            continue
        for who, roll in (step.get("rolls") or {}).items():
            entry = {"step": step.get("id"), "round": step.get("round"), "who": str(who)}
            if isinstance(roll, dict):
                entry.update({k: roll.get(k) for k in ("total", "dice", "bonus", "source")})
            else:
                entry["total"] = roll
            yield entry


def scenario_data(scenario: Any, *, known_plain: bool = False) -> Any:
    """The scenario part of the payload: the document as plain data, without `expect:`.

    `known_plain=True`: the caller knows the document is plain data already (what `_already_plain`
    would find: the fast reader saw it while reading), so it is not walked again."""
    if scenario is None:
        return None
    if isinstance(scenario, dict) and (known_plain or _already_plain(scenario)):
        # The same JSON as a plain copy would give, without copying a large document.
        data = {k: v for k, v in scenario.items() if k != "expect"}
    else:
        data = plain(scenario)
    if isinstance(data, dict):
        data.pop("expect", None)
    return data


def document_bytes(scenario: Any, *, known_plain: bool = False) -> bytes:
    """The canonical JSON of the scenario part, to hash later without keeping the document
    (api.LoadedScenario.release_document: a large file's data tree is freed before the engine runs).
    `known_plain`: as for `scenario_data`."""
    return canonical(scenario_data(scenario, known_plain=known_plain))


def payload(result: dict, scenario: Any, draws: list | None = None) -> dict:
    """The data the hash is taken over (see the module docstring)."""
    data = scenario_data(scenario)
    rules = result.get("rules") or {}
    return {
        "v": VERSION,
        "scenario": data,
        "rules": {"enabled": plain(rules.get("enabled") or []), "params": plain(rules.get("params") or {})},
        "seed": result.get("seed"),
        "dice": _rolls(result),
        "draws": plain(draws or []),
    }


def canonical(data: Any) -> bytes:
    # surrogatepass: a lone surrogate that reached the data (it is no valid UTF-8) still hashes,
    # deterministically, instead of failing (the loader refuses such files; the hash must not crash).
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str).encode(
        "utf-8", "surrogatepass")


def digest(result: dict, scenario: Any, draws: list | None = None) -> str:
    """`sha256:<64 hex digits>` over scenario, rules, seed and dice.

    `scenario` is the document, or its `document_bytes` computed earlier (the same hash).
    """
    # Hashed as it is written: the bytes `canonical(payload(result, scenario, draws))` would give
    # (json.dumps(sort_keys=True) of a mapping is its keys in order, each value canonical on its
    # own; of a list, its items' texts joined by commas), without holding the payload's text, or a
    # 5,000-step battle's ten thousand `dice` entries, at once.
    scenario_bytes = scenario if isinstance(scenario, bytes) else canonical(scenario_data(scenario))
    rules = result.get("rules") or {}
    h = hashlib.sha256()
    h.update(b'{"dice":')
    _hash_list(h, _each_roll(result))
    h.update(b',"draws":' + canonical(plain(draws or [])))
    h.update(b',"rules":' + canonical({"enabled": plain(rules.get("enabled") or []),
                                       "params": plain(rules.get("params") or {})}))
    h.update(b',"scenario":')
    h.update(scenario_bytes)
    h.update(b',"seed":' + canonical(result.get("seed")) + b',"v":' + canonical(VERSION) + b"}")
    return PREFIX + h.hexdigest()


def _hash_list(h: Any, items: Iterator[Any], batch: int = 512) -> None:
    """Feeds `h` the canonical text of the list of `items`, `batch` items at a time."""
    h.update(b"[")
    first = True
    chunk: list = []
    for item in items:
        chunk.append(item)
        if len(chunk) == batch:
            h.update((b"" if first else b",") + canonical(chunk)[1:-1])
            first = False
            chunk.clear()
    if chunk:
        h.update((b"" if first else b",") + canonical(chunk)[1:-1])
    h.update(b"]")


def find_digest(text: str) -> str | None:
    """The last `sha256:…` hash in a transcript (any format), or None."""
    import re

    found = re.findall(r"sha256:[0-9a-f]{64}", text)
    return found[-1] if found else None


def find_seed(text: str) -> int | None:
    """The seed named on a transcript's footer line (`… · seed 7`, in Czech `… · semínko 7`), or None."""
    import re

    try:                                                   # a JSON result
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        seed = data.get("seed")
        return seed if isinstance(seed, int) and not isinstance(seed, bool) else None
    for line in reversed(text.splitlines()):
        if "sha256:" in line:
            match = re.search(r"(?:seed|semínko) (-?\d+)", line)
            return int(match.group(1)) if match else None
    return None
