"""`drd import roll20|ikaros|denik FILE` and `drd export roll20 ID` (docs/kampan-import.md).
Imports only typer; everything else inside the commands."""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Any, List, Optional

import typer

from ._common import N_, Lang, guarded, lang_option, use_language
from ._help import DrdTyper
from .kampan import kampan_option, open_campaign, out

IMPORT_HELP = N_("Import a character or creature into the campaign from Roll20 (VTTES JSON), Projekt Ikaros or "
                 "drd2-denik; every field not taken over is reported.\n\n"
                 "Exit 0 imported (or only shown), 2 the file is not that format, is cut short or holds impossible "
                 "values (nothing is written).")

export_app = DrdTyper(help=N_("Export a campaign character back to another tool."), no_args_is_help=True)


class Source(str, Enum):
    roll20 = "roll20"
    ikaros = "ikaros"
    denik = "denik"


def import_cmd(fmt: Source = typer.Argument(..., metavar="roll20|ikaros|denik", case_sensitive=False),
               file: str = typer.Argument(..., metavar="FILE"),
               bestie: bool = typer.Option(False, "--bestie", help=N_("Import a creature (into bestiar/).")),
               yes: bool = typer.Option(False, "--yes", help=N_("Update an existing file without asking.")),
               klic: Optional[List[str]] = typer.Option(None, "--klic", metavar="ABILITY.KEY=VALUE",
                                                        help=N_("The key of an ability the file does not say, e.g. "
                                                                "rodova-zbran.weapon=sekera (repeatable).")),
               kampan: Optional[str] = kampan_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        from ..campaign.importers import parser
        from ..campaign.importers.save import diff, prepare, write
        from ..i18n import _

        camp = open_campaign(kampan)
        given = _given_keys(klic or [])
        imported = parser(fmt.value)(file, creature=bestie, params=camp.params, keys=given)
        if bestie and imported.kind != "bestie":
            raise typer.BadParameter(_("the file holds a hero, not a creature"), param_hint="--bestie")
        _keys_asked(imported, given, ask=not yes and sys.stdin.isatty())
        path, old, new = prepare(camp, imported, file)
        for line in imported.report.lines():
            sys.stderr.write("  " + line + "\n")
        if imported.report.pending:
            sys.stderr.write("  → " + _("give the missing keys with --klic, e.g. --klic {id}.{key}=…").format(
                id=imported.report.pending[0].aid, key=next(iter(imported.report.pending[0].keys))) + "\n")
        if old == new:
            out(_("{file}: already as imported, nothing to change").format(file=camp.rel(path)))
            return
        if old is not None:
            for line in diff(camp, path, old, new):
                out(line)
            if not yes and not _confirm(_("Update {file}? [y/N] ").format(file=camp.rel(path))):
                out(_("nothing was written; run again with --yes to update {file}").format(file=camp.rel(path)))
                return
        entry = write(camp, imported, path, old, new, file)
        what = _("updated") if old is not None else _("created")
        out(_("{file} {what} (chronicle entry {number})").format(file=camp.rel(path), what=what,
                                                                   number=entry["number"]))


def _given_keys(values: List[str]) -> dict:
    """`--klic ID.KEY=VALUE` → {id: {key: value}}; a wrong one is a usage error (exit 2)."""
    if not values:
        return {}
    from ..campaign.importers.common import catalogue
    from ..campaign.importers.keys import parse_option

    try:
        return parse_option(values, catalogue())
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--klic") from None


def _keys_asked(imported: Any, given: dict, *, ask: bool) -> None:
    """`--klic` abilities the file lacks are said; at a terminal the missing keys are asked."""
    from ..campaign.importers.keys import ask_missing, unused
    from ..i18n import _

    report = imported.report
    waiting = {p.aid for p in report.pending}
    for aid in unused(given, imported.data.get("abilities") or []):
        if aid not in waiting:
            report.unmapped(_("--klic {id}: the file has no such ability").format(id=aid))
    if ask and report.pending:
        def question(prompt: str) -> str:
            sys.stderr.write(prompt)
            sys.stderr.flush()
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line

        ask_missing(imported, question, lambda text: sys.stderr.write(text + "\n"))


def _confirm(prompt: str) -> bool:
    if not sys.stdin.isatty():
        return False
    sys.stderr.write(prompt)
    sys.stderr.flush()
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes", "a", "ano")


@export_app.command("roll20", help=N_("The character's attributes drd keeps (pools, maxima, scars, levels, "
                                     "equipment) as a VTTES file for the Roll20 sheet."))
def export_roll20(ident: str = typer.Argument(..., metavar="ID"),
                  output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                                       help=N_("Write to FILE instead of standard output.")),
                  kampan: Optional[str] = kampan_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        from ..campaign.importers.roll20 import export, not_exported
        from ..i18n import _

        camp = open_campaign(kampan)
        model = camp.read("postava", ident)
        text = json.dumps(export(model.name or ident, model), ensure_ascii=False, indent=4) + "\n"
        for line in not_exported(model):
            sys.stderr.write(_("not exported: {what}").format(what=line) + "\n")
        if output:
            from ._common import write_atomic

            write_atomic(output, text)
        else:
            sys.stdout.write(text)
