"""The transcript for the terminal or a .txt file: the format-neutral Doc (render/text.py `build`)
written with rich."""

from __future__ import annotations

import io
from typing import Any

from .doc import RICH_STYLES, Column, Doc, Either, Label, Line, Meta, Span, Step, Table, Title
from .text import build, build_final, build_step

def _rich_text(spans: list[Span], *, indent: str = "", style: str = "") -> Any:
    from rich.text import Text

    text = Text(indent, style=RICH_STYLES.get(style, style))
    for span in spans:
        text.append(span.text, style=RICH_STYLES.get(span.style, span.style))
    return text


def _stacked(table: Table) -> list[Any]:
    from rich.text import Text

    out: list[Any] = []
    if table.title:
        out.append(Text(table.title, style="bold", overflow="fold"))
    for row in table.rows:
        if not row:
            continue
        out.append(_rich_text(row[0], style="bold"))
        for col, cell in zip(table.columns[1:], row[1:]):
            text = _rich_text([Span(f"{col.header}: ")] + list(cell), indent="  ")
            text.overflow = "fold"
            out.append(text)
    return out


def _rich_table(table: Table) -> Any:
    from .fit import Fitted

    return Fitted(_rich_table_only(table), _stacked(table))


def _rich_table_only(table: Table) -> Any:
    from rich import box
    from rich.table import Table as RichTable

    if table.kind == "final":
        out = RichTable(title=table.title, box=box.SIMPLE_HEAD, title_justify="left", title_style="bold",
                        pad_edge=False, collapse_padding=True)
    else:
        out = RichTable(box=box.SIMPLE, show_edge=False, pad_edge=False, title=table.title)
    for col in table.columns:
        kwargs: dict[str, Any] = {"justify": col.justify, "no_wrap": col.no_wrap}
        if col.min_width is not None:
            kwargs["min_width"] = col.min_width
        if col.style:
            kwargs["style"] = RICH_STYLES.get(col.style, col.style)
        out.add_column(col.header, **kwargs)
    for row in table.rows:
        out.add_row(*[_rich_text(cell) for cell in row])
    return out


def _rich_blocks(blocks: list) -> list[Any]:
    from rich.text import Text

    parts: list[Any] = []
    for block in blocks:
        if isinstance(block, Title):
            parts.append(Text(block.text, style="bold underline"))
        elif isinstance(block, Meta):
            parts.append(Text(block.text, style="dim"))
        elif isinstance(block, Label):
            parts.append(Text(block.text, style="bold"))
        elif isinstance(block, Line):
            parts.append(_rich_text(block.spans, indent="  ", style=block.style))
        elif isinstance(block, Table):
            parts.append(_rich_table(block))
        elif isinstance(block, Either):
            parts.extend(_rich_blocks(block.lines))
    return parts


class _Heading:
    """A step heading on a rule line; on a terminal too narrow for it, the heading wrapped whole
    above a plain rule (a rich Rule would cut its title to "…")."""

    def __init__(self, text: str):
        self.text = text

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.rule import Rule
        from rich.text import Text

        if len(self.text) + 6 <= options.max_width:
            yield Rule(Text(self.text, style="bold"), align="left")
        else:
            yield Text(self.text, style="bold", overflow="fold")
            yield Rule()


def render_step(step: dict) -> Any:
    """One step of the result as a rich renderable."""
    from rich.console import Group
    from rich.rule import Rule
    from rich.text import Text

    built = build_step(step)
    return Group(_Heading(built.heading), *_rich_blocks(built.blocks))


def render_final(final: dict) -> Any:
    """The final-state table as a rich renderable."""
    return _rich_table(build_final(final))


def render_doc(doc: Doc, console: Any) -> None:
    """Prints a built transcript on a rich console."""
    from rich.console import Group
    from rich.rule import Rule
    from rich.text import Text

    console.print(Group(*_rich_blocks(doc.header)))
    for step in doc.steps:
        console.print()
        console.print(Group(_Heading(step.heading), *_rich_blocks(step.blocks)))
    if doc.final is not None:
        console.print()
        console.print(_rich_table(doc.final))
    if doc.footer:
        console.print()
        # One unbroken line, so the hash can be copied whole from a narrow terminal.
        console.print(Text(doc.footer, style="dim"), soft_wrap=True)


def render(result: dict, console: Any) -> None:
    """Prints the whole transcript of `result` on `console`."""
    render_doc(build(result), console)


def render_text(result: dict, *, color: bool = False, width: int = 100) -> str:
    """The transcript as a string (for `--output`, tests): no colour codes unless asked."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system="truecolor" if color else None,
                      force_terminal=color, no_color=not color, highlight=False, emoji=False)
    render(result, console)
    return buffer.getvalue()
