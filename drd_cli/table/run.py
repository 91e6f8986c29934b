"""`drd stul`: one conflict served to the table — the game, the room, the server, the terminal.

`prepare` builds the game like `drd play` does (the same session, seed, rules and replay file);
`serve` runs the web server until Ctrl-C (the replay written, the server gone within a second).
"""

from __future__ import annotations

import socket
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from ..i18n import _
from .game import Game
from .room import Room


@dataclass
class Table:
    """Everything one `drd stul` serves."""

    game: Game
    room: Room
    file: str
    target: str | None
    lang: str | None
    say: Callable[[str], None] = field(default=lambda text: None)
    host: str = "127.0.0.1"
    port: int = 0
    app: Any = None

    def url(self, path: str = "") -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"http://{host}:{self.port}/{self.room.token}{path}"

    def gm_url(self) -> str:
        return self.url(f"/gm/{self.room.gm}")


def prepare(file: str, *, seed: int | None, opts: dict, target: str | None, lang: str | None,
            say: Callable[[str], None], write: Callable[[str, str], None], confirm: bool = False) -> Table:
    """The game of scenario `file` (a skeleton or a replay to go on with), not yet started."""
    from ..api import load_scenario, resolve_scenario
    from ..dice import new_seed
    from ..errors import ScenarioError
    from ..play import replay_rules
    from ..play.previews import game_so_far

    loaded = load_scenario(file)
    if loaded.system != "drd2":
        raise ScenarioError("drd stul resolves DrD II scenarios (system: drd2); for Dakara use drd dakara",
                            path=("system",))
    used_seed = seed if seed is not None else loaded.scenario.seed if loaded.scenario.seed is not None else new_seed()
    rules, _dirs = replay_rules(loaded, **opts)
    with open(file, encoding="utf-8-sig") as handle:
        text = handle.read()

    def run(**kw: Any) -> dict:
        return resolve_scenario(loaded, seed=used_seed, **opts, **kw)

    def finish(game: Game) -> None:
        session = game.session
        if target and (session.answered or game.outcome == "done"):
            write(target, session.replay_text(text, rules))
        if game.outcome == "done":
            game.transcripts.update(transcripts(game, target, lambda scen: resolve_scenario(scen, seed=used_seed,
                                                                                           **opts)))
            say(game.transcripts["gm"])
        elif game.outcome == "error":
            say("drd stul: " + (game.error or ""))

    game = Game(loaded, used_seed, run, finish=finish, confirm_rolls=confirm)
    game.session.so_far = lambda: game_so_far(game.session.replay_text(text, rules), file)
    game.session.so_far_group = opts.get("group")
    heroes = [pid for pid, p in loaded.scenario.participants.items()
              if p.pools is not None and not getattr(p, "secret", False)]
    return Table(game, Room(heroes), file, target, lang, say)


def transcripts(game: Game, target: str | None, resolve: Callable[[Any], dict]) -> dict[str, str]:
    """The GM's transcript (that of `drd resolve REPLAY`, sha256 footer included) and the players'."""
    from ..api import load_scenario
    from ..digest import digest
    from ..render.terminal import render_text
    from ..render.view import player_view

    if target:
        replayed = load_scenario(target)
        result = resolve(replayed)
        source = replayed
    else:
        result, source = dict(game.result or {}), game.loaded
    raw = source.digest_source() if hasattr(source, "digest_source") else getattr(source, "raw", None)
    result["digest"] = digest(result, raw, None)
    return {"gm": render_text(result), "players": render_text(player_view(result, game.loaded.scenario))}


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (bound here, so the address is known before the server runs)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def lan_address() -> str:
    """This machine's address on the local network (the route out; nothing is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))          # TEST-NET-1: never routed anywhere real
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def qr_text(url: str) -> str:
    """`url` as a QR code drawn with block characters (segno), for a phone's camera."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def server_for(table: Table, sock: socket.socket) -> Any:
    """A uvicorn server on `sock` whose Ctrl-C also stops the game's event streams at once."""
    import uvicorn

    from .server import TableApp

    table.app = TableApp(table.game, table.room, table.lang).app
    config = uvicorn.Config(table.app, log_level="warning", access_log=False, lifespan="off",
                            timeout_graceful_shutdown=0, limit_concurrency=1000, h11_max_incomplete_event_size=16384,
                            timeout_keep_alive=5, server_header=False)

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            # The session starts once the pages can be served: its first odds do not hold up the
            # server's start (the pages show "waiting" until the first question is up).
            if not table.game.thread.is_alive() and not table.game.finished:
                table.game.start()

        def handle_exit(self, sig: int, frame: Any) -> None:
            table.game.close()
            super().handle_exit(sig, frame)

    server = Server(config)
    return server


def serve(table: Table, sock: socket.socket, *, qr: bool = True) -> bool:
    """Runs until Ctrl-C or the end; True when the game was resolved to its end."""
    server = server_for(table, sock)
    game = table.game
    announce(table, qr=qr)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:       # uvicorn raises the Ctrl-C again once it has stopped
        pass
    game.close()
    game.thread.join(timeout=0.5)
    if not game.finished and game._finish is not None:
        # The session is busy (not at a question): its replay is written from here.
        with game.cond:
            game.outcome = game.outcome or "ended"
        game._finish(game)
    # After a resolved game, Ctrl-C is how the server is closed: not an interruption.
    return game.outcome == "done"


def announce(table: Table, *, qr: bool) -> None:
    say = table.say
    say(_("drd stul: {title} (seed {seed})").format(title=table.game.loaded.scenario.title or table.file,
                                                    seed=table.game.seed))
    if table.host in ("127.0.0.1", "::1", "localhost"):
        say(_("Listening on this computer only (loopback); phones at the table need --lan."))
    else:
        say(_("Listening on {host}: anyone on this network who has a link can open it; keep the links to "
              "the table.").format(host=table.host))
    say(_("Players and the table screen: {url}").format(url=table.url("/")))
    if qr:
        say(qr_text(table.url("/")))
    say(_("Table screen: {url}").format(url=table.url("/tv")))
    say(_("Game master (keep it to yourself): {url}").format(url=table.gm_url()))
    if table.target:
        say(_("Replay: {file}  (Ctrl-C ends the server; drd stul --resume goes on)").format(file=table.target))


def stdout_say(text: str) -> None:
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except (OSError, ValueError):
        pass


__all__ = ["Table", "prepare", "serve", "bind", "lan_address", "qr_text", "transcripts", "stdout_say"]
