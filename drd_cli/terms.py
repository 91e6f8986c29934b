"""Game terms in words, shared by the engine's log and the transcripts: one msgid per term,
translated where it is shown (`precisely` is "přesně" in Czech)."""

from __future__ import annotations

from .i18n import N_, _

MANOEUVRES = {"presne": N_("precisely"), "rozsahle": N_("widely"), "obrana": N_("defence"),
              "mocne": N_("powerfully"), "lstive": N_("cunningly")}


def manoeuvre_name(name: str | None) -> str:
    """A manoeuvre's id (`presne`) in the active language (`přesně`); another name as it is."""
    return _(MANOEUVRES[name]) if name in MANOEUVRES else str(name)


# Professions (povolání) a scenario or a character sheet names by id (`levels: {bojovnik: 2}`): the
# book's names, shown as they are in both languages (like Tělo and Ohrožení). An id not listed is
# shown as it is written.
PROFESSIONS = {"bojovnik": "Bojovník", "lovec": "Lovec", "kejklir": "Kejklíř", "mastickar": "Mastičkář",
               "zarikavac": "Zaříkávač", "carodej": "Čaroděj", "valecnik": "Válečník", "zlodej": "Zloděj",
               "hranicar": "Hraničář"}


def profession_name(ident: object) -> str:
    """`bojovnik` → `Bojovník` (an id the table does not know unchanged)."""
    return PROFESSIONS.get(str(ident), str(ident))
