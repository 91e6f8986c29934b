"""`drd explain FILE [STEP]`: how every number of a step came about, in words with rule ids."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from ._common import use_option
from ._common import (N_, Lang, disable_option, enable_option, group_option, guarded, lang_option, parse_params,
                      set_option, use_language)

HELP = N_("Explain how every number of a step came about: each roll's dice, bonus and modifiers, the order of "
          "the pairs, each exhaustion's cost per protected participant, each manoeuvre's price, and why an "
          "answer was ignored — in words, with rule ids (docs/rules.md).\n\n"
          "It reads the resolution's own breakdowns (as in --json), never computes them again. "
          "Exit 0 explained, 1 a rule forbids something in the file, 2 the file or the step is not valid.")


def explain(
    file: str = typer.Argument(..., help=N_("The scenario YAML file."), metavar="FILE"),
    step: Optional[str] = typer.Argument(None, help=N_("Only this step (its id); default every step."),
                                         metavar="STEP"),
    seed: Optional[int] = typer.Option(None, "--seed", help=N_("Seed for every roll the file does not give "
                                       "(default: the file's `seed`, else a fresh one, reported in the result).")),
    set_: Optional[List[str]] = set_option(),
    enable: Optional[List[str]] = enable_option(),
    disable: Optional[List[str]] = disable_option(),
    use: Optional[List[str]] = use_option(),
    group: Optional[str] = group_option(),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Explain how every number of a step came about, in words with rule ids."""
    use_language(lang)
    params = parse_params(set_)
    with guarded():
        from ..api import load_scenario, resolve_scenario
        from ..errors import ScenarioError
        from ..i18n import _
        from ..play.explain import explain_result

        loaded = load_scenario(file)
        if loaded.system != "drd2":
            raise ScenarioError(_("drd explain explains DrD II scenarios (system: drd2); a Dakara file is resolved by drd "
                                  "resolve, a quick Dakara test by drd dakara"),
                                path=("system",))
        result = resolve_scenario(loaded, seed=seed, params=params, enable=tuple(enable or ()),
                                  disable=tuple(disable or ()), group=group)
        try:
            lines = explain_result(result, step)
        except KeyError:
            known = ", ".join(str(s.get("id")) for s in result.get("steps") or [] if isinstance(s, dict))
            raise ScenarioError(_("{file} has no step {step} (its steps: {known})").format(
                file=file, step=step, known=known or "–"), path=("rounds",)) from None
        seeded = any(isinstance(r, dict) and r.get("source") == "seeded"
                     for s in result.get("steps") or [] if isinstance(s, dict) for r in (s.get("rolls") or {}).values())
        if seeded and result.get("seed") is not None:   # only then does the seed matter
            lines.insert(0, _("seed {seed} (the rolls the file does not give)").format(seed=result["seed"]))
        sys.stdout.write("\n".join(lines) + "\n")


__all__ = ["HELP", "explain"]
