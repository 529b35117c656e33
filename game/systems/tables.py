"""Play-aid tables as data: keys that are numbers, ranges, open bounds or labels; provenance and a
`verified` flag per table and per cell (docs/systems/README.md).

A cell garbled in the play aid's text answers `ReadPrinted` (read the printed table) instead of a number,
unless the referee has entered what the group's printed copy says (a `PrintedEntry`).

    provisional = "…"                 # the whole file is a reading, not a proof-read printed table
    [[table]]
    name = "fire_base"                # how code and the `/rules` look-up name it
    title = "Fire Base"
    printed = "FIRE BASE"             # the heading on the printed play aid
    seed = "002"
    verified = true
    rows = { name = "guns", keys = ["1", "2", "3"], domain = [1, 14] }
    columns = { name = "range", keys = ["1", "2", "3-5", "6+"] }
    cells = [[2, 2, 1, ""], ...]      # "" is a blank cell (no entry on the printed table)
    [[table.flag]]                    # cells garbled or absent in the seed's text, with the reason
    rows = ["6+"]                     # omitted: every row; columns likewise
    reason = "…"
    [[table.reading]]                 # clean cells answered as the seed prints them, though they look odd
    rows = ["2"]
    columns = ["4"]
    line = 22                         # the seed's line that prints them: the answer shows it as its source
    reason = "…"                      # why the value is worth a second look on the printed copy
    values = { hull = "hits" }        # optional: the value syntax per column (or one for every column):
                                      # number, hits, yes-no or text; unsaid, a column whose legible cells
                                      # are all numbers takes numbers, any other takes text
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from game.errors import IllegalAction, ParseError, UnknownName
from game.notation import fold

Value = int | str
UNBOUNDED = None


class TableError(ValueError):
    """A table file that does not hold what the engine needs; names the file, table and field."""

    def __init__(self, file: str, table: str, field_: str, problem: str) -> None:
        super().__init__(f"{file}: table {table!r}, {field_}: {problem}")


class OffTable(IllegalAction):
    """The value falls outside every row (or column) the printed table has."""

    code = "off-table"


@dataclass(frozen=True)
class Key:
    """One row or column heading: a range of whole numbers (either end may be open) or a label."""

    text: str
    low: int | None = None
    high: int | None = None
    label: str = ""

    @property
    def numeric(self) -> bool:
        return not self.label

    def matches(self, value: Value) -> bool:
        if self.label:
            return isinstance(value, str) and fold(value) == fold(self.label)
        if isinstance(value, str):
            if not re.fullmatch(r"[+-]?\d+", value.strip()):
                return False
            value = int(value)
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


_LE = re.compile(r"^(?:≤|<=)\s*([+-]?\d+)$|^([+-]?\d+)\s*(?:or less|-)$")
_LT = re.compile(r"^<\s*([+-]?\d+)$")
_GE = re.compile(r"^(?:≥|>=)\s*([+-]?\d+)$|^([+-]?\d+)\s*(?:or more|\+|\(\+\))$")
_GT = re.compile(r"^>\s*([+-]?\d+)$")
_RANGE = re.compile(r"^([+-]?\d+)\s*[-–]\s*([+-]?\d+)$")
_ONE = re.compile(r"^[+-]?\d+$")


def parse_key(text: str) -> Key:
    """`12`, `3-5`, `7 or less`, `≤0`, `<0` (= ≤ -1), `57+`, `57 (+)`, `≥21`, `>21` (= ≥ 22), else a label."""
    t = text.strip()
    if _ONE.match(t):
        return Key(t, int(t), int(t))
    if m := _RANGE.match(t):
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi:
            raise ValueError(f"the range {t!r} runs backwards")
        return Key(t, lo, hi)
    if m := _LE.match(t):
        return Key(t, None, int(m.group(1) or m.group(2)))
    if m := _LT.match(t):
        return Key(t, None, int(m.group(1)) - 1)
    if m := _GE.match(t):
        return Key(t, int(m.group(1) or m.group(2)), None)
    if m := _GT.match(t):
        return Key(t, int(m.group(1)) + 1, None)
    if not t:
        raise ValueError("an empty key")
    return Key(t, label=t)


@dataclass(frozen=True)
class Axis:
    name: str
    keys: tuple[Key, ...]
    domain: tuple[int, int] | None = None  # the numbers the axis must answer for (closed tables)

    @property
    def numeric(self) -> bool:
        return all(k.numeric for k in self.keys)

    def index(self, value: Value) -> int | None:
        """The key a value falls under; a heading as printed ("57+", "7 or less") names its own key."""
        if isinstance(value, str):
            named = [i for i, k in enumerate(self.keys) if fold(k.text) == fold(value)]
            if named:
                return named[0]
        hits = [i for i, k in enumerate(self.keys) if k.matches(value)]
        return hits[0] if len(hits) == 1 else None

    def span(self) -> str:
        return ", ".join(k.text for k in self.keys)


@dataclass(frozen=True)
class Flag:
    rows: frozenset[str]  # empty: every row
    columns: frozenset[str]  # empty: every column
    reason: str

    def covers(self, row: str, column: str) -> bool:
        return (not self.rows or row in self.rows) and (not self.columns or column in self.columns)


@dataclass(frozen=True)
class Reading:
    """Clean cells of the seed's text answered as printed, though they look odd: each answer names the seed
    line it comes from and why it is worth a look on the printed copy."""

    rows: frozenset[str]  # empty: every row
    columns: frozenset[str]  # empty: every column
    line: int
    reason: str

    def covers(self, row: str, column: str) -> bool:
        return (not self.rows or row in self.rows) and (not self.columns or column in self.columns)


@dataclass(frozen=True)
class Cell:
    """A value read from the table. `entered` marks a value the referee read from the printed copy; `source`
    names the line of the play aid's text that prints a value answered as printed though it looks odd ("line 22 of
    the play aid's text"), `note` why."""

    table: str
    row: str
    column: str
    value: Value
    entered: bool = False
    source: str = ""
    note: str = ""
    by: str = ""  # an entry of the server's, by this member ("": the game's referee)
    overrides: bool = False  # an entry in place of a legible cell of the play aid's text
    replaces: str = ""  # that cell as the text prints it ("": blank)

    @property
    def provenance(self) -> str:
        """Where the value comes from, for an answer that shows it ("" for a plain cell of the seed)."""
        if self.entered:
            who = f"this server's entry by {self.by}" if self.by else "entered by the referee from the printed copy"
            if self.overrides:
                who += f", in place of the play aid's text, which reads {self.replaces or 'blank'}"
            return who
        if self.source:
            return f"as printed on {self.source}: {self.note}"
        return ""

    @property
    def blank(self) -> bool:
        return self.value == ""


@dataclass(frozen=True)
class ReadPrinted:
    """No trustworthy value here: the players read it from their own printed table."""

    table: str
    printed: str
    row: str
    column: str
    reason: str

    def text(self) -> str:
        where = f"row {self.row}" + (f", column {self.column}" if self.column != "value" else "")
        return f"Read the printed {self.printed}, {where}: {self.reason}"


@dataclass(frozen=True)
class PrintedEntry:
    """What a referee read from the group's printed copy for one cell: a withheld cell, a cell answered as
    printed with a note, or (`override`, said so by whoever entered it) a legible cell the group reads otherwise.
    `by` names the member who entered it for the whole server; "" is the game's own referee."""

    table: str
    row: str
    column: str
    value: str
    by: str = ""
    override: bool = False


# The value syntaxes a table's cells take (`values` in a table file): what an entry is checked against.
KINDS: dict[str, tuple[re.Pattern[str], str]] = {
    "number": (re.compile(r"[+-]?\d{1,6}"), "a whole number, e.g. 3"),
    "hits": (re.compile(r"(?i)0|none|(?!.*([HCR]).*\1)(?:\d{1,3}[HCR])+"), "hits as 2H1C1R (hull, crew, rigging; each once), or 0"),
    "yes-no": (re.compile(r"(?i)yes|no"), "yes or no"),
    "text": (re.compile(r"[^\n]{1,200}"), "text of at most 200 characters"),
}
BLANKS = ("", "-", "–")  # a cell the printed table leaves empty


class BadValue(ParseError):
    """A value that is not in the syntax of the table's column."""

    code = "bad-value"


def cell_value(text: str) -> Value:
    t = text.strip()
    return int(t) if re.fullmatch(r"[+-]?\d+", t) else t


@dataclass(frozen=True)
class Table:
    name: str
    title: str
    printed: str
    seed: str
    verified: bool
    rows: Axis
    columns: Axis
    cells: tuple[tuple[Value, ...], ...]
    flags: tuple[Flag, ...] = ()
    readings: tuple[Reading, ...] = ()
    note: str = ""
    file: str = ""
    provisional: str = ""  # why the whole file is the project's reading, not a proof-read printed table
    values: tuple[tuple[str, str], ...] = ()  # (column, kind): the syntax of its cells, where the file says

    def kind(self, column: str) -> str:
        """The value syntax of a column: as the file says, else numbers where every legible cell is one (in the
        column, or in the table when the column has none)."""
        said = dict(self.values)
        if column in said or "" in said:
            return said.get(column, said.get("", "text"))
        def legible(columns: Iterable[int]) -> list[Value]:
            return [row[c] for r, row in zip(self.rows.keys, self.cells, strict=True) for c in columns
                    if row[c] != "" and not self.enterable(r.text, self.columns.keys[c].text)]

        c = next(i for i, k in enumerate(self.columns.keys) if k.text == column)
        seen = legible([c]) or legible(range(len(self.columns.keys)))  # a column all blank: as the table
        return "number" if seen and all(isinstance(v, int) for v in seen) else "text"

    def checked_value(self, row: str, column: str, text: str) -> str:
        """An entry's value in the column's syntax, normalised ("" for a blank); BadValue names the cell."""
        t = text.strip()
        kind = self.kind(column)
        pattern, says = KINDS[kind]
        where = f"row {row}" + (f", column {column}" if column != "value" else "")
        if t in BLANKS:
            c = next(i for i, k in enumerate(self.columns.keys) if k.text == column)
            if kind == "number" and not any(r[c] == "" for r in self.cells):
                raise BadValue(f"{self.title}, {where}: the column has no blank cell.", f"Its cells take {says}.")
            return ""
        if not pattern.fullmatch(t):
            raise BadValue(f"{self.title}, {where}: {t[:40]!r} is not {says}.", f"Its cells take {says}.")
        if kind == "hits":  # no hits is a blank on the printed table
            return "" if t.lower() in ("0", "none") else t.upper()
        if kind == "number":
            return str(int(t))
        return t.lower() if kind == "yes-no" else t  # text as printed: "+1" stays "+1", as the seed has it

    def seed_text(self, row: str, column: str) -> str:
        """A cell as the play aid's text prints it ("" for a blank)."""
        r = next(i for i, k in enumerate(self.rows.keys) if k.text == row)
        c = next(i for i, k in enumerate(self.columns.keys) if k.text == column)
        return str(self.cells[r][c])

    def flag_for(self, row: str, column: str) -> Flag | None:
        if not self.verified:
            return Flag(frozenset(), frozenset(), self.note or "the whole table is unverified")
        return next((f for f in self.flags if f.covers(row, column)), None)

    def cell_verified(self, row: str, column: str) -> bool:
        return self.flag_for(row, column) is None

    def reading_for(self, row: str, column: str) -> Reading | None:
        return next((r for r in self.readings if r.covers(row, column)), None)

    def enterable(self, row: str, column: str) -> bool:
        """A cell the referee may enter from the printed copy: withheld, or answered as printed with a note."""
        return not self.cell_verified(row, column) or self.reading_for(row, column) is not None

    def locate(self, row: Value, column: Value | None = None) -> tuple[int, int]:
        r = self.rows.index(row)
        if r is None:
            raise OffTable(
                f"The {self.title} has no row for {self.rows.name} {row}.", f"Its rows are {self.rows.span()}."
            )
        if column is None:
            if len(self.columns.keys) != 1:
                raise OffTable(f"The {self.title} needs a {self.columns.name}.", f"Its columns are {self.columns.span()}.")
            return r, 0
        c = self.columns.index(column)
        if c is None:
            raise OffTable(
                f"The {self.title} has no column for {self.columns.name} {column}.",
                f"Its columns are {self.columns.span()}.",
            )
        return r, c

    def lookup(self, row: Value, column: Value | None = None, printed: Iterable[PrintedEntry] = ()) -> Cell | ReadPrinted:
        """The cell: a game's own entry first, then the server's, then the play aid's text (an entry for a
        legible cell counts only when it says it overrides it)."""
        r, c = self.locate(row, column)
        rk, ck = self.rows.keys[r].text, self.columns.keys[c].text
        flag, reading = self.flag_for(rk, ck), self.reading_for(rk, ck)
        legible = flag is None and reading is None
        entries = [p for p in printed if p.table == self.name and p.row == rk and p.column == ck
                   and (p.override or not legible)]
        if entries:
            p = min(entries, key=lambda e: bool(e.by))  # the game's own before the server's
            return Cell(self.name, rk, ck, cell_value(p.value), entered=True, by=p.by, overrides=legible,
                        replaces=str(self.cells[r][c]) if legible else "")
        if legible:
            return Cell(self.name, rk, ck, self.cells[r][c])
        if flag is None and reading is not None:
            return Cell(self.name, rk, ck, self.cells[r][c], source=f"line {reading.line} of the play aid's text", note=reading.reason)
        assert flag is not None
        return ReadPrinted(self.name, self.printed, rk, ck, flag.reason)

    def keys_of(self, row: Value, column: Value | None = None) -> tuple[str, str]:
        r, c = self.locate(row, column)
        return self.rows.keys[r].text, self.columns.keys[c].text

    def render(self, printed: Iterable[PrintedEntry] = ()) -> str:
        """The table as text, unverified cells shown as `?` (or as the referee entered them, with `*`), cells
        answered as printed with a note marked `†`."""
        entered = {(p.row, p.column): p.value for p in sorted(printed, key=lambda e: not e.by)
                   if p.table == self.name and (p.override or self.enterable(p.row, p.column))}
        head = [self.rows.name] + [k.text for k in self.columns.keys]
        lines = [f"{self.title} (seed {self.seed}{'' if self.verified else ', unverified'})", " | ".join(head)]
        for r, rk in enumerate(self.rows.keys):
            row = [rk.text]
            for c, ck in enumerate(self.columns.keys):
                if (rk.text, ck.text) in entered:
                    row.append((entered[(rk.text, ck.text)] or "–") + "*")
                elif self.cell_verified(rk.text, ck.text):
                    v = self.cells[r][c]
                    mark = "†" if self.reading_for(rk.text, ck.text) else ""
                    row.append((str(v) if v != "" else "–") + mark)
                else:
                    row.append("?")
            lines.append(" | ".join(row))
        reasons = dict.fromkeys(f.reason for f in self.flags)
        lines.extend(f"? {reason}" for reason in reasons)
        lines.extend(f"† as printed on line {x.line} of the play aid's text: {x.reason}" for x in self.readings)
        if self.note:
            lines.append(self.note)
        if self.provisional:
            lines.append(f"Provisional: {self.provisional}")
        return "\n".join(lines)


class TableSet(Mapping[str, Table]):
    """A system's tables by name."""

    def __init__(self, system: str, tables: Iterable[Table] = ()) -> None:
        self.system = system
        self.tables = tuple(tables)
        self._by_name = {t.name: t for t in self.tables}

    def __getitem__(self, name: str) -> Table:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def find(self, query: str) -> Table:
        """A table by its name or title, in any case, or a unique prefix (for a `/rules` look-up)."""
        q = fold(query).replace(" ", "_")
        for t in self.tables:
            if q in (fold(t.name), fold(t.title).replace(" ", "_")):
                return t
        prefix = [t for t in self.tables if fold(t.name).startswith(q) or fold(t.title).replace(" ", "_").startswith(q)]
        if len(prefix) == 1:
            return prefix[0]
        known = ", ".join(t.name for t in self.tables)
        if prefix:
            raise UnknownName(f"{query!r} could be any of {', '.join(t.name for t in prefix)}.", f"Tables: {known}.")
        raise UnknownName(f"There is no table called {query!r}.", f"Tables: {known}.")


# ---------------------------------------------------------------- loading


def tables_from_texts(system: str, texts: Mapping[str, str]) -> TableSet:
    tables: list[Table] = []
    for file, text in sorted(texts.items()):
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise TableError(file, "-", "TOML", str(exc)) from None
        provisional = doc.get("provisional", "")
        if not isinstance(provisional, str):
            raise TableError(file, "-", "provisional", "must be text saying why")
        for raw in doc.get("table", []):
            tables.append(replace(_table(file, raw), provisional=provisional))
    names = [t.name for t in tables]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise TableError("-", dupes[0], "name", "defined twice")
    return TableSet(system, tuple(tables))


def system_texts(system: str) -> dict[str, str]:
    pkg = resources.files("game.data").joinpath(system)
    return {f.name: f.read_text(encoding="utf-8") for f in pkg.iterdir() if f.name.endswith(".toml")}


@cache
def load_tables(system: str) -> TableSet:
    return tables_from_texts(system, system_texts(system))


def _need(raw: Mapping[str, Any], key: str, kind: type, file: str, table: str) -> Any:
    if key not in raw:
        raise TableError(file, table, key, "missing")
    value = raw[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise TableError(file, table, key, f"must be {kind.__name__}, got {value!r}")
    return value


def _axis(raw: Any, file: str, table: str, what: str) -> Axis:
    if not isinstance(raw, dict):
        raise TableError(file, table, what, "must be a table with name and keys")
    name = _need(raw, "name", str, file, table)
    texts = _need(raw, "keys", list, file, table)
    try:
        keys = tuple(parse_key(str(k)) for k in texts)
    except ValueError as exc:
        raise TableError(file, table, f"{what}.keys", str(exc)) from None
    domain = raw.get("domain")
    if domain is not None and (
        not isinstance(domain, list) or len(domain) != 2 or not all(isinstance(d, int) for d in domain)
    ):
        raise TableError(file, table, f"{what}.domain", "must be [low, high]")
    axis = Axis(name, keys, (domain[0], domain[1]) if domain else None)
    _check_axis(axis, file, table, what)
    return axis


def _check_axis(axis: Axis, file: str, table: str, what: str) -> None:
    labels = [fold(k.text) for k in axis.keys]
    if len(set(labels)) != len(labels):
        raise TableError(file, table, f"{what}.keys", "a heading appears twice")
    numeric = [k for k in axis.keys if k.numeric]
    if numeric and len(numeric) != len(axis.keys):
        raise TableError(file, table, f"{what}.keys", "mixes numbers and labels")
    if not numeric:
        return
    ordered = sorted(numeric, key=lambda k: (k.low is not None, k.low if k.low is not None else 0))
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.high is None or b.low is None or b.low <= a.high:
            raise TableError(file, table, f"{what}.keys", f"{a.text!r} and {b.text!r} overlap")
        if b.low != a.high + 1:
            raise TableError(file, table, f"{what}.keys", f"nothing covers the numbers between {a.text!r} and {b.text!r}")
    if axis.domain is not None:
        lo, hi = axis.domain
        first, last = ordered[0], ordered[-1]
        if (first.low is not None and first.low > lo) or (last.high is not None and last.high < hi):
            raise TableError(file, table, f"{what}.domain", f"the keys do not cover {lo}..{hi}")


def _table(file: str, raw: Any) -> Table:
    if not isinstance(raw, dict):
        raise TableError(file, "-", "table", "must be a table")
    name = _need(raw, "name", str, file, "-")
    rows = _axis(raw.get("rows"), file, name, "rows")
    columns = (
        _axis(raw["columns"], file, name, "columns") if "columns" in raw else Axis("value", (Key("value", label="value"),))
    )
    cells_raw = _need(raw, "cells", list, file, name)
    if "columns" not in raw:
        cells_raw = [[c] for c in cells_raw]
    if len(cells_raw) != len(rows.keys):
        raise TableError(file, name, "cells", f"{len(cells_raw)} rows for {len(rows.keys)} row keys")
    cells: list[tuple[Value, ...]] = []
    for i, row in enumerate(cells_raw):
        if not isinstance(row, list) or len(row) != len(columns.keys):
            raise TableError(file, name, f"cells row {rows.keys[i].text}", f"needs {len(columns.keys)} cells")
        for v in row:
            if isinstance(v, bool) or not isinstance(v, int | str):
                raise TableError(file, name, f"cells row {rows.keys[i].text}", f"{v!r} is not a number or text")
        cells.append(tuple(row))
    row_names = {k.text for k in rows.keys}
    col_names = {k.text for k in columns.keys}
    flags: list[Flag] = []
    for f in raw.get("flag", []):
        fr = frozenset(str(x) for x in f.get("rows", []))
        fc = frozenset(str(x) for x in f.get("columns", []))
        if fr - row_names or fc - col_names:
            raise TableError(file, name, "flag", f"names unknown keys {sorted((fr - row_names) | (fc - col_names))}")
        reason = f.get("reason")
        if not isinstance(reason, str) or not reason:
            raise TableError(file, name, "flag", "needs a reason")
        flags.append(Flag(fr, fc, reason))
    readings: list[Reading] = []
    for x in raw.get("reading", []):
        xr = frozenset(str(k) for k in x.get("rows", []))
        xc = frozenset(str(k) for k in x.get("columns", []))
        if xr - row_names or xc - col_names:
            raise TableError(file, name, "reading", f"names unknown keys {sorted((xr - row_names) | (xc - col_names))}")
        line, reason = x.get("line"), x.get("reason")
        if not isinstance(line, int) or isinstance(line, bool) or line < 1:
            raise TableError(file, name, "reading", "needs the seed's line number (line = N)")
        if not isinstance(reason, str) or not reason:
            raise TableError(file, name, "reading", "needs a reason")
        reading = Reading(xr, xc, line, reason)
        both = [(r, c) for r in row_names for c in col_names if reading.covers(r, c) and (raw.get("verified") is False or any(f.covers(r, c) for f in flags))]
        if both:
            raise TableError(file, name, "reading", f"row {both[0][0]}, column {both[0][1]} is also flagged: withheld or read, not both")
        readings.append(reading)
    return Table(
        name=name,
        title=_need(raw, "title", str, file, name),
        printed=_need(raw, "printed", str, file, name),
        seed=_need(raw, "seed", str, file, name),
        verified=_need(raw, "verified", bool, file, name),
        rows=rows,
        columns=columns,
        cells=tuple(cells),
        flags=tuple(flags),
        readings=tuple(readings),
        note=raw.get("note", ""),
        file=file,
        values=_values(raw.get("values"), col_names, file, name),
    )


def _values(raw: Any, columns: set[str], file: str, table: str) -> tuple[tuple[str, str], ...]:
    if raw is None:
        return ()
    said = {"": raw} if isinstance(raw, str) else raw
    if not isinstance(said, dict):
        raise TableError(file, table, "values", "must be a syntax, or a table of column = syntax")
    out: list[tuple[str, str]] = []
    for column, kind in said.items():
        if column and column not in columns:
            raise TableError(file, table, "values", f"names an unknown column {column!r}")
        if kind not in KINDS:
            raise TableError(file, table, "values", f"{kind!r} is not a syntax ({', '.join(KINDS)})")
        out.append((column, kind))
    return tuple(out)
