"""Every clean table of the CB play aid checked cell by cell against the play aid's own text (copied verbatim into
seed_002_tables.txt), parsed here independently of the data files; every clean cell answers its value (one that
looks odd names its line), every garbled cell answers "read the printed table"."""

from __future__ import annotations

import re

import pytest

from game.systems.tables import Cell, ReadPrinted, Table, load_tables
from tests.systems.helpers import fixture, quote

SEED = fixture(__file__, "seed_002_tables.txt")
T = load_tables("wsim")
CHECKED: dict[str, int] = {}


def block(heading: str, length: int) -> list[list[str]]:
    start = next(i for i, line in enumerate(SEED) if line.startswith(heading))
    return [line.split("\t") for line in SEED[start + 1 : start + 1 + length]]


def number(text: str) -> int | str:
    t = text.strip()
    return int(t.replace("+", "")) if re.fullmatch(r"[+-]?\d+", t) else t


def same(table: Table, row: object, column: object, expected: object) -> None:
    got = table.lookup(row, column)  # type: ignore[arg-type]
    assert isinstance(got, Cell), f"{table.name} {row}/{column} is flagged"
    assert got.value == expected, f"{table.name} {row}/{column}: {got.value!r} != seed {expected!r}"
    CHECKED[table.name] = CHECKED.get(table.name, 0) + 1


def flagged(table: Table, row: object, column: object) -> None:
    assert isinstance(table.lookup(row, column), ReadPrinted), f"{table.name} {row}/{column} should be flagged"  # type: ignore[arg-type]


def test_fire_base() -> None:
    rows = block("Guns\t1", 14)
    for r in rows:
        for rng in range(1, 11):
            same(T["fire_base"], int(r[0]), rng, number(r[rng]) if r[rng].strip() else "")
    assert CHECKED["fire_base"] == 140


def test_carronades_every_cell_as_printed_and_ranges_4_and_5_with_their_line() -> None:
    rows = block("Carronades", 3)
    two = quote(__file__, "seed_002_tables.txt", 22, "2\t+4\t+3\t+2\t+1\t\t\t\t\t\trules for 4+")
    three = quote(__file__, "seed_002_tables.txt", 23, "3\t+5\t+4\t+2\t+1\t+1\t\t\t\t\tcarronades")
    assert rows[1] == two.split("\t") and rows[2] == three.split("\t")
    for line, r in ((21, rows[0]), (22, rows[1]), (23, rows[2])):
        for rng in range(1, 10):
            value = number(r[rng]) if r[rng].strip() else ""
            same(T["carronades"], int(r[0]), rng, value)
            cell = T["carronades"].lookup(int(r[0]), rng)
            assert isinstance(cell, Cell)
            if rng >= 4 and value != "":  # printed on the play aid, beyond the WS&IM carronade range: said so, with the line
                assert cell.source == f"line {line} of the play aid's text" and "2 (Basic) or 3 (Advanced)" in cell.note
            else:
                assert cell.source == "" and cell.provenance == ""
    assert CHECKED["carronades"] == 27
    assert "variant" in rows[0][10] and "4+" in rows[1][10]


def test_stable_modifiers() -> None:
    crew = dict(part.split() for part in block("STABLE MODIFIERS", 1)[0][1].split(", "))
    for q, v in crew.items():
        same(T["crew_quality_fire"], q, None, number(v))
    lines = [r[1] for r in block("STABLE MODIFIERS", 7)[1:]]
    keys = [k.text for k in T["stable_modifiers"].rows.keys]
    for key, text in zip(keys, lines, strict=True):
        same(T["stable_modifiers"], key, None, int(text.split()[0]))


def test_critical_hit_table() -> None:
    for r in block("Hull\tRigging\tHull\tRigging", 8):
        for col, aim in ((0, "hull"), (1, "rigging"), (2, "hull"), (3, "rigging")):
            n, effect = r[col].split(": ", 1)
            same(T["critical_hits"], int(n), aim, effect.strip())
    assert CHECKED["critical_hits"] == 32


def test_leader_casualty_range() -> None:
    line = next(line for line in SEED if line.startswith("<b>Leader casualty"))
    found = re.findall(r"\+(\d) (?:if the range is|range) (\d)(?: or (\d))?", line)
    assert len(found) == 4
    for mod, a, b in found:
        for rng in (a, b):
            if rng:
                same(T["leader_casualty_range"], int(rng), None, int(mod))


def test_initial_broadside_and_the_misaligned_rake_rows() -> None:
    head = block("range\t", 3)
    ranges = head[0][1:7]
    assert ranges == ["1", "2", "3", "4", "5", "6+"]
    for i, rng in enumerate(ranges, start=1):
        same(T["initial_broadside"], "Initial Broadside", int(rng.rstrip("+")), number(head[1][i]))
    bow, stern = head[2], block("<b>Rake</b>", 1)[0]
    assert bow[1] == "Bow" and len([v for v in bow[2:] if v]) == 5  # 5 values under 6 range columns
    assert stern[1] == "Stern" and len([v for v in stern[2:] if v]) == 5
    for aspect in ("Bow", "Stern"):
        for rng in range(1, 11):
            flagged(T["rake"], aspect, rng)


def test_ammunition() -> None:
    lines = {line.split(":")[0]: line.split("\t") for line in SEED if re.match(r"(Grape|Chain|Doube) Shot", line)}
    assert number(lines["Grape Shot"][-1]) == 1 and number(lines["Chain Shot"][-1]) == 3
    same(T["ammunition"], "Grape Shot", "max range", number(lines["Grape Shot"][-1]))
    same(T["ammunition"], "Chain Shot", "max range", number(lines["Chain Shot"][-1]))
    same(T["ammunition"], "Double Shot", "max range", number(lines["Doube Shot"][-1]))  # "Doube": the play aid's typo
    same(T["ammunition"], "Chain Shot", "modifier", int(re.search(r"\+(\d)", lines["Chain Shot"][0]).group(1)))  # type: ignore[union-attr]
    same(T["ammunition"], "Double Shot", "modifier", int(re.search(r"\+(\d)", lines["Doube Shot"][0]).group(1)))  # type: ignore[union-attr]


def test_fire_results_critical_number_is_checked_and_every_hit_cell_but_seven_or_less_is_flagged() -> None:
    rows = block("\tH\tC\tH\tC", 51)
    for r in rows:
        values = [v for v in r[1:] if v.strip()]
        key = r[0].replace(" (+)", "")
        ffn = 7 if key == "7 or less" else int(key)
        same(T["fire_results"], ffn, "critical", int(values[-1]))
        if key == "7 or less":
            assert values == ["0"]  # nothing but the Critical Number: no hits on this row
            same(T["fire_results"], ffn, "hull", "")
            same(T["fire_results"], ffn, "rigging", "")
        else:
            flagged(T["fire_results"], ffn, "hull")
            flagged(T["fire_results"], ffn, "rigging")
    assert T["fire_results"].lookup(99, "critical") == Cell("fire_results", "57+", "critical", 10)
    assert T["fire_results"].lookup(-3, "critical").value == 0  # type: ignore[union-attr]


def test_destroyed_hull_and_crew_melee_strength() -> None:
    for r in block("DESTROYED HULL TABLE", 3):
        key = r[0].rstrip(":")
        same(T["destroyed_hull"], int(key.split("-")[0]), None, r[1])
    names = {"ELITE": "El", "CRACK": "Cr", "SEASONED": "Se", "AVERAGE": "Av", "GREEN": "Gr", "POOR": "Pr"}
    for r in block("CREW MELEE STRENGTH TABLE", 6):
        points = r[1].replace(" ½", ".5").split()[0]
        same(T["crew_melee_strength"], names[r[0].split()[0]], None, number(points))


def test_grappling_fouling_and_melee() -> None:
    for r in block("die\tresult\tdie\tresult", 2):
        same(T["grappling"], int(r[0][0]), None, r[1])
        same(T["ungrappling"], int(r[2][0]), None, r[3])
    fouling = [r for r in block("FOULING TABLE", 3)[1:]]
    for r in fouling:
        same(T["fouling"], int(r[0][0]), None, r[1])
        same(T["unfouling"], int(r[2][0]), None, r[3])
    head = block("Total melee strength", 4)
    columns = head[0][1:10]
    for r in head[1:]:
        for i, band in enumerate(columns, start=1):
            same(T["melee_resolution"], int(r[0][0]), int(band.split("-")[0].rstrip("+")), number(r[i]))
    assert CHECKED["melee_resolution"] == 27


def test_wind_effects_all_160_cells() -> None:
    rows = block("\tWind attitude", 8)
    groups = ["1", "2", "3&4", "5&6", "rowed"]
    columns = [f"{g} {a}" for g in groups for a in "ABCD"]
    for r in rows:
        velocity = int(r[0])
        cells = r[2:22]
        for i, col in enumerate(columns):
            text = cells[i].strip()
            if velocity == 0 and i < 16:
                expected: int | str = cells[0]  # one merged cell over classes 1-6
            elif velocity in (5, 6) and i >= 16:
                expected = "can only drift in Gale or Storm"  # merged over two rows and four columns
                assert "drift" in " ".join(x for rr in rows[5:7] for x in rr[18:22])
            elif velocity == 7:
                expected = cells[0]
            else:
                expected = number(text)
            same(T["wind_effects"], velocity, col, expected)
        same(T["wind_names"], velocity, None, r[1])
    assert CHECKED["wind_effects"] == 160


def test_storm_and_gale_notes() -> None:
    storm = next(line for line in SEED if line.startswith("STORM:"))
    gale = next(line for line in SEED if line.startswith("GALE:"))
    assert "Full Sails not allowed" in storm and "classes nr. 5 and 6 cannot use Full Sails" in gale
    for v, note in ((6, storm), (5, gale)):
        penalty = {c: "" for c in range(1, 7)}
        for classes, n in re.findall(r"classes nr\. ([\d, and]+?) subtract (\d)", note):
            for c in re.findall(r"\d", classes):
                penalty[int(c)] = -int(n)
        for c in range(1, 7):
            same(T["weather_fire"], v, c, penalty[c])
            allowed = "not allowed" if v == 6 or c in (5, 6) else "allowed"
            same(T["weather_full_sails"], v, c, allowed)


def test_wind_changes() -> None:
    velocity = {"drops": -1, "does not change": 0, "increases": 1}
    for r in block("WIND VELOCITY CHANGE TABLE", 4)[1:]:
        expected = next(v for k, v in velocity.items() if k in r[1])
        same(T["wind_velocity_change"], int(r[0][0]), None, expected)
    for r in block("WIND DIRECTION CHANGE TABLE", 7)[1:]:
        text = r[1]
        if "initial" in text:
            expected2: int | str = "initial"
        elif "No change" in text:
            expected2 = 0
        else:
            steps = int(re.search(r"(\d+)", text).group(1)) // 60  # type: ignore[union-attr]
            expected2 = steps if "counterclockwise" not in text else -steps
        same(T["wind_direction_change"], int(r[0]), None, expected2)
    cell = block("WIND CHANGE TABLE (CB rule VIII)", 1)[0]
    text = " ".join(cell)
    for wsn, rolls in re.findall(r"(\d): on ([\d, ]+?)(?:;|$)", text.replace("WSN ", "")):
        same(T["wind_change"], int(wsn), None, rolls.strip().rstrip(","))
    assert CHECKED["wind_change"] == 3


def test_acceleration_table_and_its_garbled_row() -> None:
    rows = block("ship class\tmax accel.", 7)
    names = {"1": "class 1", "80 gun": "80 gun", "6-7": "class 6-7"}
    columns = ["max accel.", "max decel.", "turn allow.", "speed (BS/FS)"]
    for r in rows:
        key = names.get(r[0], f"class {r[0]}")
        for i, col in enumerate(columns, start=1):
            if key == "class 6-7" and col in ("turn allow.", "speed (BS/FS)"):
                flagged(T["acceleration"], key, col)
            else:
                same(T["acceleration"], key, col, number(r[i]) if r[i].strip() else "")
    assert rows[-1][3] == "" and rows[-1][4] == "4"  # the garbled row: no turning allowance, a lone speed


def test_the_count_of_checked_cells() -> None:
    for name, fn in list(globals().items()):
        if name.startswith("test_") and name != "test_the_count_of_checked_cells":
            fn()
    assert sum(CHECKED.values()) == 555
    print(f"CB play aid: {sum(CHECKED.values())} cells checked against its text")


@pytest.fixture(autouse=True)
def _fresh_count() -> None:
    CHECKED.clear()
