"""The transcript as Markdown, for a group's notes: the same Doc as the terminal, laid out for reading.

A heading per step, tables for rolls, exhaustions and the final state, verdicts in bold words.
Everything that comes from the scenario (names, labels, log texts) is escaped, so a name like
`*Hrun*` or `a|b` cannot break the layout.
"""

from __future__ import annotations

import re

from .doc import Doc, Either, Label, Line, Meta, Span, Table, Title
from .text import build

_SPECIAL = re.compile(r"([\\`*_\[\]<|~])")
_BOLD = {"ok", "bad", "warn", "strong"}


def escape(text: str) -> str:
    """Backslash-escapes the characters that Markdown (GFM) would read as markup; no newlines."""
    text = _SPECIAL.sub(r"\\\1", text).replace("\r", " ").replace("\n", " ")
    # A paragraph starting with these would turn into a heading, quote or list item.
    return "\\" + text if text[:1] in ("#", ">", "-", "+", "=") else text


def _spans(spans: list[Span]) -> str:
    out = []
    for span in spans:
        text = escape(span.text)
        stripped = text.strip()
        if not stripped:
            out.append(text)
        elif span.style in _BOLD:
            lead, trail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
            out.append(f"{lead}**{stripped}**{trail}")
        elif span.style in ("note", "dim", "scar"):
            lead, trail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
            out.append(f"{lead}*{stripped}*{trail}")
        elif span.style == "rule":
            code = span.text.strip().replace("`", "'")
            out.append(f"`{code}` ")
        else:
            out.append(text)
    return "".join(out)


def _table(table: Table) -> list[str]:
    lines = []
    if table.title:
        lines += [f"## {escape(table.title)}", ""]
    lines.append("| " + " | ".join(escape(c.header) for c in table.columns) + " |")
    lines.append("|" + "|".join("---:" if c.justify == "right" else "---" for c in table.columns) + "|")
    for row in table.rows:
        cells = []
        for col, cell in zip(table.columns, row):
            spans = [Span(s.text, s.style or col.style) for s in cell]
            cells.append(_spans(spans) or " ")
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def _blocks(blocks: list) -> list[str]:
    out: list[str] = []
    in_list = items = False
    for block in blocks:
        if isinstance(block, Line) and block.bullet and in_list:
            text = _spans([Span(s.text, s.style or block.style) for s in block.spans])
            out.append(f"- {text}")
            items = True
            continue
        if in_list and items:
            out.append("")
        in_list = items = False
        if isinstance(block, Label):
            out += [f"**{escape(block.text.rstrip(':'))}**", ""]
            in_list = True
        elif isinstance(block, Line):
            out += [_spans([Span(s.text, s.style or block.style) for s in block.spans]), ""]
        elif isinstance(block, Table):
            out += _table(block)
        elif isinstance(block, Either):
            out += _table(block.table)
        elif isinstance(block, Meta):
            out += [f"*{escape(block.text)}*", ""]
        elif isinstance(block, Title):
            out += [f"# {escape(block.text)}", ""]
    if in_list and items:
        out.append("")
    return out


def render_doc(doc: Doc) -> str:
    from ..i18n import _

    lines: list[str] = []
    if doc.title is None:
        lines += [f"# {escape(_('Transcript'))}", ""]
    lines += _blocks(doc.header)
    for step in doc.steps:
        lines += [f"## {escape(step.heading)}", ""]
        lines += _blocks(step.blocks)
    if doc.final is not None:
        lines += _table(doc.final)
    if doc.footer:
        lines += ["---", "", f"`{doc.footer}`", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_markdown(result: dict) -> str:
    """The whole transcript of `result` as Markdown text, in the active language."""
    return render_doc(build(result))
