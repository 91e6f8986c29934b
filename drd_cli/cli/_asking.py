"""What `drd play` and `drd resolve --choose ask` share: asking at the table on a terminal.

(Its own module, so that cli/play.py, which imports cli/resolve.py's options, and cli/resolve.py,
which asks, import it without importing each other.)
"""

from __future__ import annotations

import sys

import typer

INTERRUPTED_EXIT = 130


def _say_err(text: str) -> None:
    """A line on standard error, if there is one (a closed stderr must not turn into a traceback)."""
    if sys.stderr is not None:
        try:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def require_terminal() -> None:
    """`--choose ask` talks to a person: without an interactive standard input it is a usage error."""
    if not sys.stdin.isatty():
        from ..i18n import _

        sys.stderr.write(_("drd: --choose ask asks at the table and needs a terminal (standard input is not "
                           "interactive)\n  → in a batch use --choose accept|exhaust or write `choices` into the file")
                         + "\n")
        raise typer.Exit(2)


def resolve_asking(loaded, *, seed, params, enable, disable, group) -> dict:  # noqa: ANN001
    """`drd resolve --choose ask`: the dice as usual (file, seed), each open decision asked on stderr."""
    from ..api import resolve_scenario
    from ..dice import new_seed
    from ..play import Session, Table

    used = seed if seed is not None else loaded.scenario.seed if loaded.scenario.seed is not None else new_seed()

    def run(**kw):
        return resolve_scenario(loaded, seed=used, params=params, enable=enable, disable=disable, group=group, **kw)

    session = Session(loaded, Table(sys.stdin, sys.stderr), used, run, ask_rolls=False)
    try:
        return session.run()
    except (KeyboardInterrupt, EOFError):
        from ..i18n import _

        _say_err("\ndrd: " + _("interrupted (Ctrl-C)"))
        raise typer.Exit(INTERRUPTED_EXIT) from None
