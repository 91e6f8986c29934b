"""Awareness (R-AWARE): who is asleep, and so cannot react (docs/rules.md "R-AWARE").

A participant holding a sleep condition — `spí`, `spánek`, `spící` or `asleep`, matched as Czech
words are elsewhere (letter case and diacritics ignored, so `Spí` and `spi` match too) — is not
aware: he cannot react to an action (no counter-action, no action from obrana) and, being a
non-reacting target, cannot exhaust for himself. Others may still protect him and exhaust for
him. An ability may let him react as if awake (`drd_may_react_asleep`, Jedno oko otevřené).

Import-light (unicodedata only): the views, the engine and the plugins all use it.
"""

from __future__ import annotations

from typing import Any, Iterable

from .skills import slug

RULE = "R-AWARE"

#: The sleep conditions, as ASCII slugs of their names (`spí` → `spi`).
ASLEEP = ("spi", "spanek", "spici", "asleep")


def sleep_condition(conditions: Iterable[Any]) -> str | None:
    """The name of the first sleep condition among `conditions` (names, or objects with `name`), or None."""
    for c in conditions or ():
        name = c if isinstance(c, str) else getattr(c, "name", None)
        if name is not None and slug(str(name)) in ASLEEP:
            return str(name)
    return None


def is_asleep(participant: Any) -> bool:
    """Does `participant` (a view or the engine's state) hold a sleep condition?"""
    return sleep_condition(getattr(participant, "conditions", ()) or ()) is not None
