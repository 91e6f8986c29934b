"""`drd konflikt new …` and `drd kronika [vrat|export]`: a campaign's conflicts and its chronicle
(docs/kampan.md). Imports only typer; everything else inside the commands.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Optional

import typer

from ._common import N_, Lang, guarded, lang_option, use_language
from ._help import DrdTyper
from .kampan import json_option, kampan_option, open_campaign, out

konflikt_app = DrdTyper(help=N_("A campaign's conflicts: a new scenario naming its characters and creatures."),
                        no_args_is_help=True)
kronika_app = DrdTyper(help=N_("The campaign's chronicle: list the entries, undo the last one, export them."),
                       invoke_without_command=True)


class ExportFormat(str, Enum):
    md = "md"
    html = "html"
    discord = "discord"


class ExportView(str, Enum):
    gm = "gm"
    player = "player"


@konflikt_app.command("new", help=N_("Write a commented scenario skeleton naming the campaign's characters "
                                    "(--postavy a,b) and creatures (--bestie skret:3)."))
def konflikt_new(postavy: Optional[str] = typer.Option(None, "--postavy", metavar="ID,ID",
                                                       help=N_("Characters, comma-separated.")),
                 bestie: Optional[str] = typer.Option(None, "--bestie", metavar="ID[:N],…",
                                                      help=N_("Creatures, comma-separated; ID:N stands for N beings.")),
                 title: Optional[str] = typer.Option(None, "--nazev", help=N_("The conflict's title.")),
                 output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                                      help=N_("Where to write it (default: konflikty/<title>.yaml).")),
                 kampan: Optional[str] = kampan_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        from ..campaign.skeleton import write_skeleton
        from ..i18n import _

        camp = open_campaign(kampan)
        path = write_skeleton(camp, _split(postavy), _split(bestie), title, output)
        out(_("written {file}; fill in the steps, then: drd resolve {file} --zapsat").format(file=path))


def _split(text: Optional[str]) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


@kronika_app.callback()
def kronika(ctx: typer.Context, kampan: Optional[str] = kampan_option(), json_out: bool = json_option(),
            lang: Optional[Lang] = lang_option()) -> None:
    """The campaign's chronicle: list the entries, undo the last one, export them."""
    if ctx.invoked_subcommand is not None:
        return
    use_language(lang)
    with guarded():
        from ..campaign import chronicle
        from ..campaign.apply import kind_word
        from ..campaign.entities import change_lines, character_namer
        from ..i18n import _

        camp = open_campaign(kampan)
        name = character_namer(camp)
        items = chronicle.entries(camp)
        if json_out:
            out(json.dumps([{k: v for k, v in e.items() if not k.startswith("_")} for e in items],
                           ensure_ascii=False, indent=2))
            return
        if not items:
            out(_("the chronicle is empty"))
            return
        for e in items:
            what = e.get("title") or e.get("file") or e.get("reason") or e.get("jizva") or e.get("origin") or ""
            if e["kind"] == "undo":
                what = _("undoes entry {number}").format(number=e["undoes"])
            flag = "  [" + _("undone") + "]" if e["undone"] else ""
            out("  ".join(x for x in (f"{e['number']:>4}", e["when"], kind_word(e["kind"]), str(what),
                                      f"({e['who']}){flag}") if x))
            for ident, change in (e.get("characters") or {}).items():
                lines = change_lines(change)
                if lines:
                    out(f"        {name(ident)}: " + "; ".join(lines))


@kronika_app.command("vrat", help=N_("Undo the last chronicle entry (only while its characters are as it left them)."))
def kronika_vrat(kampan: Optional[str] = kampan_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        from ..campaign.apply import undo_last
        from ..campaign.entities import change_lines, character_namer
        from ..i18n import _

        entry = undo_last(open_campaign(kampan))
        out(_("chronicle entry {number}: entry {undone} undone").format(number=entry["number"],
                                                                         undone=entry["undoes"]))
        name = character_namer(open_campaign(kampan))
        for ident, change in (entry.get("characters") or {}).items():
            for line in change_lines(change):
                out(f"  {name(ident)}: {line}")


@kronika_app.command("export", help=N_("The chronicle as one document: Markdown (Obsidian, a wiki), HTML, or "
                                      "Discord messages (at most 2,000 characters each)."))
def kronika_export(od: Optional[int] = typer.Option(None, "--od", metavar="N",
                                                    help=N_("From entry N (default: the entries since the last "
                                                            "export).")),
                   format_: ExportFormat = typer.Option(ExportFormat.md, "--format", case_sensitive=False,
                                                        help=N_("md, html or discord.")),
                   view: ExportView = typer.Option(ExportView.gm, "--view", case_sensitive=False,
                                                   help=N_("gm (everything; Discord: secrets in spoiler tags) or "
                                                           "player (secrets left out).")),
                   json_out: bool = typer.Option(False, "--json", help=N_("Discord: the messages as a JSON list of "
                                                                         "strings.")),
                   output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                                        help=N_("Write to FILE instead of standard output.")),
                   kampan: Optional[str] = kampan_option(), lang: Optional[Lang] = lang_option()) -> None:
    code = use_language(lang)
    with guarded():
        from ..campaign import chronicle, export
        from ..i18n import _

        camp = open_campaign(kampan)
        if lang is None:
            from ..i18n import set_language

            code = set_language(camp.config.language)
        items = export.selected(camp, od)
        if format_ is ExportFormat.discord:
            messages = export.discord(camp, items, view.value)
            text = json.dumps(messages, ensure_ascii=False, indent=2) + "\n" if json_out else \
                ("\n" + "-" * 20 + "\n").join(messages) + "\n"
        elif format_ is ExportFormat.html:
            text = export.html_page(camp, items, view.value)
        else:
            text = export.markdown(camp, items, view.value)
        if output:
            from ._common import write_atomic

            write_atomic(output, text)
        else:
            sys.stdout.write(text)
        if items and od is None:
            with camp.changing() as tx:
                chronicle.mark_export(tx, camp, items[-1]["number"])
        if not items:
            sys.stderr.write(_("no chronicle entries to export (use --od N for older ones)") + "\n")
        del code
