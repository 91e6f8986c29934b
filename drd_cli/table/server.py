"""The table's web app (Starlette): three pages, their event streams and actions, all behind tokens.

Every path begins with the room token; without a valid one — or with a valid room token and a
wrong player or GM token — the answer is 403 with an empty body, whatever the path. Pages are
Jinja2 templates with autoescaping; the state travels as JSON in an event stream and is put
into the page as text by stul.js (a Content-Security-Policy allows no inline script at all).
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from . import views
from .game import Game
from .room import MAX_BODY, MAX_TEXT, Room
from .words import page_language, words

HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = {"stul.css": "text/css", "stul.js": "text/javascript"}
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
}
HEARTBEAT = 15.0
STREAM_LIFETIME = 600.0


def forbidden() -> Response:
    return Response(b"", status_code=403, headers=HEADERS)


class TableApp:
    """The pages of one `Game` in one `Room`; `app` is the ASGI application."""

    def __init__(self, game: Game, room: Room, lang: str | None, base_url: str = ""):
        self.game, self.room, self.lang = game, room, lang
        self.base_url = base_url
        game.board_of = views.board
        from jinja2 import Environment, FileSystemLoader, select_autoescape

        self.env = Environment(loader=FileSystemLoader(os.path.join(HERE, "templates")),
                               autoescape=select_autoescape(default=True, default_for_string=True))
        self.app = Starlette(routes=[Route("/{path:path}", self.dispatch, methods=["GET", "POST"])])

    # ----------------------------------------------------------------- routing

    async def dispatch(self, request: Request) -> Response:
        parts = request.url.path.strip("/").split("/")
        room = self.room
        if not parts or not room.is_room(parts[0]):
            return forbidden()
        rest, get = parts[1:], request.method == "GET"
        if rest == [] and get:
            return self.join_page(request)
        if rest == ["join"] and not get:
            return await self.join(request)
        if rest == ["tv"] and get:
            return self.page(request, "tv", lambda: views.players_view(self.game))
        if rest == ["tv", "events"] and get:
            return self.stream("room", False, lambda: views.players_view(self.game))
        if len(rest) == 2 and rest[0] == "static" and get and rest[1] in STATIC:
            return FileResponse(os.path.join(HERE, "static", rest[1]), media_type=STATIC[rest[1]], headers=HEADERS)
        if len(rest) in (2, 3) and rest[0] == "p":
            pid = room.player(parts[0], rest[1])
            if pid is None:
                return forbidden()
            state = lambda: views.players_view(self.game, pid, "player")  # noqa: E731
            return await self.role(request, rest[2:], get, state, key=rest[1],
                                   act=lambda body: self.player_act(pid, body))
        if len(rest) in (2, 3) and rest[0] == "gm" and room.is_gm(parts[0], rest[1]):
            return await self.role(request, rest[2:], get, lambda: views.gm_view(self.game, self.links()),
                                   key="gm", act=self.gm_act)
        return forbidden()

    async def role(self, request: Request, tail: list[str], get: bool, state: Callable[[], dict], *, key: str,
                   act: Callable[[dict], str | None]) -> Response:
        role = "gm" if key == "gm" else "player"
        if tail == [] and get:
            return self.page(request, role, state)
        if tail == ["events"] and get:
            return self.stream(key, key == "gm", state)
        if tail == ["act"] and not get:
            if not self.room.allow(key):
                return self.refusal(request, "limit", 429)
            body = await read_json(request)
            if isinstance(body, int):
                return self.refusal(request, "size" if body == 413 else "bad", body)
            why = await asyncio.to_thread(act, body)
            if why is not None:
                return self.refusal(request, why, 409 if why not in ("bad", "not_yours", "gm_only") else 400)
            return JSONResponse({"ok": True}, headers=HEADERS)
        return forbidden()

    def refusal(self, request: Request, why: str, status: int) -> Response:
        lang = page_language(request.headers.get("accept-language"), self.lang)
        return JSONResponse({"ok": False, "error": why, "message": words(lang).get("err_" + why, why)},
                            status_code=status, headers=HEADERS)

    def links(self) -> list[dict]:
        scen = self.game.loaded.scenario
        return [{"id": pid, "name": scen.participants[pid].name or pid,
                 "url": f"{self.base_url}/{self.room.token}/p/{tok}", "claimed": pid in self.room.claimed}
                for tok, pid in self.room.players.items()]

    # ----------------------------------------------------------------- pages

    def page(self, request: Request, role: str, state: Callable[[], dict]) -> Response:
        lang = page_language(request.headers.get("accept-language"), self.lang)
        t = words(lang)
        data = state()
        html = self.env.get_template("page.html").render(
            role=role, t=t, lang=lang, title=data.get("title") or "drd", room=self.room.token,
            state_json=json.dumps({"state": data, "t": t}, ensure_ascii=False))
        return Response(html, media_type="text/html; charset=utf-8", headers=HEADERS)

    def join_page(self, request: Request) -> Response:
        lang = page_language(request.headers.get("accept-language"), self.lang)
        scen = self.game.loaded.scenario
        heroes = [{"id": pid, "name": scen.participants[pid].name or pid, "taken": pid in self.room.claimed}
                  for pid in self.room.players.values()]
        html = self.env.get_template("join.html").render(t=words(lang), lang=lang, room=self.room.token,
                                                          title=scen.title or "drd", heroes=heroes)
        return Response(html, media_type="text/html; charset=utf-8", headers=HEADERS)

    async def join(self, request: Request) -> Response:
        if not self.room.allow("join"):
            return Response(b"", status_code=429, headers=HEADERS)
        raw = await read_body(request)
        if raw is None:
            return Response(b"", status_code=413, headers=HEADERS)
        from urllib.parse import parse_qs

        pid = (parse_qs(raw.decode("utf-8", "replace")).get("pid") or [""])[0]
        token = self.room.claim(pid)
        if token is None:
            return RedirectResponse(f"/{self.room.token}/", status_code=303, headers=HEADERS)
        return RedirectResponse(f"/{self.room.token}/p/{token}", status_code=303, headers=HEADERS)

    # ----------------------------------------------------------------- the event stream

    def stream(self, key: str, gm: bool, state: Callable[[], dict]) -> Response:
        if self.game.ending or not self.room.open_stream(key, gm):
            return Response(b"", status_code=429, headers=HEADERS)
        game = self.game
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()
        unsubscribe = game.subscribe(lambda: loop.call_soon_threadsafe(woken.set))

        async def events():
            try:
                last, end = -1, loop.time() + STREAM_LIFETIME
                yield "retry: 1000\n\n"
                while not game.ending and loop.time() < end:
                    woken.clear()
                    if game.version != last:
                        data = state()
                        last = data["version"]
                        yield "event: state\ndata: " + json.dumps(data, ensure_ascii=False) + "\n\n"
                    try:
                        await asyncio.wait_for(woken.wait(), HEARTBEAT)
                    except asyncio.TimeoutError:
                        yield ": ping\n\n"
            finally:
                unsubscribe()
                self.room.close_stream(key)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    # ----------------------------------------------------------------- actions

    def player_act(self, pid: str, body: dict) -> str | None:
        qid, text = body.get("q"), body.get("text")
        if not isinstance(qid, int) or not isinstance(text, str) or len(text) > MAX_TEXT or set(body) - {"q", "text"}:
            return "bad"
        return self.game.answer(qid, text, gm=False, pid=pid, by=pid)

    def gm_act(self, body: dict) -> str | None:
        cmd, text = body.get("cmd"), body.get("text", "")
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            return "bad"
        if cmd == "answer" and isinstance(body.get("q"), int):
            return self.game.answer(body["q"], text, gm=True, by="gm")
        if cmd in ("undo", "redo", "pause", "resume", "end"):
            return self.game.control(cmd)
        if cmd == "confirm":
            return self.game.confirm()
        if cmd == "correct" and text.strip():
            return self.game.correct(text)
        return "bad"


async def read_body(request: Request) -> bytes | None:
    """The body, or None when it is larger than MAX_BODY (read no further than that)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return None
    got = b""
    async for chunk in request.stream():
        got += chunk
        if len(got) > MAX_BODY:
            return None
    return got


async def read_json(request: Request) -> Any:
    """The action as a dict, or the status refusing it (413 too large, 400 not a JSON object)."""
    raw = await read_body(request)
    if raw is None:
        return 413
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return 400
    return body if isinstance(body, dict) else 400
