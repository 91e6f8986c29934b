"""`drd schema`: the scenario format as JSON Schema, for editor completion and validation."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from ._common import N_, Lang, guarded, lang_option, use_language, write_atomic


HELP = N_("Print the JSON Schema of a scenario file (the `Scenario` model).\n\n"
          "Steps may use the core step types and the step types of the plugins that are on: the installed "
          "ones on by default, `--plugins-dir` folders, and with `--group` that group's choice.")


def schema(
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help=N_("Write to FILE (atomically) instead of standard output.")),
    group: Optional[str] = typer.Option(None, "--group", "-g", metavar="NAME|PATH",
                                        help=N_("Include the step types of the plugins this group switches on.")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Print the JSON Schema of a scenario file (the `Scenario` model).

    Steps may use the core step types and the step types of the plugins that are on: the
    installed ones on by default, `--plugins-dir` folders, and with `--group` that group's choice.
    """
    use_language(lang)
    with guarded():
        import json

        from ..api import known_step_models
        from ..scenario.models import build_scenario_model

        from ._common import input_files, refuse_overwriting_input

        inputs = input_files(group=group)
        refuse_overwriting_input(output, inputs)      # before anything is imported or written
        model = build_scenario_model(known_step_models(group=group))
        if group:
            _note_untrusted(group)
        text = json.dumps(model.model_json_schema(), ensure_ascii=False, indent=2) + "\n"
        if output:
            write_atomic(output, text, inputs)
        else:
            sys.stdout.write(text)


def _note_untrusted(group: str) -> None:
    """On stderr: the group's plugins left out of the schema because the profile is not trusted."""
    from ..groups import group_layer
    from ..trust import split_group_dirs

    _layer, dirs = group_layer(group)
    _dirs, untrusted = split_group_dirs(group, dirs)
    if untrusted is not None:
        sys.stderr.write(untrusted.note() + "\n")
