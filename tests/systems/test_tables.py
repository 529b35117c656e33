"""The table engine: keys as ranges and open bounds, provenance, verified cells, what the referee
reads from the printed copy; and every table of every system keyed without gaps or overlaps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.errors import UnknownName
from game.systems import REFEREE_SYSTEMS, find_table
from game.systems.tables import (
    Cell,
    OffTable,
    PrintedEntry,
    ReadPrinted,
    TableError,
    parse_key,
    tables_from_texts,
)


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("12", 12, 12), ("3-5", 3, 5), ("3–5", 3, 5), ("7 or less", None, 7), ("≤0", None, 0), ("<=1", None, 1),
        ("<0", None, -1), ("57+", 57, None), ("57 (+)", 57, None), ("≥21", 21, None), (">21", 22, None),
        ("81+", 81, None), ("-3", -3, -3),
    ],
)
def test_keys(text: str, low: int | None, high: int | None) -> None:
    k = parse_key(text)
    assert (k.low, k.high, k.numeric) == (low, high, True)


def test_labels_and_matching() -> None:
    k = parse_key("80 gun")
    assert not k.numeric and k.matches("80 GUN") and not k.matches(80)
    assert parse_key("7 or less").matches(-40) and parse_key("7 or less").matches("7") and not parse_key("7 or less").matches(8)


TEXT = """
[[table]]
name = "t"
title = "Test"
printed = "TEST TABLE"
seed = "999"
verified = true
rows = { name = "roll", keys = ["2 or less", "3-5", "6+"] }
columns = { name = "aim", keys = ["hull", "rigging"] }
cells = [[1, ""], [2, "x"], [3, "y"]]
[[table.flag]]
rows = ["6+"]
columns = ["rigging"]
reason = "smudged"
"""


def test_lookup_flags_and_printed_entries() -> None:
    t = tables_from_texts("x", {"t.toml": TEXT})["t"]
    assert t.lookup(-5, "hull") == Cell("t", "2 or less", "hull", 1)
    assert t.lookup(4, "rigging").value == "x"  # type: ignore[union-attr]
    assert t.lookup(1, "rigging") == Cell("t", "2 or less", "rigging", "")  # a blank cell is a value
    read = t.lookup(99, "rigging")
    assert isinstance(read, ReadPrinted) and read.reason == "smudged"
    assert read.text() == "Read the printed TEST TABLE, row 6+, column rigging: smudged"
    entered = t.lookup(9, "rigging", (PrintedEntry("t", "6+", "rigging", "4"),))
    assert entered == Cell("t", "6+", "rigging", 4, entered=True)
    with pytest.raises(OffTable):
        t.lookup(3, "crew")
    assert t.lookup("6+", "hull").value == 3 and t.lookup("2 OR LESS", "hull").value == 1  # type: ignore[union-attr]
    assert "? smudged" in t.render() and "4*" in t.render((PrintedEntry("t", "6+", "rigging", "4"),))


READ = TEXT.replace(
    "[[table.flag]]",
    """[[table.reading]]
rows = ["3-5"]
columns = ["rigging"]
line = 12
reason = "looks odd"
[[table.flag]]""",
)


def test_a_clean_cell_that_looks_odd_answers_as_printed_with_its_line() -> None:
    t = tables_from_texts("x", {"t.toml": READ})["t"]
    got = t.lookup(4, "rigging")
    assert got == Cell("t", "3-5", "rigging", "x", source="line 12 of the play aid's text", note="looks odd")
    assert isinstance(got, Cell) and got.provenance == "as printed on line 12 of the play aid's text: looks odd"
    assert t.lookup(4, "hull") == Cell("t", "3-5", "hull", 2) and t.lookup(4, "hull").provenance == ""  # type: ignore[union-attr]
    assert t.cell_verified("3-5", "rigging") and t.enterable("3-5", "rigging") and not t.enterable("3-5", "hull")
    entered = t.lookup(4, "rigging", (PrintedEntry("t", "3-5", "rigging", "z"),))
    assert entered == Cell("t", "3-5", "rigging", "z", entered=True)
    assert isinstance(entered, Cell) and entered.provenance == "entered by the referee from the printed copy"
    text = t.render()
    assert "3-5 | 2 | x†" in text and "† as printed on line 12 of the play aid's text: looks odd" in text
    assert "3-5 | 2 | z*" in t.render((PrintedEntry("t", "3-5", "rigging", "z"),))
    assert isinstance(t.lookup(9, "rigging"), ReadPrinted)  # the flagged cell still asks


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("line = 12\n", "", "line number"),
        ("line = 12", "line = 0", "line number"),
        ('reason = "looks odd"', 'reason = ""', "reason"),
        ('rows = ["3-5"]\ncolumns = ["rigging"]\nline', 'rows = ["6+"]\ncolumns = ["rigging"]\nline', "also flagged"),
        ('rows = ["3-5"]\ncolumns = ["rigging"]\nline', 'rows = ["9"]\ncolumns = ["rigging"]\nline', "unknown keys"),
        ("verified = true", "verified = false", "also flagged"),
    ],
)
def test_a_bad_reading_is_refused(old: str, new: str, problem: str) -> None:
    assert old in READ
    with pytest.raises(TableError, match=problem):
        tables_from_texts("x", {"t.toml": READ.replace(old, new)})


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ('"3-5", "6+"', '"3-6", "6+"', "overlap"),
        ('"3-5", "6+"', '"3-4", "6+"', "between"),
        ('cells = [[1, ""], [2, "x"], [3, "y"]]', 'cells = [[1, ""], [2, "x"]]', "2 rows for 3"),
        ('rows = ["6+"]', 'rows = ["7+"]', "unknown keys"),
        ('reason = "smudged"', 'reason = ""', "reason"),
        ('"2 or less", "3-5"', '"2 or less", "low"', "mixes"),
        ("verified = true", 'verified = "yes"', "verified"),
    ],
)
def test_a_bad_table_file_is_refused_with_its_name(old: str, new: str, problem: str) -> None:
    assert old in TEXT
    with pytest.raises(TableError, match=problem) as exc:
        tables_from_texts("x", {"t.toml": TEXT.replace(old, new)})
    assert "t.toml" in str(exc.value) or "'t'" in str(exc.value)


ALL = [(name, t) for name, s in REFEREE_SYSTEMS.items() for t in s.tables().tables]


@pytest.mark.parametrize(("system", "table"), ALL, ids=[f"{s}:{t.name}" for s, t in ALL])
def test_every_table_has_provenance_and_a_value_or_a_reason_per_cell(system: str, table: object) -> None:
    from game.systems.tables import Table

    assert isinstance(table, Table)
    assert table.seed and table.printed and table.title
    for r in table.rows.keys:
        for c in table.columns.keys:
            got = table.lookup(r.text if not r.numeric else (r.low if r.low is not None else r.high),  # type: ignore[arg-type]
                               c.text if not c.numeric else (c.low if c.low is not None else c.high))
            assert isinstance(got, Cell | ReadPrinted)
            if isinstance(got, ReadPrinted):
                assert got.reason


@given(st.data())
def test_numeric_keys_cover_their_domain_exactly_once(data: st.DataObject) -> None:
    system, table = data.draw(st.sampled_from(ALL))
    for axis in (table.rows, table.columns):
        if not axis.numeric:
            continue
        lows = [k.low for k in axis.keys if k.low is not None]
        highs = [k.high for k in axis.keys if k.high is not None]
        lo = axis.domain[0] if axis.domain else min(lows + highs) - 20
        hi = axis.domain[1] if axis.domain else max(lows + highs) + 20
        value = data.draw(st.integers(lo, hi))
        open_low = any(k.low is None for k in axis.keys)
        open_high = any(k.high is None for k in axis.keys)
        inside = (open_low or value >= min(lows)) and (open_high or value <= max(highs))
        assert sum(k.matches(value) for k in axis.keys) == (1 if inside else 0)
        if axis.domain:
            assert inside, f"{system}:{table.name} does not answer {value} in its domain"


def test_rules_lookup_by_name_or_title() -> None:
    assert find_table("wsim", "fire results").name == "fire_results"
    assert find_table("captains_sea", "Damage Effects Table").name == "damage_effects"
    assert find_table("iron_and_oak", "drift").name == "drifting"
    with pytest.raises(UnknownName):
        find_table("wsim", "wind")  # more than one table starts so
    with pytest.raises(UnknownName):
        find_table("chess", "board")


def test_every_seed_table_is_marked_provisional() -> None:
    for system, table in ALL:
        assert table.provisional, f"{system}:{table.name} does not say it is provisional"
        assert "Provisional:" in table.render()
