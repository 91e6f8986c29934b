"""What happened, as data: the engine records events, never sentences.

An event is a plain mapping `{"kind": …, field: value, …}` kept in a step record's `log` as
`{"rule": …, "event": {…}}`; drd_cli/wording.py puts it into words in the run's language
when the result is written (docs/i18n.md "Events, then words"). A field's value is a number, a
string that is shown as it is (a plugin's title, an item's name, a plugin's note), or one of the
markers below, which the renderer words:

- `who(pid)`: a participant, by id (the renderer knows its name, gender and forms);
- `manoeuvre(id)`: a manoeuvre (`presne` → "přesně" / "precisely");
- `phrase(kind, **fields)`: a part of a sentence, itself an event;
- `joined(values)`: several values one after another (", " between them);
- `amount(n, pool)`: an amount of a pool or of Suroviny (`1 Surovina`, `5 Surovin`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Event = dict[str, Any]


def phrase(kind: str, **fields: Any) -> Event:
    """An event (or a part of one) of `kind` with its fields."""
    return {"kind": kind, **fields}


def who(pid: str) -> dict[str, str]:
    """A participant by id."""
    return {"who": pid}


def manoeuvre(name: str | None) -> dict[str, Any]:
    """A manoeuvre by id."""
    return {"manoeuvre": name}


def joined(values: Iterable[Any], sep: str = ", ") -> dict[str, Any]:
    """Values shown one after another."""
    return {"join": list(values), "sep": sep}


def amount(n: int, pool: str | None) -> Event:
    """`n` of a pool (`3 Tělo`) or of Suroviny (`1 Surovina`, `5 Surovin`)."""
    return phrase("amount", n=n, pool=pool)
