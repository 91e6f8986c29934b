"""The transcript as one self-contained HTML page: inline CSS, no scripts, every text escaped.

Reads well on screen and printed (black on white, steps not split across pages where they fit).
The same Doc as the terminal and Markdown, so all three show the same facts.
"""

from __future__ import annotations

from html import escape

from .doc import Doc, Either, Label, Line, Meta, Span, Table, Title
from .text import build

CSS = """
body { font: 15px/1.45 system-ui, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1b1b1b;
       max-width: 60rem; margin: 2rem auto; padding: 0 1rem; overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.15rem; border-bottom: 1px solid #999; margin: 1.6rem 0 .5rem; padding-bottom: .15rem; }
p.meta { color: #555; margin: .1rem 0; font-size: .9rem; }
p.label { font-weight: bold; margin: .7rem 0 .2rem; }
ul { margin: .2rem 0 .4rem; padding-left: 1.4rem; }
li { margin: .1rem 0; }
table { border-collapse: collapse; margin: .4rem 0 .6rem; }
th, td { padding: .15rem .6rem; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
th { border-bottom: 1px solid #888; }
td.right, th.right { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: bold; padding: .3rem 0; }
section.step { break-inside: avoid; page-break-inside: avoid; }
.ok { color: #17702e; font-weight: bold; }
.bad { color: #b3161b; font-weight: bold; }
.warn { color: #8a6100; font-weight: bold; }
.strong { font-weight: bold; }
.dim { color: #666; }
.note { font-style: italic; }
.ohro { color: #8a6100; }
.scar { color: #7b2d8b; }
.injury { color: #b3161b; }
.rule { font-family: ui-monospace, "DejaVu Sans Mono", monospace; color: #245c8a; font-size: .9em; }
footer { margin-top: 2rem; border-top: 1px solid #999; padding-top: .4rem; color: #555;
         font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .8rem; word-break: break-all; }
.wide { max-width: 100%; overflow-x: auto; }
@media (max-width: 40rem) {
  body { margin: 1rem auto; padding: 0 .6rem; font-size: 14px; }
  .wide { overflow-x: visible; }
  table, thead, tbody, tr, th, td, caption { display: block; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  tr { border-bottom: 1px solid #bbb; padding: .3rem 0; }
  td { border: 0; padding: .05rem 0; text-align: left; }
  td.right { text-align: left; }
  td[data-label]::before { content: attr(data-label) ": "; font-weight: bold; color: #555; }
  td[data-label=""]::before { content: none; }
}
@page { size: A4; margin: 15mm 12mm; }
@media print {
  body { margin: 0; max-width: none; font-size: 10.5pt; color: #000; }
  .ok, .bad, .warn, .ohro, .scar, .injury, .rule, .dim, p.meta, footer { color: #000; }
  h2 { break-after: avoid; }
  .wide { overflow: visible; }
  table { width: 100%; }
  th, td { padding: .1rem .3rem; }
}
""".strip()


def _spans(spans: list[Span], line_style: str = "") -> str:
    out = []
    for span in spans:
        style = span.style or line_style
        text = escape(span.text)
        out.append(f'<span class="{style}">{text}</span>' if style else text)
    return "".join(out)


def _table(table: Table) -> list[str]:
    out = ['<div class="wide">', f'<table class="{escape(table.kind)}">']
    if table.title:
        out.append(f"<caption>{escape(table.title)}</caption>")
    right = ' class="right"'
    out.append("<thead><tr>" + "".join(
        f'<th{right if c.justify == "right" else ""} scope="col">{escape(c.header)}</th>'
        for c in table.columns) + "</tr></thead>")
    out.append("<tbody>")
    for row in table.rows:
        cells = []
        for col, cell in zip(table.columns, row):
            cls = ' class="right"' if col.justify == "right" else ""
            # On a phone the table stacks (CSS above): each cell then says which column it is.
            cells.append(f'<td{cls} data-label="{escape(col.header)}">{_spans(cell, col.style)}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return out


def _blocks(blocks: list) -> list[str]:
    out: list[str] = []
    in_list = False
    for block in blocks:
        if isinstance(block, Line) and block.bullet and in_list:
            out.append(f"<li>{_spans(block.spans, block.style)}</li>")
            continue
        if in_list:
            out.append("</ul>")
            in_list = False
        if isinstance(block, Label):
            out += [f'<p class="label">{escape(block.text.rstrip(":"))}</p>', "<ul>"]
            in_list = True
        elif isinstance(block, Line):
            out.append(f"<p>{_spans(block.spans, block.style)}</p>")
        elif isinstance(block, Table):
            out += _table(block)
        elif isinstance(block, Either):
            out += _table(block.table)
        elif isinstance(block, Meta):
            out.append(f'<p class="meta">{escape(block.text)}</p>')
        elif isinstance(block, Title):
            out.append(f"<h1>{escape(block.text)}</h1>")
    if in_list:
        out.append("</ul>")
    return out


def render_doc(doc: Doc) -> str:
    from ..i18n import _

    title = doc.title or _("Transcript")
    parts = ["<!DOCTYPE html>", f'<html lang="{escape(doc.lang)}">', "<head>", '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             '<meta name="generator" content="drd">', f"<title>{escape(title)}</title>",
             f"<style>\n{CSS}\n</style>", "</head>", "<body>", "<header>"]
    if doc.title is None:
        parts.append(f"<h1>{escape(title)}</h1>")
    parts += _blocks(doc.header)
    parts.append("</header>")
    for step in doc.steps:
        parts += ['<section class="step">', f"<h2>{escape(step.heading)}</h2>", *_blocks(step.blocks), "</section>"]
    if doc.final is not None:
        parts += ['<section class="final">', *_table(doc.final), "</section>"]
    if doc.footer:
        parts.append(f"<footer>{escape(doc.footer)}</footer>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def render_html(result: dict) -> str:
    """The whole transcript of `result` as a standalone HTML document, in the active language."""
    return render_doc(build(result))
