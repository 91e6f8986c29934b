"""The skills (dovednosti) of the revised DrD II edition that an action may name (`skill:`).

An id is the ASCII slug of the Czech name (`Běžný boj zblízka` → `bezny-boj-zblizka`); the Czech
name itself, in any letter case, is accepted and normalised to the id. The list is the one the
five basic professions' abilities refer to (docs/scenario-format.md "Skills"); `pool` is the
pool the skill's actions usually draw on, an inferred reading (the source lists no resource tag
for the revised skills), shown for information only: the action's own `pool` decides.

Import-light: no pydantic, rich or ruamel (validation and `drd abilities` use it).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class Skill:
    """One skill: its id, Czech name, the profession it belongs to and its usual pool."""

    id: str
    name: str
    profession: str
    pool: str


def slug(text: str) -> str:
    """ASCII slug of a Czech text: lower case, diacritics dropped, runs of other characters → `-`."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    out, dash = [], False
    for ch in plain:
        if ch.isalnum():
            out.append(ch)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    return "".join(out).strip("-")


def _s(name: str, profession: str, pool: str) -> Skill:
    return Skill(slug(name), name, profession, pool)


#: The revised edition's skills of the five basic professions, in the book's order per profession.
SKILLS: tuple[Skill, ...] = (
    _s("Běžný boj zblízka", "bojovník", "telo"),
    _s("Síla", "bojovník", "telo"),
    _s("Bojovnické znalosti", "bojovník", "duse"),
    _s("Sebedůvěra", "bojovník", "vliv"),
    _s("Běžná střelba", "lovec", "telo"),
    _s("Tábornictví", "lovec", "duse"),
    _s("Orientace v divočině", "lovec", "duse"),
    _s("Cestování", "lovec", "duse"),
    _s("Lovecké znalosti", "lovec", "duse"),
    _s("Ovlivňování zvířat", "lovec", "vliv"),
    _s("Pohyblivost", "kejklíř", "telo"),
    _s("Běžný vrh", "kejklíř", "telo"),
    _s("Triky a kejkle", "kejklíř", "duse"),
    _s("Orientace ve městě", "kejklíř", "duse"),
    _s("Umění", "kejklíř", "vliv"),
    _s("Charisma", "kejklíř", "vliv"),
    _s("Převleky a předstírání", "kejklíř", "vliv"),
    _s("Masti a jedy", "mastičkář", "duse"),
    _s("Ošetřování lidského těla", "mastičkář", "duse"),
    _s("Znalost lidí", "mastičkář", "duse"),
    _s("Vyjednávání s lidmi", "mastičkář", "vliv"),
    _s("Učenost", "zaříkávač", "duse"),
    _s("Znalost nadpřirozena", "zaříkávač", "duse"),
    _s("Ošetřování lidské duše", "zaříkávač", "duse"),
    _s("Zaříkání", "zaříkávač", "vliv"),
    _s("Vyjednávání s nadpřirozenem", "zaříkávač", "vliv"),
)

BY_ID: dict[str, Skill] = {s.id: s for s in SKILLS}

#: Other spellings accepted for a skill (slugs): the book's "Masti a (běžné) jedy", and the
#: shortened `boj-zblizka` of the format's first examples.
ALIASES: dict[str, str] = {
    "masti-a-bezne-jedy": "masti-a-jedy",
    "boj-zblizka": "bezny-boj-zblizka",
}


def normalise(name: str) -> str | None:
    """The skill id for an id, a Czech name or an alias (any case, with or without diacritics), or None."""
    key = slug(name)
    key = ALIASES.get(key, key)
    return key if key in BY_ID else None


def suggestion(name: str) -> str | None:
    """The closest skill id to an unknown `name`, or None."""
    import difflib

    close = difflib.get_close_matches(slug(name), list(BY_ID) + list(ALIASES), n=1, cutoff=0.6)
    if not close:
        return None
    return ALIASES.get(close[0], close[0])


def name_of(skill_id: str | None) -> str | None:
    """The Czech name of a skill id (for the transcript), or the id itself if unknown."""
    if skill_id is None:
        return None
    skill = BY_ID.get(skill_id)
    return skill.name if skill else skill_id
