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


# Every command module imports only typer and the standard library at module level (fast start-up).
from . import abilities_cmd as _abilities  # noqa: E402
from . import dakara as _dakara  # noqa: E402
from . import diff as _diff  # noqa: E402
from . import odds_cmd as _odds  # noqa: E402
from . import play as _play  # noqa: E402
from . import plugins_cmd as _plugins  # noqa: E402
from . import rules_cmd as _rules  # noqa: E402

app.command("resolve", help=_resolve.HELP)(_resolve.resolve)
app.command("play", help=_play.HELP)(_play.play)
app.command("check", help=_check.HELP)(_check.check)
app.command("schema", help=_schema.HELP)(_schema.schema)
app.add_typer(_odds.odds_app, name="odds")
app.command("simulate", help=_odds.SIMULATE_HELP)(_odds.simulate_cmd)
app.command("diff", help=_diff.HELP)(_diff.diff)
_plugins.mount(app)
_abilities.mount(app)
_rules.mount(app)
app.add_typer(_dakara.app, name="dakara")


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
