"""Abilities whose catalogue card has a required key (Rodová zbraň's `weapon`, Talent's `prop_type`):
the importers take them with the key the source says, the key the user gives (`--klic
rodova-zbran.weapon=sekera`, or an answer at the terminal), or not at all — reported, never
imported broken (docs/kampan-import.md "Abilities with a key").

Where the source says it: the ability's own name (`Rodová zbraň (sekera)`, `Rodová zbraň: sekera`),
or its description or note when exactly one of the key's choices stands there as a word
(reported as guessed). A free-text key (Talent's prop) is taken only from the name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...i18n import _

_REST = re.compile(r"^(?P<base>.+?)\s*(?:\((?P<paren>[^()]+)\)|[:–—]\s*(?P<after>.+)|\s-\s*(?P<dash>.+))$")


@dataclass
class Pending:
    """An ability found in the source whose required keys are not all known: not imported (yet)."""

    aid: str
    name: str
    keys: dict                  # {key: the card's spec} still missing
    given: dict = field(default_factory=dict)       # the keys already known
    item: tuple = ()            # its line in the report (removed when the user gives the keys)


def required(card: dict) -> dict:
    return {k: spec for k, spec in (card.get("keys") or {}).items() if (spec or {}).get("required")}


def split_name(name: str) -> tuple[str, str | None]:
    """`Rodová zbraň (sekera)` → (`Rodová zbraň`, `sekera`); a name without a remainder → (name, None)."""
    m = _REST.match(name.strip())
    if m is None:
        return name.strip(), None
    rest = next(v for v in (m.group("paren"), m.group("after"), m.group("dash")) if v is not None)
    return m.group("base").strip(), rest.strip()


def choice_of(value: str, spec: dict) -> str | None:
    """`value` as one of the key's choices (case and spacing ignored), the value itself for a free
    key, or None when the key has choices and the value is none of them."""
    choices = spec.get("choices")
    if not choices:
        value = value.strip()
        return value or None
    wanted = " ".join(value.lower().split())
    return next((c for c in choices if c.lower() == wanted), None)


def in_text(texts: list[str], spec: dict) -> str | None:
    """The one choice of the key standing in `texts` as a word (the longest where one holds another:
    `dlouhý meč`, not `meč`); None when there are none, several, or the key is free text."""
    choices = spec.get("choices")
    if not choices:
        return None
    haystack = " ".join(" ".join(t.split()) for t in texts if t).lower()
    found = {c for c in choices if re.search(r"(?<!\w)" + re.escape(c.lower()) + r"(?!\w)", haystack)}
    found = {c for c in found if not any(c != o and c.lower() in o.lower() for o in found)}
    return found.pop() if len(found) == 1 else None


def derive(aid: str, rest: str | None, texts: list[str], card: dict, given: dict, report: Any) -> dict:
    """The required keys' values: given by the user, else in the name's remainder, else (a choice)
    in the description; what the description gave is reported as guessed."""
    values: dict = dict(given)
    for key, spec in required(card).items():
        if key in values:
            continue
        from_name = choice_of(rest, spec) if rest else None
        if from_name is not None:
            values[key] = from_name
            continue
        from_text = in_text(texts, spec)
        if from_text is not None:
            values[key] = from_text
            report.guessed(_("ability {id}: {key} {value!r} taken from its description in the file").format(
                id=aid, key=key, value=from_text))
    return values


def parse_option(values: list[str], cards: dict) -> dict:
    """`--klic ID.KEY=VALUE` (repeatable) → {ability id: {key: value}}; ValueError with the words to
    show (unknown ability or key, a value the key's choices do not have) — did you mean included."""
    import difflib

    out: dict = {}
    for raw in values:
        head, eq, value = raw.partition("=")
        aid, dot, key = head.strip().partition(".")
        if not eq or not dot or not aid or not key or not value.strip():
            raise ValueError(_("{value!r}: expected ABILITY.KEY=VALUE, e.g. rodova-zbran.weapon=sekera").format(
                value=raw))
        if aid not in cards:
            close = difflib.get_close_matches(aid, list(cards), n=1, cutoff=0.6)
            raise ValueError(_("{value!r}: no ability {id!r} in drd's catalogue").format(value=raw, id=aid)
                             + (" — " + _("did you mean {option}?").format(option=repr(close[0])) if close else ""))
        keys = dict(cards[aid].get("keys") or {})
        if key not in keys:
            known = ", ".join(sorted(keys)) or "–"
            raise ValueError(_("{value!r}: {id} has no key {key!r} (its keys: {known})").format(
                value=raw, id=aid, key=key, known=known))
        choice = choice_of(value, keys[key] or {})
        if choice is None:
            choices = (keys[key] or {}).get("choices") or []
            close = difflib.get_close_matches(value.strip().lower(), choices, n=1, cutoff=0.6)
            raise ValueError(_("{value!r}: {key} of {id} is one of: {choices}").format(
                value=raw, key=key, id=aid, choices=", ".join(choices))
                + (" — " + _("did you mean {option}?").format(option=repr(close[0])) if close else ""))
        out.setdefault(aid, {})[key] = choice
    return out


def entry(aid: str, values: dict) -> Any:
    """An `abilities:` item: the bare id, or `{id, key: value}`."""
    return {"id": aid, **values} if values else aid


def unused(given: dict, found: list) -> list[str]:
    """The `--klic` abilities the file does not have (said, not silently dropped)."""
    have = {a if isinstance(a, str) else a.get("id") for a in found}
    return sorted(aid for aid in given if aid not in have)


def fill(imported: Any, pending: Pending, values: dict) -> None:
    """Adds an ability the user gave the keys of to the import, and drops its report line."""
    abilities = imported.data.setdefault("abilities", [])
    abilities.append(entry(pending.aid, {**pending.given, **values}))
    if pending.item in imported.report.items:
        imported.report.items.remove(pending.item)
    imported.report.pending.remove(pending)


def ask_missing(imported: Any, ask: Any, say: Any) -> None:
    """At a terminal: asks for each missing key (Enter skips: the ability stays reported)."""
    for pending in list(imported.report.pending):
        values = {}
        for key, spec in pending.keys.items():
            choices = spec.get("choices") or []
            prompt = _("{name} ({id}) needs {key}: {help}").format(
                name=pending.name, id=pending.aid, key=key, help=spec.get("help") or key)
            if choices:
                prompt += " [" + ", ".join(choices) + "]"
            value = None
            for _attempt in range(3):
                try:
                    answer = ask(prompt + " " + _("(Enter skips) ")).strip()
                except EOFError:
                    answer = ""
                if not answer:
                    break
                value = choice_of(answer, spec)
                if value is not None:
                    break
                say(_("{value!r} is not one of the choices").format(value=answer))
            if value is None:
                break
            values[key] = value
        if set(values) == set(pending.keys):
            fill(imported, pending, values)
