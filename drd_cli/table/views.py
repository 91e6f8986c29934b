"""What each page is sent: the GM's full state, a player's and the TV's players' view.

A snapshot is plain JSON data; the pages put it into the document as text (never as HTML), so a
participant named `<script>` is shown as those characters. The players' view leaves out every
secret participant, every log line of a secret step or naming a secret participant, and every
question the players may not see (docs/stul.md, Security).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from .game import Game

POOLS = ("telo", "duse", "vliv")
HINT = re.compile(r"^\([^)]*\)\s*")


def board(game: Game) -> dict:
    """The participants' state now (the live engine state once the first roll was seen)."""
    scen = game.loaded.scenario
    seen = game.session.seen
    people = []
    final = (game.result or {}).get("final") if game.result else None
    for pid, p in scen.participants.items():
        entry: dict[str, Any] = {"id": pid, "name": p.name or pid, "side": p.side,
                                 "secret": pid in game.secret_people}
        state = None
        if final is not None and pid in final:
            state = final[pid]
        elif seen is not None:
            try:
                state = seen.w.peek(pid).final(seen.ctx.round.number)
            except Exception:  # noqa: BLE001 - a participant not yet in the state: the file's values
                state = None
        if state is None:
            state = _initial(p)
        entry["hero"] = "telo" in state or p.pools is not None
        entry.update({k: state.get(k) for k in (*POOLS, "sudba", "ohrozeni", "vyhody") if k in state})
        entry["jizvy"] = list(state.get("jizvy") or [])
        entry["conditions"] = [c if isinstance(c, str) else f"{c.get('name')} ({c.get('rounds')})"
                               for c in state.get("conditions") or []]
        people.append(entry)
    rnd, step = game.step_now()
    rolls = {}
    if seen is not None:
        for who, r in (seen.ctx.record.data.get("rolls") or {}).items():
            if isinstance(r, dict):
                rolls[who] = {"total": r.get("total"), "dice": r.get("dice")}
    from ..render.values import scenario_step_title

    title = scenario_step_title(scen, step) if step else None   # people read `útěk`, not the id `utek`
    return {"round": rnd, "step": step, "step_title": title or step,
            "kind": seen.ctx.record.data.get("kind") if seen else None,
            "initiative": _initiative(scen, rnd), "people": people, "rolls": rolls}


def _initial(p: Any) -> dict:
    out: dict[str, Any] = {}
    if p.pools is not None:
        pools = p.pools.model_dump() if hasattr(p.pools, "model_dump") else dict(p.pools)
        out.update({k: pools.get(k, 0) for k in POOLS})
    else:
        out["sudba"] = p.sudba
    out.update(ohrozeni=p.ohrozeni, vyhody=p.vyhody, jizvy=list(p.jizvy),
               conditions=[c if isinstance(c, str) else getattr(c, "name", str(c)) for c in p.conditions])
    return out


def _initiative(scen: Any, rnd: int | None) -> list[str]:
    rounds = scen.rounds or []
    if not rnd or rnd > len(rounds):
        return []
    ini = rounds[rnd - 1].initiative
    return list(ini) if isinstance(ini, list) else []


def gm_view(game: Game, links: list[dict]) -> dict:
    """Everything: every participant, the whole log, the question wherever it is, the players' links."""
    with game.cond:
        b = copy.deepcopy(game.board_cache) if game.board_cache else board(game)
        return {"role": "gm", "version": game.version, "title": game.loaded.scenario.title,
                "status": _status(game), "board": b, "log": [e["text"] for e in game.log[-400:]],
                "pending": dict(game.pending) if game.pending else None,
                "can_undo": any(e.asked for e in game.session.history), "can_redo": bool(game.session.redo),
                "players": links, "error": game.error, "transcript": game.transcripts.get("gm"),
                "proposed": dict(game.proposed) if game.proposed else None}


def players_view(game: Game, pid: str | None = None, role: str = "tv") -> dict:
    """The players' view; with `pid`, that player's own character and questions."""
    with game.cond:
        b = copy.deepcopy(game.board_cache) if game.board_cache else board(game)
        hidden = game.secret_people
        secret_step = game.is_secret_now()
        b["people"] = [p for p in b["people"] if not p["secret"]]
        b["initiative"] = [x for x in b["initiative"] if x not in hidden]
        b["rolls"] = {} if secret_step else {k: v for k, v in b["rolls"].items() if k not in hidden}
        if secret_step:
            b["step"] = b["step_title"] = b["kind"] = None
        log = [e["text"] for e in game.log if not e["secret"]][-400:]
        p = game.pending
        turn = None
        if p is not None and not p["secret"] and p["who"] not in hidden:
            turn = {"who": p["who"], "kind": p["kind"]}
        mine = None
        if pid is not None and p is not None and not p["secret"] and p["who"] == pid and not game.paused:
            mine = {k: p[k] for k in ("id", "prompt", "lines", "kind", "n", "options")}
            # The prompt's hint names undo and redo, which are the GM's: a player's page leaves it out.
            mine["prompt"] = HINT.sub("", mine["prompt"])
            got = game.proposed
            mine["proposed"] = got["text"] if got and got["q"] == p["id"] else None
        return {"role": role, "version": game.version, "title": game.loaded.scenario.title,
                "status": _status(game), "board": b, "log": log, "turn": turn, "me": pid, "question": mine,
                "transcript": game.transcripts.get("players")}


def _status(game: Game) -> str:
    if game.finished:
        return {"done": "done", "ended": "ended"}.get(game.outcome or "", "error")
    return "paused" if game.paused else "running"
