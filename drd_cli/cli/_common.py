"""Shared CLI plumbing: the error guard, atomic output files, consoles.

Imports only the standard library and typer at module level, so `drd --version`, `--help` and
shell completion stay fast; rich is imported only when a console is actually made.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import typer

INTERNAL_ERROR_EXIT = 3
"""Exit code of a bug in drd itself (never caused by a scenario): 0/1/2 keep their contract meaning."""


def fail(error: Any) -> typer.Exit:
    """Prints a DrdError's problems on stderr; returns the Exit to raise with its exit code."""
    sys.stderr.write(error.format().rstrip("\n") + "\n")
    return typer.Exit(error.exit_code)


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """Turns every user-facing error into its message and exit code, never a traceback.

    DrdError → its `.format()` lines and `.exit_code`. Anything else is a bug in drd: one line
    naming it (exit 3); `DRD_DEBUG=1` re-raises it for the traceback.
    """
    from ..errors import DrdError

    try:
        yield
    except DrdError as exc:
        raise fail(exc) from None
    except (typer.Exit, typer.Abort, KeyboardInterrupt):
        raise
    except Exception as exc:  # noqa: BLE001 - the guard's whole point
        if os.environ.get("DRD_DEBUG"):
            raise
        sys.stderr.write(f"drd: internal error: {type(exc).__name__}: {exc}\n"
                         "  → this is a bug in drd, not in your file; DRD_DEBUG=1 shows the traceback\n")
        raise typer.Exit(INTERNAL_ERROR_EXIT) from None


def write_atomic(path: str, text: str) -> None:
    """Writes `text` (UTF-8) to `path` all at once: a temp file in the same folder, then os.replace.

    A reader never sees a half-written file, and a failure leaves any old file untouched.
    """
    from ..errors import DrdError, Location

    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".drd-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise DrdError(f"cannot write {path}: {exc.strerror or exc}", Location(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp creates 0600; give the result the usual permissions (umask applies).
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise DrdError(f"cannot write {path}: {exc.strerror or exc}", Location(path)) from None
        raise


def make_console(*, stderr: bool = False) -> Any:
    """A rich console for stdout (or stderr): colour only on a terminal and without NO_COLOR."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    no_color = bool(os.environ.get("NO_COLOR"))
    is_tty = hasattr(stream, "isatty") and stream.isatty()
    return Console(file=stream, no_color=no_color, highlight=False, emoji=False,
                   color_system="auto" if (is_tty and not no_color) else None)


def parse_params(pairs: list[str] | None) -> dict[str, str]:
    """`--set k=v` options → {k: v}; a malformed one is a usage error (exit 2)."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{pair!r}: expected KEY=VALUE, e.g. tie=counter", param_hint="--set")
        out[key.strip()] = value.strip()
    return out
