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


class Table:
    """Prompts and answers: writes to `out`, reads lines from `inp`. EOF raises EOFError."""

    def __init__(self, inp: Any, out: Any):
        self.inp, self.out = inp, out
        # While a session rebuilds its state after an undo, what it would say again is not shown.
        self.quiet = False

    def say(self, text: str = "") -> None:
        if self.quiet:
            return
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

