"""Dice sources (R-ROLL-2): every die the engine uses comes from one of these and is recorded
with its source: `given` (in the file), `seeded` (a seeded generator), `entered` (typed at the table).

The engine asks a source for dice only where the file gives none; sources are the only place
randomness or input enters the otherwise pure engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
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
        self.drawn = 0          # dice given out so far: 0 means the seed decided nothing

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        self.drawn += n
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


# --------------------------------------------------------------------------- drd play (issue #6)

class QueuedDice:
    """Dice written in the file's `extra_dice` (rolls the format has no other place for, such as tie
    rerolls), used in order before falling back to `then` (usually the seeded source)."""

    def __init__(self, queue: list[int], then: DiceSource):
        self._queue = list(queue)
        self._then = then
        self.name = then.name

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        if len(self._queue) >= n:
            out, self._queue = self._queue[:n], self._queue[n:]
            self.name = "given"
            return out
        self.name = self._then.name
        return self._then.roll(n, who, purpose)


class AskedDice:
    """Dice asked for at the table (`drd play`).

    `ask(n, who, purpose)` returns the dice typed, a total (an int, when the roll has a place for
    one), or None for "roll for me" (then the seeded generator rolls, reproducibly). A queue (a
    resumed replay's `extra_dice`) is used first. `name` says where the last roll came from, and
    `calls` keeps every answer in order so the session can be replayed. `see`, when given, is
    called by the engine before every roll with the roll's context (who, what for, bonus).
    """

    def __init__(self, ask, seed: int, queue: Sequence[int] = (), see=None, rolled=None):
        self._ask = ask
        self._rolled = rolled           # called with the dice drd rolled for an Enter (shown at the table)
        self._seeded = SeededDice(seed)
        self._queue = list(queue)
        self.name = "entered"
        self.calls: list[list[int] | int] = []
        # Told each step's id before its rolls when the session marks steps (drd play's replay
        # marks); None: the engine tells nobody (engine/run.py reads it with getattr).
        self.begin_step: Callable[[str], None] | None = None
        if see is not None:
            self.see = see

    def roll(self, n: int, who: str, purpose: str) -> list[int] | int:
        if len(self._queue) >= n:
            got: list[int] | int = self._queue[:n]
            self._queue = self._queue[n:]
            self.name = "given"
        else:
            got = self._ask(n, who, purpose)
            if got is None:
                got = self._seeded.roll(n, who, purpose)
                self.name = "seeded"
                if self._rolled is not None:
                    self._rolled(got, who)
            else:
                self.name = "entered"
        self.calls.append(got)
        return got


class KeyedDice:
    """Dice named by the roll they are for, so two runs under different rules see the same dice.

    Each roll is keyed by (step id, who, purpose, occurrence of that triple in the step) and its
    dice are drawn from a generator seeded with the seed and that key. A rules change that adds
    rolls (a `tie: reroll` re-roll, a third die for přesně) or skips some does not shift the dice
    of any other roll, as one seeded stream would (`drd diff`). The engine announces each step
    through `begin_step`; more dice for the same key extend the same sequence (the first two of a
    keep-best-2-of-3 roll are the two of a plain roll).
    """

    name = "seeded"

    def __init__(self, seed: int):
        self.seed = seed
        self._step: str | None = None
        self._seen: dict[tuple, int] = {}

    def begin_step(self, step_id: str) -> None:
        self._step = step_id

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        key = (self._step, who, purpose)
        occurrence = self._seen.get(key, 0)
        self._seen[key] = occurrence + 1
        # A str seed is hashed with SHA-512 by `random`: the same on every platform and run.
        rng = random.Random(f"{self.seed}|{self._step}|{who}|{purpose}|{occurrence}")
        return [rng.randint(1, 6) for _ in range(n)]
