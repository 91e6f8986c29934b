"""Reading at the table: what was typed for a roll, and the prompt/answer channel (`Table`).

Nothing here knows the engine: `parse_roll` turns a line into dice, a total or "roll for me";
`Table` writes prompts and reads lines, and says clearly when there is nothing (more) to read.
"""

from __future__ import annotations

import re
from typing import Any

from ..i18n import _


def parse_roll(text: str, n: int, bonus: int, allow_total: bool) -> tuple[Any, str | None]:
    """What was typed for a roll of `n` dice with `bonus`: (dice list | total | None, error message).

    Enter → None (drd rolls). Dice are 1–6, exactly `n` of them; a total (with the bonus) lies in
    2+bonus … 12+bonus. Messages are short and Czech: they are shown at the table.
    """
    text = text.strip()
    if not text:
        return None, None
    parts = [p for p in re.split(r"[\s,;+]+", text) if p]
    if not all(p.isdigit() for p in parts):
        return None, _("cannot read “{text}”: type {how}").format(text=text, how=_how(n, bonus, allow_total))
    values = [int(p) for p in parts]
    lo, hi = 2 + bonus, 12 + bonus
    if len(values) == 1 and n >= 2:
        v = values[0]
        if not allow_total:
            return None, _("type the dice here ({n} numbers 1–6, e.g. {example}), not a total").format(
                n=n, example=_example(n))
        if lo <= v <= hi:
            return v, None
        hint = _("; separate the dice with spaces: {dice}").format(dice=' '.join(parts[0])) if len(parts[0]) == n and \
            all("1" <= c <= "6" for c in parts[0]) else ""
        return None, _("{value} cannot be rolled: the total with bonus {bonus} is {lo}–{hi}{hint}").format(
            value=v, bonus=f"{bonus:+d}", lo=lo, hi=hi, hint=hint)
    if len(values) != n:
        return None, _("{n} dice are rolled, {given} given: type {how}").format(
            n=n, given=len(values), how=_how(n, bonus, allow_total))
    for v in values:
        if not 1 <= v <= 6:
            return None, _("the die shows 1 to 6, not {value}").format(value=v)
    return values, None


def _example(n: int) -> str:
    return " ".join(["4", "3", "6"][:n])


def _how(n: int, bonus: int, allow_total: bool) -> str:
    total = _(", a total with the bonus ({lo}–{hi})").format(lo=2 + bonus, hi=12 + bonus) if allow_total else ""
    return _("dice (e.g. {example}){total}, or Enter (drd rolls)").format(example=_example(n), total=total)


# Undo and redo at any prompt (docs/play.md): the letters unless a decision uses them as its own
# keys (`u` denies, `z` exhausts for others), the words always.
UNDO_LETTERS = ("z", "u")
UNDO_WORDS = ("zpět", "zpet", "undo")
REDO_LETTERS = ("r",)
REDO_WORDS = ("znovu", "redo")
EXPLAIN = ("?",)


def control_word(text: str, taken: tuple[str, ...] = ()) -> str | None:
    """"undo", "redo", "explain" when `text` asks for it, else None (an ordinary answer).
    `taken` are the keys the question itself uses; those keep their meaning."""
    t = text.strip().lower()
    if not t or t in taken:
        return None
    if t in UNDO_LETTERS or t in UNDO_WORDS:
        return "undo"
    if t in REDO_LETTERS or t in REDO_WORDS:
        return "redo"
    if t in EXPLAIN:
        return "explain"
    return None


def undo_key(taken: tuple[str, ...] = ()) -> str:
    """What to type to undo at a question whose own keys are `taken` (shown in the prompt's hint)."""
    return next((k for k in UNDO_LETTERS if k not in taken), UNDO_WORDS[0])


def width(out: Any = None) -> int | None:
    """The columns to wrap to: `COLUMNS`, else the terminal's when `out` is one, else None (a pipe
    or a file gets whole lines); at least 20."""
    import os
    import shutil

    if not os.environ.get("COLUMNS"):
        try:
            if out is None or not out.isatty():
                return None
        except (AttributeError, ValueError, OSError):
            return None
    return max(shutil.get_terminal_size((100, 24)).columns, 20)


def wrap_lines(text: str, *, prompt: bool = False, cols: int | None = None) -> str:
    """Each line of `text` wrapped to `cols`, its continuation lines indented two more than the
    line itself. A prompt keeps its trailing space (the answer is typed after it)."""
    import textwrap

    if cols is None:
        return text
    out = []
    for line in text.split("\n"):
        if len(line) <= cols:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        more = indent + "  " if len(indent) + 2 < cols // 2 else indent
        glued = line.strip().replace(" %", "\u00a0%")          # "8,3 %" stays on one line
        out.extend(part.replace("\u00a0%", " %") for part in textwrap.wrap(
            glued, cols, initial_indent=indent, subsequent_indent=more, break_on_hyphens=False) or [line])
    joined = "\n".join(out)
    return joined + " " if prompt and text.endswith(" ") and not joined.endswith(" ") else joined


class OutputGone(Exception):
    """The table's output cannot be written (closed, full disk): `reason` is the system's."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Table:
    """Prompts and answers: writes to `out`, reads lines from `inp`.

    No more input (end of file, or no input stream at all) raises EOFError; `read` counts the
    lines read so far, so the caller can tell "nothing was ever answered" from "input ended
    mid-game". A failing write raises OutputGone (a closed reader of a pipe stays BrokenPipeError).
    """

    def __init__(self, inp: Any, out: Any):
        self.inp, self.out = inp, out
        self.read = 0
        # While a session rebuilds its state after an undo, what it would say again is not shown.
        self.quiet = False

    def _write(self, text: str) -> None:
        try:
            self.out.write(text)
            self.out.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError, AttributeError) as exc:   # ValueError: a closed file object
            raise OutputGone(getattr(exc, "strerror", None) or str(exc)) from None

    def say(self, text: str = "") -> None:
        if self.quiet:
            return
        self._write(wrap_lines(text, cols=width(self.out)) + "\n")

    def ask(self, prompt: str) -> str:
        self._write(wrap_lines(prompt, prompt=True, cols=width(self.out)))
        try:
            line = self.inp.readline() if self.inp is not None else ""
        except (OSError, ValueError):            # a closed or unreadable stream: no more answers
            line = ""
        if not line:
            raise EOFError
        self.read += 1
        return line.rstrip("\r\n")
