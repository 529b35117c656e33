"""Four places where the engine slipped from the rulebook (issue 12), each played with scripted
dice from the rulebook's own words (rulebook and online rules; docs/rulings.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game import events as ev
from game.account import account
from game.errors import IllegalAction
from game.model import Phase, Status
from game.report import summary
from game.table_session import TableSession
from tests.helpers import S, default_orders, plain, session, to_movement

PASS5 = "dice sail cannon musket pistol skull"


# ---------------------------------------------------------------- Boarding from alongside

# "move the ship taking the action Directly Toward the target ship until their bases touch. A ship
# may move directly sideways, forward, or backward when making this move. Once touching, pivot the
# Boarding ship in place until its leading edge lays against the nearest edge of the ship being
# boarded" (Boarding). A ship lying parallel to its target needs no pivot at all.


def alongside() -> list[S]:
    # Kestrel (Sloop, beam 1.2) heading east with its port side (north, y = 10.6) 0.8" off the
    # starboard side of Otter (Corvette, same base; y = 11.4); both at anchor, so neither moves.
    return [S("Kestrel", "Sloop", 10, 10, 90, "A", {"sail": "anchored"}),
            S("Otter", "Corvette", 10, 12, 90, "B", {"sail": "anchored"})]


def board(ships: list[S]) -> TableSession:
    t = session(ships, fortune=0)
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(PASS5)  # the Boarding Skill Test: one sail passes
    t.submit_line("move Kestrel crew board Otter")
    return t


def test_boarding_from_alongside_slides_sideways_and_lies_flush_without_turning() -> None:
    t = board(alongside())
    k = t.state.ship("Kestrel")
    assert k.entangled_with == {"Otter"}
    # straight sideways by the 0.8" gap, no turn: port side against Otter's starboard side
    assert (k.x, k.y, k.heading) == (pytest.approx(10), pytest.approx(10.8, abs=1e-3), pytest.approx(90))
    moved = [e for e in t.events if isinstance(e, ev.ShipMoved) and e.reason == "boarding"][-1]
    assert moved.path[-1][2] == pytest.approx(90)


def test_close_combat_after_boarding_from_alongside_is_side_contact() -> None:
    t = board(alongside())
    assert t.state.phase is Phase.ATTACK and t.state.active_player == "B"
    t.submit_line("pass Otter")
    # Close Combat: 3 + Crew 1 = 4 dice; side contact counts skull, pistol and sword
    t.submit_line("dice pistol sword sail cannon")
    t.submit_line("melee Kestrel Otter")
    rolled = [e for e in t.events if isinstance(e, ev.DiceRolled)][-1]
    assert rolled.kind == "close_combat_side" and rolled.successes == 2
    resolved = [e for e in t.events if isinstance(e, ev.AttackResolved)][-1]
    assert (resolved.hits, resolved.fatigue, resolved.contact) == (2, 2, "port")
    assert account(rolled) == "Kestrel Close Combat against Otter: [pistol] [sword] [sail] [cannon] — 2 hits."
    assert account(resolved) == "Kestrel's Close Combat against Otter (port side contact): 2 hits — 0 damage, 2 Fatigue."
    assert t.state.ship("Otter").fatigue == 2


def test_boarding_a_ship_lying_end_on_turns_the_least() -> None:
    # Kestrel heading north, its bow edge 0.5" below Otter's starboard side (Otter heads east): the bow
    # needs no pivot to lie flush, any other edge would need a quarter turn
    t = board([S("Kestrel", "Sloop", 10, 8, 0, "A", {"sail": "anchored"}),
               S("Otter", "Corvette", 10, 10.3, 90, "B", {"sail": "anchored"})])
    k = t.state.ship("Kestrel")
    assert (k.x, k.y, k.heading) == (pytest.approx(10), pytest.approx(8.5, abs=1e-3), pytest.approx(0))


# ---------------------------------------------------------------- the turn-10 result


def last_turn_ships() -> list[S]:
    # A: Flagship Galleon Out of Action (3 Strike Points), three ships counted. B (the defender):
    # three Crippled ships (1 each), three counted. Neither side withdraws: 3 against 3.
    return [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"damage": 7, "fatigue": 7}),
            S("Tender", "Sloop", 4, 30, 0, "A"), S("Sprite", "Sloop", 4, 10, 0, "A"),
            S("Swift", "Corvette", 16, 4, 0, "A"),
            S("Frigate", "Sixth Rate", 25, 18, 0, "B", {"damage": 7}),
            S("Cutter", "Corvette", 30, 30, 0, "B", {"damage": 7}),
            S("Brig", "Brigantine", 30, 8, 0, "B", {"damage": 7})]


def play_last_turn(ships: list[S]) -> TableSession:
    t = session(ships)
    t.state = replace(t.state, last_turn=1)
    for line in ("pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    t.submit_line("dice musket")  # should a sinking roll come: Galleon stays afloat
    default_orders(t, ("movement", "attack"))
    return t


def test_last_turn_result_is_decided_at_step_two_not_after_a_new_flagship() -> None:
    t = play_last_turn(last_turn_ships())
    # step 2: 3 Strike Points each, a tie at the end of the last turn: the defender wins. Naming
    # a new Flagship for A (step 4) would make Galleon a 2-point ship; it must not be asked for.
    counted = [e for e in t.events if isinstance(e, ev.StrikePointsCounted)][-1]
    assert dict(counted.points) == {"A": 3, "B": 3}
    assert t.state.phase is Phase.OVER and not t.state.choices
    assert t.state.winner == "B" and t.state.defender == "B"
    assert t.state.result == "end of turn 1: Strike Points tied, the defender holds"


def test_last_turn_fewer_strike_points_at_step_two_wins() -> None:
    t = play_last_turn([replace(s, extra={}) if s.name == "Frigate" else s for s in last_turn_ships()])
    assert dict(t.state.strike_points) == {"A": 3, "B": 2}
    assert t.state.winner == "B" and t.state.result == "end of turn 1: fewer Strike Points"


# ---------------------------------------------------------------- no move after a Cut Free at anchor


def entangled_at_anchor(**extra: object) -> list[S]:
    # Kestrel's port side (y = 10.6) against Otter's starboard side: Entangled, Kestrel at anchor
    return [S("Kestrel", "Sloop", 10, 10, 90, "A", {"sail": "anchored", **extra}),
            S("Otter", "Corvette", 10, 11.2, 90, "B", {"entangled_with": ["Kestrel"], "sail": "anchored"})]


@pytest.mark.parametrize(("extra", "why"), [({}, "Anchored"), ({"aground": True}, "Aground")])
def test_no_move_after_cut_free_when_anchored_or_aground(extra: dict[str, object], why: str) -> None:
    t = session(entangled_at_anchor(**extra))
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(PASS5)
    t.submit_line("seamanship Kestrel cutfree")
    k = t.state.ship("Kestrel")
    assert not k.entangled and k.y == pytest.approx(9.0, abs=1e-3)  # Yard Arm directly away (south)
    for direction in ("back", "port", "starboard"):
        with pytest.raises(IllegalAction) as err:
            t.submit_line(f"advance Kestrel {direction}")
        assert why in err.value.text
    k = t.state.ship("Kestrel")
    assert (k.x, k.y) == (pytest.approx(10), pytest.approx(9.0, abs=1e-3))
    t.submit_line("done Kestrel")
    assert t.state.phase is Phase.ATTACK


# ---------------------------------------------------------------- the speed of an Anchored ship


def test_anchored_change_heading_collision_rolls_one_die() -> None:
    # "the ship that caused the collision rolls a number of dice equal to its current speed
    # rating": at anchor the ship has no speed (speed rating 0), so the rulings' minimum of 1 die
    t = session([S("Kestrel", "Sloop", 10, 10, 180, "A", {"sail": "anchored"}),
                 S("Otter", "Corvette", 8.8, 7.5, 180, "B", {"sail": "anchored"})])
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(PASS5)
    t.submit_line("dice musket")  # the one collision die: no skull, no sail
    start = len(t.events)
    t.submit_line("move Kestrel heading starboard 30")
    new = t.events[start:]
    assert account(next(e for e in new if isinstance(e, ev.ActivationBegan))) == (
        "Kestrel activates: large, speed 0 (Anchored).")
    moved = next(e for e in new if isinstance(e, ev.ShipMoved) and e.reason == "change_heading")
    assert moved.stopped_by == "Otter" and moved.speed == 1
    collision = next(e for e in new if isinstance(e, ev.DiceRolled) and e.purpose == "collision")
    assert collision.faces == ("musket",)
    assert t.state.ship("Kestrel").damage == 0 and not t.state.ship("Kestrel").entangled


@pytest.mark.parametrize(("extra", "line", "speed"), [
    ({}, "Kestrel activates: large, speed 4.", 4),
    ({"damage": 7}, "Kestrel activates: large, speed 2 (Crippled).", 2),
    ({"sail": "anchored"}, "Kestrel activates: large, speed 0 (Anchored).", 0),
    ({"aground": True}, "Kestrel activates: large, speed 0 (Aground).", 0),
])
def test_activation_line_and_json_give_the_speed_the_ship_has(extra: dict[str, object], line: str,
                                                              speed: int) -> None:
    t = session([S("Kestrel", "Sloop", 8, 20, 180, "A", extra), S("Otter", "Corvette", 28, 20, 180, "B")])
    to_movement(t)
    before = next(s for s in summary(t.state, t.rules)["ships"] if s["name"] == "Kestrel")
    assert before["speed_rating"] == speed
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(plain(t, "move Kestrel"))
    began = next(e for e in t.events if isinstance(e, ev.ActivationBegan) and e.activation.ship == "Kestrel")
    assert account(began) == line
    assert Status.OUT_OF_ACTION not in t.state.ship("Kestrel").statuses
