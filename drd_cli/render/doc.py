"""A format-neutral transcript: blocks of styled text and tables, built once, written three ways.

`drd_cli.render.text.build(result)` turns the result dict into a `Doc`; the terminal/text writer
(rich), the Markdown writer and the HTML writer only lay the same blocks out differently, so every
format shows the same facts. Styles are semantic names (`ok`, `bad`, …); each writer maps them.
No third-party imports here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from string import Formatter
from typing import Any, Union

# Semantic style → rich style (the terminal). Markdown and HTML map the same names themselves.
RICH_STYLES = {
    "": "", "ok": "bold green", "bad": "bold red", "warn": "bold yellow", "dim": "dim", "strong": "bold",
    "ohro": "yellow", "scar": "magenta", "rule": "cyan", "note": "italic", "injury": "red",
    "title": "bold underline",
}


@dataclass
class Span:
    """A piece of text with one semantic style."""

    text: str
    style: str = ""


@dataclass
class Title:
    text: str


@dataclass
class Meta:
    """A small, dim line under the title (system, seed, rules, glossary)."""

    text: str


@dataclass
class Label:
    """A section label inside a step: `Akce:`, `Vyčerpání:` …"""

    text: str


@dataclass
class Line:
    """One line of styled text; `style` applies to the whole line (e.g. `dim`, `note`)."""

    spans: list[Span]
    style: str = ""
    bullet: bool = True           # Markdown/HTML: an item of the list under the last label

    @property
    def plain(self) -> str:
        return "".join(s.text for s in self.spans)


@dataclass
class Column:
    header: str
    justify: str = "left"
    no_wrap: bool = False
    min_width: int | None = None
    style: str = ""


@dataclass
class Table:
    columns: list[Column]
    rows: list[list[list[Span]]]
    title: str | None = None
    kind: str = "rolls"           # "rolls" | "final" | "exhaustions": picks the terminal box style


@dataclass
class Either:
    """The same facts as lines (terminal, plain text) or as a table (Markdown, HTML)."""

    lines: list[Line]
    table: Table


Block = Union[Meta, Label, Line, Table, Either, Title]


@dataclass
class Step:
    heading: str
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Doc:
    title: str | None
    header: list[Block]
    steps: list[Step]
    final: Table | None
    footer: str | None
    lang: str = "cs"


def fill(template: str, style: str = "", **values: Any) -> list[Span]:
    """`template` formatted with `values` as spans: a value that is a Span keeps its own style.

    The template is a translated message, so its words may come in any order around the values.
    """
    out: list[Span] = []
    for literal, name, spec, conversion in Formatter().parse(template):
        if literal:
            out.append(Span(literal, style))
        if name is None:
            continue
        value = values[name]
        if isinstance(value, Span):
            out.append(value)
            continue
        if conversion == "r":
            value = repr(value)
        elif conversion == "s":
            value = str(value)
        out.append(Span(format(value, spec) if spec else str(value), style))
    return out
