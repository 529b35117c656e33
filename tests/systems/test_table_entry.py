"""A printed table entered whole (game/systems/table_entry.py): the file read against the table's shape, each
refusal naming what was wrong; the look-up order (a game's own entry, the server's, the play aid's text) and
the provenance each answer shows; the entry as one event of a game, replayed exactly."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import RulesError, UnknownName
from game.systems import REFEREE_SYSTEMS
from game.systems.base import replay
from game.systems.common import EnterTable
from game.systems.table_entry import MAX_ENTRY_BYTES, EntryRefused, SeedDisagrees, check_entries, read_entry
from game.systems.tables import BadValue, Cell, PrintedEntry, ReadPrinted, load_tables
from game.systems.tables import Table as Table_
from tests.systems.helpers import Table, quote

WSIM = load_tables("wsim")
FRT = WSIM["fire_results"]
SEED = "wsim/seed_002_tables.txt"


def frt(body: str) -> str:
    return f'table = "fire_results"\n[cells]\n{body}\n'


def refused(text: str, kind: type[RulesError] = RulesError) -> str:
    with pytest.raises(kind) as caught:
        read_entry(WSIM, text, "Ann")
    return caught.value.text


def test_a_row_by_column_name_or_in_printed_order() -> None:
    table, entries = read_entry(WSIM, frt('"8" = { hull = "1h", rigging = "1C" }\n"9" = ["", "1r", 1]'), "Ann")
    assert table is FRT
    # 9's Critical Number agrees with the text (line 94: "9 … 1"), so it is not kept; a blank hit cell is
    quote(__file__, SEED, 94, "9\t\t\t1\t\t1")
    assert entries == (PrintedEntry("fire_results", "8", "hull", "1H", "Ann"),
                       PrintedEntry("fire_results", "8", "rigging", "1C", "Ann"),
                       PrintedEntry("fire_results", "9", "hull", "", "Ann"),
                       PrintedEntry("fire_results", "9", "rigging", "1R", "Ann"))
    # a one-column table takes a plain value per row; the title names the table too
    table, entries = read_entry(load_tables("iron_and_oak"), 'table = "Drifting Table"\n[cells]\n"7" = "1 GB downstream"')
    assert table.name == "drifting" and entries == (PrintedEntry("drifting", "7", "value", "1 GB downstream"),)


def test_unknown_rows_and_columns_are_refused_by_name() -> None:
    text = refused(frt('"58" = { hull = "1H" }'), UnknownName)
    assert "no row '58'" in text and "7 or less, 8, 9" in text
    # a number inside a range heading is not its name: the row is "57+" as printed
    assert "no row '60'" in refused(frt('"60" = { hull = "1H" }'), UnknownName)
    assert "no column 'crew'" in refused(frt('"8" = { crew = "1H" }'), UnknownName)
    assert "There is no table called 'nothing'" in refused('table = "nothing"\n[cells]\n"1" = 1', UnknownName)


def test_values_in_the_columns_syntax() -> None:
    text = refused(frt('"8" = { hull = "3X" }'), BadValue)
    assert text.startswith("Fire Results Table, row 8, column hull: '3X' is not hits as 2H1C1R")
    assert "is not hits" in refused(frt('"8" = { hull = "1H1H" }'), BadValue)  # a kind of hit named twice
    assert "is not a whole number" in refused(frt('"8" = { critical = "two" }'), BadValue)
    assert "no blank cell" in refused(frt('"8" = { critical = "" }'), BadValue)
    with pytest.raises(BadValue, match="is not yes or no"):
        read_entry(load_tables("captains_sea"), 'table = "fire_check_red"\n[cells]\n"≥11" = { 3 = "maybe" }')
    assert "is not a value" in refused(frt('"8" = { hull = 1.5 }'), EntryRefused)
    assert "control character" in refused(frt('"8" = { hull = "1H\\u202e" }'), EntryRefused)
    assert "has 2 value(s) for 3 column(s)" in refused(frt('"8" = ["1H", "1C"]'), EntryRefused)


def test_a_legible_cell_must_agree_unless_overridden() -> None:
    line = quote(__file__, SEED, 100, "15\t1\t\t1\t1\t2")  # Critical Number 2 at FFN 15
    assert line.split("\t")[-1] == "2"
    text = refused(frt('"15" = { critical = 3 }'), SeedDisagrees)
    assert "row 15, column critical: the play aid's text reads 2, the file 3" in text and "[override]" in text
    _, entries = read_entry(WSIM, frt('"15" = { critical = 2 }\n[override]\n"16" = { critical = 3 }'), "Ann")
    assert entries == (PrintedEntry("fire_results", "16", "critical", "3", "Ann", override=True),)
    # a cell the text prints as it stands, however odd, is the referee's to enter without an override
    _, entries = read_entry(WSIM, 'table = "carronades"\n[cells]\n"2" = { 4 = 2 }')
    assert entries == (PrintedEntry("carronades", "2", "4", "2"),)


def test_the_file_itself() -> None:
    assert "does not say which table" in refused('[cells]\n"8" = { hull = "1H" }', EntryRefused)
    assert "'rows', which it does not take" in refused('table = "fire_results"\n[rows]\n', EntryRefused)
    assert "enters no cell" in refused('table = "fire_results"\n', EntryRefused)
    assert "entered twice" in refused(frt('"8" = { hull = "1H" }\n[override]\n"8" = { hull = "2H" }'), EntryRefused)
    assert "is not valid TOML" in refused("table = ", EntryRefused)
    big = frt("# " + "x" * MAX_ENTRY_BYTES)
    assert f"the limit is {MAX_ENTRY_BYTES:,}" in refused(big, EntryRefused)
    assert "nests brackets" in refused(frt('"8" = ' + "[" * 40 + "]" * 40), EntryRefused)


def test_lookup_order_and_provenance() -> None:
    server = PrintedEntry("fire_results", "20", "hull", "2H1C", "Ann")
    game = PrintedEntry("fire_results", "20", "hull", "3H")
    assert isinstance(FRT.lookup(20, "hull"), ReadPrinted)
    cell = FRT.lookup(20, "hull", (server,))
    assert isinstance(cell, Cell) and cell.value == "2H1C" and cell.provenance == "this server's entry by Ann"
    for order in ((server, game), (game, server)):  # the game's own entry first, whatever the order given
        cell = FRT.lookup(20, "hull", order)
        assert isinstance(cell, Cell) and cell.value == "3H"
        assert cell.provenance == "entered by the referee from the printed copy"
    # an entry for a legible cell counts only as an override, and says what the text reads
    plain = PrintedEntry("fire_results", "20", "critical", "5", "Ann")
    assert FRT.lookup(20, "critical", (plain,)) == Cell("fire_results", "20", "critical", 2)
    over = PrintedEntry("fire_results", "20", "critical", "5", "Ann", override=True)
    cell = FRT.lookup(20, "critical", (over,))
    assert isinstance(cell, Cell) and cell.value == 5
    assert cell.provenance == "this server's entry by Ann, in place of the play aid's text, which reads 2"
    assert "20 | ? | ? | 5*" in FRT.render((over,)).split("\n")


def test_the_printed_command_checks_the_syntax_too(captains: Table) -> None:
    assert isinstance(captains.refused("Umpire: printed fire_check_red ≥11 3 = maybe"), BadValue)
    captains.play("Umpire: printed fire_check_red ≥11 3 = YES")
    assert captains.state.printed[-1] == PrintedEntry("fire_check_red", "≥11", "3", "yes")


def test_a_table_entered_in_a_game_is_one_event_and_replays(wsim: Table) -> None:
    _, entries = read_entry(WSIM, frt('"8" = { hull = "1H" }\n[override]\n"9" = { critical = 4 }'), "Ann")
    system = wsim.system
    with pytest.raises(RulesError, match="Only the referee"):
        system.decide(wsim.state, EnterTable("fire_results", entries, "British"), None)  # type: ignore[arg-type]
    events = system.decide(wsim.state, EnterTable("fire_results", entries, "Umpire"), None)  # type: ignore[arg-type]
    assert len(events) == 1 and all(e.by == "" for e in events[0].entries)  # the game referee's, in the game
    assert system.account(events[0]) == ("The referee enters the printed Fire Results Table: 2 cell(s), 1 of them in "
                                         "place of the play aid's text. `/rules table: fire_results` shows them.")
    state = system.apply(wsim.state, events[0])
    assert replay(system, wsim.initial, events) == state
    cell = FRT.lookup(9, "critical", state.printed)
    assert isinstance(cell, Cell) and cell.value == 4 and "referee" in cell.provenance
    # entries built without a file hold to the same checks
    with pytest.raises(SeedDisagrees):
        check_entries(FRT, (PrintedEntry("fire_results", "9", "critical", "4"),))
    with pytest.raises(UnknownName):
        check_entries(FRT, (PrintedEntry("fire_results", "99", "hull", "1H"),))


@pytest.fixture
def wsim() -> Table:
    import tomllib

    from game.service.referee import builtin_setups

    return Table(REFEREE_SYSTEMS["wsim"], tomllib.loads(builtin_setups("wsim")["trafalgar"]))


@pytest.fixture
def captains() -> Table:
    import tomllib

    from game.service.referee import builtin_setups

    return Table(REFEREE_SYSTEMS["captains_sea"], tomllib.loads(builtin_setups("captains_sea")["frigate_duel"]))


# ---------------------------------------------------------------- properties

TABLES = [t for system in REFEREE_SYSTEMS.values() for t in system.tables().tables]


def value_of(kind: str) -> st.SearchStrategy[str]:
    """A value already in its syntax's normal form, so what the look-up answers can be told without the code."""
    if kind == "number":
        return st.integers(-99, 99).map(str)
    if kind == "hits":
        return st.lists(st.sampled_from("HCR"), min_size=1, max_size=3, unique=True).flatmap(
            lambda kinds: st.tuples(*(st.integers(1, 9) for _ in kinds)).map(
                lambda ns: "".join(f"{n}{k}" for n, k in zip(ns, kinds, strict=True))))
    if kind == "yes-no":
        return st.sampled_from(["yes", "no"])
    return st.text(alphabet="abcXYZ19/ ", min_size=1, max_size=20).map(str.strip).filter(
        lambda t: bool(t) and t not in ("-",) and not re.fullmatch(r"[+-]?\d+", t))


@st.composite
def entry_files(draw: st.DrawFn) -> tuple[Table_, dict[tuple[str, str], tuple[str, bool]]]:
    table = draw(st.sampled_from(TABLES))
    cells = [(r.text, c.text) for r in table.rows.keys for c in table.columns.keys]
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=8, unique=True))
    given: dict[tuple[str, str], tuple[str, bool]] = {}
    for row, column in chosen:
        if table.enterable(row, column):
            given[(row, column)] = (draw(value_of(table.kind(column))), False)
        elif draw(st.booleans()):
            given[(row, column)] = (table.seed_text(row, column), False)  # agrees with the text
        else:
            value = draw(value_of(table.kind(column)).filter(lambda v, r=row, c=column: v != table.seed_text(r, c)))
            given[(row, column)] = (value, True)
    return table, given


def as_file(table: Table_, given: dict[tuple[str, str], tuple[str, bool]]) -> str:
    def section(override: bool) -> str:
        rows: dict[str, list[str]] = {}
        for (row, column), (value, o) in given.items():
            if o == override:
                rows.setdefault(row, []).append(f"{json.dumps(column, ensure_ascii=False)} = "
                                                f"{json.dumps(value, ensure_ascii=False)}")
        return "\n".join(f"{json.dumps(r, ensure_ascii=False)} = {{ {', '.join(v)} }}" for r, v in rows.items())

    return f"table = {json.dumps(table.name)}\n[cells]\n{section(False)}\n[override]\n{section(True)}\n"


@settings(max_examples=150, deadline=None)
@given(entry_files(), st.booleans())
def test_every_cell_of_a_valid_file_answers_as_entered(drawn: tuple[Table_, dict[tuple[str, str], tuple[str, bool]]],
                                                        from_server: bool) -> None:
    table, given = drawn
    tables = next(s.tables() for s in REFEREE_SYSTEMS.values() if table.name in s.tables())
    by = "Ann" if from_server else ""
    found, entries = read_entry(tables, as_file(table, given), by)
    assert found is table
    kept = {(e.row, e.column) for e in entries}
    for (row, column), (value, override) in given.items():
        cell = table.lookup(row, column if column != "value" else None, entries)
        assert isinstance(cell, Cell)
        if table.enterable(row, column) or override:
            assert (row, column) in kept and str(cell.value) == value and cell.entered
            assert cell.provenance.startswith("this server's entry by Ann" if from_server else "entered by the referee")
            assert "rulebook" not in cell.provenance
        else:  # agreed with the play aid's text: answered from it, not kept
            assert (row, column) not in kept and not cell.entered and str(cell.value) == value
    # a game's own entry of the same cells answers before the server's, in any order
    if from_server and entries:
        own = tuple(replace(e, by="", value=e.value) for e in entries)
        for mixed in (entries + own, own + entries):
            e = entries[0]
            cell = table.lookup(e.row, e.column if e.column != "value" else None, mixed)
            assert isinstance(cell, Cell) and cell.by == ""
