"""The Captain's Sea PAC's tables checked cell by cell against the PAC's own text (copied verbatim into
seed_004_tables.txt). The Damage Effects Table is rebuilt here from the text's layout, independently
of the data file, as the systems research describes it; its seven unit cases come first."""

from __future__ import annotations

import re

import pytest

from game.systems.tables import Cell, ReadPrinted, load_tables
from tests.systems.helpers import fixture, quote

SEED = fixture(__file__, "seed_004_tables.txt")
T = load_tables("captains_sea")


def _rebuild() -> dict[str, list[str]]:
    """The extraction puts the pure rigging cells ("1R" … "11R") on the >21 line and right-aligns the
    mixed cells so that they end at Hits 12; pure hull cells are printed where their merged cell starts."""
    start = next(i for i, line in enumerate(SEED) if line.startswith("HITS ACHIEVED (Firing High"))
    body = SEED[start + 2 : start + 24]
    grid: dict[str, list[str]] = {}
    pure_hull_until = {}  # column -> the last row its merged pure cell covers (it covers every row below)
    for line in body:
        words = [w for w in line.split("\t") if w.strip()]
        label = words[-1] if re.fullmatch(r"[<>]?\d+", words[-1]) else "12"  # the row-12 label is lost
        cells = words[:-1] if label != "12" else words
        key = {">21": "≥21", "<0": "≤0"}.get(label, label)
        row: list[str] = [""] * (12 - len(cells)) + cells
        grid[key] = row
        for col, value in enumerate(row):
            if re.fullmatch(r"\d+H", value):
                pure_hull_until[col] = key
    order = list(grid)
    top = grid["≥21"]
    for key in order:
        row = grid[key]
        for col in range(12):
            if row[col]:
                continue
            if order.index(key) <= order.index("11"):  # rigging half: the pure kR cell merged down from the top
                row[col] = top[col]
            else:  # hull half: the pure kH cell merged down from where it is printed
                assert order.index(key) > order.index(pure_hull_until[col])
                row[col] = f"{col + 1}H"
    return grid


GRID = _rebuild()


@pytest.mark.parametrize(
    ("hits", "roll", "result"),
    [(1, "≥21", "1R"), (12, "≤0", "11H1R1C"), (5, "12", "3R2H2C"), (7, "15", "6R1H2C"), (3, "5", "3H"), (1, "11", "1R1C"),
     (4, "11", "2H2R2C")],
)
def test_the_research_unit_cases(hits: int, roll: str, result: str) -> None:
    assert GRID[roll][hits - 1] == result
    value = {"≥21": 21, "≤0": 0}.get(roll)
    cell = T["damage_effects"].lookup(value if value is not None else int(roll), hits)
    assert isinstance(cell, Cell) and cell.value == result


def test_the_whole_damage_effects_table() -> None:
    assert list(GRID) == [k.text for k in T["damage_effects"].rows.keys]
    checked = 0
    for key, row in GRID.items():
        for hits, expected in enumerate(row, start=1):
            roll = {"≥21": 21, "≤0": 0}[key] if key in ("≥21", "≤0") else int(key)
            cell = T["damage_effects"].lookup(roll, hits)
            assert isinstance(cell, Cell) and cell.value == expected, (key, hits)
            checked += 1
    assert checked == 264
    # open bounds: any roll above 21 or below 0 reads the end rows
    assert T["damage_effects"].lookup(30, 4).value == GRID["≥21"][3]  # type: ignore[union-attr]
    assert T["damage_effects"].lookup(-6, 12).value == "11H1R1C"  # type: ignore[union-attr]


def test_fire_checks_from_the_header_and_footer() -> None:
    header = next(line for line in SEED if line.startswith("1\t2\t3 (1)")).split("\t")[:12]
    footer = next(line for line in SEED if line.startswith("1\t2\t3\t4 (1)")).split("\t")[:12]
    for row, words in ((21, header), (0, footer)):
        for hits, word in enumerate(words, start=1):
            m = re.search(r"\((\d)\)", word)
            cell = T["fire_checks"].lookup(row, hits)
            assert isinstance(cell, Cell) and cell.value == (int(m.group(1)) if m else 0)
    assert T["fire_checks"].lookup(11, 3).value == 1 and T["fire_checks"].lookup(10, 3).value == 0  # type: ignore[union-attr]
    assert isinstance(T["fire_check_red"].lookup(15, 6), ReadPrinted)


def test_morale_effects_every_row_as_printed_and_the_duplicate_rows_with_their_line() -> None:
    start = next(i for i, line in enumerate(SEED) if line.startswith("HITS ACHIEVED\t"))
    lines = {SEED[i].split("\t")[-1]: i + 1 for i in range(start + 2, start + 10)}  # die roll -> its line (1-based)
    rows = {roll: [int(x) for x in SEED[n - 1].split("\t")[:12]] for roll, n in lines.items()}
    assert rows["4"] == rows["3"] and rows["1"] == rows["0"]  # why they carry a note
    assert quote(__file__, "seed_004_tables.txt", 67, "0\t1\t1\t1\t2\t2\t2\t3\t3\t3\t4\t4\t\t4")
    assert quote(__file__, "seed_004_tables.txt", 71, "1\t1\t2\t2\t2\t3\t3\t3\t4\t4\t4\t5\t\t0")
    checked = 0
    for roll, values in rows.items():
        for hits, value in enumerate(values, start=1):
            cell = T["morale_effects"].lookup(int(roll), hits)
            assert isinstance(cell, Cell) and cell.value == value, (roll, hits)
            if roll in ("4", "3", "1", "0"):
                assert cell.source == f"line {lines[roll]} of the play aid's text" and "print the same values" in cell.note
            else:
                assert cell.source == "" and not cell.entered
            checked += 1
    assert checked == 96


def test_die_roll_modifiers() -> None:
    text = "\n".join(SEED)
    for label, line in (
        ("Firing with the wind (to Leeward)", "-1 DRM Firing with the wind (to Leeward)"),
        ("Firing into the wind (to Windward)", "+1 DRM Firing into the wind (to Windward)"),
    ):
        assert line in text and T["damage_drms"].lookup(label).value == int(line.split()[0])  # type: ignore[union-attr]
    drms = text.split("DIE ROLL MODIFIERS:")[1]
    high = drms.split("\nFiring High\n")[1].split("\nFiring Low\n")[0]
    low = drms.split("\nFiring Low\n")[1].split("MORALE EFFECTS")[0]
    for aim, block in (("High", high), ("Low", low)):
        for morale in ("Handy", "Unfit"):
            sign = re.search(rf"([+-]1) DRM Crew \*\*Morale\*\* is {morale}", block).group(1)  # type: ignore[union-attr]
            assert T["damage_drms"].lookup(f"Firing {aim}, crew {morale}").value == int(sign)  # type: ignore[union-attr]
    assert T["morale_drms"].lookup("Defending crew Handy").value == 1  # type: ignore[union-attr]
    assert "+1 DRM if the Defending Crew **Morale** is Handy" in text and "-1 DRM if the Defending Crew **Morale** is Unfit" in text


def test_base_movement_points_and_their_near_symmetry() -> None:
    start = next(i for i, line in enumerate(SEED) if line.startswith("Initiative Player"))
    columns = SEED[start + 1].split("\t")[:8]
    rows = [line.split("\t")[:8] for line in SEED[start + 2 : start + 10]]
    for r, row in zip(columns, rows, strict=True):  # row labels lost: read A-H top to bottom
        for c, value in zip(columns, row, strict=True):
            assert T["base_movement"].lookup(r, c).value == value  # type: ignore[union-attr]
    mirrored = sum(1 for i in range(8) for j in range(i + 1, 8) if rows[i][j] == "/".join(reversed(rows[j][i].split("/"))))
    assert mirrored == 26  # of 28 pairs; A/B and F/G favour the initiative both ways


def test_hull_type_bonus() -> None:
    start = next(i for i, line in enumerate(SEED) if line.startswith("DIE ROLL\t"))
    head = SEED[start + 1].split("\t")[:6]
    assert head[0] == "≤1" and head[5] == "≥6"
    rows = [line.split("\t") for line in SEED[start + 2 : start + 5]]
    assert rows[2][6] == "Slow" and rows[0][6] == rows[1][6] == ""  # the first two labels are lost
    for label, row in zip(("row 1", "row 2", "Slow"), rows, strict=True):
        for roll, value in zip((1, 2, 3, 4, 5, 6), row[:6], strict=True):
            assert T["hull_type_bonus"].lookup(label, roll).value == int(value)  # type: ignore[union-attr]
    assert T["hull_type_bonus"].lookup("Slow", -2).value == 1 and T["hull_type_bonus"].lookup("Slow", 9).value == 3  # type: ignore[union-attr]
