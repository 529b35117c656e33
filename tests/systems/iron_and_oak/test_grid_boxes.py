"""The map of Grid Boxes (issue 24 item 5): the scenario gives each box's depth and hazards once, the
state keeps each ship's box, the same-box and adjacent-box rules are checked from it and hazards are
rolled without asking; a game without a map asks as before."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.errors import IllegalAction, NotYourShip, ParseError
from game.model import evolve
from game.systems.common import OpposedRolled
from game.systems.iron_and_oak import SYSTEM
from game.systems.iron_and_oak.events import ProcedureChanged
from game.systems.iron_and_oak.grid import GridBox, adjacent, diagonal_flanks, two_away
from game.systems.iron_and_oak.whereabouts import refusal
from game.systems.setup import SetupError
from tests.systems.helpers import Table, quote

SEED = "seed_003_procedures.txt"


def hampton_roads() -> dict[str, Any]:
    text = resources.files("game.data").joinpath("iron_and_oak/setups/hampton_roads.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def without_map(doc: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in doc.items() if k not in ("grid", "box")}
    out["ship"] = [{k: v for k, v in s.items() if k != "box"} for s in doc["ship"]]
    return out


def mapped(**ships: str) -> dict[str, Any]:
    """A 5 × 5 map with one box of each hazard, and these ships' boxes."""
    return {
        "players": ["Union", "Confederate"], "referee": "Umpire",
        "grid": {"columns": 5, "rows": 5},
        "box": [{"id": "B2", "depth": 2}, {"id": "C2", "mines": 1}, {"id": "D2", "hulks": 2, "obstruction": "heavy"},
                {"id": "B4", "depth": 1, "mines": 1}, {"id": "E1", "depth": 4}],
        "ship": [
            {"id": "Monitor", "player": "Union", "maneuver": "d10d6", "draft": 2, "hits": 8, "box": ships.get("Monitor", "C3")},
            {"id": "Minnesota", "player": "Union", "maneuver": "d8", "draft": 5, "hits": 14,
             "box": ships.get("Minnesota", "A1")},
            {"id": "Virginia", "player": "Confederate", "maneuver": "d8", "draft": 4, "hits": 12,
             "box": ships.get("Virginia", "C3")},
        ],
    }


def questions(events: list[Any]) -> list[str]:
    """The keys of the questions the events put to the players."""
    return [e.procedure.question.key for e in events
            if isinstance(e, ProcedureChanged) and e.procedure is not None and e.procedure.question is not None]


def to_action(t: Table, orders: dict[str, str]) -> Table:
    """From before the first turn through the Order Phase (the orders given by their owners, a hold for the
    ships not named) to the Action Phase."""
    t.play("Umpire: next")
    t.play("Umpire: next")
    for s in t.state.ships:
        t.play(f'{s.player}: order {s.id} {orders.get(s.id, "m0 hold")}')
    t.play("Umpire: next")
    return t


def four_maneuvers(t: Table, with_map: bool) -> None:
    """Each of Hampton Roads' four ships carries out a Maneuver 1; without a map the opponent lists the hazards
    of the box entered, as the map has them."""
    dest = {"Monitor": "C3", "Virginia": "C3", "Minnesota": "D2", "Jamestown": "E5"}
    to_action(t, {s: f"m1 {b}" if with_map else "m1" for s, b in dest.items()})
    listed = {"Monitor": "shoal 3", "Virginia": "shoal 3", "Minnesota": "none", "Jamestown": "shoal 3 mine"}
    faces = {
        "Monitor": (6, 1, 3),  # d10d6 6 against d10 3; depth 3 is no shoal for a draft of 2
        "Virginia": (7, 4, 5, 2, 3),  # d8 7 against 4; draft 4 over depth 3: d10 5 against d10d6 (2, 3) 3, afloat
        "Minnesota": (5, 4),  # d8 5 against 4; D2 is deep and clear
        "Jamestown": (8, 2, 6, 7, 2, 3),  # d10d8 8 against 6; the mine: d10d6 (7, 2) 7 against d10 3, passed
    }
    for ship in dest:
        owner = t.state.ship(ship).player
        opponent = "Confederate" if owner == "Union" else "Union"
        t.play(f'{owner}: reveal {ship}')
        if with_map:
            t.play(f"{opponent}: answer d10 drm 0", *faces[ship])
        else:
            n = 2 if t.state.ship(ship).maneuver == "d8" else 3  # the maneuver roll's dice, then the hazards'
            t.play(f"{opponent}: answer d10 drm 0", *faces[ship][:n])
            t.play(f"{opponent}: answer {listed[ship]}", *faces[ship][n:])
        assert t.state.procedure is None


def test_four_maneuver_1_orders_ask_nothing_the_map_knows() -> None:
    """A turn of four Maneuver 1 orders on Hampton Roads' map: the only questions are the four Responses of
    rule 5.1 (not in the player aid, so not in the state); the boxes and their hazards are never asked."""
    quote(__file__, SEED, 199, "****Hazards****")
    quote(__file__, SEED, 201, "If a ship drifts or maneuvers into a new GB or attempts to maneuver within its "
                               "starting GB, and:")
    t = Table(SYSTEM, hampton_roads())
    four_maneuvers(t, with_map=True)
    assert questions(t.events) == ["response"] * 4
    assert {s.id: s.box for s in t.state.ships} == {"Monitor": "C3", "Minnesota": "D2", "Virginia": "C3",
                                                     "Jamestown": "E5"}
    assert OpposedRolled("Virginia and the shoal (depth 3)", 5, 3, True, "") in t.events
    assert OpposedRolled("Jamestown and a torpedo-mine", 7, 3, True, "challenge ×2") in t.events
    assert t.state.grid.box("E5").mines == 1 and not any(s.markers for s in t.state.ships)
    # the same turn without the map: the opponent lists the hazards for each of the four, as before
    bare = Table(SYSTEM, without_map(hampton_roads()))
    four_maneuvers(bare, with_map=False)
    assert questions(bare.events) == ["response", "hazards"] * 4
    assert [e for e in bare.events if isinstance(e, OpposedRolled)] == [
        e for e in t.events if isinstance(e, OpposedRolled)]


def test_a_shoal_too_shallow_grounds_the_ship_from_the_map() -> None:
    line = quote(__file__, SEED, 221, "b) d8 if the ship's current draft is 2 more than the Shoal Depth")
    assert "d8" in line
    t = to_action(Table(SYSTEM, mapped(Virginia="C3")), {"Virginia": "m1 B2"})
    t.play("Confederate: reveal Virginia")
    # d8 6 against d10 2: into B2 (depth 2, Virginia draws 4); the shoal: d8 3 against d10d6 (4, 1) 4, aground
    events = t.play("Union: answer d10 drm 0", 6, 2, 3, 4, 1)
    assert OpposedRolled("Virginia and the shoal (depth 2)", 3, 4, False, "") in events
    v = t.state.ship("Virginia")
    assert v.box == "B2" and v.has("Grounded") and questions(t.events) == ["response"]


def test_a_mine_explodes_and_its_marker_leaves_the_box() -> None:
    quote(__file__, SEED, 241, "For each Torpedo-Mine marker in the Grid Box:")
    quote(__file__, SEED, 251, "b) End its movement, and remove the Mine marker.")
    t = to_action(Table(SYSTEM, mapped(Monitor="C3")), {"Monitor": "m1 C2"})
    t.play("Umpire: printed torpedo_damage 4 Mine = 3")  # the referee's printed cell: not asked either
    t.play("Union: reveal Monitor")
    # d10d6 (5, 2) 5 against 1: into C2; the mine: d10d6 (2, 1) 2 against d10 8, explodes; d8 4 on the Mine column
    t.play("Confederate: answer d10 drm 0", 5, 2, 1, 2, 1, 8, 4)
    m = t.state.ship("Monitor")
    assert (m.box, m.hits, m.shield) == ("C2", 3, 4)
    assert t.state.grid.box("C2") == GridBox("C2") and questions(t.events) == ["response"]


def test_several_hazards_ask_only_their_order() -> None:
    """The map knows the hazards, not the order an opponent chooses for them (003 line 207)."""
    quote(__file__, SEED, 209, "**If more than one hazard is present, an opposing player chooses the order in which "
                               "they are resolved.*")
    t = to_action(Table(SYSTEM, mapped(Virginia="B3")), {"Virginia": "m1 B4"})
    t.play("Confederate: reveal Virginia")
    t.play("Union: answer d10 drm 0", 7, 1)
    assert questions(t.events)[-1] == "hazard_order"
    assert "shoal" in t.refused("Union: answer mine").text
    # the mine first: d10d6 (9, 1) 9 against 2, passed; then the shoal (depth 1, draft 4): d6 6 against d10d6 (3, 5) 5
    events = t.play("Union: answer mine shoal", 9, 1, 2, 6, 3, 5)
    rolled = [e.purpose for e in events if isinstance(e, OpposedRolled)]
    assert rolled == ["Virginia and a torpedo-mine", "Virginia and the shoal (depth 1)"]
    assert t.state.procedure is None and t.state.ship("Virginia").box == "B4"


def test_hulks_and_a_heavy_obstruction_from_the_map() -> None:
    quote(__file__, SEED, 233, "1) The controlling player rolls the Challenge d10d4, applying a -2 DRM for a Heavy "
                               "Obstruction and -1 for each additional Hulk.")
    t = to_action(Table(SYSTEM, mapped(Monitor="C3")), {"Monitor": "m1 D2"})
    t.play("Union: reveal Monitor")
    # into D2; d10d4 (8, 3) 8 -2 (heavy) -1 (a second hulk) = 5 against d10 5: fouled
    t.play("Confederate: answer d10 drm 0", 4, 1, 2, 8, 3, 5)
    m = t.state.ship("Monitor")
    assert m.box == "D2" and m.fouled_with == ("heavy obstruction",)


def test_maneuver_1_goes_to_an_adjacent_box_only() -> None:
    quote(__file__, SEED, 43, "b) *Enter an adjacent GB, including escaping from a **Bow-On or Stern-On position** .")
    t2 = Table(SYSTEM, mapped(Monitor="C3"))
    t2.play("Umpire: next")
    t2.play("Umpire: next")
    err = t2.refused("Union: order Monitor m1 E5")
    assert isinstance(err, IllegalAction) and "E5 is not adjacent to C3" in err.text
    assert "B2, C2, D2, B3, D3, B4, C4, D4" in err.text
    assert "names the Grid Box" in t2.refused("Union: order Monitor m1").text
    assert "not at the edge" in t2.refused("Union: order Monitor m1 off").text
    assert "not a Grid Box of this map" in t2.refused("Union: order Monitor m1 F3").text
    t2.play("Union: order Monitor m1 D4")
    t2.play("Union: order Minnesota m1 off")  # A1 is at the edge: it may leave the map


def test_maneuver_2_two_boxes_away_one_diagonal_not_between_two_enemies() -> None:
    quote(__file__, SEED, 47, "a) *Move to a non-adjacent GB that is two GB's away")
    quote(__file__, SEED, 49, "b) *Can only move diagonally once, and not diagonally between 2 enemy ships.")
    assert two_away("C3", "E3") and two_away("C3", "D5") and not two_away("C3", "E5") and not two_away("C3", "D4")
    assert diagonal_flanks("A1", "C2") == (("B1", "A2"), ("C1", "B2"))
    doc = mapped(Monitor="A1", Virginia="B1")
    for name, box in (("Teaser", "A2"), ("Merrimack", "B2"), ("Jamestown", "A3")):
        doc["ship"].append({"id": name, "player": "Confederate", "box": box})
    t = Table(SYSTEM, doc)
    t.play("Umpire: next")
    t.play("Umpire: next")
    # A1 to C2: diagonally between B1 and A2 (Virginia, Teaser) first, or straight to B1 and then between C1
    # and B2 (only Merrimack): the second way is open
    t.play("Union: order Monitor m2 C2")
    # A1 to B3: between B1 and A2 (Virginia, Teaser), or by A2 between B2 and A3 (Merrimack, Jamestown): barred
    assert "diagonally between two enemy ships" in t.refused("Union: order Monitor m2 B3").text
    assert "not two Grid Boxes" in t.refused("Union: order Monitor m2 C3").text
    t.play("Union: order Monitor m2 A3")  # straight down: no diagonal at all


def test_same_box_orders_are_refused_across_boxes() -> None:
    quote(__file__, SEED, 74, "Must start order phase in same GB as target. Indicate Bow or Stern.")
    quote(__file__, SEED, 27, "Hinder Maneuvering by an enemy ship in same GB.")
    t = Table(SYSTEM, mapped(Monitor="C3", Virginia="D3", Minnesota="C4"))
    t.play("Umpire: next")
    t.play("Umpire: next")
    for order in ("cross Virginia bow", "ram Virginia", "spar Virginia", "oppose Virginia"):
        err = t.refused(f"Union: order Monitor {order}")
        assert "Monitor is in C3 and Virginia in D3" in err.text and "same Grid Box" in err.text
    assert "same Grid Box" in t.refused("Union: order Minnesota tow Monitor B4").text
    t.state = t.state.with_ship(evolve(t.state.ship("Virginia"), box="C3"))
    t.play("Union: order Monitor ram Virginia")


def test_a_tow_moves_both_ships_to_the_box_named() -> None:
    quote(__file__, SEED, 59, "located in its GB at the start of its move for the purpose of towing it to a new GB")
    t = to_action(Table(SYSTEM, mapped(Minnesota="C3", Monitor="C3", Virginia="A5")),
                  {"Minnesota": "tow Monitor D3", "Monitor": "m0 hold"})
    t.play("Union: reveal Minnesota")
    t.play("Confederate: answer d10 drm 0")
    # d8 7 +1 (Towing Chart) = 8 against 2: both into D3 (deep and clear)
    t.play("Union: answer 1", 7, 2)
    assert (t.state.ship("Minnesota").box, t.state.ship("Monitor").box) == ("D3", "D3")


def test_anchoring_reads_the_depth_from_the_map() -> None:
    quote(__file__, SEED, 7, "Shoal depth of 4 or less. Prevents all movement, no drift check")
    t = to_action(Table(SYSTEM, mapped(Minnesota="E1", Monitor="C3")), {"Minnesota": "anchor", "Monitor": "anchor"})
    t.play("Union: reveal Minnesota")
    assert t.state.ship("Minnesota").has("Anchored")
    events = t.play("Union: reveal Monitor")
    assert any("C3 is deep water" in x for x in t.lines(events)) and not t.state.ship("Monitor").has("Anchored")
    assert questions(t.events) == []


def test_a_drift_asks_where_to_and_then_reads_the_new_box() -> None:
    quote(__file__, SEED, 55, "If Drift results, all the fouled ships drift together.")
    t = to_action(Table(SYSTEM, mapped(Monitor="C3")), {"Monitor": "drift"})
    t.play('Umpire: printed drifting 4 = "1 GB with the current"')
    t.play("Union: reveal Monitor", 4)
    assert questions(t.events) == ["drift_to"]
    assert "not a Grid Box" in t.refused("Union: answer Z9").text
    # into C2: its mine, d10d6 (6, 3) 6 against d10 2, passed
    t.play("Union: answer c2", 6, 3, 2)
    assert t.state.ship("Monitor").box == "C2" and t.state.procedure is None


def test_the_referee_places_a_ship_and_only_on_a_map() -> None:
    t = Table(SYSTEM, mapped(Monitor="C3"))
    assert isinstance(t.refused("Union: place Monitor B2"), NotYourShip)
    t.play("Umpire: place Monitor B2")
    t.play("Umpire: place Monitor off")
    assert t.state.ship("Monitor").box == ""
    with pytest.raises(ParseError, match="not a Grid Box"):
        SYSTEM.parse("Umpire: place Monitor K1", t.state)
    bare = Table(SYSTEM, without_map(mapped()))
    with pytest.raises(ParseError, match="no map"):
        SYSTEM.parse("Umpire: place Monitor B2", bare.state)
    assert SYSTEM.parse("Union: order Monitor m1", bare.state) is not None
    assert "no map" in bare.refused("Umpire: place Monitor off").text


def test_a_game_with_a_map_replays_exactly() -> None:
    t = to_action(Table(SYSTEM, mapped(Monitor="C3")), {"Monitor": "m1 C2"})
    t.play("Union: reveal Monitor")
    t.play("Confederate: answer d10 drm 0", 5, 2, 1, 2, 1, 8, 4)
    t.play("Confederate: answer 2")
    state = t.initial
    for e in t.events:
        state = SYSTEM.apply(state, SYSTEM.events.decode(SYSTEM.events.encode(e)))
    assert state == t.state and state.grid.box("C2").mines == 0


@pytest.mark.parametrize(("change", "problem"), [
    ({"grid": {"columns": 5}}, "grid needs `rows`"),
    ({"grid": {"columns": 27, "rows": 5}}, "grid: `columns` must be from 1 to 26"),
    ({"box": [{"id": "F1"}]}, "box 1: `id` 'F1' is not a Grid Box of this map"),
    ({"box": [{"id": "B2"}, {"id": "b2"}]}, "box B2: `id` is given twice"),
    ({"box": [{"id": "B2", "depth": -3}]}, "box B2: `depth` must be from 0 to 20"),
    ({"box": [{"id": "B2", "obstruction": "rocks"}]}, "box B2: `obstruction` must be one of"),
    ({"box": [{"id": "B2", "mines": "two"}]}, "box B2: `mines` must be a whole number"),
])
def test_bad_maps_are_refused_naming_the_field(change: dict[str, Any], problem: str) -> None:
    doc = mapped()
    doc.update(change)
    with pytest.raises(SetupError, match=problem.replace("(", r"\(")):
        SYSTEM.initial_state(doc)


def test_boxes_or_ship_boxes_without_a_grid_are_refused() -> None:
    doc = without_map(mapped())
    with pytest.raises(SetupError, match="`box` entries need a `\\[grid\\]`"):
        SYSTEM.initial_state({**doc, "box": [{"id": "B2"}]})
    doc["ship"][0]["box"] = "B2"
    with pytest.raises(SetupError, match="ship Monitor: `box` needs a `\\[grid\\]`"):
        SYSTEM.initial_state(doc)
    doc = mapped(Monitor="Z9")
    with pytest.raises(SetupError, match="ship Monitor: `box` 'Z9'"):
        SYSTEM.initial_state(doc)


def test_the_referee_corrects_a_box_and_the_hazards_follow() -> None:
    """A ship sunk in a box leaves a hulk the scenario did not list: the referee adds it, and the next ship in
    reads it from the map (003 lines 229-233)."""
    quote(__file__, SEED, 231, "If the Grid Box has a Hulk or Obstruction marker:")
    t = Table(SYSTEM, mapped(Monitor="C3"))
    assert isinstance(t.refused("Union: box C4 hulks=1"), NotYourShip)
    assert "whole number from 0 to 9" in t.refused("Umpire: box C4 hulks=many").text
    assert "none, obstruction or heavy" in t.refused("Umpire: box C4 obstruction=reef").text
    t.play("Umpire: box C4 hulks=1 depth=deep")
    assert t.state.grid.box("C4") == GridBox("C4", hulks=1)
    t.play("Umpire: box B2 depth=deep")
    assert t.state.grid.box("B2") == GridBox("B2")  # nothing left to say: dropped from the map's list
    t = to_action(t, {"Monitor": "m1 C4"})
    t.play("Union: reveal Monitor")
    # into C4: d10d4 (6, 2) 6 against d10 4, clear of the hulk
    events = t.play("Confederate: answer d10 drm 0", 3, 3, 1, 6, 2, 4)
    assert OpposedRolled("Monitor and the hulks and obstructions", 6, 4, True, "") in events


@pytest.mark.parametrize("line", ["Union: order Monitor m1 C4", "Union: order Monitor m2 off", "Union: order Minnesota tow Monitor B4",
                                  "Umpire: place Monitor off", "Umpire: place Monitor D4",
                                  "Umpire: box C4 depth=deep hulks=2 obstruction=heavy mines=1"])
def test_map_lines_read_back_as_written(line: str) -> None:
    state = Table(SYSTEM, mapped()).state
    cmd = SYSTEM.parse(line, state)
    assert SYSTEM.parse(SYSTEM.format(cmd), state) == cmd


boxes = st.builds(lambda c, r: f"{chr(ord('A') + c)}{r + 1}", st.integers(0, 4), st.integers(0, 4))


@given(boxes, boxes)
def test_reach_on_the_grid_is_symmetric_and_maneuver_2_never_reaches_an_adjacent_box(a: str, b: str) -> None:
    assert adjacent(a, b) == adjacent(b, a) and two_away(a, b) == two_away(b, a)
    assert not (adjacent(a, b) and two_away(a, b))
    if two_away(a, b):
        # each diagonal step passes between two boxes, each adjacent to both of its ends, so neither is a or b
        for left, right in diagonal_flanks(a, b):
            if left:
                assert left not in (a, b) and right not in (a, b) and adjacent(left, right)


@given(boxes, st.sampled_from(["m1", "m2"]))
def test_a_move_the_map_allows_lands_on_the_map_and_in_reach(start: str, kind: str) -> None:
    """Every box an order may name from `start` is one step (m1) or two (m2) away, and every other box is refused
    (one enemy ship on the map: no diagonal passes between two)."""
    state = SYSTEM.initial_state(mapped(Monitor=start))
    ship = state.ship("Monitor")
    for c in "ABCDE":
        for r in range(1, 6):
            dest = f"{c}{r}"
            allowed = refusal(state, ship, (kind, dest)) is None
            assert allowed == (adjacent(start, dest) if kind == "m1" else two_away(start, dest))


def test_an_order_put_out_of_reach_before_its_reveal_has_no_effect() -> None:
    """The card stands from the Action Phase on (rule 3.0); if the ship is no longer where it was (the referee
    corrected the map, a tow or a drift moved it), a Maneuver 1 to a box no longer adjacent does nothing."""
    t = to_action(Table(SYSTEM, mapped(Monitor="C3")), {"Monitor": "m1 D4"})
    t.play("Umpire: place Monitor A1")
    events = t.play("Union: reveal Monitor")
    assert any("D4 is not adjacent to A1" in x and "no effect" in x for x in t.lines(events))
    assert t.state.ship("Monitor").box == "A1" and t.state.procedure is None and questions(t.events) == []
