"""User-facing errors: every problem a user can cause ends as one of these, never a traceback.

`exit_code` follows SCENARIO-FORMAT §7: 2 = the file is not a valid scenario (file:line:col),
1 = the file is valid but a rule forbids something in it (file:line and the rule id).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union


#: The `file` of a Location for settings given on the command line (`--set`, `--enable`).
COMMAND_LINE = "command line"


@dataclass(frozen=True)
class Location:
    """A place in a source file; line and col are 1-based (0 = unknown)."""

    file: str = "<scenario>"
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col or 1}"
        if self.file == COMMAND_LINE:
            # --set/--enable are in no file: the place is a word for people (JSON keeps the code).
            from .i18n import _

            return _("command line")
        return self.file



class Message:
    """Words not made yet: what a refusal says, as data (docs/architecture.md, "How to add a rule
    violation"). `key` is the English msgid — the key of the gettext catalogs, marked with `N_()`
    where it is written so that `python -m drd_cli.i18n extract` finds it — and `args` the values
    it is formatted with (strings shown as they are, numbers, or other Messages, worded first).
    `tail` is a plugin's note shown after it (` — note`). Nothing is translated until the message
    is shown: `str()` (or a format spec) words it in the active language (`drd_cli.wording.say`).
    The key is always a format string: a literal brace is written `{{`."""

    __slots__ = ("key", "args", "tail", "plural_key", "n")

    def __init__(self, key: str, /, **args: Any) -> None:
        self.key = key
        self.args: dict[str, Any] = args
        self.tail = ""
        self.plural_key: str | None = None
        self.n = 0

    @classmethod
    def plural(cls, singular: str, plural: str, n: int, /, **args: Any) -> "Message":
        """A message whose words depend on the number `n` (`ngettext`'s singular and plural msgids)."""
        out = cls(singular, **args)
        out.plural_key, out.n = plural, n
        return out

    def followed_by(self, note: str | None) -> "Message":
        """The same message with a note after it (` — note`); itself when there is no note."""
        if not note:
            return self
        out = Message(self.key, **self.args)
        out.tail, out.plural_key, out.n = note, self.plural_key, self.n
        return out

    def __str__(self) -> str:
        from .wording import say

        return say(self)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def _key(self) -> tuple:
        return (self.key, self.args, self.tail, self.plural_key, self.n)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.key, self.tail))

    def __repr__(self) -> str:
        return f"Message({self.key!r}, **{self.args!r})" + (f".followed_by({self.tail!r})" if self.tail else "")

    def __reduce__(self) -> tuple:
        return (_message, self._key())


def _message(key: str, args: dict[str, Any], tail: str, plural_key: str | None, n: int) -> Message:
    out = Message(key, **args).followed_by(tail)
    out.plural_key, out.n = plural_key, n
    return out


#: A problem's text: words already made, or a Message worded when it is shown.
Text = Union[str, Message]

#: Where in a scenario the engine is: the parsed document's keys and list indices from the top
#: (("rounds", 0, "steps", 1, "choices", "zira")), as the engine's problems carry them.
DocPath = tuple[Union[str, int], ...]


class Problem:
    """One problem, printable as `FILE:LINE:COL: message [rule]`.

    A Message given for `message` or `hint` is kept as data (`said`, `said_hint`) and worded only
    when they are read — where the problem is shown — in the language that was active when the
    problem was raised (`lang`), as the words always were; `wording.say(problem.said)` words it
    in the language active at that call."""

    def __init__(self, message: Text, location: Location | None = None, rule: str | None = None,
                 hint: Text | None = None, path: tuple = (), data: dict | None = None) -> None:
        self.said = message
        self.location = location if location is not None else Location()
        self.rule = rule
        self.said_hint = hint
        # Where in the scenario document the problem is, as keys/indices from the root
        # (("rounds", 0, "steps", 1, "choices", "zira")). The pure engine only knows paths;
        # the CLI turns them into file:line:col with the loader's source map.
        self.path = path
        # The numbers of the problem for programs (e.g. R-EXH-4: cost, pool, have, missing), so that
        # nobody parses them back out of the message, which is translated (docs/i18n.md).
        self.data: dict = data if data is not None else {}
        self.lang: str | None = None
        if isinstance(message, Message) or isinstance(hint, Message):
            from .i18n import language

            self.lang = language()

    def _words(self, text: Text) -> str:
        if isinstance(text, str):
            return text
        from .i18n import using

        with using(self.lang):
            return str(text)

    @property
    def message(self) -> str:
        return self._words(self.said)

    @message.setter
    def message(self, text: str) -> None:
        self.said = text

    @property
    def hint(self) -> str | None:
        return None if self.said_hint is None else self._words(self.said_hint)

    @hint.setter
    def hint(self, text: str | None) -> None:
        self.said_hint = text

    def _key(self) -> tuple:
        return (self.said, self.location, self.rule, self.said_hint, self.path, self.data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and self._key() == other._key()

    def __repr__(self) -> str:
        return (f"Problem(message={self.said!r}, location={self.location!r}, rule={self.rule!r}, "
                f"hint={self.said_hint!r}, path={self.path!r}, data={self.data!r})")

    def format(self) -> str:
        place = str(self.location)
        message = self.message
        # A problem no file can be named for (a library caller's scenario object) is the message alone.
        text = f"{place}: {message}" if place != Location.file else message
        if self.rule:
            text += f" [{self.rule}]"
        hint = self.hint
        if hint:
            text += f"\n  → {hint}"
        return text


class DrdError(Exception):
    """Base of errors that carry problems and an exit code; its text (`str()`, `format()`) is
    made when it is shown."""

    exit_code = 2

    def __init__(self, problems: list[Problem] | Problem | Text, location: Location | None = None,
                 rule: str | None = None, hint: Text | None = None, path: tuple = (), data: dict | None = None):
        if isinstance(problems, (str, Message)):
            problems = [Problem(problems, location or Location(), rule, hint, tuple(path), dict(data or {}))]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = problems
        super().__init__(problems)

    def __str__(self) -> str:
        return self.format()

    def format(self) -> str:
        return "\n".join(p.format() for p in self.problems)


class ScenarioError(DrdError):
    """The file is not a valid scenario (exit 2)."""

    exit_code = 2


class RuleViolation(DrdError):
    """The file is valid but a rule forbids something in it (exit 1)."""

    exit_code = 1
