"""How much an odds answer may cost: the class budget, a time and memory guard checked while
working (`Guard`), the time an estimate may sample for, and `Estimate`, the labelled estimate
every path falls back to (docs/odds.md, "Bounds")."""

from __future__ import annotations

import math
import time
from typing import Any

#: Most classes (distinct engine resolutions) an exact answer may resolve; beyond: estimate.
DEFAULT_BUDGET = 4000
#: Most live states of the contest enumeration (`_contest_classes`); beyond: estimate.
STATE_BUDGET = 12000
#: Most dice-sum combinations enumerated one by one (steps other than a core contest).
COMBO_BUDGET = 250000
#: Seconds an estimate samples for when no sample count is given.
DEFAULT_TIME = 1.5
MAX_SAMPLES = 1_000_000


def time_budget(factor: float = 3.0, low: float = 0.25, high: float = 4.0) -> float:
    """Seconds an estimate of a command may sample: `factor` × how long this process has run so
    far (start-up, reading and checking the file: about what `drd resolve` of it costs), within
    [low, high]. So the whole command stays a few times `drd resolve` on a fast machine and on a
    slow one alike (#14). Where the process's age cannot be read: DEFAULT_TIME."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        import os

        age = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return DEFAULT_TIME
    return min(high, max(low, factor * age))


Z95 = 1.959963984540054


class Estimate:
    """An estimated probability (k of n samples) or mean, with its 95 % interval."""

    __slots__ = ("value", "low", "high", "n")

    def __init__(self, value: float, low: float, high: float, n: int):
        self.value, self.low, self.high, self.n = value, low, high, n

    @classmethod
    def share(cls, k: int, n: int) -> "Estimate":
        """Wilson score interval: honest near 0 and 1, where the normal one is not."""
        if n == 0:
            return cls(0.0, 0.0, 1.0, 0)
        p = k / n
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        low = 0.0 if k == 0 else max(0.0, centre - half)
        high = 1.0 if k == n else min(1.0, centre + half)
        return cls(p, low, high, n)

    @classmethod
    def mean(cls, s1: float, s2: float, n: int) -> "Estimate":
        """The mean of a quantity from its sum and sum of squares (normal interval)."""
        if n == 0:
            return cls(0.0, 0.0, 0.0, 0)
        m = s1 / n
        var = max(0.0, s2 / n - m * m) * n / max(1, n - 1)
        half = Z95 * math.sqrt(var / n)
        return cls(m, m - half, m + half, n)

    def __float__(self) -> float:
        return self.value

    def __sub__(self, other: Any) -> float:
        return self.value - float(other)

    def __rsub__(self, other: Any) -> float:
        return float(other) - self.value

    def __bool__(self) -> bool:
        return self.value != 0

    def __repr__(self) -> str:
        return f"Estimate({self.value:.4f}, [{self.low:.4f}, {self.high:.4f}], n={self.n})"



#: Most memory (MB above what the process held when the answer started) an exact answer may build.
MEMORY_MB = 200


class OverBudget(Exception):
    """An exact attempt ran out of its time or memory: the caller gives the labelled estimate."""


class Guard:
    """A time and memory budget checked while working: `check()` raises `OverBudget` once the
    deadline has passed or the process holds `memory_mb` more than when the guard was made.
    Memory is read from /proc/self/statm (resident pages) every 64th call; time on every call."""

    __slots__ = ("deadline", "limit_pages", "_calls", "_statm", "why")

    def __init__(self, seconds: float | None, memory_mb: float = MEMORY_MB):
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        #: Why a fast method gave up on a resolution it learnt from (`fast.WHY`), if it did.
        self.why: str | None = None
        self._calls = 0
        self._statm: Any = None
        now = _resident_pages()
        self.limit_pages = None if now is None else now + int(memory_mb * 1024 * 1024 / _PAGE)

    def check(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OverBudget("time")
        self._calls += 1
        if self.limit_pages is not None and not self._calls & 63:
            now = _resident_pages()
            if now is not None and now > self.limit_pages:
                raise OverBudget("memory")

    def left(self) -> float | None:
        """Seconds left before the deadline (None: no deadline)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())


try:
    import os as _os

    _PAGE = _os.sysconf("SC_PAGE_SIZE")
except (ValueError, OSError, AttributeError):  # pragma: no cover - not Linux
    _PAGE = 4096


def _resident_pages() -> int | None:
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
