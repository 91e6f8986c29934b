"""The `drd` command: resolve Dračí doupě II conflicts from YAML scenarios.

Startup is kept light on purpose. This module imports only the standard library: `drd
--version` (alone on the command line) is answered here without importing typer. Everything
else goes to the Typer app in `_root`, whose commands are mounted lazily, and the command
modules import only typer and the standard library; rich, pydantic, ruamel, pluggy and the engine
are imported inside the commands, so `drd --version` and shell completion import none of them
(tests/cli/test_startup.py).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from .. import __version__


def __getattr__(name: str) -> Any:
    # `from drd_cli.cli.app import app` (tests, CliRunner) still works; the console script
    # itself never builds the app for `drd --version`.
    if name == "app":
        from ._root import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _version_only(argv: list[str]) -> bool:
    return argv in (["--version"], ["-V"]) and not os.environ.get("_DRD_COMPLETE")


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point (`drd`)."""
    from ._streams import finish_output, prepare_streams

    prepare_streams()
    whole_process = argv is None       # the console script, not a caller in a longer-lived process
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if _version_only(argv):
            sys.stdout.write(f"drd {__version__}\n")
            sys.stdout.flush()
            raise SystemExit(0)
        import gc

        # A run is short and builds large acyclic data (documents, models, results): the
        # collector's default pace (a pass per 700 new objects, each full pass walking the whole
        # heap) cost a third of validating a 5,000-step battle. Cycles are still collected.
        gc.set_threshold(50_000, 20, 20)
        from . import plugins_cmd
        from ._root import _light_coercion, app

        argv = plugins_cmd.take_global_plugins_dir(argv)
        with _light_coercion(completing=bool(os.environ.get("_DRD_COMPLETE"))):
            app(args=argv, prog_name="drd")
    except SystemExit as exc:
        # Output still in the buffer is written now: a failure there (full disk) is never exit 0.
        code = finish_output(exc.code, exc)
        if whole_process:
            _leave_now(code)
        raise SystemExit(code) from None
    except KeyboardInterrupt:
        from ..i18n import gettext

        sys.stderr.write(gettext("drd: interrupted") + "\n")
        raise SystemExit(130) from None
    except BrokenPipeError:
        from ._common import reader_gone

        raise SystemExit(reader_gone()) from None
    except OSError as exc:
        from ._common import os_error_code

        code = os_error_code(exc)
        if code is None:
            raise
        raise SystemExit(code) from None
    except Exception as exc:  # noqa: BLE001 - last line of defence: never a traceback
        if os.environ.get("DRD_DEBUG"):
            raise
        from ._common import INTERNAL_ERROR_EXIT, internal_error_text

        sys.stderr.write(internal_error_text(exc))
        raise SystemExit(INTERNAL_ERROR_EXIT) from None
    finally:
        if whole_process:
            _skip_final_collection()


def _leave_now(code: Any) -> None:
    """Ends the console-script process at once with `code`, without the interpreter's teardown
    (freeing every module and object one by one: about 7 ms of resolving a small file), when
    nothing can be waiting for that teardown: stdout is flushed already, stderr is flushed here,
    no atexit handler is registered, no other thread runs, and no code but drd's own (no
    third-party or local plugin) was loaded, whose open files might still hold unwritten data.
    Otherwise it returns and the process ends the ordinary way."""
    if code is not None and not isinstance(code, int):
        return                      # a message for Python to print
    import atexit

    threading = sys.modules.get("threading")
    if getattr(atexit, "_ncallbacks", lambda: 1)() or (threading is not None and threading.active_count() > 1):
        return
    if not _only_own_code():
        return
    try:
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - then the ordinary exit reports it
        return
    os._exit(code or 0)


def _only_own_code() -> bool:
    """No plugin drd does not ship (third-party or local) was loaded in this process."""
    plugins = sys.modules.get("drd_cli.plugins")
    return plugins is None or not plugins.foreign_code_loaded()


def _skip_final_collection() -> None:
    """The process ends now: its objects need no last garbage collection.

    The interpreter's shutdown collects cyclic garbage over every object still alive (pydantic's
    schemas, typing's caches, the result): about 50 ms, a fifth of resolving a small file.
    `gc.freeze()` moves them out of the collector's view; everything else of the shutdown stays
    (atexit handlers, modules torn down, files closed and flushed). Not when a plugin drd does
    not ship was loaded: a file it left open may be reachable only through a reference cycle,
    and only that last collection would flush and close it.
    """
    import gc

    if _only_own_code():
        gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    main()
