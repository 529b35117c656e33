"""Each quick-start initiative card's effect, in play, through the one effect engine."""

from __future__ import annotations

import pytest

from game import events as ev
from game.errors import IllegalAction
from game.model import Phase, ShipSide
from game.table_session import TableSession
from tests.helpers import S, default_orders, plain, session, win_challenge

HAND_A = ["Down!", "Careful Aim", "Rolling Broadsides", "Effective Fire", "Adjust Position", "Favorable Wind"]
HAND_B = ["Fire as She Bears", "Take Courage", "Fleet Maneuver", "Reload!", "Favorable Wind", "Down!"]


def start(ships: list[S], a: str, b: str, a_next: str = "Careful Aim", b_next: str = "Take Courage",
          **kw: object) -> TableSession:
    t = session(ships, hands={"A": HAND_A, "B": HAND_B}, **kw)
    t.submit_line(f"pick A {a}")
    if t.rules.cards[a].value == t.rules.cards[b].value:
        win_challenge(t, "A")  # the tests below let A act first
    for line in (f"pick B {b}", f"pick A {a_next}", f"pick B {b_next}"):
        t.submit_line(line)
    return t


GALLEON = S("Galleon", "Light Galleon", 10, 18, 0, "A")
FRIGATE = S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")


def test_effective_fire_adds_a_broadside_die() -> None:
    t = start([GALLEON, FRIGATE], "Effective Fire", "Reload!")
    default_orders(t)
    t.submit_line("dice musket musket musket musket musket musket")
    t.submit_line("fire Galleon starboard Frigate")
    assert len([e for e in t.events if isinstance(e, ev.DiceRolled) and e.purpose == "broadside"][-1].faces) == 6


def test_down_takes_one_fatigue_off_each_attack() -> None:
    t = start([GALLEON, FRIGATE], "Effective Fire", "Down!")
    default_orders(t)
    t.submit_line("dice musket musket musket musket musket musket")
    t.submit_line("fire Galleon starboard Frigate")
    f = t.state.ship("Frigate")
    assert (f.damage, f.fatigue) == (3, 0)


def test_careful_aim_rerolls_blank_critical_dice() -> None:
    t = start([GALLEON, FRIGATE], "Careful Aim", "Down!", a_next="Effective Fire")
    default_orders(t)
    t.submit_line("dice skull sail sail sail sail pistol skull")  # critical die: pistol, re-rolled: skull
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    assert t.state.ship("Frigate").damage == 1
    assert any(isinstance(e, ev.DiceRolled) and e.purpose == "critical_reroll" for e in t.events)


def test_without_careful_aim_the_blank_critical_stands() -> None:
    t = start([GALLEON, FRIGATE], "Effective Fire", "Down!")
    default_orders(t)
    t.submit_line("dice skull sail sail sail sail sail pistol")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    assert t.state.ship("Frigate").damage == 0


def test_rolling_broadsides_attack_as_a_crew_action() -> None:
    t = start([GALLEON, FRIGATE], "Rolling Broadsides", "Down!")
    assert t.state.active_player == "A"
    t.submit_line("dice musket musket musket musket musket")
    t.submit_line("move Galleon crew fire starboard Frigate")
    assert t.state.ship("Frigate").damage == 2
    assert t.state.ship("Galleon").reload == {ShipSide.STARBOARD}
    t2 = start([GALLEON, FRIGATE], "Effective Fire", "Down!")
    with pytest.raises(IllegalAction) as err:
        t2.submit_line("move Galleon crew fire starboard Frigate")
    assert "Rolling Broadsides" in err.value.text


def test_adjust_position_shifts_sideways_near_a_friend() -> None:
    ships = [S("Kestrel", "Sloop", 10, 18, 180, "A"), S("Tender", "Sloop", 13, 18, 180, "A"), FRIGATE]
    t = start(ships, "Adjust Position", "Down!")
    t.submit_line("move Kestrel shift end starboard 0.5")  # heading south: starboard is west
    k = t.state.ship("Kestrel")
    assert (k.x, k.y) == pytest.approx((9.5, 18 - 2.91))
    with pytest.raises(IllegalAction):
        t.submit_line("move Frigate shift end port 0.5")  # B has no such card
    t2 = start([S("Kestrel", "Sloop", 10, 18, 180, "A"), FRIGATE], "Adjust Position", "Down!")
    with pytest.raises(IllegalAction):
        t2.submit_line("move Kestrel shift end starboard 0.5")  # no friend within Pistol Shot


def test_favorable_wind_adds_speed_sailing_large() -> None:
    ships = [S("Kestrel", "Sloop", 10, 18, 180, "A"), S("Otter", "Corvette", 28, 18, 180, "B")]
    t = start(ships, "Down!", "Favorable Wind")
    t.submit_line("move Otter")
    assert t.state.ship("Otter").y == pytest.approx(18 - 3.70)  # Large 4 + 1 -> speed 5


B_LINE = [S("Frigate", "Sixth Rate", 25, 18, 0, "B", {"fatigue": 2, "reload": ["port", "starboard"]}),
          S("Cutter", "Corvette", 25, 12.25, 0, "B", {"fatigue": 1, "reload": ["port"]})]


def test_take_courage_removes_fatigue_in_formation() -> None:
    t = start([GALLEON, *B_LINE], "Down!", "Take Courage", b_next="Reload!", flagships={"B": "Frigate"})
    assert (t.state.ship("Frigate").fatigue, t.state.ship("Cutter").fatigue) == (1, 0)


def test_reload_removes_a_reload_marker_in_formation() -> None:
    t = start([GALLEON, *B_LINE], "Down!", "Reload!", flagships={"B": "Frigate"})
    assert len(t.state.ship("Frigate").reload) == 1
    assert t.state.ship("Cutter").reload == frozenset()


def test_fleet_maneuver_gives_formation_ships_a_free_turn() -> None:
    t = start([GALLEON, *B_LINE], "Down!", "Fleet Maneuver", flagships={"B": "Frigate"})
    assert t.state.phase is Phase.INITIATIVE
    assert sorted(c.ship for c in t.state.choices) == ["Cutter", "Frigate"]
    with pytest.raises(IllegalAction):
        t.submit_line("move Galleon")
    with pytest.raises(IllegalAction):
        t.submit_line("freeturn Cutter port 31")
    t.submit_line("freeturn Frigate starboard 30")
    t.submit_line("freeturn Cutter skip")
    assert t.state.ship("Frigate").heading == pytest.approx(30)
    assert t.state.phase is Phase.MOVEMENT


def test_fire_as_she_bears_free_broadside_when_an_enemy_sails_into_the_arc() -> None:
    # B's line lies head to wind; Kestrel sails south across the Frigate's starboard broadside path
    ships = [S("Kestrel", "Sloop", 29, 23, 180, "A"),
             S("Frigate", "Sixth Rate", 25, 18, 0, "B"), S("Cutter", "Corvette", 25, 12.25, 0, "B")]
    t = start(ships, "Effective Fire", "Fire as She Bears", flagships={"B": "Frigate"})
    t.submit_line("move Kestrel")  # to y = 20.09: its bow now lies in the Frigate's path
    offer = t.state.offer
    assert offer is not None and offer.player == "B" and offer.ships == ("Frigate",)
    with pytest.raises(IllegalAction):
        t.submit_line("move Frigate")
    t.submit_line("dice musket musket musket musket musket")
    t.submit_line("free fire Frigate starboard Kestrel")
    assert t.state.ship("Kestrel").damage == 5  # Broadside 4 + 1 in Formation, Fortitude 1
    assert t.state.offer is None and t.state.active_player == "B"
    default_orders(t)
    for line in ("pass Kestrel", "pass Frigate", "pass Cutter"):
        t.submit_line(line)
    assert "Fire as She Bears" in t.state.squadron("B").discards  # discarded after play


def test_decline_a_free_attack() -> None:
    ships = [S("Kestrel", "Sloop", 29, 23, 180, "A"),
             S("Frigate", "Sixth Rate", 25, 18, 0, "B"), S("Cutter", "Corvette", 25, 12.25, 0, "B")]
    t = start(ships, "Effective Fire", "Fire as She Bears", flagships={"B": "Frigate"})
    t.submit_line("move Kestrel")
    t.submit_line("decline")
    assert t.state.offer is None and t.state.ship("Kestrel").damage == 0


def test_small_arms_offers_a_harmless_partial_fire_when_an_enemy_ends_its_move_close() -> None:
    ships = [S("Kestrel", "Sloop", 29, 23, 180, "A"), S("Frigate", "Sixth Rate", 25, 18, 0, "B")]
    t = session(ships, hands={"A": HAND_A, "B": ["Small Arms", *HAND_B[1:5]]})
    for line in ("pick A Careful Aim", "pick B Small Arms", "pick A Effective Fire", "pick B Take Courage"):
        t.submit_line(line)
    t.submit_line(plain(t, "move Frigate"))  # Small Arms (3) beats Careful Aim (2): B moves first
    t.submit_line("move Kestrel")  # ends within Pistol Shot of Frigate
    offer = t.state.offer
    assert offer is not None and offer.attack == "partial" and offer.harmless and offer.ships == ("Frigate",)
    t.submit_line("dice skull skull")
    t.submit_line("free partial Frigate Kestrel")
    k = t.state.ship("Kestrel")
    assert k.damage == 0 and k.fatigue == 1  # cannot damage or crit; the hit still tires the crew


def test_await_new_orders_uses_another_cards_effect_with_its_own_value() -> None:
    from game.errors import IllegalAction

    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    hand = ["Await New Orders", "Down!", "Careful Aim", "Effective Fire", "Adjust Position"]
    t = session(ships, hands={"A": hand, "B": HAND_B})
    for line in ("pick A Await New Orders", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    assert t.state.initiative == "B"  # the card keeps its own value, 1
    assert [(c.kind, c.player) for c in t.state.choices] == [("borrow", "A")]
    with pytest.raises(IllegalAction):
        t.submit_line("borrow Favorable Wind")  # not in A's hand
    t.submit_line("borrow Effective Fire")
    assert t.state.squadron("A").borrowed == "Effective Fire" and t.state.phase is Phase.MOVEMENT
    default_orders(t)
    t.submit_line("pass Frigate")
    t.submit_line("dice " + " ".join(["musket"] * 6))
    t.submit_line("fire Galleon starboard Frigate")
    rolled = [e for e in t.events if isinstance(e, ev.DiceRolled) and e.purpose == "broadside"][-1]
    assert len(rolled.faces) == 6  # Effective Fire's +1
