"""The room's keys and limits: who a URL's token belongs to, and how much anyone may ask.

Tokens are `secrets.token_urlsafe` (128 bits), compared in constant time. The room token opens
the table screen and the page where a player picks a character; picking one gives that player a
token of their own (or the GM hands out the link shown on the GM's page); the GM's token is a
separate one and is never put into any other page.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field

MAX_BODY = 2048            # bytes of one action (a JSON object of a question id and a short text)
MAX_TEXT = 200             # characters of the typed answer
RATE = 10.0                # actions a second per token, sustained …
BURST = 20                 # … with this many at once
MAX_STREAMS = 64           # open event streams of the room and players together
MAX_STREAMS_PER_TOKEN = 4
MAX_GM_STREAMS = 8         # the GM's streams are counted apart: a crowd cannot lock the GM out


def new_token() -> str:
    return secrets.token_urlsafe(16)


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode("utf-8", "surrogatepass"), b.encode("utf-8", "surrogatepass"))


@dataclass
class Bucket:
    rate: float = RATE
    burst: int = BURST
    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Room:
    """The tokens of one table and what is open on it."""

    def __init__(self, heroes: list[str]):
        self.token = new_token()
        self.gm = new_token()
        self.players: dict[str, str] = {new_token(): pid for pid in heroes}    # token → character
        self.claimed: set[str] = set()
        self._lock = threading.Lock()
        self._buckets: dict[str, Bucket] = {}
        self.rate = RATE                 # actions a second per token (tests may lower it)
        self._streams: dict[str, int] = {}

    def is_room(self, token: str) -> bool:
        return same(token, self.token)

    def is_gm(self, room: str, token: str) -> bool:
        return self.is_room(room) and same(token, self.gm)

    def player(self, room: str, token: str) -> str | None:
        if not self.is_room(room):
            return None
        for t, pid in self.players.items():
            if same(token, t):
                return pid
        return None

    def token_of(self, pid: str) -> str:
        return next(t for t, p in self.players.items() if p == pid)

    def claim(self, pid: str) -> str | None:
        """A player picks `pid` on the join page: its token, once (then the GM hands the link out)."""
        with self._lock:
            if pid not in self.players.values() or pid in self.claimed:
                return None
            self.claimed.add(pid)
            return self.token_of(pid)

    def allow(self, key: str) -> bool:
        with self._lock:
            if len(self._buckets) > 10_000:
                self._buckets.clear()
            if key not in self._buckets:
                self._buckets[key] = Bucket(rate=self.rate)
            return self._buckets[key].take()

    def open_stream(self, key: str, gm: bool) -> bool:
        with self._lock:
            if gm:
                if self._streams.get(key, 0) >= MAX_GM_STREAMS:
                    return False
            else:
                others = sum(n for k, n in self._streams.items() if k != "gm")
                if others >= MAX_STREAMS or self._streams.get(key, 0) >= MAX_STREAMS_PER_TOKEN:
                    return False
            self._streams[key] = self._streams.get(key, 0) + 1
            return True

    def close_stream(self, key: str) -> None:
        with self._lock:
            n = self._streams.get(key, 0) - 1
            if n > 0:
                self._streams[key] = n
            else:
                self._streams.pop(key, None)
