"""`drd resolve FILE`: resolve a scenario and print the transcript or the JSON result."""

from __future__ import annotations

import sys
from enum import Enum
from typing import List, Optional

import typer

from ._common import guarded, make_console, parse_params, write_atomic


class Choose(str, Enum):
    """What a participant does when the file gives no answer for a decision (SCENARIO-FORMAT §5)."""

    accept = "accept"
    exhaust = "exhaust"


def resolve(
    file: str = typer.Argument(..., help="The scenario YAML file.", metavar="FILE"),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON (SCENARIO-FORMAT §7)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for every roll the file does not give "
                                       "(default: the file's `seed`, else a fresh one, reported in the result)."),
    choose: Choose = typer.Option(Choose.accept, "--choose", case_sensitive=False,
                                  help="Answer for decisions the file's `choices` leave open."),
    set_: Optional[List[str]] = typer.Option(None, "--set", metavar="KEY=VALUE",
                                             help="Set a rule parameter, e.g. --set tie=counter (repeatable)."),
    enable: Optional[List[str]] = typer.Option(None, "--enable", metavar="ID",
                                               help="Enable a rule or plugin id (repeatable)."),
    disable: Optional[List[str]] = typer.Option(None, "--disable", metavar="ID",
                                                help="Disable a rule or plugin id (repeatable)."),
    group: Optional[str] = typer.Option(None, "--group", metavar="G",
                                        help="Group profile: a name or a path to its YAML file."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help="Write to FILE (atomically) instead of standard output."),
) -> None:
    """Resolve a scenario: the transcript, or with --json the result contract.

    Exit 0 resolved, 1 a rule forbids something in the file, 2 the file is not a valid scenario.
    """
    params = parse_params(set_)
    with guarded():
        from ..api import load_scenario, resolve_scenario

        loaded = load_scenario(file)
        result = resolve_scenario(loaded, seed=seed, choose=choose.value, params=params,
                                  enable=tuple(enable or ()), disable=tuple(disable or ()), group=group)
        if json_out:
            from ..render.jsonout import dumps

            text = dumps(result)
            if output:
                write_atomic(output, text)
            else:
                sys.stdout.write(text)
            return
        if output:
            from ..render.text import render_text

            write_atomic(output, render_text(result, color=False))
            return
        from ..render.text import render

        render(result, make_console())
