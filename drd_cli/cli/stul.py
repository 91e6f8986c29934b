"""`drd stul FILE`: the conflict on every phone at the table and on a shared screen (docs/stul.md)."""

from __future__ import annotations

import os
from typing import List, Optional

import typer

from ._asking import INTERRUPTED_EXIT
from ._common import use_option
from ._common import (N_, Lang, disable_option, enable_option, group_option, guarded, lang_option, parse_params,
                      replay_option, set_option, use_language, write_atomic)
DEFAULT_PORT = 8765

HELP = N_("Serve a conflict to the table: each player's phone, the game master's page and a table screen.\n\n"
          "A local web server (this computer only unless --lan): the terminal shows the addresses and a QR code. "
          "Players see their own odds and decide for themselves; the game master sees and corrects everything. "
          "The same session as `drd play`: one replay file, the same transcript. Ctrl-C ends it.")


def stul(
    file: str = typer.Argument(..., help=N_("The scenario YAML file (a skeleton: rolls and choices may be left out)."),
                               metavar="FILE"),
    lan: bool = typer.Option(False, "--lan", help=N_("Listen on the local network (phones at the table), "
                                                    "not only on this computer.")),
    host: Optional[str] = typer.Option(None, "--host", metavar="HOST",
                                       help=N_("Listen on this address (default: 127.0.0.1, the loopback).")),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=0, max=65535,
                             help=N_("The port (0: any free one).")),
    resume: bool = typer.Option(False, "--resume", help=N_("Go on with the replay file of an earlier "
                                                          "session (FILE with .replay.yaml).")),
    seed: Optional[int] = typer.Option(None, "--seed", help=N_("Seed for the rolls you leave to drd "
                                       "(default: the file's `seed`, else a fresh one).")),
    set_: Optional[List[str]] = set_option(),
    enable: Optional[List[str]] = enable_option(),
    disable: Optional[List[str]] = disable_option(),
    use: Optional[List[str]] = use_option(),
    group: Optional[str] = group_option(),
    replay: Optional[str] = replay_option(),
    no_qr: bool = typer.Option(False, "--no-qr", help=N_("Do not draw the QR code in the terminal.")),
    confirm: bool = typer.Option(False, "--confirm", help=N_("A roll a player types waits for the game master "
                                                            "to confirm or correct it.")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Serve a conflict to the table: each player's phone, the game master's page and a table screen."""
    explicit = getattr(lang, "value", lang)
    use_language(lang)
    run_table(file, lan=lan, host=host, port=port, resume=resume, seed=seed, params=parse_params(set_),
              enable=enable, disable=disable, group=group, replay=replay, qr=not no_qr, lang=explicit,
              confirm=confirm)


def run_table(file: str, *, lan: bool, host: Optional[str], port: int, resume: bool, seed: Optional[int],
              params: dict, enable: Optional[List[str]], disable: Optional[List[str]], group: Optional[str],
              replay: Optional[str], qr: bool, lang: Optional[str], confirm: bool = False) -> None:
    """`drd stul` and `drd play --stul`."""
    from ..i18n import _
    from ..play.replay import default_replay_path

    with guarded():
        try:
            from ..table.run import bind, lan_address, prepare, serve, stdout_say
        except ImportError as exc:
            from ..errors import DrdError

            raise DrdError(_("drd stul needs the web stack: pip install 'drd-cli[stul]' ({reason})").format(
                reason=exc)) from None
        target = replay or default_replay_path(file)
        source = target if resume and os.path.exists(target) else file
        opts = dict(params=params, enable=tuple(enable or ()), disable=tuple(disable or ()), group=group)
        table = prepare(source, seed=seed, opts=opts, target=target, lang=lang, say=stdout_say,
                        write=lambda path, text: write_atomic(path, text), confirm=confirm)
        address = host or ("0.0.0.0" if lan else "127.0.0.1")
        try:
            sock = bind(address, port)
        except OSError as exc:
            from ..errors import DrdError

            raise DrdError(_("cannot listen on {host}:{port}: {reason}").format(
                host=address, port=port, reason=exc.strerror or exc)) from None
        table.port = sock.getsockname()[1]
        table.host = lan_address() if address == "0.0.0.0" else address
        done = serve(table, sock, qr=qr)
    if not done:
        game = table.game
        if game.session.answered:
            stdout_say(_("drd stul: ended; the rolls and choices entered are in {file} (drd stul {orig} --resume "
                         "goes on)").format(file=target, orig=file))
        raise typer.Exit(INTERRUPTED_EXIT if game.outcome != "error" else 1)


__all__ = ["stul", "run_table", "HELP"]
