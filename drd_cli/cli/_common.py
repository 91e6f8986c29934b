"""Shared CLI plumbing: the error guard, atomic output files, consoles.

Imports only the standard library and typer at module level, so `drd --version`, `--help` and
shell completion stay fast; rich is imported only when a console is actually made.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Iterator
from enum import Enum
from typing import TYPE_CHECKING, Any

import typer

from ._streams import (OUTPUT_ERROR_EXIT, REPLACE_ERRORS, finish_output, no_surrogates, no_surrogates_in,  # noqa: F401
                       os_error_exit, prepare_streams, silence_stdout, write_stderr)

if TYPE_CHECKING:      # rich is imported when a console is made, never at start-up
    from rich.console import Console

INTERNAL_ERROR_EXIT = 3
"""Exit code of a bug in drd itself (never caused by a scenario): 0/1/2 keep their contract meaning."""


def N_(message: str) -> str:
    """Marks a message for the catalogs (like drd_cli.i18n.N_) without importing gettext at startup.

    CLI modules use it for help texts, so the catalogs carry them.
    """
    return message


# Where a rules setting comes from (drd_cli/rules.py origins), as `drd rules` and `drd diff` print it.
ORIGIN_WORDS = {"default": N_("default"), "scenario": N_("scenario"), "command line": N_("command line")}


def origin_text(origin: Any) -> str:
    """An origin ('default', 'group ctvrtek', 'scenario', 'command line') in the active language."""
    from ..i18n import _

    if origin is None:
        return ""
    if origin.startswith("group "):
        return _("group {name}").format(name=origin[len("group "):])
    return _(ORIGIN_WORDS[origin]) if origin in ORIGIN_WORDS else str(origin)


def fail(error: Any) -> typer.Exit:
    """Prints a DrdError's problems on stderr; returns the Exit to raise with its exit code."""
    sys.stderr.write(no_surrogates(error.format().rstrip("\n")) + "\n")
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
    except typer.BadParameter:
        raise       # a usage error we raised ourselves: Typer prints it with the usage line, exit 2
    except BrokenPipeError:
        raise typer.Exit(reader_gone()) from None
    except OSError as exc:
        code = os_error_code(exc)
        if code is None:
            raise
        raise typer.Exit(code) from None
    except Exception as exc:  # noqa: BLE001 - the guard's whole point
        if os.environ.get("DRD_DEBUG"):
            raise
        sys.stderr.write(internal_error_text(exc))
        raise typer.Exit(INTERNAL_ERROR_EXIT) from None


def os_error_code(exc: OSError) -> int | None:
    """The exit code for an OSError that ends a command: a write failure's documented one (its
    one-line message already written), else an internal error (message written, exit 3) — or None
    under DRD_DEBUG, where the caller re-raises it for the traceback."""
    code = os_error_exit(exc)
    if code is None:
        if os.environ.get("DRD_DEBUG"):
            return None
        sys.stderr.write(internal_error_text(exc))
        code = INTERNAL_ERROR_EXIT
    return code


def internal_error_text(exc: BaseException) -> str:
    """The two lines of a bug in drd (exit 3), in the active language; the exception is Python's, as it is."""
    from ..i18n import gettext

    return (gettext("drd: internal error: {error}").format(error=f"{type(exc).__name__}: {exc}") + "\n  → "
            + gettext("this is a bug in drd, not in your file; DRD_DEBUG=1 shows the traceback") + "\n")


# Atomic writes live in the base layer (drd_cli/safefiles.py); the commands reach them from here.
from ..safefiles import cannot_write, refuse_overwriting_input, write_atomic  # noqa: E402,F401


# The exit of a pipe whose reader went away (`drd rules | head`) is _streams.py's.
from ._streams import BROKEN_PIPE_EXIT, reader_gone  # noqa: E402,F401


def make_console(*, stderr: bool = False) -> Console:
    """A rich console for stdout (or stderr): colour only on a terminal and without NO_COLOR."""
    stream = sys.stderr if stderr else sys.stdout
    no_color = bool(os.environ.get("NO_COLOR"))
    is_tty = hasattr(stream, "isatty") and stream.isatty()
    return _console_class()(file=stream, no_color=no_color, highlight=False, emoji=False,
                            color_system="auto" if (is_tty and not no_color) else None)


@functools.cache
def _console_class() -> type[Console]:
    """rich's Console, except when the reader of a pipe goes away: rich exits 1 then, and 1 means
    "a rule forbids it" here. (Made on first use: rich is imported only by commands that print.)"""
    from rich.console import Console

    class PipeConsole(Console):
        def on_broken_pipe(self) -> None:
            raise SystemExit(reader_gone())

    return PipeConsole


def parse_params(pairs: list[str] | None) -> dict[str, str]:
    """`--set k=v` options → {k: v}; a malformed one is a usage error (exit 2)."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            from ..i18n import gettext

            raise typer.BadParameter(gettext("{pair}: expected KEY=VALUE, e.g. tie=counter").format(pair=repr(pair)),
                                     param_hint="--set")
        out[key.strip()] = value.strip()
    return out


# --------------------------------------------------------------------------- transcripts: language, format

class Lang(str, Enum):
    """Languages of the transcript and the engine's log (drd_cli/locale)."""

    cs = "cs"
    en = "en"


class Format(str, Enum):
    """What a transcript is saved as (`--format`): plain text, Markdown, a standalone HTML page."""

    text = "text"
    md = "md"
    html = "html"


LANG_HELP = N_("Language of the output, messages and this help: cs or en. Default: from LANGUAGE, LC_ALL, "
               "LC_MESSAGES or LANG (en* → English, anything else → Czech).")
FORMAT_HELP = N_("Transcript format: text, md (Markdown) or html (one self-contained page). Default: from the "
                 "--output file's extension (.md, .html, .txt), else text.")

# Output file extensions that choose a format when --format is not given.
EXTENSIONS = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".txt": "text", ".json": "json"}


def lang_option() -> Any:
    """`--lang cs|en` for any command that prints a transcript or log texts.

    Use it as a parameter default: `lang: Optional[Lang] = lang_option()`; then call
    `use_language(lang)` at the start of the command, before anything is resolved.
    """
    return typer.Option(None, "--lang", case_sensitive=False, help=LANG_HELP, show_default=False)


# The rules options every resolving command shares (SCENARIO-FORMAT §6: the command line is the
# last layer over defaults ← group ← the scenario's `rules:`).
def replay_option() -> Any:
    """`--replay FILE`: where `drd play` and `drd stul` write the game's replay."""
    return typer.Option(None, "--replay", metavar="FILE",
                        help=N_("Where to write the replay (default: FILE with .replay.yaml)."))


def set_option() -> Any:
    """`--set KEY=VALUE` (repeatable); parse with `parse_params`."""
    return typer.Option(None, "--set", metavar="KEY=VALUE",
                        help=N_("Set a rule parameter, e.g. --set tie=counter (repeatable)."))


def enable_option() -> Any:
    """`--enable ID` (repeatable)."""
    return typer.Option(None, "--enable", metavar="ID", help=N_("Enable a rule or plugin id (repeatable)."))


def disable_option() -> Any:
    """`--disable ID` (repeatable)."""
    return typer.Option(None, "--disable", metavar="ID", help=N_("Disable a rule or plugin id (repeatable)."))


def use_option() -> Any:
    """`--use ID=DISTRIBUTION` (repeatable): which of several plugins claiming one id a run gets
    (docs/plugins.md "Ids and clashes"); passed on through DRD_USE, so every run of the command
    sees it without each caller handing it down."""
    return typer.Option(None, "--use", metavar="ID=DISTRIBUTION", callback=_remember_use,
                        help=N_("Of several plugins with one id, use the one from DISTRIBUTION (repeatable; "
                                "`drd plugins` lists them)."))


def _remember_use(value: list[str] | None) -> list[str] | None:
    if value:
        from ..errors import ScenarioError
        from ..plugins.choice import USE_ENV, parse_use

        try:
            parse_use(value)
        except ScenarioError as exc:
            raise typer.BadParameter(exc.problems[0].message) from None
        os.environ[USE_ENV] = os.pathsep.join(value)
    return value


def group_option() -> Any:
    """`--group NAME|PATH`: a group profile."""
    return typer.Option(None, "--group", metavar="G", help=N_("Group profile: a name or a path to its YAML file."))


def format_option() -> Any:
    """`--format text|md|html` for commands that save a transcript (with `--output`)."""
    return typer.Option(None, "--format", case_sensitive=False, help=FORMAT_HELP, show_default=False)


def use_language(lang: Any) -> str:
    """Activates `--lang` (or the environment's language when it is None) for this run; returns the code.

    Imports only drd_cli.i18n (stdlib gettext); the catalog itself is read on the first message.
    """
    from ..i18n import set_language

    return set_language(getattr(lang, "value", lang))


def transcript_format(fmt: Any, output: str | None, *, json_out: bool = False) -> str:
    """The format to write: `json` with --json; else --format; else the --output extension; else text.

    `--json` together with `--format md|html` is a usage error.
    """
    explicit = getattr(fmt, "value", fmt)
    if json_out:
        if explicit not in (None, "text"):
            from ..i18n import gettext

            raise typer.BadParameter(gettext("--json and --format {format} exclude each other").format(
                format=explicit), param_hint="--format")
        return "json"
    if explicit:
        return str(explicit)
    if output:
        return EXTENSIONS.get(os.path.splitext(output)[1].lower(), "text")
    return "text"


def attach_digest(result: dict, loaded: Any, draws: list | None = None) -> str:
    """Adds `digest` (sha256 over scenario, rules, seed and dice; drd_cli/digest.py) to `result`."""
    from ..digest import digest

    source = loaded.digest_source() if hasattr(loaded, "digest_source") else getattr(loaded, "raw", None)
    value = digest(result, source, draws)
    result["digest"] = value
    return value


def render_transcript(result: dict, fmt: str) -> str:
    """`result` as text (no colour), Markdown, HTML or JSON, in the active language."""
    if fmt == "json":
        from ..render.jsonout import dumps

        return dumps(result)
    if fmt == "md":
        from ..render.md import render_markdown

        return render_markdown(result)
    if fmt == "html":
        from ..render.html import render_html

        return render_html(result)
    from ..render.terminal import render_text

    return render_text(result, color=False)


def input_files(*files: str | None, group: str | None = None) -> tuple:
    """The files a run reads (scenario, `--verify` file, the group profile and what it extends),
    which an `--output` must not overwrite."""
    out = [f for f in files if f]
    if group:
        from ..errors import DrdError
        from ..groups import profile_chain

        try:
            out += [str(p) for p in profile_chain(group)]
        except DrdError:
            pass            # a broken group is reported by the run itself
    return tuple(out)


def emit_transcript(result: dict, fmt: str, output: str | None, inputs: tuple = ()) -> None:
    """Writes the transcript: to `output` atomically (never over one of `inputs`), or to stdout
    (text: a rich console, colour if allowed)."""
    if fmt == "json":
        # Written as it is made: a 5,000-step battle's JSON is about 8 MB of text.
        from ..render.jsonout import chunks

        pieces = no_surrogates_in(chunks(result))
        if output:
            write_atomic(output, pieces, inputs)
            return
        for piece in pieces:
            sys.stdout.write(piece)
        return
    result = no_surrogates(result)
    if output:
        write_atomic(output, render_transcript(result, fmt), inputs)
        return
    if fmt == "text":
        from ..render.terminal import render

        render(result, make_console())
        return
    sys.stdout.write(render_transcript(result, fmt))


CHOOSE_WORDS = {"accept": N_("accept"), "exhaust": N_("exhaust"), "ask": N_("ask"),
                "cheapest": N_("exhaust when it costs at most 1")}


def choose_word(value: object) -> str:
    """A `--choose`/`--policy` value in the reader's words (`volby accept` → `volby přijmout`)."""
    from ..i18n import _

    value = getattr(value, "value", value)
    return _(CHOOSE_WORDS[value]) if value in CHOOSE_WORDS else str(value)
