"""Standard output and error that cannot fail a run for the wrong reason.

* `prepare_streams()` (the `drd` entry point): any encoding works — characters it lacks are
  replaced by a plain letter or `?` (REPLACE_ERRORS), never escapes or an error — and a closed
  stdout makes writes fail visibly instead of vanishing;
* `os_error_exit()` / `finish_output()`: a write that fails (full disk, closed stdout) is one line
  with the system's reason and exit 2 (docs/cli.md, "Output and colour");
* `no_surrogates()`, `no_surrogates_in()`: lone surrogates (no character at all) become "?"
  before anything is written (in the data, or in the pieces of a JSON text).

Standard library only (and typer's own click, already imported), for start-up speed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any


def no_surrogates(value: Any) -> Any:
    """`value` (a string, or lists/dicts of them) with every lone surrogate replaced by "?".

    A lone surrogate (`"\\ud800"` in a YAML string) is no character: no encoding can write it, so
    it is replaced before anything is printed or saved, whatever stream it goes to. What holds
    none is given back as it is (not copied: a 5,000-step battle's result is about 20 MB).
    """
    if isinstance(value, str):
        if value.isascii():
            return value
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        out: dict | None = None
        for i, (k, v) in enumerate(value.items()):
            k2, v2 = no_surrogates(k), no_surrogates(v)
            if out is None and (k2 is not k or v2 is not v):
                out = dict(list(value.items())[:i])
            if out is not None:
                out[k2] = v2
        return value if out is None else out
    if isinstance(value, (list, tuple)):
        items = None
        for i, v in enumerate(value):
            v2 = no_surrogates(v)
            if items is None and v2 is not v:
                items = list(value[:i])
            if items is not None:
                items.append(v2)
        if items is None:
            return value
        return items if isinstance(value, list) else tuple(items)
    return value


def no_surrogates_in(pieces: Iterable[str]) -> Iterator[str]:
    """The pieces of a text with every lone surrogate replaced by "?", as `no_surrogates` does
    to the data the text is made of: JSON writes a string's characters as they are, so cleaning
    its text gives the same bytes as cleaning the data first, at the speed of `str.isascii`
    instead of a walk over every value of a result (half a second for a 5,000-step battle's).
    One difference: two keys of one mapping that differ only in lone surrogates stay two keys
    (both "?"), where the data would keep one; scenario files cannot hold a lone surrogate, so
    only a plugin's answer could."""
    for piece in pieces:
        if not piece.isascii():
            try:
                piece.encode("utf-8")
            except UnicodeEncodeError:
                piece = piece.encode("utf-8", "replace").decode("utf-8")
        yield piece


OUTPUT_ERROR_EXIT = 2
"""The output could not be written (full disk, closed standard output, read-only folder): docs/cli.md."""

# Failures of the machine rather than of drd: a full disk, a closed or unusable descriptor.
_ENVIRONMENT_ERRNOS = {"ENOSPC", "EDQUOT", "EBADF", "EIO", "EFBIG", "EROFS", "ENXIO", "EINVAL"}


def os_error_exit(exc: OSError) -> int | None:
    """Reports an OSError that is the machine's, not drd's, in one line; returns its exit code.

    One naming a file → `drd: FILE: reason`; a write to standard output that failed (full
    disk, closed stream) → `drd: cannot write to standard output: reason`. None for anything else
    (then it is a bug: the caller reports an internal error).
    """
    import errno as _errno

    from ..i18n import gettext

    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        sys.stderr.write(f"drd: {exc.filename}: {reason}\n")
        return OUTPUT_ERROR_EXIT
    if _errno.errorcode.get(exc.errno or -1) in _ENVIRONMENT_ERRNOS:
        write_stderr(gettext("drd: cannot write to standard output: {reason}").format(reason=reason) + "\n")
        silence_stdout()
        return OUTPUT_ERROR_EXIT
    return None


def write_stderr(text: str) -> None:
    """Writes to stderr; a closed or broken stderr is ignored (the exit code still tells)."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def silence_stdout() -> None:
    """Points fd 1 at /dev/null, so that Python's final flush of what is left cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def finish_output(code: Any, exit_: BaseException | None = None) -> Any:
    """At the end of a run: flushes stdout; a failure there is never exit 0 (see os_error_exit).

    `exit_`: the SystemExit that ended the run. Click ends a run whose reader went away
    (EPIPE) with exit 1, wrapping the streams; that is the reader gone, exit 141 (docs/cli.md)."""
    if exit_ is not None and reader_went_away(exit_):
        for name in ("stdout", "stderr"):
            stream = getattr(sys, name)
            if type(stream).__name__ == "PacifyFlushWrapper" and hasattr(stream, "wrapped"):
                setattr(sys, name, stream.wrapped)
        return _reader_gone()
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        return _reader_gone()
    except OSError as exc:
        failed = os_error_exit(exc)
        if failed is None:
            failed = OUTPUT_ERROR_EXIT
            silence_stdout()
        return failed if code in (0, None) else code
    except ValueError:          # stdout closed by someone: nothing more to flush
        pass
    return code


def reader_went_away(exc: BaseException) -> bool:
    """`exc` is a SystemExit raised while handling a broken pipe (click's, typer's: exit 1)."""
    import errno as _errno

    cause = exc.__context__
    return isinstance(exc, SystemExit) and isinstance(cause, OSError) and cause.errno == _errno.EPIPE


REPLACE_ERRORS = "drd-replace"
"""The `errors=` of drd's stdout and stderr: a character the encoding lacks becomes its closest
plain letter (`ř` → `r`, `→` → `->`), else `?` — never an escape sequence."""

_PLAIN = {"→": "->", "←": "<-", "…": "...", "–": "-", "—": "-", "„": '"', "“": '"', "”": '"', "‚": "'",
          "‘": "'", "’": "'", "×": "x", "·": ".", "≥": ">=", "≤": "<=", "\u00a0": " ", "•": "*", "−": "-"}


def _replace_unencodable(exc: UnicodeError) -> tuple[str, int]:
    import unicodedata

    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        plain = _PLAIN.get(ch)
        if plain is None:
            plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        # Only ASCII replacements: every terminal encoding holds ASCII, while `exc.encoding` of a
        # code page is just "charmap" and cannot tell what that code page holds.
        out.append(plain if plain and plain.isascii() else "?")
    return "".join(out), exc.end


#: The streams that were closed when drd started (prepare_streams gave them /dev/null), so a
#: command can still say "standard output is closed" (drd play, docs/play.md).
CLOSED_AT_START: set[str] = set()


def prepare_streams() -> None:
    """Makes stdout/stderr safe for any encoding and for closed descriptors (the `drd` entry point).

    * characters the stream's encoding cannot show are replaced (REPLACE_ERRORS), so
      PYTHONIOENCODING=ascii, latin-1 or a POSIX locale never turn a message into an error or
      into `\\u0159` escapes;
    * a closed stdout (`drd … >&-`) gets a read-only /dev/null on fd 1: every write to it then
      fails with EBADF and the run ends with a one-line error instead of exit 0 with the output
      lost (and no file drd opens later can land on fd 1); a closed stderr gets /dev/null.
    """
    import codecs

    sane_columns()
    try:
        codecs.lookup_error(REPLACE_ERRORS)
    except LookupError:
        codecs.register_error(REPLACE_ERRORS, _replace_unencodable)
    for fd, name, flags in ((1, "stdout", os.O_RDONLY), (2, "stderr", os.O_WRONLY)):
        if getattr(sys, name) is not None:
            continue
        CLOSED_AT_START.add(name)
        try:
            new = os.open(os.devnull, flags)
            if new != fd:
                os.dup2(new, fd)
                os.close(new)
            setattr(sys, name, open(fd, "w", encoding="utf-8", errors=REPLACE_ERRORS, closefd=False))
        except OSError:
            pass
    for stream in (sys.stdout, sys.stderr):
        # io.TextIOWrapper's; a stream put in its place (a test's capture) may have none.
        reconfigure = getattr(stream, "reconfigure", None)
        try:
            if reconfigure is not None:
                reconfigure(errors=REPLACE_ERRORS)
        except (AttributeError, ValueError, OSError):
            pass
    _keep_click_on_our_streams()


MIN_COLUMNS, MAX_COLUMNS = 20, 1000
"""The narrowest and widest layout `$COLUMNS` may ask for (narrow tables stack, docs/cli.md)."""


def sane_columns(environ: Any = None) -> None:
    """`$COLUMNS` that is no width (`0`, `-5`, `abc`) is ignored, so the terminal's width (or 80)
    is used; one too narrow or too wide to lay anything out is brought to 20 or 1,000. (Rich
    prints nothing at width 0 and fails at 10**11.)"""
    env = os.environ if environ is None else environ
    raw = env.get("COLUMNS")
    if raw is None:
        return
    try:
        width = int(raw.strip())
    except ValueError:
        width = 0
    if width <= 0:
        del env["COLUMNS"]
    elif not MIN_COLUMNS <= width <= MAX_COLUMNS:
        env["COLUMNS"] = str(min(max(width, MIN_COLUMNS), MAX_COLUMNS))


def _keep_click_on_our_streams() -> None:
    """`typer.echo` on an ASCII stream: click would re-wrap the stream as UTF-8 (it calls ASCII
    "misconfigured"), sending bytes the terminal said it cannot show. It is given our streams as
    they are (with REPLACE_ERRORS) instead; without click's private hook nothing changes."""
    import codecs

    def ascii_stream(stream: Any) -> bool:
        try:
            return codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "ascii"
        except LookupError:
            return False

    if not (ascii_stream(sys.stdout) or ascii_stream(sys.stderr)):
        return
    import importlib

    for name in ("typer._click.utils", "click.utils"):     # typer ≥0.26 carries its own click
        try:
            click_utils = importlib.import_module(name)
        except ImportError:
            continue
        # Private hooks, set only where this click has them (so setattr, not attributes mypy knows).
        if hasattr(click_utils, "_default_text_stdout"):
            setattr(click_utils, "_default_text_stdout", lambda: sys.stdout)
        if hasattr(click_utils, "_default_text_stderr"):
            setattr(click_utils, "_default_text_stderr", lambda: sys.stderr)


BROKEN_PIPE_EXIT = 141
"""`drd rules | head`: the reader went away; 128 + SIGPIPE, what a killed C program would give."""


def reader_gone() -> int:
    """Silences stdout after the reader of a pipe has closed it; returns the exit code to use.

    Without this, Python's final flush of stdout would raise BrokenPipeError again at exit.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (tests): nothing to flush
        pass
    return BROKEN_PIPE_EXIT


def _reader_gone() -> int:
    return reader_gone()
