"""Dice sources (R-ROLL-2): every die the engine uses comes from one of these and is recorded
with its source: `given` (in the file), `seeded` (a seeded generator), `entered` (typed at the table).

The engine asks a source for dice only where the file gives none; sources are the only place
randomness or input enters the otherwise pure engine.
"""

from __future__ import annotations

import random
from typing import Protocol


class DiceSource(Protocol):
    """Gives `n` six-sided dice for `who` (a participant id) rolling for `purpose`."""

    name: str

    def roll(self, n: int, who: str, purpose: str) -> list[int]: ...


class SeededDice:
    """A reproducible source: the same seed gives the same dice in the same order."""

    name = "seeded"

    def __init__(self, seed: int):
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        return [self._rng.randint(1, 6) for _ in range(n)]


class ScriptedDice:
    """Dice taken in order from a list (tests, replays); raises when it runs out."""

    name = "entered"

    def __init__(self, values: list[int]):
        self._values = list(values)

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        if len(self._values) < n:
            raise LookupError(f"no more dice for {who} ({purpose})")
        out, self._values = self._values[:n], self._values[n:]
        return out


def new_seed() -> int:
    """A fresh seed, reported in the result so any run can be repeated."""
    return random.SystemRandom().randrange(1, 2**31)
