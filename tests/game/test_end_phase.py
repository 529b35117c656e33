"""End Phase with constructed positions (the online rules' The End Phase)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game import events as ev
from game.errors import IllegalAction
from game.model import Phase, Status
from game.phases.end import ship_total, strike_points
from game.table_session import TableSession
from tests.helpers import S, default_orders, plain, session

# Galleon's starboard side (x = 10.8) lies against Frigate's port side: the two are Entangled.
GALLEON = S("Galleon", "Light Galleon", 10, 18, 0, "A")
TENDER = S("Tender", "Sloop", 4, 30, 0, "A")
CUTTER = S("Cutter", "Corvette", 32, 30, 0, "B")


def frigate(**extra: object) -> S:
    return S("Frigate", "Sixth Rate", 11.5, 18, 0, "B", {"entangled_with": ["Galleon"], **extra})


def to_end(ships: list[S], **kw: object) -> TableSession:
    t = session(ships, **kw)
    for line in ("pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    default_orders(t, ("movement", "attack"))
    return t


def test_capture_a_shaken_entangled_ship() -> None:
    t = to_end([GALLEON, TENDER, frigate(fatigue=7), CUTTER], flagships={"B": "Cutter"})
    assert t.state.phase is Phase.END
    assert [(c.player, c.kind, c.ship) for c in t.state.choices] == [("A", "capture", "Frigate")]
    with pytest.raises(IllegalAction):
        t.submit_line("pick A Careful Aim")  # the decision comes first
    with pytest.raises(IllegalAction):
        t.submit_line("B: capture Frigate")
    t.submit_line("capture Frigate")
    f = t.state.ship("Frigate")
    assert Status.CAPTURED in f.statuses and f.controller == "A" and f.owner == "B"
    # B: 2 Strike Points for the captured ship; ships counted: Cutter only -> B withdraws
    assert t.state.phase is Phase.OVER and t.state.winner == "A"
    assert dict(t.state.strike_points) == {"A": 0, "B": 2}
    assert ship_total(t.state, "A") == 3


def test_destroy_cuts_the_captor_free() -> None:
    t = to_end([GALLEON, TENDER, frigate(fatigue=7), CUTTER, S("Brig", "Brigantine", 30, 8, 0, "B")],
               flagships={"B": "Cutter"})
    t.submit_line("destroy Frigate")
    f, g = t.state.ship("Frigate"), t.state.ship("Galleon")
    assert f.out_of_action
    assert not g.entangled and g.x == pytest.approx(9.0, abs=1e-3)  # Yard Arm directly away (west)
    assert not f.entangled


def test_two_shaken_ships_are_pushed_apart() -> None:
    t = to_end([S("Galleon", "Light Galleon", 10, 18, 0, "A", {"fatigue": 7}), TENDER, frigate(fatigue=7), CUTTER])
    assert not t.state.choices
    g, f = t.state.ship("Galleon"), t.state.ship("Frigate")
    assert not g.entangled and not f.entangled
    from game.phases.common import hull

    assert hull(g).polygon.distance(hull(f).polygon) == pytest.approx(1.0, abs=1e-3)  # Yard Arm apart


def test_sinking_roll_for_out_of_action_ships() -> None:
    ships = [GALLEON, TENDER, S("Frigate", "Sixth Rate", 25, 18, 0, "B", {"fatigue": 7, "damage": 7}),
             CUTTER, S("Brig", "Brigantine", 30, 8, 0, "B"), S("Sloop2", "Sloop", 20, 8, 0, "B")]
    t = session(ships, flagships={"B": "Cutter"})
    t.submit_line("dice sail")  # the only die rolled in the End Phase: Frigate's sinking roll
    for line in ("pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    for line in ("move Galleon", "move Cutter", "move Tender", "move Brig", "move Sloop2",
                 "pass Galleon", "pass Cutter", "pass Tender", "pass Brig", "pass Sloop2"):
        t.submit_line(plain(t, line))
    f = t.state.ship("Frigate")
    assert Status.SUNK in f.statuses and not f.on_table and f.out_of_action
    assert strike_points(t.state, "B") == 2
    assert t.state.phase is Phase.INITIATIVE and t.state.turn == 2


def test_lost_admiral_new_flagship_or_fortune_transfer() -> None:
    ships = [GALLEON, TENDER, S("Frigate", "Sixth Rate", 25, 18, 0, "B", {"fatigue": 7, "damage": 7}),
             S("Cutter", "Corvette", 25, 12, 0, "B"), S("Brig", "Brigantine", 30, 8, 0, "B"),
             S("Sloop2", "Sloop", 20, 8, 0, "B")]
    t = session(ships, flagships={"B": "Frigate"})
    t.submit_line("dice cannon")  # Frigate does not sink (sail or skull would sink it)
    for line in ("pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    for line in ("move Galleon", "move Cutter", "move Tender", "move Brig", "move Sloop2",
                 "pass Galleon", "pass Cutter", "pass Tender", "pass Brig", "pass Sloop2"):
        t.submit_line(plain(t, line))
    assert strike_points(t.state, "B") == 3  # the Flagship is Out of Action
    assert [(c.kind, c.ship) for c in t.state.choices] == [("lost_admiral", "Frigate")]
    with pytest.raises(IllegalAction):
        t.submit_line("transfer Frigate Brig")  # beyond Pistol Shot
    t.submit_line("transfer Frigate Cutter")  # 2.9" away: a Fortune Point moves the Admiral
    q = t.state.squadron("B")
    assert q.flagship == "Cutter" and q.fortune == 2
    assert t.state.phase is Phase.INITIATIVE


def test_new_flagship_gets_admiral_value_zero() -> None:
    ships = [GALLEON, TENDER, S("Frigate", "Sixth Rate", 25, 18, 0, "B", {"fatigue": 7, "damage": 7}),
             S("Cutter", "Corvette", 25, 12, 0, "B"), S("Brig", "Brigantine", 30, 8, 0, "B"),
             S("Sloop2", "Sloop", 20, 8, 0, "B")]
    from game.scenario import load_scenario_text
    from tests.helpers import scenario_text

    text = scenario_text(ships, flagships={"B": "Frigate"}).replace(
        'player = "B"\n', 'player = "B"\nadmiral_value = 2\n')
    text = text.replace('"Reload!", "Favorable Wind"]', '"Reload!", "Favorable Wind", "Shoals Ahead", "Down!", "Boat Assault"]')
    t = TableSession(load_scenario_text(text))
    t.submit_line("dice cannon")
    for line in ("pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    for line in ("move Galleon", "move Cutter", "move Tender", "move Brig", "move Sloop2",
                 "pass Galleon", "pass Cutter", "pass Tender", "pass Brig", "pass Sloop2"):
        t.submit_line(plain(t, line))
    with pytest.raises(IllegalAction) as err:
        t.submit_line("newflag Frigate Brig")
    assert "remove 1" in err.value.text  # 6 cards left in hand (8 less the two played), 5 allowed
    t.submit_line("newflag Frigate Brig drop Shoals Ahead")
    q = t.state.squadron("B")
    assert (q.flagship, q.admiral_value) == ("Brig", 0)
    assert "Shoals Ahead" not in q.hand


def test_withdrawal_when_strike_points_exceed_ships() -> None:
    ships = [GALLEON, TENDER, S("Frigate", "Sixth Rate", 25, 18, 0, "B", {"damage": 7}),
             S("Cutter", "Corvette", 25, 10, 0, "B", {"damage": 7, "aground": True})]
    t = to_end(ships, flagships={"B": "Cutter"})
    # B: 2 Crippled ships = 2 Strike Points; ships counted: Frigate only (Cutter is Aground)
    assert t.state.phase is Phase.OVER and t.state.winner == "A"
    assert "withdraws" in t.state.result


def test_both_over_fewer_strike_points_wins_and_a_tie_goes_on() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"damage": 7, "aground": True}),
             S("Tender", "Sloop", 4, 30, 0, "A", {"damage": 7}),
             S("Frigate", "Sixth Rate", 25, 18, 0, "B", {"damage": 7, "aground": True}),
             S("Cutter", "Corvette", 25, 10, 0, "B", {"damage": 7})]
    t = to_end(ships)
    # each side: 2 Strike Points, 1 ship counted: both over, tied -> play continues
    assert t.state.phase is Phase.INITIATIVE and t.state.turn == 2


def test_end_of_last_turn_fewer_strike_points_or_the_defender() -> None:
    ships = [GALLEON, TENDER, S("Frigate", "Sixth Rate", 25, 18, 0, "B", {"damage": 7}), CUTTER]
    t = session(ships)
    t.state = replace(t.state, last_turn=1)
    to_end_from(t)
    assert t.state.phase is Phase.OVER and t.state.winner == "A"
    t2 = session([GALLEON, TENDER, S("Frigate", "Sixth Rate", 25, 18, 0, "B"), CUTTER])
    t2.state = replace(t2.state, last_turn=1)
    to_end_from(t2)
    assert t2.state.winner == "B" and "defender" in t2.state.result


def to_end_from(t: TableSession) -> None:
    for line in ("pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    default_orders(t, ("movement", "attack"))


def test_recapture_by_entangling_with_a_ship_of_its_own_squadron() -> None:
    t = to_end([GALLEON, TENDER, frigate(fatigue=7), CUTTER], flagships={"B": "Cutter"})
    t.submit_line("capture Frigate")
    assert t.state.winner == "A"
    # replay the capture on a state where the game goes on, then let Cutter board its prize back
    from game.context import Decision
    from game.dice import FairDice, seed_from_number
    from game.phases.common import entangle

    state = replace(t.state, phase=Phase.MOVEMENT, winner=None)
    ctx = Decision(state, FairDice(seed_from_number(1), 0), t.rules)
    entangle(ctx, "Cutter", "Frigate")
    f = ctx.state.ship("Frigate")
    assert Status.CAPTURED not in f.statuses and f.controller == "B" and f.shaken
    assert any(isinstance(e, ev.ControlChanged) and e.reason == "recaptured" for e in ctx.events)
