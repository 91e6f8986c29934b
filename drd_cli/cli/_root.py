"""The root `drd` Typer app; its commands are mounted lazily, one module per command.

`drd resolve …` imports and builds only `resolve`; `drd --help` and `drd` alone list every
command (and so import them all, still only typer and the standard library). The root group
knows each command's name and where it comes from (`COMMANDS`, in the order of `drd --help`);
a command's Click object is made by Typer itself, the same way as if it had been mounted
directly, the first time anything asks for it (`LazyCommands`).
"""

from __future__ import annotations

import contextlib
import enum
import importlib
import inspect
import sys
import typing
from collections.abc import Callable, Iterator
from typing import Any

import typer

from .. import __version__
from ._common import N_
from ._help import DrdGroup, DrdTyper


def _command(module: str, attr: str, help_attr: str) -> Callable[[Any, str], None]:
    def mount(app: Any, name: str) -> None:
        m = importlib.import_module(f"drd_cli.cli.{module}")
        app.command(name, help=getattr(m, help_attr))(getattr(m, attr))
    return mount


def _group(module: str, attr: str) -> Callable[[Any, str], None]:
    def mount(app: Any, name: str) -> None:
        app.add_typer(getattr(importlib.import_module(f"drd_cli.cli.{module}"), attr), name=name)
    return mount


def _mounted_by(module: str) -> Callable[[Any, str], None]:
    """A module whose `mount(app)` adds its commands (it may add several: `rules` and `group`)."""
    def mount(app: Any, name: str) -> None:
        importlib.import_module(f"drd_cli.cli.{module}").mount(app)
    return mount


# Commands first, then groups: the order Typer lists them in when they are mounted directly.
COMMANDS: dict[str, Callable[[Any, str], None]] = {
    "resolve": _command("resolve", "resolve", "HELP"),
    "play": _command("play", "play", "HELP"),
    "stul": _command("stul", "stul", "HELP"),
    "explain": _command("explain_cmd", "explain", "HELP"),
    "check": _command("check", "check", "HELP"),
    "schema": _command("schema", "schema", "HELP"),
    "simulate": _command("odds_cmd", "simulate_cmd", "SIMULATE_HELP"),
    "diff": _command("diff", "diff", "HELP"),
    "plugins": _mounted_by("plugins_cmd"),
    "abilities": _mounted_by("abilities_cmd"),
    "rules": _mounted_by("rules_cmd"),
    "odds": _group("odds_cmd", "odds_app"),
    "group": _mounted_by("rules_cmd"),
    "dakara": _group("dakara", "app"),
    # A campaign (docs/kampan.md).
    "kampan": _group("kampan", "kampan_app"),
    "postava": _group("kampan", "postava_app"),
    "bestie": _group("kampan", "bestie_app"),
    "konflikt": _group("kronika", "konflikt_app"),
    "kronika": _group("kronika", "kronika_app"),
    "import": _command("import_cmd", "import_cmd", "IMPORT_HELP"),
    "export": _group("import_cmd", "export_app"),
    "docs": _command("docs_cmd", "docs", "HELP"),
}


def build_command(name: str) -> Any:
    """The Click command `name`, made by Typer as for a directly mounted command."""
    holder = DrdTyper()
    COMMANDS[name](holder, name)
    return typer.main.get_group(holder).commands[name]


class LazyCommands(dict):
    """name → Click command, each built on first access (`get`, `[]`, `items`, `values`)."""

    def __init__(self, names: list[str]):
        super().__init__((name, None) for name in names)

    def __getitem__(self, name: str) -> Any:
        value = dict.__getitem__(self, name)
        if value is None:
            value = build_command(name)
            dict.__setitem__(self, name, value)
        return value

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self else default

    def items(self) -> Any:
        return [(name, self[name]) for name in self]

    def values(self) -> Any:
        return [self[name] for name in self]

    def unbuilt(self) -> list[str]:
        """The names whose command is not built yet (nothing is built to find out)."""
        return [name for name in self if dict.__getitem__(self, name) is None]

    def put(self, name: str, command: Any) -> None:
        """Command `name` as it is (None: not built yet), building nothing."""
        dict.__setitem__(self, name, command)


def summary_command(name: str) -> Any:
    """A stand-in for command `name` with only what the root help page lists (its help texts,
    hidden, deprecated, panel), taken from what Typer would build it from; no parameters.

    Building every command's parameters (Typer reads each signature's type hints) is most of
    the time of `drd --help`, which shows none of them.
    """
    from typer.core import TyperCommand, TyperGroup
    from typer.main import solve_typer_info_defaults

    holder = DrdTyper()
    COMMANDS[name](holder, name)
    for info in holder.registered_commands:
        if info.name == name:
            text = inspect.getdoc(info.callback) if info.help is None else inspect.cleandoc(info.help)
            return TyperCommand(name=name, help=text, short_help=info.short_help, hidden=info.hidden,
                                deprecated=info.deprecated, rich_help_panel=info.rich_help_panel)
    for group_info in holder.registered_groups:
        if group_info.name == name:
            solved = solve_typer_info_defaults(group_info)   # as typer.main.get_group_from_info does
            return TyperGroup(name=name, help=solved.help, short_help=solved.short_help,
                              hidden=solved.hidden, deprecated=solved.deprecated,
                              rich_help_panel=solved.rich_help_panel)
    return build_command(name)  # pragma: no cover - a command COMMANDS does not describe: build it


class RootGroup(DrdGroup):
    """The `drd` group: every command of `COMMANDS`, built when first used."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        # The root page lists the commands: stand-ins do for the ones not built yet.
        missing = self.lazy_commands.unbuilt()
        for name in missing:
            self.lazy_commands.put(name, summary_command(name))
        try:
            super().format_help(ctx, formatter)
        finally:
            for name in missing:
                self.lazy_commands.put(name, None)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = LazyCommands(list(COMMANDS))
        for name, command in self.commands.items():     # a plain dict still: click's own
            self.lazy_commands.put(name, command)
        self.commands = self.lazy_commands

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        for param in self.params:       # Typer appends its completion options after __init__
            if param.name == "install_completion":
                param.callback = _install_completion
        return super().parse_args(ctx, args)


def _install_completion(ctx: Any, param: Any, value: Any) -> Any:
    """`drd --install-completion`: Typer's installation, said in the run's language."""
    if not value or ctx.resilient_parsing:
        return value
    from typer._completion_shared import install

    from ..i18n import _, using
    from ._help import help_language

    shell, path = install(shell=value) if isinstance(value, str) else install()
    with using(help_language(ctx)):
        sys.stdout.write(_("Completion for {shell} installed in {path}").format(shell=shell, path=path) + "\n")
        sys.stdout.write(_("It takes effect in a new terminal.") + "\n")
    raise SystemExit(0)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands.keys())


app = DrdTyper(
    cls=RootGroup,
    name="drd",
    help=N_("Resolve Dračí doupě II conflicts (and Dakara skill tests) from YAML scenarios, by the book.\n\n"
            "Exit codes: 0 resolved / all good, 1 a rule forbids something (or `drd check` found a difference), "
            "2 the file is not a valid scenario (or a usage error)."),
    no_args_is_help=True,
    # A traceback is never the answer to user input; rich tracebacks would also import rich.
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"drd {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    # A plain bool defaulting to False: typer coerces any other value (even None) through a
    # pydantic TypeAdapter, which would import pydantic for `drd --help` and completion.
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                 help=N_("Print the version and exit.")),
) -> None:
    """Resolve Dračí doupě II conflicts (and Dakara skill tests) from YAML scenarios, by the book.

    Exit codes: 0 resolved / all good, 1 a rule forbids something (or `drd check` found a
    difference), 2 the file is not a valid scenario (or a usage error).
    """


_UNCHANGED = object()


def _as_typed(value: Any, annotation: Any, info: Any) -> Any:
    """What typer's converter would make of `value`, when that is plain to see: a `str` for a
    `str` parameter, a member of the parameter's own Enum (a default such as `Choose.accept`;
    typer returns a member of its choices as it is), or a list of those strs for a list of str
    (`drd check FILE...`). Only then is building the converter, a pydantic TypeAdapter, skipped;
    for any other value this gives `_UNCHANGED` and typer converts it as before."""
    if getattr(info, "parser", None) is not None:
        return _UNCHANGED
    if annotation is str:
        return value if type(value) is str else _UNCHANGED
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return value if type(value) is annotation else _UNCHANGED
    if typing.get_origin(annotation) is list and typing.get_args(annotation) == (str,):
        if isinstance(value, (list, tuple)) and all(type(item) is str for item in value):
            return list(value)
    return _UNCHANGED


@contextlib.contextmanager
def _light_coercion(*, completing: bool) -> Iterator[None]:
    """Keeps typer from importing pydantic where no value needs converting.

    Typer (≥0.26) builds a pydantic TypeAdapter for a parameter as soon as it is processed,
    even when its value is absent (None, which is never converted), so `drd resolve --help`
    and every TAB of shell completion would import pydantic (~100 ms) for nothing. Here the
    adapter is built only when a value really has to be converted; during completion values
    are discarded anyway, so they stay as typed.
    """
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer.core import _TyperParameter
    except ImportError:  # another typer layout: everything still works, just slower
        yield
        return

    class _Deferred(RuntimeParam):
        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if completing:
                return value
            plain = _as_typed(value, self.annotation, self.parameter_info)
            if plain is not _UNCHANGED:
                return plain
            real = getattr(param, "_drd_runtime_param", None)
            if real is None:
                real = build_runtime_param(param.type_descriptor)
                param._drd_runtime_param = real
            return real._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self: _TyperParameter) -> RuntimeParam:
        desc = self.type_descriptor
        return _Deferred(parameter_info=desc.parameter_info, annotation=desc.annotation)

    # A patch for the duration: setattr, as mypy (rightly) refuses assigning to a method.
    original = _TyperParameter.get_runtime_param
    setattr(_TyperParameter, "get_runtime_param", get_runtime_param)
    try:
        yield
    finally:
        setattr(_TyperParameter, "get_runtime_param", original)


