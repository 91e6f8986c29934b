"""`--help` in the reader's language: help texts are English msgids, translated when help is shown.

Every command, group and option of drd gets its help as an English string marked with `N_()`
(so `python -m drd_cli.i18n extract` puts it into the catalogs). Nothing is translated when the
commands are built: `drd --version` and shell completion never read a catalog. Only when Click
formats a help page do `DrdCommand`/`DrdGroup` swap the texts for their translations, render,
and put the msgids back.

The language of a help page: `--lang cs|en` anywhere on the command line (`drd resolve --help
--lang en`), else the environment (`drd_cli.i18n.lang_from_env`), Czech by default.

Imports only typer (and through it click) at module level.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperCommand, TyperGroup

from ._common import N_

if TYPE_CHECKING:
    from typer._click.core import Command

ARGV_KEY = "drd.argv"
"""`ctx.meta` key: the command line of this run, as the outermost command received it."""

# Texts Click and Typer write themselves, in drd's catalogs (Czech readers see Czech panels too).
CLICK_TEXTS = (
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)
# typer.rich_utils module constants → their msgids.
RICH_TEXTS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
USAGE = N_("Usage:")
# The usage line's placeholders and the metavars a help page shows, in its language (`[OPTIONS]
# FILE` → `[VOLBY] SOUBOR`); a metavar not listed (ID, N, G, choices such as `telo|duse|vliv`)
# stays as it is.
OPTIONS_METAVAR = N_("[OPTIONS]")
SUBCOMMAND_METAVAR = N_("COMMAND [ARGS]...")
METAVARS = (N_("FILE"), N_("FILE..."), N_("[FILE]"), N_("DIR"), N_("STEP"), N_("KEY=VALUE"), N_("NAME|PATH"),
            N_("NAME"), N_("[TOPIC]"), N_("KIND"), N_("HASH|FILE"), N_("POOL=±N..."), N_("ID=DISTRIBUTION"),
            N_("HOST"), N_("ABILITY.KEY=VALUE"),
            N_("[FILE] | enable ID | disable ID | set KEY VALUE"))


def help_language(ctx: Any) -> str:
    """`--lang X` / `--lang=X` from the run's command line, else the environment's language."""
    from ..i18n import lang_from_env, normalize

    args = list(ctx.meta.get(ARGV_KEY) or [])
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        if value is not None:
            with contextlib.suppress(ValueError):
                return normalize(value)
    return lang_from_env()


def translate_help(text: str | None) -> str | None:
    """One help text in the active language (also found when Click has dedented a docstring)."""
    from ..i18n import _

    if not text:
        return text
    out = _(text)
    if out == text:
        out = _(inspect.cleandoc(text))
    return cite_docs(out)


def cite_docs(text: str) -> str:
    """`docs/play.md` → `drd docs play`: the page as an installed drd shows it (`drd docs`)."""
    import re

    return re.sub(r"\bdocs/([a-z0-9-]+)\.md", r"drd docs \1", text)


@contextlib.contextmanager
def _swapped(pairs: list[tuple[Any, str]]) -> Iterator[None]:
    """Sets each (object, attribute) to its translation for the duration; restores the msgids."""
    saved = [(obj, attr, getattr(obj, attr, None)) for obj, attr in pairs]
    try:
        for obj, attr, value in saved:
            if value:
                setattr(obj, attr, translate_help(value))
        yield
    finally:
        for obj, attr, value in saved:
            setattr(obj, attr, value)


@contextlib.contextmanager
def _rich_texts() -> Iterator[None]:
    """Typer's own panel titles and `[default: …]` in the active language (only if typer.rich_utils is loaded)."""
    import sys

    from ..i18n import _

    module = sys.modules.get("typer.rich_utils")
    if module is None:
        yield
        return
    saved = {name: getattr(module, name) for name in RICH_TEXTS if hasattr(module, name)}
    try:
        for name in saved:
            setattr(module, name, _(RICH_TEXTS[name]))
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


def _targets(command: Any, ctx: Any) -> list[tuple[Any, str]]:
    """The help texts shown on `command`'s help page: its own, its parameters', its sub-commands'."""
    pairs: list[tuple[Any, str]] = [(command, "help"), (command, "short_help"), (command, "epilog")]
    pairs += [(param, "help") for param in command.get_params(ctx)]
    for sub in (getattr(command, "commands", None) or {}).values():
        pairs += [(sub, "help"), (sub, "short_help")]
    return pairs


def _remember_argv(ctx: Any, args: list[str]) -> None:
    # ctx.meta is shared by the whole context chain: the outermost command records the full line.
    ctx.meta.setdefault(ARGV_KEY, list(args))


class _Deferred:
    """Stands for a rich class that typer.rich_utils imports but a help page never uses: the real
    module is imported (and the real object made) only if something does use it."""

    _module = ""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        import importlib

        return getattr(importlib.import_module(cls._module), cls.__name__)(*args, **kwargs)


def import_rich_utils() -> None:
    """Imports typer.rich_utils (as Typer would for a help page or an error panel), without
    rich's Markdown and Traceback: drd's help is rich markup, never Markdown, and tracebacks are
    off, yet importing them pulls in markdown_it and pygments, a third of `drd --help`'s time.
    Same help, same panels; the real modules load if anything asks for them.
    """
    import sys
    import types

    if "typer.rich_utils" in sys.modules:
        return
    standins = {}
    for module, name in (("rich.markdown", "Markdown"), ("rich.traceback", "Traceback")):
        if module not in sys.modules:
            fake = types.ModuleType(module)
            setattr(fake, name, type(name, (_Deferred,), {"_module": module}))
            standins[module] = sys.modules[module] = fake
    try:
        import typer.rich_utils  # noqa: F401
    except ImportError:
        pass
    finally:
        for module, fake in standins.items():
            if sys.modules.get(module) is fake:
                del sys.modules[module]   # a later `import rich.markdown` gets the real one
            parent = sys.modules.get(module.rpartition(".")[0])
            if parent is not None and getattr(parent, module.rpartition(".")[2], None) is fake:
                delattr(parent, module.rpartition(".")[2])


TYPE_WORDS: dict[object, str] = {int: N_("number"), float: N_("number"), str: N_("text")}
NARROW = 60
"""Below this many columns a help page is written as plain lines (`_narrow_help`), never as
tables whose cells rich would cut with "…"."""


def type_label(param: Any) -> str | None:
    """The value a parameter takes, in words for its help line: none for a flag, the choices
    (`accept|exhaust|ask`), `number ≥ 1`, `text`, `text…` for several."""
    import typing

    from ..i18n import _

    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return None
    desc = getattr(param, "type_descriptor", None)
    annotation = getattr(desc, "annotation", None)
    if getattr(param, "metavar", None):
        return param.metavar
    if desc is not None and getattr(desc, "is_choice", False):
        return "|".join(str(getattr(c, "value", c)) for c in desc.choices or ())
    several = typing.get_origin(annotation) in (list, tuple)
    inner = typing.get_args(annotation)[0] if several and typing.get_args(annotation) else annotation
    if inner is bool:
        return None
    word = _(TYPE_WORDS.get(inner, N_("text")))
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None and high is not None:
        word += f" {low}–{high}"
    elif low is not None:
        word += f" ≥ {low}"
    elif high is not None:
        word += f" ≤ {high}"
    return word + ("…" if several or getattr(param, "multiple", False) else "")


@contextlib.contextmanager
def _type_words(command: Any, ctx: Any) -> Iterator[None]:
    """Each parameter's type column in words (`type_label`), not Python's `<bool>`, `<list[int]>`."""
    params = list(command.get_params(ctx))
    try:
        for param in params:
            label = type_label(param)
            param.display_type_rich = (lambda label: lambda ctx: label)(label)
            param._get_number_range_help_str = lambda: None
        yield
    finally:
        for param in params:
            for attr in ("display_type_rich", "_get_number_range_help_str"):
                param.__dict__.pop(attr, None)


@contextlib.contextmanager
def _metavars(command: Any, ctx: Any) -> Iterator[None]:
    """The usage line's `[OPTIONS]`/`COMMAND [ARGS]...` and the parameters' metavars (METAVARS) in
    the active language for the duration; restored afterwards."""
    from ..i18n import _

    params = list(command.get_params(ctx)) if command is not None else []
    saved = [(param, "metavar", param.metavar) for param in params if getattr(param, "metavar", None)]
    # An argument with no metavar shows its name (`{file}`): named like the others (`{SOUBOR}`).
    bare = [param for param in params if getattr(param, "param_type_name", "") == "argument"
            and not getattr(param, "metavar", None) and str(param.name or "").upper() in METAVARS]
    saved += [(param, "metavar", None) for param in bare]
    saved += [(command, attr, getattr(command, attr)) for attr in ("options_metavar", "subcommand_metavar")
              if command is not None and getattr(command, attr, None)]
    try:
        for obj, attr, value in saved:
            setattr(obj, attr, _(value if value is not None else str(obj.name).upper()))
        yield
    finally:
        for obj, attr, value in saved:
            setattr(obj, attr, value)


def _format_translated(command: Any, ctx: Any, formatter: Any, base: type[Command]) -> None:
    from ..i18n import using

    with using(help_language(ctx)), _metavars(command, ctx):
        if _width() < NARROW:
            with _swapped(_targets(command, ctx)):
                _narrow_help(command, ctx)
            return
        import_rich_utils()  # loaded now (as Typer would) so its titles can be swapped
        with _swapped(_targets(command, ctx)), _rich_texts(), _type_words(command, ctx):
            base.format_help(command, ctx, formatter)


def _width() -> int:
    import os
    import shutil

    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        return shutil.get_terminal_size().columns


def _narrow_help(command: Any, ctx: Any) -> None:
    """The help page as wrapped lines: usage, the text, then each parameter on its own line with
    its help indented below it — every word kept, whatever the width."""
    import re
    import sys
    import textwrap

    from ..i18n import _

    width = max(_width(), 20)

    def wrap(text: str, indent: str = "") -> list[str]:
        text = re.sub(r"\[/?[a-z ]*\]", "", text or "")        # rich markup
        out = []
        for para in re.split(r"\n\s*\n", text.strip()):
            out += textwrap.wrap(" ".join(para.split()), width, initial_indent=indent, subsequent_indent=indent,
                                 break_long_words=True, break_on_hyphens=False) or [""]
            out.append("")
        return out[:-1]

    lines = wrap(command.get_usage(ctx)) + [""]
    if command.help:
        lines += wrap(command.help) + [""]
    sections = ((N_("Arguments"), "argument"), (N_("Options"), "option"))
    for title, kind in sections:
        params = [p for p in command.get_params(ctx)
                  if p.param_type_name == kind and not getattr(p, "hidden", False)]
        if not params:
            continue
        lines.append(_(title) + ":")
        for param in params:
            names = ", ".join([*param.opts, *param.secondary_opts]) if kind == "option" else param.display_name_raw.upper()
            label = type_label(param)
            head = names + (f" {label}" if label and label != names else "")   # an argument: `SOUBOR` once
            lines += wrap(head, "  ")
            extra = ""
            if param.required:
                extra = " " + _("[required]")
            elif getattr(param, "show_default", False) and param.default not in (None, False, (), []):
                default = getattr(param.default, "value", param.default)
                extra = " " + _("[default: {}]").format(default)
            if param.help or extra:
                lines += wrap((param.help or "") + extra, "      ")
        lines.append("")
    subs = getattr(command, "commands", None) or {}
    if subs:
        lines.append(_("Commands") + ":")
        for name in subs:
            sub = subs[name]
            if getattr(sub, "hidden", False):
                continue
            lines += wrap(name, "  ")
            text = getattr(sub, "short_help", None) or getattr(sub, "help", None) or ""
            lines += wrap(text.split("\n\n")[0], "      ")
        lines.append("")
    sys.stdout.write("\n".join(lines).rstrip("\n") + "\n")


def _usage(command: Any, ctx: Any, base: type[Command]) -> str:
    from ..i18n import _, using

    with using(help_language(ctx)), _metavars(command, ctx):
        text = base.get_usage(command, ctx)
        return text.replace("Usage:", _(USAGE), 1) if text.startswith("Usage:") else text


# Usage errors Click and Typer word themselves (English f-strings, no catalog of their own): the
# message is matched here and said again from drd's catalogs. Unknown wordings stay as they are.
USAGE_ERRORS = (
    (r"No such option: (?P<opt>\S+) \(Possible options: (?P<opts>.*)\)", N_("No such option: {opt} (possible options: {opts})")),
    (r"No such option: (?P<opt>\S+)", N_("No such option: {opt}")),
    (r"Missing argument (?P<hint>.+)\.", N_("Missing argument {hint}.")),
    (r"Missing option (?P<hint>.+)\.", N_("Missing option {hint}.")),
    (r"Missing parameter (?P<hint>.+)\.", N_("Missing parameter {hint}.")),
    (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", N_("Unexpected extra argument(s): {args}")),
    (r"No such command '(?P<name>.*)'\. Did you mean (?P<close>.*)\?", N_("No such command '{name}'. Did you mean {close}?")),
    (r"No such command '(?P<name>.*)'\.", N_("No such command '{name}'.")),
    (r"Option '(?P<opt>.*)' requires (?P<n>\d+) arguments\.", N_("Option '{opt}' requires {n} values.")),
    (r"Value (?P<value>.*) is not a valid (?P<kind>\S+)\.", N_("{value} is not a valid value here.")),
    (r"Option '(?P<opt>.*)' requires an argument\.", N_("Option '{opt}' requires an argument.")),
    (r"Option '(?P<opt>.*)' does not take a value\.", N_("Option '{opt}' does not take a value.")),
    (r"Invalid value for (?P<hint>.+?): (?P<detail>.*)", N_("Invalid value for {hint}: {detail}")),
    (r"Invalid value: (?P<detail>.*)", N_("Invalid value: {detail}")),
)
# What Typer's type conversion says about a value (the `detail` above).
VALUE_ERRORS = (
    (r"Value error, '(?P<value>.*)' is not one of (?P<choices>.*)\.", N_("'{value}' is not one of {choices}.")),
    (r"Input should be a valid integer.*", N_("a whole number is expected")),
    (r"Input should be a valid number.*", N_("a number is expected")),
    (r"Input should be less than or equal to (?P<n>\S+)", N_("at most {n} is allowed")),
    (r"Input should be greater than or equal to (?P<n>\S+)", N_("at least {n} is required")),
)
ERROR_TEXTS = {"ERRORS_PANEL_TITLE": N_("Error"), "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help.")}


def _reword(text: str, table: tuple) -> str | None:
    import re

    from ..i18n import _

    for pattern, msgid in table:
        m = re.fullmatch(pattern, text, re.S)
        if m is not None:
            values = m.groupdict()
            if "detail" in values:
                values["detail"] = _reword(values["detail"], VALUE_ERRORS) or values["detail"]
            return _(msgid).format(**values)
    return None


def translate_usage_error(error: Any, ctx: Any) -> None:
    """Rewords a Click/Typer usage error (and Typer's error panel) in the run's language, in place.

    Runs only on the error path: rich and the catalog are loaded here, never for a good command line.
    """
    import sys

    from ..i18n import _, using

    with using(help_language(ctx)), _metavars(getattr(ctx, "command", None), ctx):
        text = _reword(error.format_message(), USAGE_ERRORS)
        if text is not None:
            error.format_message = lambda: text
        import_rich_utils()  # Typer prints the panel with it right after this
        module = sys.modules.get("typer.rich_utils")
        if module is not None:
            for name, msgid in ERROR_TEXTS.items():
                if hasattr(module, name):
                    setattr(module, name, _(msgid))     # the process ends after printing this error


# The Czech words a user types for an option's English values (docs/cli.md "Czech values"): with and
# without diacritics, lower case. Every option of these names, in every command, takes them.
_ACCEPT = {"prijmout": "accept", "přijmout": "accept", "prijmi": "accept", "přijmi": "accept"}
_EXHAUST = {"vycerpat": "exhaust", "vyčerpat": "exhaust", "vycerpej": "exhaust", "vyčerpej": "exhaust"}
_CHEAPEST = {"nejlevneji": "cheapest", "nejlevněji": "cheapest"}
CZECH_VALUES = {
    "--choose": {**_ACCEPT, **_EXHAUST, **_CHEAPEST, "ptat": "ask", "ptát": "ask", "zeptat": "ask"},
    "--policy": {**_ACCEPT, **_EXHAUST, **_CHEAPEST},
    "--view": {"pj": "gm", "vypravec": "gm", "vypravěč": "gm", "hrac": "player", "hráč": "player",
               "hraci": "player", "hráči": "player"},
    "--risk": {"zraneni": "injury", "zranění": "injury", "komplikace": "complication"},
    "--helpers-mode": {"stupnujici": "escalating", "stupňující": "escalating", "sdileny": "shared",
                       "sdílený": "shared", "spolecny": "shared", "společný": "shared"},
    "--tools": {"zadne": "none", "žádné": "none", "bez": "none"},
    "--format": {"prosty": "text", "prostý": "text", "text": "text"},
}


def _rewrite(command: Any, args: list[str]) -> list[str]:
    """Czech values of `CZECH_VALUES` options → their English values; `--dice 4,2` (an option
    taking two numbers) → `--dice 4 2`, the form docs/cli.md gives."""
    table: dict[str, dict[str, str]] = {}
    pairs: set[str] = set()
    for param in getattr(command, "params", ()):
        names = [*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())]
        words = next((CZECH_VALUES[n] for n in names if n in CZECH_VALUES), None)
        for name in names:
            if words is not None:
                table[name] = words
            if getattr(param, "nargs", 1) == 2 and name.startswith("-"):
                pairs.add(name)
    if not table and not pairs:
        return args
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.extend(args[i:])
            break
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if not eq and name in (table.keys() | pairs) and i + 1 < len(args):
            value, i = args[i + 1], i + 1
        elif not eq:
            out.append(arg)
            i += 1
            continue
        if name in pairs and "," in value and value.count(",") == 1:
            out.extend([name, *value.split(",")])
        else:
            out.extend([name, table.get(name, {}).get(value.casefold(), value)])
        i += 1
    return out


def _parse_translated(command: Any, ctx: Any, args: list[str], base: type[Command]) -> list[str]:
    from typer._click.exceptions import UsageError

    args = _rewrite(command, args)
    _remember_argv(ctx, args)
    try:
        return base.parse_args(command, ctx, args)
    except UsageError as exc:
        translate_usage_error(exc, ctx)
        raise


class DrdCommand(TyperCommand):
    """A Typer command whose help page and usage errors are translated when they are shown."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return _parse_translated(self, ctx, args, TyperCommand)

    def invoke(self, ctx: Any) -> Any:
        # A bad value found by the command itself (typer.BadParameter raised in its body, e.g.
        # `drd group new a/b`) gets the same translated frame as one found while parsing.
        from typer._click.exceptions import UsageError

        try:
            return super().invoke(ctx)
        except UsageError as exc:
            translate_usage_error(exc, ctx)
            raise

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _format_translated(self, ctx, formatter, TyperCommand)

    def get_usage(self, ctx: Any) -> str:
        return _usage(self, ctx, TyperCommand)


class DrdGroup(TyperGroup):
    """A Typer group whose help page (with its sub-commands' one-line help) and usage errors are
    translated when shown."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return _parse_translated(self, ctx, args, TyperGroup)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        from typer._click.exceptions import UsageError

        try:
            return super().resolve_command(ctx, args)
        except UsageError as exc:
            translate_usage_error(exc, ctx)
            raise

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _format_translated(self, ctx, formatter, TyperGroup)

    def get_usage(self, ctx: Any) -> str:
        return _usage(self, ctx, TyperGroup)


class DrdTyper(typer.Typer):
    """`typer.Typer` whose groups are DrdGroup and whose commands are DrdCommand unless told otherwise."""

    def __init__(self, *args: Any, cls: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, cls=cls or DrdGroup, **kwargs)

    def command(self, name: str | None = None, *, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(name, cls=cls or DrdCommand, **kwargs)
