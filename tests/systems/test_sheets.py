"""Ship sheets (game/systems/sheet.py and each system's sheet.py): the labelled rows of every ship of
every built-in setup, exactly; what the rows say once a ship has been hurt; and another player's
WS&IM loads and double-shot flag kept out of the rows, the chat text and the alt text alike."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from game.errors import UnknownName
from game.model import evolve
from game.service.referee import builtin_setups
from game.systems import ship_sheet, system
from game.systems.sheet import ALT_LIMIT, SECRET, Sheet
from game.systems.wsim.model import Broadside
from tests.systems.helpers import Table
from tests.systems.wsim.conftest import at, keep_phases, setup


def builtin(key: str) -> Any:
    [text] = builtin_setups(key).values()
    return system(key).initial_state(tomllib.loads(text))


def sheet_of(key: str, state: Any, ship: str, viewer: str | None) -> Sheet:
    return ship_sheet(key, system(key).view(state, viewer), ship)


VICTORY = {
    "Hull": "30 of 30 left", "Rigging 1": "8 of 8 left", "Rigging 2": "8 of 8 left", "Rigging 3": "8 of 8 left",
    "Crew 1": "10 of 10 left", "Crew 2": "10 of 10 left", "Crew 3": "10 of 10 left",
    "Guns": "14 guns + 2 carronades a side",
    "Left broadside": "roundshot, initial broadside", "Right broadside": "roundshot, initial broadside",
    "Sails": "battle (battle 3, full 5)", "Heading": "3", "Turning": "1 of 1", "Condition": "sailing and fighting",
}
REDOUTABLE = {
    "Hull": "20 of 20 left", **{f"Rigging {i}": "6 of 6 left" for i in range(1, 5)},
    **{f"Crew {i}": "8 of 8 left" for i in range(1, 4)}, "Guns": "9 guns a side",
    "Left broadside": "roundshot, initial broadside", "Right broadside": "roundshot, initial broadside",
    "Sails": "battle (battle 4, full 6)", "Heading": "6", "Turning": "2 of 2", "Condition": "sailing and fighting",
}


def test_wsim_trafalgar_rows_for_the_owner_and_for_the_opponent() -> None:
    state = builtin("wsim")
    own = sheet_of("wsim", state, "Victory", "British")
    assert own.rows() == VICTORY
    assert (own.ship, own.owner) == ("Victory", "British")
    assert own.summary == "Class 1, quality Cr, 14 guns + 2 carronades a side, British, leaders Nelson"
    assert [s.title for s in own.sections] == ["Hull and rigging", "Crew", "Guns", "Sailing", "Status"]
    assert own.row("Hull").track is not None and (own.row("Hull").track.total, own.row("Hull").track.lost) == (30, 0)
    assert sheet_of("wsim", state, "redou", "French").rows() == REDOUTABLE  # a unique start of the name
    # the opponent and a spectator read every row but the loads; the referee (not a player) reads them all
    for viewer in ("French", None):
        seen = sheet_of("wsim", state, "Victory", viewer)
        assert seen.rows() == {**VICTORY, "Left broadside": SECRET, "Right broadside": SECRET}
        assert seen.row("Left broadside").hidden
    assert sheet_of("wsim", state, "Victory", "Umpire").rows() == VICTORY


def test_iron_and_oak_hampton_roads_rows() -> None:
    state = builtin("iron_and_oak")
    monitor = sheet_of("iron_and_oak", state, "Monitor", "Confederate")  # nothing of a ship is secret here
    assert monitor.rows() == {
        "Maneuver": "d10d6", "Ram": "d6", "WL defence": "d10d8", "Bow-On": "not entered", "Draft": "2",
        "Hits value": "8", "Hits taken": "0 of 8", "WL Shield": "-0 of -4", "Critical hits": "none",
        "Engine": "powered", "Markers": "none",
    }
    assert monitor.summary == "Maneuver d10d6, Ram d6, WL d10d8, draft 2"
    virginia = sheet_of("iron_and_oak", state, "Virginia", "Confederate")
    assert virginia.rows() == {
        "Maneuver": "d8", "Ram": "d10d8", "WL defence": "d10d10", "Bow-On": "not entered", "Draft": "4",
        "Hits value": "12", "Hits taken": "0 of 12", "WL Shield": "-0 of -4", "Critical hits": "none",
        "Engine": "powered", "Markers": "none",
    }
    assert virginia == sheet_of("iron_and_oak", state, "Virginia", "Union")


def test_captains_sea_frigate_duel_rows() -> None:
    state = builtin("captains_sea")
    constitution = sheet_of("captains_sea", state, "Constitution", "British")
    assert constitution.rows() == {
        "Morale": "handy", "Crew Status": "Handy (space 4 of 4: Broken, Shaken, Steady, Handy)",
        "Hull hits": "0", "Rigging hits": "0", "Crew hits": "0",
    }
    track = constitution.row("Crew Status").track
    assert track is not None and (track.steps, track.at) == (("Broken", "Shaken", "Steady", "Handy"), 3)
    assert sheet_of("captains_sea", state, "Guerriere", "US").rows() == {
        "Morale": "normal", "Crew Status": "Steady (space 3 of 3: Broken, Shaken, Steady)",
        "Hull hits": "0", "Rigging hits": "0", "Crew hits": "0",
    }


def test_a_hurt_wsim_ship_reads_its_damage_and_its_state() -> None:
    t = Table(system("wsim"), setup())
    at(t, "H", Victory={"hull_lost": 7, "crew_lost": (3, 0, 10), "rigging_lost": (8, 8, 8), "grappled": ("Redoutable",),
                        "fire_turns": 2, "fire_penalty": 4, "status": "struck", "anchored": "AB", "waterline": True,
                        "broadsides": (Broadside("left", fired=True, initial_used=True), Broadside("right", "C", obscured=1))})
    rows = sheet_of("wsim", t.state, "Victory", "British").rows()
    assert {k: rows[k] for k in ("Hull", "Crew 1", "Crew 3", "Rigging 2", "Left broadside", "Right broadside")} == {
        "Hull": "23 of 30 left", "Crew 1": "7 of 10 left", "Crew 3": "0 of 10 left", "Rigging 2": "0 of 8 left",
        "Left broadside": "empty, fired this turn", "Right broadside": "chain shot, initial broadside, obscured 1 more Combat Phase"}
    assert {k: rows[k] for k in ("Condition", "On fire", "Grappled", "Dismasted", "Waterline", "Anchor")} == {
        "Condition": "struck", "On fire": "2 more Combat Phases, MFN -4", "Grappled": "with Redoutable",
        "Dismasted": "all rigging sections lost", "Waterline": "crew section 2 at the pumps",
        "Anchor": "anchored by the bow"}
    hurt = sheet_of("wsim", t.state, "Victory", "British")
    assert [r.label for s in hurt.sections for r in s.rows if r.alert] == [
        "Rigging 1", "Rigging 2", "Rigging 3", "Crew 3", "Condition", "On fire", "Dismasted"]
    seen = sheet_of("wsim", t.state, "Victory", "French")
    # what everyone saw of the guns (a broadside fired, smoke) stays; what is in them does not
    assert seen.rows()["Left broadside"] == f"{SECRET}, fired this turn"
    assert seen.rows()["Right broadside"] == f"{SECRET}, obscured 1 more Combat Phase"
    assert seen.row("Condition").alert and seen.row("On fire").alert


def test_the_opponent_never_reads_a_half_loaded_double_shot() -> None:
    t = keep_phases(Table(system("wsim"), setup()))  # the Load Phase stays open after the load, as the sheet is read in it
    at(t, "J", Victory={"broadsides": (Broadside("left", initial_used=True), Broadside("right", "G", initial_used=True))})
    t.play("British: load Victory left DS")
    own = sheet_of("wsim", t.state, "Victory", "British")
    assert own.rows()["Left broadside"] == "double shot half loaded (done next Load Phase)"
    assert own.rows()["Right broadside"] == "grape shot"
    assert own.rows()["Loaded this turn"] == "yes"
    assert "double shot half loaded" in own.text() and "double shot half loaded" in own.alt()
    for viewer in ("French", None):
        # the view itself carries neither the load nor the flag (the sheet is only as safe as the view)
        assert {(b.load, b.ds_loading) for b in system("wsim").view(t.state, viewer).ship("Victory").broadsides} \
            == {("?", False)}
        seen = sheet_of("wsim", t.state, "Victory", viewer)
        said = "\n".join((seen.text(), seen.alt(), repr(seen)))
        for secret in ("double", "half", "grape", "DS", "Loaded this turn", "initial broadside", "empty"):
            assert secret not in said, (viewer, secret)
        assert seen.rows()["Left broadside"] == seen.rows()["Right broadside"] == SECRET


def test_text_and_alt_text_say_the_rows() -> None:
    sheet = sheet_of("iron_and_oak", builtin("iron_and_oak"), "Monitor", "Union")
    text = sheet.text()
    assert text.splitlines()[0] == "**Monitor** (Union): Maneuver d10d6, Ram d6, WL d10d8, draft 2"
    assert "WL Shield: -0 of -4" in text.splitlines()  # a value starting with "-" is not escaped alone
    assert sheet.alt().startswith("Ship sheet of Monitor (Union), Iron & Oak. Maneuver d10d6")
    assert "Damage. Hits taken: 0 of 8; WL Shield: -0 of -4; Critical hits: none." in sheet.alt()
    long = evolve(sheet, summary="x" * 2000)
    assert len(long.alt()) == ALT_LIMIT and long.alt().endswith("…")


def test_names_are_text_in_the_chat_answer() -> None:
    t = Table(system("wsim"), setup())
    at(t, "F", Victory={"grappled": ("*Bold*",)})
    assert "Grappled: with \\*Bold\\*" in sheet_of("wsim", t.state, "Victory", "British").text()


def test_an_unknown_or_ambiguous_ship_is_refused_with_the_names() -> None:
    state = builtin("wsim")
    with pytest.raises(UnknownName, match="Ships: Victory, Redoutable"):
        sheet_of("wsim", state, "Santisima", "British")
    with pytest.raises(UnknownName):
        sheet_of("wsim", state, "", "British")
