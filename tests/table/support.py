"""A `drd stul` server in a thread for the tests: the same `prepare` and uvicorn as the command."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


STRIP = {"roll", "hod", "dice", "kostky", "rolls", "hody", "choices", "volby"}


def _strip(node: Any, inside: bool = False) -> None:
    """Removes rolls and answers inside steps and environment actions; where a hero's roll is
    removed and no profession is named for it, `bonus_from: none` (dice need one, R-ROLL-1)."""
    if isinstance(node, dict):
        rolled = inside and any(k in node for k in ("roll", "hod", "dice", "kostky", "rolls", "hody"))
        if rolled and "bonus_from" not in node and any(k in node for k in ("actor", "actors", "react")):
            node["bonus_from"] = {pid: "none" for pid in node["react"]} if "react" in node else "none"
        for key in list(node):
            if inside and key in STRIP:
                del node[key]
            else:
                _strip(node[key], inside or key in ("steps", "kroky", "environment", "prostředí"))
    elif isinstance(node, list):
        for item in node:
            _strip(item, inside)


def skeleton(source: Path, dest: Path) -> Path:
    """`source` with every roll and answer taken out (and its `expect`): everything is asked at the table."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    doc = yaml.load(source.read_text(encoding="utf-8"))
    _strip(doc)
    for key in ("expect", "extra_dice"):
        doc.pop(key, None)
    with dest.open("w", encoding="utf-8") as fh:
        yaml.dump(doc, fh)
    return dest


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
