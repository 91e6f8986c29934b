"""Tables that lose nothing on a narrow terminal: a rich table where it fits, else its rows
stacked as `Header: value` lines (`COLUMNS=20` shows every value instead of cells cut to "…")."""

from __future__ import annotations

from typing import Any


class Fitted:
    """Renders `table` when its unclamped minimum width fits, else `stacked` (renderables)."""

    def __init__(self, table: Any, stacked: list[Any]):
        self.table, self.stacked = table, stacked

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        # A rich table measures itself clamped to the width it is given: measure it unbounded, and
        # keep the table only when it fits at its natural width (no cell wrapped or cut).
        wide = options.update(width=10_000)
        if Measurement.get(console, wide, self.table).maximum <= options.max_width:
            yield self.table
        else:
            yield from self.stacked

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        return Measurement.get(console, options, self.table)


def fit(table: Any) -> Fitted:
    """A rich `Table` that stacks its rows when the terminal is too narrow for it."""
    from rich.text import Text

    stacked: list[Any] = []
    if table.title:
        stacked.append(Text.from_markup(str(table.title), style="bold", overflow="fold")
                       if isinstance(table.title, str) else table.title)
    columns = table.columns
    rows = max((len(c._cells) for c in columns), default=0)
    for r in range(rows):
        cells = [c._cells[r] if r < len(c._cells) else "" for c in columns]
        first = cells[0]
        stacked.append(Text.from_markup(first, style="bold", overflow="fold") if isinstance(first, str) else first)
        for col, cell in zip(columns[1:], cells[1:]):
            header = col.header if isinstance(col.header, str) else str(col.header)
            value = Text.from_markup(cell) if isinstance(cell, str) else cell
            line = Text("  ", overflow="fold")
            line.append(Text.from_markup(header))
            line.append(": ")
            line.append(value if isinstance(value, Text) else Text(str(value)))
            stacked.append(line)
    return Fitted(table, stacked)
