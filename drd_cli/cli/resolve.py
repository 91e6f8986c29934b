"""`drd resolve FILE`: resolve a scenario and print the transcript or the JSON result."""

from __future__ import annotations

import sys
from enum import Enum
from typing import List, Optional

import typer

from ._common import use_option
from ._common import (N_, Format, Lang, attach_digest, disable_option, emit_transcript, enable_option,
                      format_option, group_option, guarded, lang_option, parse_params, set_option,
                      transcript_format, use_language)


class Choose(str, Enum):
    """What a participant does when the file gives no answer for a decision (SCENARIO-FORMAT §5)."""

    accept = "accept"
    exhaust = "exhaust"
    ask = "ask"          # asked at the table, on a terminal (drd_cli/cli/play.py)


class View(str, Enum):
    """Whose transcript: the GM's (everything) or the players' (secrets as "?", docs/scenario-format.md §5.8)."""

    gm = "gm"
    player = "player"


def view_option():  # noqa: ANN201 - a typer Option
    return typer.Option(View.gm, "--view", case_sensitive=False,
                        help=N_("Whose transcript: gm (everything) or player (what the file marks `secret: true` "
                                "is \"?\"; the footer hash stays the full one, for --verify)."))


HELP = N_("Resolve a scenario: the transcript, or with --json the result contract.\n\n"
          "Exit 0 resolved, 1 a rule forbids something in the file, 2 the file is not a valid scenario.")


def resolve(
    file: str = typer.Argument(..., help=N_("The scenario YAML file."), metavar="FILE"),
    json_out: bool = typer.Option(False, "--json", help=N_("Print the result as JSON (docs/scenario-format.md §8.1).")),
    seed: Optional[int] = typer.Option(None, "--seed", help=N_("Seed for every roll the file does not give "
                                       "(default: the file's `seed`, else a fresh one, reported in the result).")),
    choose: Choose = typer.Option(Choose.accept, "--choose", case_sensitive=False,
                                  help=N_("Answer for decisions the file's `choices` leave open.")),
    set_: Optional[List[str]] = set_option(),
    enable: Optional[List[str]] = enable_option(),
    disable: Optional[List[str]] = disable_option(),
    use: Optional[List[str]] = use_option(),
    group: Optional[str] = group_option(),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help=N_("Write to FILE (atomically) instead of standard output.")),
    format_: Optional[Format] = format_option(),
    lang: Optional[Lang] = lang_option(),
    verify: Optional[str] = typer.Option(None, "--verify", metavar="HASH|FILE",
                                         help=N_("Check a shared transcript: resolve and compare the footer hash "
                                              "(sha256:…, or a transcript file holding one; its seed is used "
                                              "unless --seed is given). Exit 0 same, 1 different.")),
    view: View = view_option(),
    zapsat: bool = typer.Option(False, "--zapsat", help=N_("In a campaign: write the outcome into the characters "
                                                          "and the chronicle (docs/kampan.md).")),
) -> None:
    """Resolve a scenario: the transcript, or with --json the result contract.

    Exit 0 resolved, 1 a rule forbids something in the file, 2 the file is not a valid scenario.
    """
    use_language(lang)     # first: the usage errors of --set and --format are in the language too
    params = parse_params(set_)
    fmt = transcript_format(format_, output, json_out=json_out)
    if view is View.player and fmt == "json":
        refuse_player_json()
    with guarded():
        from ._common import input_files, refuse_overwriting_input

        inputs = input_files(file, verify, group=group)
        refuse_overwriting_input(output, inputs)     # before anything runs: nothing is written
        expected = snapshot = None
        if verify is not None:
            expected, seed = _expected_digest(verify, seed)
            snapshot = _named_start(file, verify)       # a campaign's start state the transcript names

        from ..api import load_scenario, resolve_scenario

        if choose is Choose.ask:
            from ._asking import require_terminal

            require_terminal()
        loaded = load_scenario(file) if snapshot is None else load_scenario(file, snapshot=snapshot)
        if choose is Choose.ask:
            from ._asking import resolve_asking

            result = resolve_asking(loaded, seed=seed, params=params, enable=tuple(enable or ()),
                                    disable=tuple(disable or ()), group=group)
        else:
            result = resolve_scenario(loaded, seed=seed, choose=choose.value, params=params,
                                      enable=tuple(enable or ()), disable=tuple(disable or ()), group=group,
                                      release_document=True)
        digest = attach_digest(result, loaded)
        if zapsat or (loaded.campaign and snapshot is None and expected not in (None, digest)):
            from ..campaign.session import after_resolve     # a campaign's conflict (docs/kampan.md)

            loaded, result, digest = after_resolve(
                loaded, result, digest, file, expected=expected, zapsat=zapsat,
                again=lambda again: resolve_scenario(again, seed=seed, choose=choose.value, params=params,
                                                     enable=tuple(enable or ()), disable=tuple(disable or ()),
                                                     group=group))
        if view is View.player and expected is None:
            from ..render.view import player_view

            result = player_view(result, loaded.scenario)
        # The document and its models are not needed to print the result: a 5,000-step
        # battle's are tens of MB, freed before its (as large) text is made.
        del loaded
        if expected is not None:
            _report_verify(expected, digest, result.get("seed"))
            return
        emit_transcript(result, fmt, output, inputs)


def refuse_player_json() -> None:
    """`--view player --json`: the result contract has numbers where the players' view has "?"."""
    from ..i18n import _

    sys.stderr.write(_("drd: --view player is a transcript for the players (text, md, html); --json is the full "
                       "result, without secrets hidden") + "\n")
    raise typer.Exit(2)


def _expected_digest(verify: str, seed: Optional[int]) -> tuple[str, Optional[int]]:
    """`--verify` → (the hash to expect, the seed to use): a hash as is, or read from a transcript file."""
    import os

    from ..digest import find_digest, find_seed
    from ..errors import DrdError, Location
    from ..i18n import _

    value = verify.strip()
    if find_digest(value) == value:
        return value, seed
    if not os.path.isfile(value):
        raise DrdError(_("--verify: {what!r} is neither a sha256:… hash nor a transcript file").format(what=verify),
                       Location(verify))
    try:
        with open(value, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise DrdError(_("cannot read {path}: {reason}").format(path=value, reason=exc), Location(value)) from None
    expected = find_digest(text)
    if expected is None:
        raise DrdError(_("{file}: no sha256 footer hash found").format(file=value), Location(value))
    return expected, seed if seed is not None else find_seed(text)


def _named_start(file: str, verify: str) -> Optional[dict]:
    """The start state of a campaign's conflict a --verify file names (a JSON result's, or the
    snapshot a transcript's footer names: drd_cli/campaign/session.py), else None."""
    import os

    if not os.path.isfile(verify):
        return None
    from ..campaign.session import named_start

    return named_start(file, verify)


def _report_verify(expected: str, actual: str, seed: object) -> None:
    from ..i18n import _

    if seed is None:     # every roll is in the file: no seed was used
        if expected == actual:
            sys.stdout.write(_("ok: same scenario, rules and dice ({digest}; every roll is in the file)").format(
                digest=actual) + "\n")
            return
        sys.stderr.write(_("DIFFERENT: the transcript says {expected}, this run gives {actual}").format(
            expected=expected, actual=actual) + "\n")
    elif expected == actual:
        sys.stdout.write(_("ok: same scenario, rules, seed and dice ({digest}, seed {seed})").format(
            digest=actual, seed=seed) + "\n")
        return
    else:
        sys.stderr.write(_("DIFFERENT: the transcript says {expected}, this run gives {actual} (seed {seed})").format(
            expected=expected, actual=actual, seed=seed) + "\n")
    sys.stderr.write("  → " + _("same file, --seed, --group and --set/--enable/--disable as the shared run?")
                     + "\n")
    raise typer.Exit(1)
