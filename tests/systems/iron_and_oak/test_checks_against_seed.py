"""The order procedures' opposed rolls checked against the player aid's own text (copied verbatim into
seed_003_procedures.txt), read here independently of the data file."""

from __future__ import annotations

import re

from game.systems.tables import Cell, load_tables
from tests.systems.helpers import fixture

SEED = "\n".join(fixture(__file__, "seed_003_procedures.txt"))
T = load_tables("iron_and_oak")
DICE = r"\*{0,2}(d\d+(?:d\d+)?)\*{0,2}"


def section(start: str, end: str) -> str:
    i = SEED.index(start)
    return SEED[i : SEED.index(end, i + len(start))]


def pair(text: str) -> tuple[str, str]:
    found = re.findall(DICE, text)
    assert len(found) >= 2, text
    return found[0], found[1]


def cell(check: str, column: str) -> str:
    c = T["opposed_checks"].lookup(check, column)
    assert isinstance(c, Cell)
    return str(c.value)


def test_every_check_matches_the_seed() -> None:
    expected = {
        "Unfoul": pair(section("1) The controlling player rolls the Challenge d10,", "- 1) Navigate")),
        "Spar torpedo explodes": pair(section("First roll to determine", "On each ship")),
        "Ram damaged": pair(section("attacker's ram is damaged", "Fails=")),
        "Refloat, powered": pair(section("1) Roll **d10d8**", "Fails=the ship")),
        "Refloat, engine damage check": pair(section("a) Rolls the Challenge", "Succeeds=")),
        "Refloat, engine damaged": pair(section("1) Rolls **d8**", "Succeed=")),
        "Refloat, un-powered": pair(section("1) Rolls a **d6**", "Succeeds=")),
        "Hulks and obstructions": pair(section("Hulks and Obstructions", "Fails=")),
        "Torpedo-mine": pair(section("Torpedo-Mines", "2) Any opposing player rolls the Response d10.") + "Response d10"),
    }
    fouling = section("5) Check for Fouling", "Response die.")
    challenge, rammed = pair(fouling)
    spar_only = re.search(r"or (d\d+) \(if spar torpedo only\)", fouling).group(1)  # type: ignore[union-attr]
    expected["Fouling after a ram"] = (challenge, rammed)
    expected["Fouling after a spar torpedo"] = (challenge, spar_only)
    shoals = section("Shoals", "Fails= Ground")
    response = re.search(r"Response (d\d+d\d+)", shoals).group(1)  # type: ignore[union-attr]
    for name, die in zip(("Shoal, draft 1 over", "Shoal, draft 2 over", "Shoal, draft 3 or more over"),
                         re.findall(r"\) (d\d+) if the ship's current draft", shoals), strict=True):
        expected[name] = (die, response)
    checked = 0
    for name, (c, r) in expected.items():
        assert (cell(name, "challenge"), cell(name, "response")) == (c, r), name
        checked += 2
    assert checked == 28 == 2 * len(T["opposed_checks"].rows.keys)


def test_the_modifiers_quoted() -> None:
    assert "-2 DRM if fouled with a Heavy Obstruction" in SEED and cell("Unfoul", "modifiers").startswith("-2")
    assert "applying a -2 DRM for a Heavy Obstruction and -1 for each additional Hulk" in SEED
    assert cell("Hulks and obstructions", "modifiers") == "-2 for a Heavy Obstruction, -1 for each additional Hulk"
    assert "Apply **+2 DRM**" in SEED and cell("Refloat, powered", "modifiers").startswith("+2")
    contact = T["contact"]
    assert "automatic -1 to moving ship" in SEED and contact.lookup("moving ship").value == "-1"  # type: ignore[union-attr]
    assert re.search(r"roll one d10 for its Response instead and apply a -5 DRM", SEED)
    assert "Target ship adds a +1 DRM attempting a Ram or Spar Torpedo Attack. any other Maneuver is -1 DRM." in SEED
    assert contact.lookup("mover across the target's bow: target's Ram or Spar").value == "+1"  # type: ignore[union-attr]
    assert contact.lookup("mover across the target's bow: target's other maneuvers").value == "-1"  # type: ignore[union-attr]


def test_the_tables_the_seed_only_names_answer_read_the_printed_table() -> None:
    for roll in range(1, 11):
        assert not isinstance(T["drifting"].lookup(roll), Cell)
    for roll in range(1, 9):
        for column in ("Spar Torp", "Ship Spar", "Mine"):
            assert not isinstance(T["torpedo_damage"].lookup(roll, column), Cell)
    assert "'Spar Torp' column" in SEED and "'Ship Spar' column" in SEED and "'Mine' column" in SEED
