"""A printed table entered whole: a referee's file (or paste) of a play-aid table, read within limits and
checked against the table's shape before any cell is kept (docs/systems/README.md, "Entering a printed
table"). Pure: the service keeps what this returns for a server, a game keeps it through its events.

    table = "fire_results"              # the table's name or title, as `/rules` names it
    [cells]                             # row heading as the play aid prints it = the row's values
    "8" = { hull = "1H", rigging = "1C", critical = 0 }   # by column heading (any of them) …
    "9" = ["", "1R", 1]                                   # … or the whole row, in the printed order
    [override]                          # legible cells of the play aid's text your printed copy reads otherwise
    "15" = { critical = 3 }

A one-column table takes a plain value per row (`"7" = "1 GB downstream"`). Every value is checked
against its column's syntax; a cell the play aid's text prints legibly must agree with it unless it is
under `[override]`. Cells that agree are not kept: the text answers them already.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.errors import DataError, IllegalAction, UnknownName
from game.notation import fold
from game.schema.common import MAX_DEPTH, control_character, read_toml
from game.systems.tables import PrintedEntry, Table, TableSet

MAX_ENTRY_BYTES = 50_000  # the largest printed table (WS&IM's Fire Results, 51 rows) is under 5 KB
SECTIONS = ("cells", "override")


class EntryRefused(IllegalAction):
    """A table file that cannot be read as a table: too large, not TOML, no table named, a stray key."""

    code = "table-entry"


class SeedDisagrees(IllegalAction):
    """A cell the play aid's text prints legibly, entered otherwise without saying it overrides it."""

    code = "seed-disagrees"


def read_entry(tables: TableSet, text: str, by: str = "") -> tuple[Table, tuple[PrintedEntry, ...]]:
    """The table a file enters and the cells to keep, each as `by` entered it ("" for a game's referee)."""
    try:
        doc = read_toml(text, "table file", MAX_ENTRY_BYTES, DataError)
    except DataError as exc:
        raise _refused(exc) from None
    stray = sorted(set(doc) - {"table", *SECTIONS})
    if stray:
        raise EntryRefused(f"The table file has {stray[0][:40]!r}, which it does not take.",
                           "It takes `table = NAME`, then [cells] and, for cells read otherwise than the play aid's "
                           "text, [override].")
    name = doc.get("table")
    if not isinstance(name, str) or not name.strip():
        raise EntryRefused("The table file does not say which table it enters.",
                           f"Begin it with `table = NAME`; tables: {', '.join(tables)}.")
    table = tables.find(name[:80])
    given: dict[tuple[str, str], tuple[str, bool]] = {}
    for section in SECTIONS:
        rows = doc.get(section, {})
        if not isinstance(rows, dict):
            raise EntryRefused(f"[{section}] must hold rows: `\"ROW\" = {{ COLUMN = VALUE }}` or a list of values.")
        for cell, value in _cells(table, rows, section):
            if cell in given:
                raise EntryRefused(f"{_where(table, *cell)} is entered twice.", "Enter each cell once: in [cells] or "
                                   "in [override].")
            given[cell] = (value, section == "override")
    if not given:
        raise EntryRefused(f"The table file enters no cell of the {table.title}.", "List its rows under [cells].")
    return table, tuple(_kept(table, given, by))


def check_entries(table: Table, entries: tuple[PrintedEntry, ...]) -> None:
    """Entries built without a file (a bot, JSON) hold to the same shape and syntax."""
    rows, columns = {k.text for k in table.rows.keys}, {k.text for k in table.columns.keys}
    for e in entries:
        if e.table != table.name or e.row not in rows or e.column not in columns:
            raise UnknownName(f"The {table.title} has no cell {e.row[:40]!r}, {e.column[:40]!r}.",
                              f"Its rows are {table.rows.span()}; its columns {table.columns.span()}.")
        value = table.checked_value(e.row, e.column, e.value)
        if not table.enterable(e.row, e.column) and not e.override and value != table.seed_text(e.row, e.column):
            raise _disagrees(table, e.row, e.column, value)


def _kept(table: Table, given: Mapping[tuple[str, str], tuple[str, bool]], by: str) -> list[PrintedEntry]:
    kept: list[PrintedEntry] = []
    for (row, column), (raw, override) in given.items():
        value = table.checked_value(row, column, raw)
        if table.enterable(row, column):
            kept.append(PrintedEntry(table.name, row, column, value, by))
        elif value != table.seed_text(row, column):
            if not override:
                raise _disagrees(table, row, column, value)
            kept.append(PrintedEntry(table.name, row, column, value, by, override=True))
    return kept


def _cells(table: Table, rows: Mapping[str, Any], section: str) -> list[tuple[tuple[str, str], str]]:
    out: list[tuple[tuple[str, str], str]] = []
    columns = table.columns.keys
    for heading, values in rows.items():
        row = _heading(table, heading, "row")
        if isinstance(values, list):
            if len(values) != len(columns):
                raise EntryRefused(f"Row {row} of the {table.title} has {len(values)} value(s) for "
                                   f"{len(columns)} column(s).", f"Its columns are {table.columns.span()}, in that "
                                   "order (\"\" for a blank cell), or name them: { COLUMN = VALUE }.")
            out += [((row, k.text), _text(table, row, k.text, v)) for k, v in zip(columns, values, strict=True)]
        elif isinstance(values, dict):
            for name, v in values.items():
                column = _heading(table, name, "column")
                out.append(((row, column), _text(table, row, column, v)))
        elif len(columns) == 1:
            out.append(((row, columns[0].text), _text(table, row, columns[0].text, values)))
        else:
            raise EntryRefused(f"[{section}] row {row}: give its values by column ({{ COLUMN = VALUE }}) or as a list.",
                               f"The {table.title} has the columns {table.columns.span()}.")
    return out


def _heading(table: Table, text: str, what: str) -> str:
    """A heading exactly as printed (any case): a number in a range heading is not its name."""
    axis = table.rows if what == "row" else table.columns
    found = next((k.text for k in axis.keys if fold(k.text) == fold(text.strip())), None)
    if found is None:
        raise UnknownName(f"The {table.title} has no {what} {text[:40]!r}.",
                          f"Its {what}s ({axis.name}) are {_short(axis.span())}.")
    return found


def _text(table: Table, row: str, column: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise EntryRefused(f"{_where(table, row, column)}: {str(value)[:40]!r} is not a value.",
                           "Write a number or a quoted value (\"\" for a blank cell).")
    text = str(value)
    bad = control_character(text)
    if bad is not None:
        raise EntryRefused(f"{_where(table, row, column)} holds the control character U+{ord(bad):04X}.",
                           "Write the value as the printed table shows it.")
    return text


def _where(table: Table, row: str, column: str) -> str:
    return f"{table.title}, row {row}" + (f", column {column}" if column != "value" else "")


def _disagrees(table: Table, row: str, column: str, value: str) -> SeedDisagrees:
    seed = table.seed_text(row, column) or "blank"
    return SeedDisagrees(f"{_where(table, row, column)}: the play aid's text reads {seed}, the file {value or 'blank'}.",
                         "If your printed copy reads otherwise, put the cell under [override]; else correct the file.")


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _refused(exc: DataError) -> EntryRefused:
    if exc.field == "(size)":
        return EntryRefused(f"That table file {exc.problem}.", f"Keep it under {MAX_ENTRY_BYTES // 1000} KB.")
    if exc.field == "(nesting)":
        return EntryRefused(f"That table file {exc.problem}.", f"Nest at most {MAX_DEPTH} deep.")
    return EntryRefused(f"The table file {exc.problem}.", "See docs/systems/README.md, \"Entering a printed table\".")
