"""Each order procedure of the player aid with scripted dice: what it asks, what it rolls, what it places."""

from __future__ import annotations

from game.errors import NotYourShip
from game.model import evolve
from game.systems import orders as od
from game.systems.common import OpposedRolled
from game.systems.iron_and_oak import SYSTEM
from game.systems.iron_and_oak.events import ShipChanged
from game.systems.iron_and_oak.model import Position
from tests.systems.helpers import Table, quote
from tests.systems.iron_and_oak.conftest import acting


def _asked(t: Table) -> str:
    p = t.state.procedure
    assert p is not None and p.question is not None
    return p.question.ask


def test_unfoul_from_a_ship(table: Table) -> None:
    t = acting(table, {"Monitor": "unfoul"}, Monitor={"fouled_with": ("Virginia",), "markers": ("Fouled",)},
               Virginia={"fouled_with": ("Monitor",), "markers": ("Fouled",)})
    t.play("Union: reveal Monitor", 9, 3, 4)  # d10 9 against d10d4 (3, 4): unfouled
    assert not t.state.ship("Monitor").has("Fouled") and not t.state.ship("Virginia").fouled_with


def test_a_failed_unfoul_drifts_and_the_drifting_table_comes_from_the_players(table: Table) -> None:
    t = acting(table, {"Monitor": "unfoul"}, Monitor={"fouled_with": ("heavy obstruction",), "markers": ("Fouled",)})
    # d10 6 -2 (heavy obstruction) = 4 against d10d4 (5, 2) = 5: still fouled; the drift check: d10 7
    t.play("Union: reveal Monitor", 6, 5, 2, 7)
    assert "your Drifting Table for d10 = 7" in _asked(t)
    events = t.play("Union: answer 1 GB downstream")
    assert any("Drift: 1 GB downstream" in x for x in t.lines(events))
    assert "hazards" in _asked(t)
    t.play("Confederate: answer none")
    assert t.state.procedure is None and t.state.drift_checked == ("Monitor",)


def test_a_drifting_cell_entered_by_the_referee_is_not_asked_again(table: Table) -> None:
    t = acting(table, {"Monitor": "drift"})
    t.play('Umpire: printed drifting 7 = "1 GB with the current"')
    t.play("Union: reveal Monitor", 7)
    assert "hazards" in _asked(t)


def test_refloat_powered_with_a_helper_and_a_triple(table: Table) -> None:
    t = acting(table, {"Monitor": "refloat"}, Monitor={"markers": ("Grounded", "Grappled"), "grappled_with": ("Minnesota",)},
               Minnesota={"grappled_with": ("Monitor",)})
    # d10d8 (3, 2) 3 +2 (Minnesota alongside) = 5 against d10 4: afloat; the engine check d10d8 (1, 1) against d8 3 fails,
    # and 3 is triple 1: Engine-Damaged and a WL Critical Hit
    events = t.play("Union: reveal Monitor", 3, 2, 4, 1, 1, 3)
    assert OpposedRolled("Monitor refloats (+2: Minnesota grappled alongside)", 5, 4, True, "") in events
    m = t.state.ship("Monitor")
    assert not m.has("Grounded") and m.criticals == ("Engine-Damaged", "WL")


def test_refloat_with_a_damaged_engine_fails_into_engine_stopped(table: Table) -> None:
    t = acting(table, {"Monitor": "refloat"}, Monitor={"markers": ("Grounded",), "criticals": ("Engine-Damaged",)})
    t.play("Union: reveal Monitor", 2, 7, 6)  # d8 2 against d10d8 (7, 6) 7: aground; 7 is more than triple 2
    m = t.state.ship("Monitor")
    assert m.has("Grounded") and m.criticals == ("Engine-Stopped", "WL")


def test_refloat_un_powered(table: Table) -> None:
    t = acting(table, {"Monitor": "refloat"}, Monitor={"markers": ("Grounded",), "criticals": ("Boiler",)})
    t.play("Union: reveal Monitor", 6, 2, 5)  # d6 6 against d10d8 (2, 5) 5: afloat
    assert not t.state.ship("Monitor").has("Grounded")


def test_spar_torpedo_with_the_torpedo_table_read_by_the_players(table: Table) -> None:
    t = acting(table, {"Virginia": "spar Monitor"})
    t.play("Confederate: reveal Virginia")
    t.play("Union: answer none")
    # contact: d8 8 -1 = 7 against d10d6 (2, 3) 3; explodes: d10d8 (7, 1) 7 against d4 2; two d8: 4 and 6
    t.play("answer 0 0", 8, 2, 3, 7, 1, 2, 4, 6)
    assert "Spar Torp column of your Torpedo table for d8 = 4" in _asked(t)
    t.play("answer 3")
    assert "Ship Spar column of your Torpedo table for d8 = 6" in _asked(t)
    t.play("answer 1")
    assert (t.state.ship("Monitor").hits, t.state.ship("Monitor").shield) == (3, 4)
    v = t.state.ship("Virginia")
    assert (v.hits, v.shield, v.criticals) == (1, 1, ("Spar",))
    t.play("answer none", 1, 1, 5)  # fouling: d10d8 (1, 1) against d6 5: fouled
    assert t.state.ship("Virginia").fouled_with == ("Monitor",) and t.state.ship("Monitor").has("Fouled")


def test_a_ram_tie_hurts_both(table: Table) -> None:
    t = acting(table, {"Virginia": "ram Monitor"})
    t.play("Confederate: reveal Virginia")
    t.play("Union: answer none")
    # contact 8 - 1 against 3; ram d10d8 (7, 2) 7 against WL d10d8 (7, 1) 7: both take 7 // 2 = 3; the ram holds
    t.play("answer 0 0", 8, 2, 3, 7, 2, 7, 1, 9, 8, 1)
    assert t.state.ship("Monitor").hits == 3 and t.state.ship("Virginia").hits == 3


def test_crossing_the_t_of_an_anchored_ship(table: Table) -> None:
    t = acting(table, {"Monitor": "cross Virginia stern"}, Virginia={"markers": ("Anchored",)})
    t.play("Union: reveal Monitor")
    t.play("Confederate: answer none")
    # cards may still be played on the mover; the anchored target's Response is one d10 -5
    assert "Quick/Slow" in _asked(t)
    events = t.play("answer 0 0", 2, 1, 6)
    assert OpposedRolled("Monitor against Virginia: contact (moving ship -1, Virginia anchored, aground or fouled: d10 -5)",
                         1, 1, False, "") in events
    assert t.state.ship("Monitor").lockouts == (("cross", "Virginia", 2),)
    assert t.state.positions == ()


def test_the_stern_on_position_bars_the_target(table: Table) -> None:
    t = acting(table, {"Minnesota": "m0 hold"})
    t.state = evolve(t.state, positions=(Position("Virginia", "Monitor", "stern"),), phase="order",
                     orders=od.OrderBook("order", (("Union", "Monitor"),), (), od.ONE_BY_ONE))
    assert "across Monitor's stern" in t.refused("Union: order Monitor ram Virginia").text
    assert "friendly" in t.refused("Union: order Monitor ram Minnesota").text


def test_hazards_shoal_draft_asked_hulks_and_a_heavy_obstruction(table: Table) -> None:
    t = acting(table, {"Monitor": "m0 hold"}, Monitor={"draft": -1})
    t.play("Union: reveal Monitor")
    t.play("Confederate: answer shoal 1 hulk hulk heavy")
    assert "Monitor's current Draft" in _asked(t)
    assert isinstance(t.refused("Confederate: answer 3"), NotYourShip)
    # draft 3 in depth 1: two over, d8 6 against d10d6 (4, 2) 4: safe; hulks: d10d4 (6, 1) 6 -2 -1 = 3 against 3: fouled
    t.play("Union: answer 3", 6, 4, 2, 6, 1, 3)
    m = t.state.ship("Monitor")
    assert m.fouled_with == ("heavy obstruction",) and m.has("Fouled") and not m.has("Grounded")


def test_opposing_maneuver_hampers_the_next_maneuver_once(table: Table) -> None:
    t = acting(table, {"Virginia": "oppose Monitor", "Monitor": "m1"})
    t.play("Confederate: reveal Virginia")
    assert t.state.ship("Monitor").opposed_by == "Virginia"
    t.play("Union: reveal Monitor")
    events = t.play("Confederate: answer d10 drm 0", 5, 5, 4)  # d10d6 (5, 5) 5 -1 = 4 against 4: fails
    assert OpposedRolled("Monitor: Maneuver 1 (opposed by Virginia -1)", 4, 4, False, "") in events
    assert t.state.ship("Monitor").opposed_by == ""


def test_towing_asks_the_towing_chart(table: Table) -> None:
    t = acting(table, {"Minnesota": "tow Monitor"})
    t.play("Union: reveal Minnesota")
    t.play("Confederate: answer d10 drm 0")
    assert "Towing Chart DRM for a Hits difference of 6" in _asked(t)
    t.play("Union: answer -1", 6, 3)  # d8 6 -1 = 5 against d10 3: both move
    assert t.state.ship("Monitor").grappled_with == ("Minnesota",)
    assert "hazards" in _asked(t)


def test_an_anchored_ship_cannot_maneuver_and_the_answers_are_checked(table: Table) -> None:
    t = acting(table, {"Minnesota": "m2"}, Minnesota={"markers": ("Anchored",)})
    events = t.play("Union: reveal Minnesota")
    assert any("Weigh Anchor first" in x for x in t.lines(events)) and t.state.procedure is None
    assert "No question" in t.refused("Union: answer 3").text


def test_opposing_maneuver_ends_with_the_next_movement_segment_even_a_hold(table: Table) -> None:
    """003 line 37: a ship that holds in turn 1 has had its next Movement Segment; turn 2's Maneuver 1 is free."""
    quote(__file__, "seed_003_procedures.txt", 37, "-1 DRM if attempting to Maneuver in its next Movement Segment")
    t = acting(table, {"Virginia": "oppose Monitor", "Monitor": "m0 hold"})
    t.play("Confederate: reveal Virginia")
    t.play("Union: reveal Monitor")
    events = t.play("Confederate: answer none")
    assert "Monitor has ended its Movement Segment: the Opposing Maneuver marker is removed." in t.lines(events)
    assert t.state.ship("Monitor").opposed_by == ""
    acting(t, {"Monitor": "m1"}, turn=2)
    t.play("Union: reveal Monitor")
    events = t.play("Confederate: answer d10 drm 0", 5, 5, 4)  # d10d6 (5, 5) 5 against 4, no DRM: succeeds
    assert OpposedRolled("Monitor: Maneuver 1", 5, 4, True, "") in events


def test_only_maneuver_1_and_2_remove_smoke(table: Table) -> None:
    """003 lines 43 and 49 give "If successful, remove Smoke" to Maneuver 1 and 2; a Maneuver 0 escape keeps it."""
    quote(__file__, "seed_003_procedures.txt", 43, "b) *Enter an adjacent GB, including escaping from a **Bow-On or Stern-On "
                                                   "position** . If successful, **remove Smoke**.*")
    quote(__file__, "seed_003_procedures.txt", 49, "b) *Can only move diagonally once, and not diagonally between 2 enemy "
                                                   "ships. If successful, **remove Smoke**.*")
    t = acting(table, {"Monitor": "m0 escape"}, Monitor={"markers": ("Smoke",)})
    t.state = evolve(t.state, positions=(Position("Virginia", "Monitor", "bow"),))
    t.play("Union: reveal Monitor")
    # d10d6 (6, 1) 6, -1 with Virginia across the bow = 5, against 3: escapes within the Grid Box
    events = t.play("Confederate: answer d10 drm 0", 6, 1, 3)
    assert OpposedRolled("Monitor: Maneuver 0 (Virginia across the bow -1)", 5, 3, True, "") in events
    assert t.state.positions == () and t.state.ship("Monitor").has("Smoke")
    for order in ("m1", "m2"):
        t.state = evolve(t.state, procedure=None)
        acting(t, {"Monitor": order}, Monitor={"markers": ("Smoke",)})
        t.play("Union: reveal Monitor")
        events = t.play("Confederate: answer d10 drm 0", 6, 1, 3)
        assert "Monitor leaves its Smoke behind." in t.lines(events) and not t.state.ship("Monitor").has("Smoke")


def test_a_towed_ship_crossing_the_t_rolls_the_towing_ships_maneuver_dice(table: Table) -> None:
    """003 lines 79 and 106: the tow is kept after the tow order, and the towed ship's contact roll uses the tower's dice."""
    for line in (79, 106):
        quote(__file__, "seed_003_procedures.txt", line, "A Towed or Towing ship uses the Towing ship's Maneuver dice "
                                                         "and applies any Towing DRMs [5.3].")
    t = acting(table, {"Minnesota": "tow Monitor"})
    t.play("Union: reveal Minnesota")
    t.play("Confederate: answer d10 drm 0")
    t.play("Union: answer -1", 6, 3)
    t.play("Confederate: answer none")
    assert t.state.procedure is None and t.state.ship("Monitor").towed_by == "Minnesota"
    acting(t, {"Monitor": "cross Virginia bow"}, turn=2)
    t.play("Union: reveal Monitor")
    t.play("Confederate: answer none")
    t.play("Union: answer 0 0")
    # Minnesota's d8 (not Monitor's d10d6): 7, -1 moving ship, -1 Towing Chart = 5, against Virginia's d8 4
    events = t.play("Union: answer -1", 7, 4)
    assert OpposedRolled("Monitor against Virginia: contact (towed by Minnesota: its Maneuver dice, moving ship -1)",
                         5, 4, True, "") in events
    assert t.state.positions == (Position("Monitor", "Virginia", "bow"),)
    # the tow ends with the grapple; an event stored before the tow was kept still decodes
    t.play("Umpire: marker Monitor -Grappled Minnesota")
    assert t.state.ship("Monitor").towed_by == "" and t.state.ship("Minnesota").grappled_with == ()
    stored = SYSTEM.events.encode(ShipChanged(t.state.ship("Monitor"), "is grappled by Minnesota"))
    del stored["ship"]["towed_by"]
    assert SYSTEM.events.decode(stored) == ShipChanged(t.state.ship("Monitor"), "is grappled by Minnesota")


def test_a_towed_ships_maneuver_uses_the_towing_ships_dice_and_the_towing_chart(table: Table) -> None:
    """003 line 61: "Use the towing ship's Maneuver dice to determine movement for both ships", with the Towing DRM."""
    quote(__file__, "seed_003_procedures.txt", 61, "Use the towing ship's Maneuver dice to determine movement for both ships.")
    t = acting(table, {"Minnesota": "tow Monitor"})
    t.play("Union: reveal Minnesota")
    t.play("Confederate: answer d10 drm 0")
    t.play("Union: answer -1", 6, 3)
    t.play("Confederate: answer none")
    acting(t, {"Monitor": "m1"}, turn=2)
    t.play("Union: reveal Monitor")
    t.play("Confederate: answer d10 drm 0")
    assert "Towing Chart DRM for a Hits difference of 6" in _asked(t)  # Minnesota's 14 less Monitor's 8
    events = t.play("Union: answer -1", 6, 3)  # Minnesota's d8 6 -1 = 5 against d10 3
    assert OpposedRolled("Monitor: Maneuver 1 (towed by Minnesota: its Maneuver dice)", 5, 3, True, "") in events
