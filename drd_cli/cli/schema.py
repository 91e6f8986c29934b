"""`drd schema`: the scenario format as JSON Schema, for editor completion and validation."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from ._common import guarded, write_atomic


def schema(
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help="Write to FILE (atomically) instead of standard output."),
) -> None:
    """Print the JSON Schema of a scenario file (the `Scenario` model)."""
    with guarded():
        import json

        from ..scenario.models import Scenario

        text = json.dumps(Scenario.model_json_schema(), ensure_ascii=False, indent=2) + "\n"
        if output:
            write_atomic(output, text)
        else:
            sys.stdout.write(text)
