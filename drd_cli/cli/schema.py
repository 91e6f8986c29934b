"""`drd schema`: the scenario format as JSON Schema, for editor completion and validation."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from ._common import guarded, write_atomic


def schema(
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help="Write to FILE (atomically) instead of standard output."),
    group: Optional[str] = typer.Option(None, "--group", "-g", metavar="NAME|PATH",
                                        help="Include the step types of the plugins this group switches on."),
) -> None:
    """Print the JSON Schema of a scenario file (the `Scenario` model).

    Steps may use the core step types and the step types of the plugins that are on: the
    installed ones on by default, `--plugins-dir` folders, and with `--group` that group's choice.
    """
    with guarded():
        import json

        from ..api import known_step_models
        from ..scenario.models import build_scenario_model

        model = build_scenario_model(known_step_models(group=group))
        text = json.dumps(model.model_json_schema(), ensure_ascii=False, indent=2) + "\n"
        if output:
            write_atomic(output, text)
        else:
            sys.stdout.write(text)
