"""The game behind the table's pages: `drd play`'s own `Session`, run in a thread.

The session asks through a `Table`; here that table is `WebTable`, whose `ask` publishes the
question (`Game.pending`) and waits until a page answers it. So every rule of `drd play` holds as
it is — the same parsing of dice, the same offers and prices, undo/redo by the words `zpět` and
`znovu`, `?` — and the replay and transcript are the ones `drd play` writes.

Who may answer is decided here (`Game.answer`): a question belongs to the participant it is
about; the GM may answer any; a question of a secret step or about a secret participant is the
GM's only. Every change bumps `version` and wakes the subscribers (the pages' event streams).
"""

from __future__ import annotations

import re
import threading
from typing import Any, Callable

from ..play import Session, Table
from ..play.reading import REDO_WORDS, UNDO_LETTERS, UNDO_WORDS, control_word

OPTION = re.compile(r"^\s*\[(\w+)\]\s+(.*)$")
MAX_LOG = 2000


class Ended(EOFError):
    """The GM ended the game, or the server is closing: the session stops where it is."""


class TableSession(Session):
    """A `Session` that says which question it is asking: a roll or a decision, and for whom."""

    def __init__(self, *args: Any, on_question: Callable[[dict], None], **kw: Any):
        self._on_question = on_question
        self.taken: tuple[str, ...] = ()
        super().__init__(*args, **kw)

    def _ask_dice(self, s: Any, n: int, who: str, purpose: str, fresh: bool, *, allow_total: bool) -> Any:
        ctx = s.ctx if s is not None else None
        self._on_question({"kind": "roll", "who": who, "n": n, "purpose": purpose, "ctx": ctx})
        return super()._ask_dice(s, n, who, purpose, fresh, allow_total=allow_total)

    def decide(self, choices: Any, who: str, vs: str, *, optional: bool) -> Any:
        ctx = self.seen.ctx if self.seen is not None else None
        self._on_question({"kind": "decision", "who": who, "vs": vs, "ctx": ctx})
        return super().decide(choices, who, vs, optional=optional)

    def ask(self, prompt: str, taken: tuple[str, ...] = (), usage: str | None = None) -> str:
        self.taken = taken
        return super().ask(prompt, taken, usage=usage)


class WebTable(Table):
    """The session's prompts and lines go to the `Game`; answers come from the pages."""

    def __init__(self, game: "Game"):
        super().__init__(None, None)
        self.game = game

    def say(self, text: str = "") -> None:
        if not self.quiet:
            self.game.said(text)

    def ask(self, prompt: str) -> str:
        line = self.game.wait_answer(prompt)
        self.read += 1
        return line


class Game:
    """One conflict at the table: the session thread, the question being asked, the log, the end."""

    def __init__(self, loaded: Any, seed: int, resolve: Callable[..., dict], *, redo: list | None = None,
                 finish: Callable[["Game"], None] | None = None, confirm_rolls: bool = False):
        self.loaded = loaded
        # `drd stul --confirm`: a player's typed roll waits for the GM to confirm or correct it.
        self.confirm_rolls = confirm_rolls
        self.proposed: dict | None = None    # {"q", "text", "by"}: the roll a player typed
        self.seed = seed
        self.cond = threading.Condition()
        self.version = 0
        self.log: list[dict] = []            # {"text", "secret", "step"}
        self.question: dict = {}             # the current roll or decision (kind, who, ...)
        self.lines: list[str] = []           # what was said since that question began
        self.pending: dict | None = None     # the question waiting for an answer
        self._qid = 0
        self._mark = 0                       # where in `lines` the last answer was given
        self.pending_last: dict | None = None
        self._answer: str | None = None
        self.paused = False
        self.ending = False
        self.finished = False
        self.outcome: str | None = None      # "done" | "ended" | "error"
        self.error: str | None = None
        self.result: dict | None = None
        self.transcripts: dict[str, str] = {}
        self.last_by: dict[str, str] = {}    # who answered the last question of each kind (for the GM)
        self._subscribers: list[Callable[[], object]] = []
        self._finish = finish
        # The participants' state, taken by the session's own thread whenever it waits (views.board):
        # the pages never read the engine's state while it changes.
        self.board_of: Callable[["Game"], dict] | None = None
        self.board_cache: dict | None = None
        from ..render.view import secret_marks

        self.secret_people, self.secret_steps = secret_marks(loaded.scenario)
        self.table = WebTable(self)
        self.session = TableSession(loaded, self.table, seed, resolve, redo=redo, on_question=self._new_question)
        self.thread = threading.Thread(target=self._run, name="drd-stul-session", daemon=True)

    # ----------------------------------------------------------------- subscribers (event streams)

    def subscribe(self, wake: Callable[[], object]) -> Callable[[], None]:
        with self.cond:
            self._subscribers.append(wake)

        def unsubscribe() -> None:
            with self.cond:
                if wake in self._subscribers:
                    self._subscribers.remove(wake)
        return unsubscribe

    def _changed(self) -> None:
        """Called with `cond` held: a new version, every stream woken."""
        self.version += 1
        self.cond.notify_all()
        for wake in list(self._subscribers):
            try:
                wake()
            except RuntimeError:          # the stream's loop is gone
                pass

    def changed(self) -> None:
        with self.cond:
            self._changed()

    # ----------------------------------------------------------------- the session's side

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        try:
            self.result = self.session.run()
            outcome = "done"
        except Ended:
            outcome = "ended"
        except Exception as exc:  # noqa: BLE001 - shown on the GM's page and in the terminal, not a traceback
            from ..errors import DrdError

            outcome = "error"
            self.error = str(exc) if isinstance(exc, DrdError) else f"{type(exc).__name__}: {exc}"
        with self.cond:
            self.outcome = outcome
            self.pending = None
        if self._finish is not None:
            try:
                self._finish(self)
            except Exception as exc:  # noqa: BLE001
                self.error = self.error or f"{type(exc).__name__}: {exc}"
        with self.cond:
            self.finished = True
            self._snapshot()
            self._changed()

    def _snapshot(self) -> None:
        if self.board_of is not None:
            try:
                self.board_cache = self.board_of(self)
            except Exception:  # noqa: BLE001 - the previous snapshot stays
                pass

    def _new_question(self, question: dict) -> None:
        with self.cond:
            self.question = question
            self.lines = []
            self._mark = 0
            self.pending_last = None

    def step_now(self) -> tuple[int | None, str | None]:
        seen = self.session.seen
        if seen is None:
            return None, None
        data = seen.ctx.record.data
        return data.get("round"), data.get("id")

    def is_secret_now(self) -> bool:
        return tuple(self.step_now()) in self.secret_steps

    def _mentions_secret(self, text: str) -> bool:
        names = [self.loaded.scenario.participants[p].name or p for p in self.secret_people
                 if p in self.loaded.scenario.participants]
        return any(n and n in text for n in names + list(self.secret_people))

    def said(self, text: str) -> None:
        with self.cond:
            secret = self.is_secret_now() or self._mentions_secret(text)
            for line in text.split("\n"):
                entry = {"text": line, "secret": secret, "step": self.step_now()[1]}
                self.log.append(entry)
                self.lines.append(line)
            del self.log[:-MAX_LOG]
            self._changed()

    def wait_answer(self, prompt: str) -> str:
        with self.cond:
            if self.ending:
                raise Ended
            self._qid += 1
            q = self.question
            # The options are those said since the last answer; a question asked again as it was
            # (after `?` or a refused answer) keeps the ones it had.
            options = [{"key": m.group(1), "text": m.group(2)} for m in map(OPTION.match, self.lines[self._mark:]) if m]
            before = self.pending_last
            if not options and before is not None and before["prompt"] == prompt.strip() and \
                    before["who"] == q.get("who"):
                options = before["options"]
            secret = (self.is_secret_now() or q.get("who") in self.secret_people
                      or q.get("vs") in self.secret_people or any(self._mentions_secret(x) for x in self.lines))
            self.pending = {"id": self._qid, "prompt": prompt.strip(), "lines": list(self.lines),
                            "kind": q.get("kind"), "who": q.get("who"), "vs": q.get("vs"), "n": q.get("n"),
                            "options": options, "taken": list(self.session.taken), "secret": secret}
            self._answer = None
            self.proposed = None
            self._snapshot()
            self._changed()
            while self._answer is None and not self.ending:
                self.cond.wait()
            if self._answer is None:
                raise Ended
            answer, self._answer = self._answer, None
            self.pending_last, self.pending = self.pending, None
            self._mark = len(self.lines)
            self._changed()
            return answer

    # ----------------------------------------------------------------- the pages' side

    def answer(self, qid: int, text: str, *, gm: bool, pid: str | None = None, by: str = "") -> str | None:
        """Gives `text` to question `qid`; None when taken, else why not (a message key of words.py)."""
        with self.cond:
            p = self.pending
            if self.finished or self.outcome:
                return "over"
            if p is None or p["id"] != qid or self._answer is not None:
                return "taken"          # answered already (perhaps not yet taken up by the session)
            if not gm:
                if self.paused:
                    return "paused"
                if p["secret"] or p["who"] != pid:
                    return "not_yours"
                word = text.strip().lower()
                if word in UNDO_WORDS or word in REDO_WORDS or control_word(text, tuple(p["taken"])) in ("undo", "redo"):
                    return "gm_only"
                if word in UNDO_LETTERS and word not in p["taken"]:
                    return "gm_only"
                if self.confirm_rolls and p["kind"] == "roll" and word != "?":
                    self.proposed = {"q": qid, "text": text, "by": by}
                    self._changed()
                    return None
            self.proposed = None
            self._answer = text
            self.last_by[p["kind"] or ""] = by
            self.cond.notify_all()
            return None

    def control(self, word: str) -> str | None:
        """The GM's undo/redo (the session's own words), pause/resume, end."""
        if word in ("pause", "resume"):
            with self.cond:
                self.paused = word == "pause"
                self._changed()
            return None
        if word == "end":
            with self.cond:
                self.ending = True
                self.cond.notify_all()
            return None
        with self.cond:
            p = self.pending
            if p is None:
                return "over" if self.finished else "taken"
            qid = p["id"]
        return self.answer(qid, "zpět" if word == "undo" else "znovu", gm=True, by="gm")

    def confirm(self) -> str | None:
        """The GM confirms the roll a player typed (`--confirm`): it is entered as typed."""
        with self.cond:
            got = self.proposed
            if got is None or self.pending is None or self.pending["id"] != got["q"]:
                return "no_roll"
        return self.answer(got["q"], got["text"], gm=True, by=got["by"])

    def correct(self, text: str) -> str | None:
        """The GM corrects the roll a player typed and waits to be confirmed, or else the last roll
        entered: that one is undone, and `text` entered for it instead."""
        with self.cond:
            got = self.proposed
            if got is not None and self.pending is not None and self.pending["id"] == got["q"]:
                qid = got["q"]
            else:
                qid = None
        if qid is not None:
            return self.answer(qid, text, gm=True, by="gm")
        with self.cond:
            last = next((e for e in reversed(self.session.history) if e.asked), None)
            if last is None or last.kind != "roll":
                return "no_roll"
            p = self.pending
            if p is None:
                return "over"
            if self._answer is not None:
                return "taken"
            self._answer = "zpět"
            self.cond.notify_all()
            # The session runs again up to that roll and asks it anew.
            ok = self.cond.wait_for(lambda: self.pending is not None and self.pending["id"] != p["id"] or
                                    self.finished, timeout=10)
            if not ok or self.pending is None:
                return "over"
            qid = self.pending["id"]
        return self.answer(qid, text, gm=True, by="gm")

    def close(self) -> None:
        """The server is closing: the session stops at its question (the replay keeps what was entered)."""
        with self.cond:
            self.ending = True
            self._changed()
