"""`drd docs [TOPIC]`: the user documentation that ships with drd, a page at a time.

The wheel carries docs/*.md as package data (drd_cli/docs, pyproject.toml); from a source checkout
the repository's docs/ folder is read. Help pages cite these pages as `drd docs TOPIC`.
Imports only typer at module level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ._common import N_, Lang, lang_option, use_language

HELP = N_("Print a page of drd's documentation (docs/TOPIC.md), or without TOPIC list the pages.\n\n"
          "The pages ship with drd, so `drd docs scenario-format` works wherever drd is installed.")


# The first headings of the pages written in English, so `drd docs` lists them in the run's language
# (the Czech catalog says which pages are in English); a page not listed shows its heading as it is.
TITLES = (N_("The ability catalogue"), N_("How drd is built"), N_("The book's worked examples as scenarios"),
          N_("The `drd` command line"), N_("Dakara skill use (`system: dakara`)"),
          N_("`drd diff` — how would a house rule have changed it?"), N_("Languages: Czech and English"),
          N_("Importing characters and creatures (`drd import`, `drd export roll20`)"),
          N_("Odds and simulation (`drd odds`, `drd simulate`)"), N_("`drd play` — resolving a conflict at the table"),
          N_("Plugins"), N_("Rules → implementation → tests"),
          N_("The scenario format `drd/1` and the result `drd-result/1`"),
          N_("Spec-conformance audit (docs/rules.md, docs/scenario-format.md §1–§8.3)"), N_("Transcripts people keep"))


def docs_folder() -> Path | None:
    """Where the pages are: the package's own copy (a wheel), else the source checkout's docs/."""
    here = Path(__file__).resolve().parents[1]
    for folder in (here / "docs", here.parent / "docs"):
        if folder.is_dir() and any(folder.glob("*.md")):
            return folder
    return None


def topics() -> dict[str, str]:
    """topic → the page's first heading."""
    folder = docs_folder()
    out = {}
    for page in sorted(folder.glob("*.md"), key=lambda p: p.stem) if folder else ():
        first = next((ln for ln in page.read_text(encoding="utf-8").splitlines() if ln.startswith("#")), page.stem)
        out[page.stem] = first.lstrip("#").strip()
    return out


def docs(
    topic: Optional[str] = typer.Argument(None, metavar="[TOPIC]", help=N_("The page, e.g. scenario-format, play, "
                                                                         "rules (docs/TOPIC.md).")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Print a page of drd's documentation, or list the pages."""
    import sys

    from ..i18n import _

    use_language(lang)
    known = topics()
    if topic is None:
        width = max((len(t) for t in known), default=0)
        for name, title in known.items():
            sys.stdout.write(f"{name:<{width}}  {_(title) if title in TITLES else title}\n")
        return
    name = topic[:-3] if topic.endswith(".md") else topic
    name = name.split("/")[-1].split("#")[0]
    folder = docs_folder()      # there is one whenever `known` names a page
    if name not in known or folder is None:
        import difflib

        close = difflib.get_close_matches(name, list(known), n=1)
        hint = _("did you mean {option}?").format(option=repr(close[0])) + " " if close else ""
        sys.stderr.write(_("drd docs: no page {topic}").format(topic=repr(topic)) + "\n  → " + hint
                         + _("`drd docs` lists them all") + "\n")
        raise typer.Exit(2)
    sys.stdout.write((folder / f"{name}.md").read_text(encoding="utf-8"))
