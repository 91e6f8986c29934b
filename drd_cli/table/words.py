"""The pages' words, through the message catalogs (drd_cli/locale): English msgids, Czech default.

A page's language: `--lang` of the command if given, else the browser's (Accept-Language: cs or
en), else the environment's. What the session itself says (odds, offers) is in the command's language.
"""

from __future__ import annotations

from ..i18n import N_, language, translation

WORDS = {
    "player": N_("Player"),
    "gm": N_("Game master"),
    "tv": N_("Table screen"),
    "round": N_("Round"),
    "step": N_("Step"),
    "initiative": N_("Initiative"),
    "people": N_("Participants"),
    "log": N_("What happened"),
    "your_turn": N_("Your turn"),
    "waiting_for": N_("Waiting for"),
    "waiting": N_("Waiting for the game master"),
    "dice": N_("Your dice (e.g. 4 3)"),
    "answer": N_("Answer"),
    "send": N_("Send"),
    "roll_for_me": N_("Roll (drd rolls)"),
    "enter": N_("Default (Enter)"),
    "why": N_("? Why"),
    "undo": N_("Undo"),
    "redo": N_("Redo"),
    "pause": N_("Pause"),
    "resume": N_("Continue"),
    "end": N_("End the game"),
    "end_sure": N_("End the game now? The replay keeps what was entered."),
    "correct": N_("Correct the last roll"),
    "confirm": N_("Confirm"),
    "proposed": N_("Typed, waiting for the game master's confirmation"),
    "correct_dice": N_("Correct dice"),
    "status_running": N_("The game is on"),
    "status_paused": N_("Paused by the game master"),
    "status_done": N_("The conflict is resolved"),
    "status_ended": N_("The game master ended the game"),
    "status_error": N_("The game stopped with an error"),
    "pick": N_("Pick your character"),
    "taken_by": N_("already taken"),
    "links": N_("Players' links (each opens that character)"),
    "tv_link": N_("Table screen"),
    "question": N_("Question"),
    "pending": N_("Waiting for an answer"),
    "nobody": N_("Nobody is asked now"),
    "transcript": N_("Transcript"),
    "offline": N_("Connection lost, reconnecting…"),
    "heroes_only": N_("Only heroes can be played from a phone; the game master decides for the others."),
    "roll": N_("Roll"),
    "conditions": N_("Conditions"),
    "secret": N_("secret (the players do not see it)"),
    # Refusals of an action (game.py returns their keys).
    "err_taken": N_("This question was already answered (by someone else or by you on another page)."),
    "err_paused": N_("The game is paused."),
    "err_not_yours": N_("This question is not yours to answer."),
    "err_gm_only": N_("Only the game master can undo or redo."),
    "err_over": N_("The game is over."),
    "err_no_roll": N_("The last entry is not a roll."),
    "err_bad": N_("The request is not valid."),
    "err_limit": N_("Too many requests; wait a moment."),
    "err_size": N_("The request is too large."),
}


def words(lang: str) -> dict[str, str]:
    """Every page word in `lang` (cs or en)."""
    t = translation(lang)
    return {key: t.gettext(msg) for key, msg in WORDS.items()}


def page_language(accept: str | None, explicit: str | None) -> str:
    """cs or en: the command's `--lang` if given, else the first of the browser's languages drd has,
    else the language drd runs in (the environment's, Czech by default)."""
    if explicit:
        return explicit
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in ("cs", "en"):
            return tag
        if tag == "sk":
            return "cs"
    return language()
