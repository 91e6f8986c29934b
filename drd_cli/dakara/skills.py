"""Dakara skill ids and the names a reader sees (docs/dakara.md "Skills").

Dakara has no fixed list of skills: a scenario names them (`skills: {kapsarstvi: 2}`). A file may
write a skill as an ASCII id (`kapsarstvi`) or by its Czech name (`Kapsářství`); both mean the same
skill, matched by their ASCII slug (drd_cli.skills.slug), in any letter case. The JSON result keeps
an ASCII id: the id as the file wrote it when it is ASCII, else the slug of the Czech name.

What a reader sees is the Czech name with diacritics: the file's own Czech spelling when it gives
one anywhere, else the name of a common skill word below (`kapsarstvi` → `Kapsářství`), else the
id as written. Import-light (no pydantic): the transcript renderer uses it.
"""

from __future__ import annotations

from typing import Iterable

from drd_cli.skills import slug

#: Skill words whose ASCII id loses its diacritics, with the Czech spelling restored. Not the book's
#: list (Dakara leaves skills to the table): the words our scenarios and docs use, and common ones.
COMMON_NAMES: tuple[str, ...] = (
    "Běh", "Kapsářství", "Šifrování", "Síla", "Zámky", "Obchod", "Zpěv", "Plížení", "Lezení", "Plavání",
    "Skok", "Jízda na koni", "Jezdectví", "Akrobacie", "Vyjednávání", "Přesvědčování", "Zastrašování",
    "Lhaní", "Vnímání", "Pátrání", "Stopování", "Skrývání", "Léčení", "Lékařství", "Bylinkářství",
    "Řemeslo", "Kovářství", "Tesařství", "Střelba", "Boj", "Boj zblízka", "Šerm", "Vrh", "Přežití",
    "Orientace", "Znalosti", "Historie", "Etiketa", "Hudba", "Tanec", "Herectví", "Převleky",
    "Padělání", "Pasti", "Mechanika", "Navigace", "Námořnictví", "Výdrž",
    "Odolnost", "Rychlost", "Obratnost", "Postřeh", "Čtení a psaní", "Jazyky", "Magie", "Alchymie",
)
_COMMON: dict[str, str] = {slug(n): n for n in COMMON_NAMES}


def skill_key(text: str) -> str:
    """What two spellings of one skill share: the ASCII slug (`Kapsářství`, `KAPSARSTVI` → `kapsarstvi`)."""
    return slug(text) or text


def skill_id(text: str) -> str:
    """The id the JSON result reports: the text itself when ASCII (today's ids), else its slug."""
    return text if text.isascii() else skill_key(text)


def display_name(text: str, given: dict[str, str] | None = None) -> str:
    """The name a reader sees for a skill id or spelling: the file's own Czech spelling (`given`,
    keyed by skill_key), a common word's Czech spelling, or the text as written."""
    key = skill_key(text)
    if given and key in given:
        return given[key]
    if not text.isascii():
        return text
    return _COMMON.get(key, text)


def given_names(spellings: Iterable[str]) -> dict[str, str]:
    """The Czech spellings a file uses (`Kapsářství`), keyed by skill_key: the first non-ASCII wins."""
    out: dict[str, str] = {}
    for text in spellings:
        if text and not text.isascii():
            out.setdefault(skill_key(text), text)
    return out
