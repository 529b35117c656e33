"""Two turns of WS&IM under the Casus Belli rules through the pure interface: the wind phase,
secret plots revealed together, the fire calculator with hits read from the printed table by the
referee, critical hits with their sub-rolls, loading in private, sails; then replay and JSON."""

from __future__ import annotations

from game.codec import from_data, to_data
from game.errors import NotYourShip, WrongPhase
from game.systems import orders as od
from game.systems.base import replay
from game.systems.common import PhaseSkipped
from game.systems.wsim import SYSTEM
from game.systems.wsim import events as ev
from game.systems.wsim.fire import NeedsPrinted
from game.systems.wsim.model import Broadside, Fire, Wind
from tests.systems.helpers import Table
from tests.systems.wsim.conftest import at, keep_phases, setup


def test_two_turns(table: Table) -> None:
    t = table
    # ---- turn 1, A: two dice against the wind shift number 5 (changes on 2, 11, 12): 7 holds; B (one ship a side)
    # and C (nothing fouled) have nothing to do: the one `next` goes on to D
    events = t.play("Umpire: next", 3, 4)
    assert ev.WindForecast(None) in events and t.state.turn == 1
    assert [e.phase for e in events if isinstance(e, PhaseSkipped)] == ["B", "C"]
    assert t.state.phase == "D" and SYSTEM.deciders(t.state) == {"British", "French"}

    # ---- D: secret plots, revealed together when the last is in
    sealed = t.play("British: plot Victory 1")
    assert t.lines(sealed, "French") == ["British seals the Victory order."]
    assert SYSTEM.view(t.state, "French").orders.order("Victory").text is None
    assert SYSTEM.view(t.state, "British").orders.order("Victory").text == "1"
    assert SYSTEM.view(t.state, "Umpire").orders.order("Victory").text == "1"  # a referee who is not a player
    assert SYSTEM.deciders(t.state) == {"French"}
    assert isinstance(t.refused("French: plot Victory 0"), NotYourShip)
    # Redoutable heads 6 with the wind blowing towards 1: attitude A, allowance 4 at battle sails
    err = t.refused("French: plot Redoutable 5")
    assert "allowance in attitude A is 4" in err.text
    revealed = t.play("French: plot Redoutable L1R1")
    assert od.OrdersRevealed((("British", "Victory", "1"), ("French", "Redoutable", "L1R1"))) in revealed
    assert t.state.phase == "E" and t.state.ship("Redoutable").heading == 6
    assert t.state.ship("Victory").hexes_moved == 1
    t.play("Umpire: next")  # F and G skipped: nothing is fouled or grappled
    assert t.state.phase == "H"

    # ---- H: Victory's left broadside: Fire Base 18 + 2 carronades 3 + Crack 4 + initial broadside 3 = 28
    fired = t.play("British: fire Victory left Redoutable range 2", 2, 4, 4)
    f1 = Fire(1, "Victory", "left", "Redoutable", 2, "hull", "R", "", 28, 34, 5, None, 9, "Leader Casualty")
    assert ev.FireResolved(f1, "Fire Base 18, 2 carronade(s) +3, crew Cr +4, initial broadside +3") in fired
    assert any("FFN 34, hull column" in line for line in t.lines(fired))
    fired = t.play("French: fire Redoutable right Victory range 2 aim rigging", 6, 6, 1)
    assert t.state.fire(2) == Fire(2, "Redoutable", "right", "Victory", 2, "rigging", "R", "", 15, 27, 4, None, 5, "no effect")
    assert "still wait" in t.refused("Umpire: next").text
    assert isinstance(t.refused("French: hits 1 9H"), NotYourShip)
    t.play("Umpire: hits 1 3H2C")
    t.play("Umpire: hits 2 1C2R")
    # the end of the phase: hits marked, then the critical hit (Lucas: 4+4 +3 at range 2 = 11, he lives)
    ended = t.play("Umpire: next", 4, 4)
    assert ev.DamageMarked("Redoutable", 3, (2, 0, 0), (0, 0, 0, 0), "fire 1") in ended
    assert ev.DamageMarked("Victory", 0, (1, 0, 0), (2, 0, 0), "fire 2") in ended
    assert ev.CriticalApplied("Redoutable", "Leader Casualty", "Lucas survives") in ended
    assert t.state.phase == "J"  # I skipped: no melee
    assert t.state.ship("Victory").broadside("left").load == "" and t.state.ship("Victory").broadside("left").initial_used

    # ---- J: loading is private; the sails of K are set here too
    loaded = t.play("British: load Victory left DS")
    assert t.lines(loaded, "French") == ["Victory works its left broadside."]
    assert SYSTEM.view(t.state, "French").ship("Victory").broadside("left").load == "?"
    assert SYSTEM.view(t.state, "British").ship("Victory").broadside("left").ds_loading
    assert "one broadside" in t.refused("British: load Victory right R").text.lower()
    t.play("French: sails Redoutable full")

    # ---- K skipped (the sails were set in J); turn 2, A: 12 changes the wind: direction 3 (60° clockwise),
    # velocity 5 (+1); next turn. B and C skipped again
    events = t.play("Umpire: next", 6, 6, 3, 5)
    assert [e.phase for e in events if isinstance(e, PhaseSkipped)] == ["K", "B", "C"]
    assert ev.WindForecast(Wind(2, 4)) in events and t.state.wind == Wind(1, 3) and t.state.phase == "D"
    # Victory heads 3 into a wind towards 1: attitude C, allowance 1
    assert "allowance in attitude C is 1" in t.refused("British: plot Victory 2").text
    t.play("British: plot Victory R")  # a turn into attitude D: it stops there
    # Redoutable under full sails (6) in attitude A: 6; after turning left it is in C, allowance 2
    assert "moves 3 hexes in attitude C, whose allowance is 2" in t.refused("French: plot Redoutable L3").text
    t.play("French: plot Redoutable 3L1")
    assert (t.state.ship("Victory").heading, t.state.ship("Redoutable").heading) == (4, 5)
    t.play("Umpire: next")
    # 16 + carronades 2 + Crack 4 + initial broadside 3 = 25; FFN 35, Critical Number 6, 6 + 6 = 12
    t.play("British: fire Victory right Redoutable range 3", 5, 5, 6)
    # 11 + Average 0 + initial 3 (3 hull squares lost: no penalty below 4) = 14; FFN 17, CN 2, 3 + 2 = 5
    t.play("French: fire Redoutable left Victory range 3", 1, 2, 3)
    assert [(f.mfn, f.ffn, f.critical_number, f.critical) for f in t.state.fires] == [
        (25, 35, 6, "Waterline Damage"), (14, 17, 2, "no effect")]
    t.play("Umpire: hits 1 2H1C")
    t.play("Umpire: hits 2 1H")
    ended = t.play("Umpire: next")
    assert [e.what for e in ended if isinstance(e, ev.ShipChanged)] == ["one crew section is permanently at the pumps"]
    victory, redoutable = t.state.ship("Victory"), t.state.ship("Redoutable")
    assert (victory.hull_lost, victory.crew_lost, victory.rigging_lost) == (1, (1, 0, 0), (2, 0, 0))
    assert (redoutable.hull_lost, redoutable.crew_lost, redoutable.waterline) == (5, (3, 0, 0), True)
    assert t.state.phase == "J" and t.state.turn == 2
    assert replay(SYSTEM, t.initial, t.events) == t.state


def test_double_shot_rake_and_a_cell_read_from_the_printed_table() -> None:
    t = keep_phases(Table(SYSTEM, setup()))
    at(t, "J", Victory={"broadsides": (Broadside("left"), Broadside("right", "R"))})
    t.play("British: load Victory left DS")
    assert "One broadside per ship" in t.refused("British: load Victory right R").text
    at(t, "J", turn=2, Victory={"loaded_this_turn": False})
    assert "loading double shot on the left" in t.refused("British: load Victory right R").text
    at(t, "I", turn=2, Victory={"loaded_this_turn": False})
    entered = t.play("Umpire: next")  # the Load Phase: the double shot is complete and is this turn's load
    assert ev.LoadChanged("Victory", "left", "DS", False, "British", initial_used=True) in entered
    assert t.state.ship("Victory").loaded_this_turn
    # the owner gave no order: told to the others, it would say the broadside had been half loaded
    assert "Victory loads double shot on the left." in t.lines(entered, "British")
    assert not any("Victory" in line for line in t.lines(entered, "French") + t.lines(entered, None))
    assert not SYSTEM.view(t.state, "French").ship("Victory").loaded_this_turn
    at(t, "H", turn=3, Redoutable={"sails": "full"})
    err = t.refused("British: fire Victory left Redoutable range 1 rake stern")
    assert isinstance(err, NeedsPrinted) and "printed rake Stern 1 = N" in err.allowed
    assert "verified already" in t.refused("Umpire: printed fire_base 14 1 = 3").text
    t.play("Umpire: printed rake Stern 1 = 7")
    # 20 + carronades 4 + Crack 4 + rake 7 + double shot 3 = 38 (loaded in play: no initial broadside); FFN 44,
    # Critical Number 8; 4 + 8 = 12
    t.play("British: fire Victory left Redoutable range 1 rake stern", 3, 3, 4)
    f = t.state.fire(1)
    assert f is not None and (f.mfn, f.ffn, f.critical_number, f.critical_roll, f.critical) == (38, 44, 8, 12, "Waterline Damage")
    t.play("Umpire: hits 1 4H1C1R")
    t.play("Umpire: next")
    redoutable = t.state.ship("Redoutable")
    # full sails on the target double the rigging hits
    assert (redoutable.hull_lost, redoutable.crew_lost, redoutable.rigging_lost) == (4, (1, 0, 0), (2, 0, 0, 0))
    assert redoutable.waterline


def test_replay_and_json_round_trip(table: Table) -> None:
    t = table
    t.play("Umpire: next", 6, 4)
    t.play("British: plot Victory 1")
    t.play("French: plot Redoutable 2")
    assert replay(SYSTEM, t.initial, t.events) == t.state
    for e in t.events:
        assert SYSTEM.events.decode(SYSTEM.events.encode(e)) == e
    assert from_data(SYSTEM.state_type, to_data(t.state)) == t.state


def test_illegal_orders_change_nothing(table: Table) -> None:
    t = table
    assert isinstance(t.refused("British: fire Victory left Redoutable range 2"), WrongPhase)  # not phase H
    assert "Only the referee" in t.refused("British: next").text
