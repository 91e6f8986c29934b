"""User-facing errors: every problem a user can cause ends as one of these, never a traceback.

`exit_code` follows SCENARIO-FORMAT §7: 2 = the file is not a valid scenario (file:line:col),
1 = the file is valid but a rule forbids something in it (file:line and the rule id).
"""

from __future__ import annotations

from dataclasses import dataclass, field


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


@dataclass
class Problem:
    """One problem, printable as `FILE:LINE:COL: message [rule]`."""

    message: str
    location: Location = field(default_factory=Location)
    rule: str | None = None
    hint: str | None = None
    # Where in the scenario document the problem is, as keys/indices from the root
    # (("rounds", 0, "steps", 1, "choices", "zira")). The pure engine only knows paths;
    # the CLI turns them into file:line:col with the loader's source map.
    path: tuple = ()
    # The numbers of the problem for programs (e.g. R-EXH-4: cost, pool, have, missing), so that
    # nobody parses them back out of the message, which is translated (docs/i18n.md).
    data: dict = field(default_factory=dict)

    def format(self) -> str:
        place = str(self.location)
        # A problem no file can be named for (a library caller's scenario object) is the message alone.
        text = f"{place}: {self.message}" if place != Location.file else self.message
        if self.rule:
            text += f" [{self.rule}]"
        if self.hint:
            text += f"\n  → {self.hint}"
        return text


class DrdError(Exception):
    """Base of errors that carry problems and an exit code."""

    exit_code = 2

    def __init__(self, problems: list[Problem] | Problem | str, location: Location | None = None,
                 rule: str | None = None, hint: str | None = None, path: tuple = (), data: dict | None = None):
        if isinstance(problems, str):
            problems = [Problem(problems, location or Location(), rule, hint, tuple(path), dict(data or {}))]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = problems
        super().__init__("\n".join(p.format() for p in problems))

    def format(self) -> str:
        return "\n".join(p.format() for p in self.problems)


class ScenarioError(DrdError):
    """The file is not a valid scenario (exit 2)."""

    exit_code = 2


class RuleViolation(DrdError):
    """The file is valid but a rule forbids something in it (exit 1)."""

    exit_code = 1
