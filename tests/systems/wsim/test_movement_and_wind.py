"""The log pad's move grammar, the movement allowance (WS&IM IV.A), plot execution, and the CB wind phase."""

from __future__ import annotations

import pytest

from game.errors import IllegalAction, ParseError
from game.model import evolve
from game.systems import orders as od
from game.systems.common import GameEnded
from game.systems.tables import load_tables
from game.systems.wsim import SYSTEM
from game.systems.wsim import events as ev
from game.systems.wsim.model import Wind
from game.systems.wsim.plot import allowance, attitude, check, parse_moves, parse_notes
from tests.systems.helpers import Table
from tests.systems.wsim.conftest import at

T = load_tables("wsim")


@pytest.mark.parametrize(
    ("text", "elements"),
    [("L1R2", ("L", "1", "R", "2")), ("0", ("0",)), ("d", ("D",)), ("W(Victory)", ("W(Victory)",)), ("2T1", ("2", "T", "1")),
     ("bw", ("BW",))],
)
def test_move_grammar(text: str, elements: tuple[str, ...]) -> None:
    assert parse_moves(text) == elements


@pytest.mark.parametrize("bad", ["", "12", "L0", "1D", "X", "W1", "1B"])
def test_bad_moves(bad: str) -> None:
    with pytest.raises(ParseError):
        parse_moves(bad)


def test_notes() -> None:
    assert parse_notes(["ab"]) == ("AB",) and parse_notes(["(A)"]) == ("(A)",) and parse_notes(["a"]) == ("a",)
    with pytest.raises(ParseError, match="phase G"):
        parse_notes(["OBP1"])
    with pytest.raises(IllegalAction):
        parse_notes(["A", "AB"])


def test_attitudes_around_the_wind() -> None:
    wind = Wind(1, 3)  # blowing towards hex side 1
    assert [attitude(h, wind) for h in range(1, 7)] == ["B", "A", "C", "D", "C", "A"]


def test_allowance_rigging_and_wind(table: Table) -> None:
    v = table.state.ship("Victory")  # battle sails 3, class 1
    assert allowance(v, "A", Wind(1, 3), T, ()) == 3
    assert allowance(v, "A", Wind(1, 1), T, ()) == 0  # light breeze: -3 for class 1 in A
    assert allowance(evolve(v, rigging_lost=(8, 0, 0)), "A", Wind(1, 2), T, ()) == 1  # 3 - 1 section - 1
    assert allowance(evolve(v, sails="full"), "B", Wind(1, 4), T, ()) == 4  # full sails 5 in B, heavy breeze 0
    assert allowance(v, "A", Wind(1, 0), T, ()) == 0  # becalmed
    assert "no column for class 7" in str(allowance(evolve(v, ship_class=7), "A", Wind(1, 3), T, ()))


NORMAL_BREEZE = Wind(1, 3)


def _check(ship: object, moves: str, notes: tuple[str, ...] = (), wind: Wind = NORMAL_BREEZE) -> tuple[str, ...]:
    return check(ship, parse_moves(moves), notes, wind, T, ())  # type: ignore[arg-type]


def test_plot_checks(table: Table) -> None:
    r = table.state.ship("Redoutable")  # battle sails 4, turning 2, heading 6: attitude A, allowance 4
    assert _check(r, "L1R1") == ()
    with pytest.raises(IllegalAction, match="turns twice in one hex"):
        _check(r, "LR1")
    with pytest.raises(IllegalAction, match="turning ability is 1"):
        _check(evolve(r, turning=1), "L1R1")
    assert _check(evolve(r, turning=1), "L1T1") == ()  # turning back does not count against it
    with pytest.raises(IllegalAction, match="T turns back"):
        _check(r, "1T1")
    # under full sails, heading 3 is attitude C (allowance 2); turning right to 4 is D: it must stop
    assert _check(evolve(r, heading=3, sails="full"), "R") == ()
    with pytest.raises(IllegalAction, match="must stop there"):
        _check(evolve(r, heading=3, sails="full"), "R1")
    v = table.state.ship("Victory")  # heading 3: attitude C, allowance 1
    assert _check(evolve(v, heading=4), "L") == ()  # allowance 0 (attitude D): one free turn in place
    with pytest.raises(IllegalAction, match="allowance of 0"):
        _check(evolve(v, heading=4), "1")
    with pytest.raises(IllegalAction, match="only drift"):
        _check(evolve(v, fouled=("Redoutable",)), "1")
    assert _check(evolve(v, fouled=("Redoutable",)), "D") == ()
    with pytest.raises(IllegalAction, match="at anchor"):
        _check(evolve(v, anchored="A"), "1")
    assert _check(evolve(v, anchored="A"), "0", ("(A)",)) == ()
    with pytest.raises(IllegalAction, match="not at anchor"):
        _check(v, "0", ("a",))
    with pytest.raises(IllegalAction, match="may not anchor again"):
        _check(evolve(v, anchor_lost=True), "0", ("A",))
    with pytest.raises(IllegalAction, match="becalmed"):
        _check(v, "1", wind=Wind(1, 0))
    with pytest.raises(IllegalAction, match="rowed"):
        _check(v, "BW")
    remark = _check(evolve(v, ship_class=7), "1")
    assert remark and "not checked" in remark[0]


def test_plot_execution_anchors_drift_and_acceleration(table: Table) -> None:
    t = at(table, "D", Victory={"hexes_moved": 0, "still": 1, "anchored": "A"})
    t.state = SYSTEM.apply(t.state, od.OrdersOpened("plot", (("British", "Victory"), ("French", "Redoutable"))))
    t.play("British: plot Victory 0 (A)")
    events = t.play("French: plot Redoutable 4")
    plots = {e.ship: e for e in events if isinstance(e, ev.PlotExecuted)}
    assert plots["Victory"].weighing == 2 and plots["Victory"].still == 2
    assert any("drifts one hex downwind" in r for r in plots["Victory"].remarks)
    assert plots["Redoutable"].hexes == 4 and plots["Redoutable"].remarks == ()  # no speed last turn to compare


def test_weighing_anchor_takes_two_turns(table: Table) -> None:
    t = at(table, "K", Victory={"anchored": "A", "weighing": 2})
    t.play("Umpire: next", 3, 4)
    assert t.state.ship("Victory").anchored == "A" and t.state.ship("Victory").weighing == 1
    at(t, "K", turn=2)
    t.play("Umpire: next", 3, 4)
    assert t.state.ship("Victory").anchored == "" and t.state.ship("Victory").weighing == 0


def test_wind_back_to_initial_direction_and_a_hurricane(table: Table) -> None:
    t = at(table, "K")
    t.state = evolve(t.state, wind=Wind(3, 6))
    # a change (2): direction 1 = back to the initial direction (1); velocity 6 = +1: a hurricane comes
    events = t.play("Umpire: next", 1, 1, 1, 6)
    assert ev.WindForecast(Wind(1, 7)) in events
    assert any("hurricane" in x.lower() for x in t.lines(events))
    at(t, "K", turn=2)
    events = t.play("Umpire: next")
    assert GameEnded("a hurricane: the scenario is ended") in events and t.state.result
    assert "over" in t.refused("Umpire: next").text


def test_wind_never_drops_below_zero(table: Table) -> None:
    t = at(table, "K")
    t.state = evolve(t.state, wind=Wind(1, 0))
    events = t.play("Umpire: next", 6, 6, 2, 1)
    assert ev.WindForecast(Wind(1, 0)) in events


def test_a_gale_takes_full_sails_off_classes_5_and_6(table: Table) -> None:
    t = at(table, "K", Redoutable={"ship_class": 5, "sails": "full"})
    t.state = evolve(t.state, wind_next=Wind(1, 5))
    events = t.play("Umpire: next", 3, 4)
    assert ev.SailsSet("Redoutable", "battle") in events
    assert "Gale: no full sails for class 5, 6; fire: class 1 -2, class 5 -2, class 6 -2." in t.lines(events)
    at(t, "K", turn=2)
    assert "not allowed" in t.refused("French: sails Redoutable full").text
