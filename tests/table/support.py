"""A `drd stul` server in a thread for the tests: the same `prepare` and uvicorn as the command."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.play.skeletons import skeleton  # noqa: F401 - the table's tests take it from here

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


@dataclass
class Running:
    table: Any
    server: Any
    thread: threading.Thread
    base: str

    @property
    def game(self) -> Any:
        return self.table.game

    @property
    def room(self) -> Any:
        return self.table.room

    def url(self, path: str = "") -> str:
        return f"{self.base}/{self.room.token}{path}"

    @property
    def gm(self) -> str:
        return self.url(f"/gm/{self.room.gm}")

    @property
    def tv(self) -> str:
        return self.url("/tv")

    def player(self, pid: str) -> str:
        return self.url(f"/p/{self.room.token_of(pid)}")

    def stop(self) -> None:
        self.table.game.close()
        self.server.should_exit = True
        self.thread.join(timeout=5)


def start(file: Path, *, seed: int = 7, lang: str | None = "cs", replay: Path | None = None,
          confirm: bool = False) -> Running:
    from drd_cli.cli._common import write_atomic
    from drd_cli.i18n import set_language
    from drd_cli.table.run import bind, prepare, server_for

    set_language(lang or "cs")
    target = str(replay or file.with_suffix(".replay.yaml"))
    table = prepare(str(file), seed=seed, opts=dict(params={}, enable=(), disable=(), group=None), target=target,
                    lang=lang, say=lambda text: None, write=write_atomic, confirm=confirm)
    sock = bind("127.0.0.1", 0)
    table.port = sock.getsockname()[1]
    server = server_for(table, sock)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    return Running(table, server, thread, f"http://127.0.0.1:{table.port}")


def wait_for(predicate: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.01)
    raise AssertionError("timed out waiting")
