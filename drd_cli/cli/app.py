"""The `drd` command: resolve Dračí doupě II conflicts from YAML scenarios.

Startup is kept light on purpose: this module and the command modules import only typer and the
standard library; rich, pydantic, ruamel, pluggy and the engine are imported inside the commands,
so `drd --version` and shell completion import none of them (tests/test_startup.py).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
import typer

from .. import __version__
from . import check as _check
from . import resolve as _resolve
from . import schema as _schema
from ._common import N_
from ._help import DrdTyper

app = DrdTyper(
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


app.command("resolve", help=_resolve.HELP)(_resolve.resolve)
app.command("check", help=_check.HELP)(_check.check)
app.command("schema", help=_schema.HELP)(_schema.schema)
from . import play as _play  # noqa: E402 - imports only typer
app.command("play", help=_play.HELP)(_play.play)
from . import plugins_cmd as _plugins, rules_cmd as _rules  # noqa: E402 - import only typer
_plugins.mount(app)
_rules.mount(app)


def _add_dakara() -> None:
    """Registers `drd dakara …` when that module exists (written separately; it imports only typer)."""
    try:
        from . import dakara
    except ModuleNotFoundError as exc:
        # Only the module's absence is tolerated; an error inside it must surface.
        if exc.name != f"{__package__}.dakara":
            raise
        return
    sub = getattr(dakara, "app", None)
    if isinstance(sub, typer.Typer):
        app.add_typer(sub, name="dakara")


_add_dakara()


def _add_odds() -> None:
    """Registers `drd odds …` and `drd simulate` when `odds_cmd` exists (written separately)."""
    try:
        from . import odds_cmd
    except ModuleNotFoundError as exc:
        if exc.name != f"{__package__}.odds_cmd":
            raise
        return
    sub = getattr(odds_cmd, "odds_app", None)
    if isinstance(sub, typer.Typer):
        app.add_typer(sub, name="odds")
    simulate = getattr(odds_cmd, "simulate_cmd", None)
    if callable(simulate):
        app.command("simulate", help=getattr(odds_cmd, "SIMULATE_HELP", None))(simulate)


_add_odds()

from . import diff as _diff  # noqa: E402 - imports only typer
app.command("diff", help=_diff.HELP)(_diff.diff)


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
        def _coerce_value(self, value, param, ctx):  # noqa: ANN001, ANN202
            if completing:
                return value
            real = getattr(param, "_drd_runtime_param", None)
            if real is None:
                real = build_runtime_param(param.type_descriptor)
                param._drd_runtime_param = real
            return real._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self):  # noqa: ANN001, ANN202
        desc = self.type_descriptor
        return _Deferred(parameter_info=desc.parameter_info, annotation=desc.annotation)

    original = _TyperParameter.get_runtime_param
    _TyperParameter.get_runtime_param = get_runtime_param
    try:
        yield
    finally:
        _TyperParameter.get_runtime_param = original


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point (`drd`)."""
    argv = _plugins.take_global_plugins_dir(sys.argv[1:] if argv is None else list(argv))
    try:
        with _light_coercion(completing=bool(os.environ.get("_DRD_COMPLETE"))):
            app(args=argv, prog_name="drd")
    except SystemExit:
        raise
    except KeyboardInterrupt:
        from ..i18n import gettext

        sys.stderr.write(gettext("drd: interrupted") + "\n")
        raise SystemExit(130) from None
    except BrokenPipeError:
        from ._common import reader_gone

        raise SystemExit(reader_gone()) from None
    except Exception as exc:  # noqa: BLE001 - last line of defence: never a traceback
        if os.environ.get("DRD_DEBUG"):
            raise
        from ._common import INTERNAL_ERROR_EXIT, internal_error_text

        sys.stderr.write(internal_error_text(exc))
        raise SystemExit(INTERNAL_ERROR_EXIT) from None


if __name__ == "__main__":  # pragma: no cover
    main()
