"""Movement Phase rules with scripted dice (the online rules' The Movement Phase; docs/rulings.md)."""

from __future__ import annotations

import pytest

from game.errors import DiceNotAllowed, IllegalAction, NotYourShip, NotYourTurn, RollPending, WrongPhase
from game.model import Phase, Sail, ShipSide, Status
from game.rules_data import load_rules
from tests.helpers import S, plain, session, to_movement

RULES = load_rules()
FAIL5 = "dice skull cannon musket pistol skull"
PASS5 = "dice sail cannon musket pistol skull"


def tool(speed: int) -> float:
    return RULES.tool(speed).length


def two_ships(**extra_a: object) -> list[S]:
    # A's sloop far from B's corvette; both sail Large (stern to the north wind)
    return [S("Kestrel", "Sloop", 8, 20, 180, "A", dict(extra_a)), S("Otter", "Corvette", 28, 20, 180, "B")]


def test_ship_moves_its_tool_length_and_play_alternates() -> None:
    t = session(two_ships())
    to_movement(t)
    assert t.state.phase is Phase.MOVEMENT and t.state.active_player == "B"
    with pytest.raises(NotYourTurn):
        t.submit_line("move Kestrel")
    t.submit_line(plain(t, "move Otter"))  # Corvette Large 4
    otter = t.state.ship("Otter")
    assert otter.y == pytest.approx(20 - tool(4))
    assert otter.wake
    assert t.state.active_player == "A"
    t.submit_line("move Kestrel")
    assert t.state.ship("Kestrel").y == pytest.approx(20 - tool(4))
    assert t.state.phase is Phase.ATTACK
    assert t.state.active_player == "B"


def test_winds_eye_refuses_a_forward_move_and_accepts_a_30_degree_turn() -> None:
    t = session([S("Kestrel", "Sloop", 8, 20, 0, "A"), S("Otter", "Corvette", 28, 20, 180, "B")])
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    with pytest.raises(IllegalAction) as err:
        t.submit_line("move Kestrel ahead")
    assert "In the Wind's Eye" in err.value.text and "30°" in err.value.text
    with pytest.raises(IllegalAction):
        t.submit_line("move Kestrel turn start port 31")
    assert t.state.ship("Kestrel").heading == 0  # nothing changed
    t.submit_line("move Kestrel turn start port 30")
    k = t.state.ship("Kestrel")
    assert k.heading == pytest.approx(330)
    assert k.y == pytest.approx(20, abs=0.7)  # turned in place about its port side, no forward move


def test_adjust_speed_passes_with_a_sail() -> None:
    t = session(two_ships())
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(PASS5)
    t.submit_line("move Kestrel adjust +1")
    assert t.state.ship("Kestrel").y == pytest.approx(20 - tool(5))


def test_failed_test_with_no_rerolls_moves_at_normal_speed() -> None:
    t = session(two_ships(), fortune=0)
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(FAIL5)
    t.submit_line("move Kestrel adjust +1")
    assert t.state.pending is None
    assert t.state.ship("Kestrel").y == pytest.approx(20 - tool(4))


def test_failed_test_asks_the_roller_then_fortune_rerolls_all() -> None:
    t = session(two_ships())
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(FAIL5)
    t.submit_line("move Kestrel adjust +1")
    p = t.state.pending
    assert p is not None and p.player == "A" and p.faces == ("skull", "cannon", "musket", "pistol", "skull")
    assert t.state.ship("Kestrel").y == 20  # waiting: the move has not happened
    with pytest.raises(RollPending):
        t.submit_line("pass Otter")
    with pytest.raises(NotYourShip):
        t.submit_line("B: keep")
    with pytest.raises(IllegalAction):
        t.submit_line("reroll 1")  # Skill 0: no Skill re-rolls
    t.submit_line("dice sword skull skull skull skull")
    t.submit_line("fortune")
    assert t.state.squadron("A").fortune == 2
    assert t.state.pending is None
    assert t.state.ship("Kestrel").y == pytest.approx(20 - tool(5))


def test_keep_accepts_the_failure() -> None:
    t = session(two_ships())
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(FAIL5)
    t.submit_line("move Kestrel adjust +1 crew sail up")
    t.submit_line("keep")
    k = t.state.ship("Kestrel")
    assert k.y == pytest.approx(20 - tool(4))
    assert k.sail is Sail.FULL  # the rest of the order was carried out
    assert t.state.squadron("A").fortune == 3


def test_skill_rerolls_chosen_dice_once_each() -> None:
    t = session(two_ships(skill=1), fortune=0)
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(FAIL5)
    t.submit_line("move Kestrel adjust -1")
    with pytest.raises(IllegalAction):
        t.submit_line("reroll 1 2")  # Skill 1: one die
    t.submit_line("dice sword")
    t.submit_line("reroll 3")
    assert t.state.pending is None
    assert t.state.ship("Kestrel").y == pytest.approx(20 - tool(3))


def test_change_heading_turns_before_the_move() -> None:
    t = session(two_ships())
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(PASS5)
    t.submit_line("move Kestrel heading starboard 20")
    assert t.state.ship("Kestrel").heading == pytest.approx(200)
    with pytest.raises(IllegalAction):
        t2 = session(two_ships())
        to_movement(t2)
        t2.submit_line("move Otter")
        t2.submit_line("move Kestrel heading starboard 31")


def test_order_halts_after_a_roll_when_the_rest_became_illegal() -> None:
    # Sloop Large 4: adjust -1 gives the speed-3 tool (45°); with the test passed, a 45° end turn is
    # fine, but adjust +1 -> speed-5 tool (30°) makes the 45° turn illegal after the roll.
    t = session(two_ships())
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line(PASS5)
    events = t.submit_line("move Kestrel adjust +1 turn end port 45")
    assert type(events[-1]).__name__ == "OrderHalted"
    assert t.state.activation is not None and t.state.activation.step == "move"
    t.submit_line("move Kestrel turn end port 30")
    k = t.state.ship("Kestrel")
    assert k.heading == pytest.approx(150)
    assert t.state.phase is Phase.ATTACK


def test_crew_actions_reload_rally_repair_sail() -> None:
    t = session(two_ships(reload=["port"], fatigue=2, damage=1))
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line("move Kestrel crew reload port")
    assert t.state.ship("Kestrel").reload == frozenset()
    t.submit_line("pass Otter")
    t.submit_line("pass Kestrel")
    assert t.state.phase is Phase.INITIATIVE and t.state.turn == 2
    t.submit_line("pick A Down!")
    t.submit_line("pick B Take Courage")
    # turn 2: Careful Aim (2) vs Reload! (3): B first
    t.submit_line(plain(t, "move Otter"))
    t.submit_line("move Kestrel crew rally")
    assert t.state.ship("Kestrel").fatigue == 1


def test_reload_refused_at_full_sail_and_without_a_marker() -> None:
    t = session(two_ships(reload=["starboard"], sail="full"))
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    with pytest.raises(IllegalAction) as err:
        t.submit_line("move Kestrel crew reload starboard")
    assert "Full Sail" in err.value.text
    assert t.state.ship("Kestrel").y == 20  # a refused order changes nothing
    t2 = session(two_ships(reload=["starboard"]))
    to_movement(t2)
    t2.submit_line("move Otter")
    with pytest.raises(IllegalAction) as err:
        t2.submit_line("move Kestrel crew reload port")
    assert "starboard" in err.value.text


def test_anchored_ship_holds_and_may_change_sail() -> None:
    t = session(two_ships(sail="anchored"))
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    with pytest.raises(IllegalAction) as err:
        t.submit_line("move Kestrel ahead")
    assert "Anchored" in err.value.text
    t.submit_line("move Kestrel crew sail up")
    k = t.state.ship("Kestrel")
    assert (k.x, k.y) == (8, 20) and k.sail is Sail.MINIMAL


def test_sail_settings_change_speed() -> None:
    t = session([S("Kestrel", "Sloop", 8, 20, 180, "A", {"sail": "minimal"}),
                 S("Otter", "Corvette", 28, 20, 180, "B", {"sail": "full"})])
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    assert t.state.ship("Otter").y == pytest.approx(20 - tool(5))
    t.submit_line("move Kestrel")
    assert t.state.ship("Kestrel").y == pytest.approx(20 - tool(3))


def test_crippled_speed_is_capped_at_two() -> None:
    t = session(two_ships(damage=7))
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line("move Kestrel")
    k = t.state.ship("Kestrel")
    assert k.crippled and k.y == pytest.approx(20 - tool(2))


def test_ship_collision_sail_entangles() -> None:
    # Otter sails south into Kestrel lying across its bow
    ships = [S("Kestrel", "Sloop", 20, 15, 90, "A"), S("Otter", "Corvette", 20, 19.5, 180, "B")]
    t = session(ships)
    to_movement(t)
    t.submit_line("dice sail cannon musket pistol")
    t.submit_line(plain(t, "move Otter"))
    o, k = t.state.ship("Otter"), t.state.ship("Kestrel")
    assert o.entangled_with == {"Kestrel"} and k.entangled_with == {"Otter"}
    assert o.y == pytest.approx(15 + 0.6 + 1.2, abs=1e-3)  # stopped with its bow on Kestrel's side
    assert o.damage == 0


def test_ship_collision_skull_damages_the_mover_and_pushes_the_struck_ship() -> None:
    ships = [S("Kestrel", "Sloop", 20, 15, 90, "A"), S("Otter", "Corvette", 20, 19.5, 180, "B")]
    t = session(ships)
    to_movement(t)
    t.submit_line("dice skull cannon musket pistol")
    t.submit_line(plain(t, "move Otter"))
    o, k = t.state.ship("Otter"), t.state.ship("Kestrel")
    assert o.damage == 1 and not o.entangled
    assert k.y == pytest.approx(15 - 1.0, abs=1e-3)  # Yard Arm directly away (south)
    assert k.x == pytest.approx(20, abs=1e-3)
    assert k.heading == 90


def test_land_collision_damages_grounds_and_anchors() -> None:
    ships = [S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")]
    t = session(ships, terrain=[("rock", [(26, 16), (30, 16), (30, 17.5), (26, 17.5)])])
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    o = t.state.ship("Otter")
    assert o.damage == 1 and o.aground and o.sail is Sail.ANCHORED
    assert o.y - 1.2 == pytest.approx(17.5, abs=1e-3)


def test_shoal_skull_runs_the_ship_aground() -> None:
    ships = [S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")]
    t = session(ships, terrain=[("shoal", [(26, 15), (30, 15), (30, 17), (26, 17)])])
    to_movement(t)
    t.submit_line("dice skull")  # Fortitude 1: one die
    t.submit_line(plain(t, "move Otter"))
    assert t.state.ship("Otter").aground
    assert t.state.ship("Otter").y == pytest.approx(20 - tool(4))  # the move is completed first


def test_leaving_the_table_removes_the_ship() -> None:
    ships = [S("Kestrel", "Sloop", 8, 3, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")]
    t = session(ships)
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line("move Kestrel")
    k = t.state.ship("Kestrel")
    assert Status.LEFT_TABLE in k.statuses and not k.on_table
    assert t.state.phase is Phase.ATTACK


def test_entangled_ship_cuts_free_then_backs_away_without_a_crew_action() -> None:
    ships = [S("Kestrel", "Sloop", 20, 15, 90, "A"), S("Otter", "Corvette", 20, 19.5, 180, "B")]
    t = session(ships)
    to_movement(t)
    t.submit_line("dice sail cannon musket pistol")
    t.submit_line(plain(t, "move Otter"))
    assert t.state.ship("Kestrel").entangled
    with pytest.raises(IllegalAction) as err:
        t.submit_line("move Kestrel ahead")
    assert "Entangled" in err.value.text
    with pytest.raises(IllegalAction):
        t.submit_line("move Kestrel adjust +1")
    t.submit_line(PASS5)
    t.submit_line("seamanship Kestrel cutfree")
    k = t.state.ship("Kestrel")
    assert not k.entangled and not t.state.ship("Otter").entangled
    assert k.y == pytest.approx(15 - 1.0, abs=1e-3)
    with pytest.raises(IllegalAction):
        t.submit_line("crew Kestrel rally")
    t.submit_line("advance Kestrel starboard")  # starboard of an east-heading ship is south
    assert t.state.ship("Kestrel").y == pytest.approx(14 - tool(1), abs=1e-3)
    t.submit_line("done Kestrel")
    assert t.state.phase is Phase.ATTACK


def test_shaken_ship_may_only_rally() -> None:
    t = session(two_ships(fatigue=7))
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    with pytest.raises(IllegalAction) as err:
        t.submit_line("move Kestrel adjust +1")
    assert "Shaken" in err.value.text
    with pytest.raises(IllegalAction):
        t.submit_line("move Kestrel crew sail up")
    t.submit_line("move Kestrel crew rally")
    assert t.state.ship("Kestrel").fatigue == 6


def test_aground_ship_repairs_with_a_skill_test() -> None:
    t = session(two_ships(aground=True))
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    with pytest.raises(IllegalAction):
        t.submit_line("move Kestrel heading port 10")
    t.submit_line(PASS5)
    t.submit_line("move Kestrel crew repair aground")
    k = t.state.ship("Kestrel")
    assert not k.aground and k.y == 20


def test_boarding_entangles_after_a_passed_test() -> None:
    t2 = session([S("Kestrel", "Sloop", 10, 10, 90, "A"), S("Otter", "Corvette", 14.5, 10, 0, "B")])
    to_movement(t2)
    t2.submit_line("move Otter turn start port 10")  # In the Wind's Eye: it only turns
    with pytest.raises(IllegalAction) as err:
        t2.submit_line("move Kestrel hold crew board Otter")
    assert "must move" in err.value.text
    # Kestrel moves up to the enemy and boards it
    t3 = session([S("Kestrel", "Sloop", 10, 10, 90, "A"), S("Otter", "Corvette", 15.5, 10, 0, "B",
                                                          {"sail": "anchored"})])
    to_movement(t3)
    t3.submit_line(plain(t3, "move Otter"))
    t3.submit_line(PASS5)
    t3.submit_line("move Kestrel crew board Otter")
    assert t3.state.ship("Kestrel").entangled_with == {"Otter"}
    gap = t3.state.ship("Otter").x - 0.6 - (t3.state.ship("Kestrel").x + 1.2)
    assert gap == pytest.approx(0, abs=1e-3)


def test_boarding_out_of_reach_is_refused_before_any_roll() -> None:
    t = session([S("Kestrel", "Sloop", 10, 10, 90, "A"), S("Otter", "Corvette", 28, 10, 0, "B",
                                                         {"sail": "anchored"})])
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    with pytest.raises(IllegalAction) as err:
        t.submit_line("move Kestrel crew board Otter")
    assert "Yard Arm" in err.value.text
    assert t.state.ship("Kestrel").x == 10


def test_transfer_flag_within_pistol_shot() -> None:
    ships = [S("Amazone", "Petite Frégate", 8, 20, 180, "A"), S("Kestrel", "Sloop", 12, 20, 180, "A"),
             S("Otter", "Corvette", 28, 20, 180, "B")]
    t = session(ships, flagships={"A": "Amazone"})
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    with pytest.raises(IllegalAction):
        t.submit_line("move Kestrel crew flag Amazone")  # not the flagship
    t.submit_line("move Amazone crew flag Kestrel")
    assert t.state.squadron("A").flagship == "Kestrel"


def test_row_with_sweeps_even_at_anchor() -> None:
    t = session(two_ships(sail="anchored", upgrades=["Sweeps"]))
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line("move Kestrel crew row")
    assert t.state.ship("Kestrel").y == pytest.approx(20 - tool(1))
    t2 = session(two_ships(sail="anchored"))
    to_movement(t2)
    t2.submit_line("move Otter")
    with pytest.raises(IllegalAction):
        t2.submit_line("move Kestrel crew row")


def test_landing_party_goes_ashore_and_leaves_when_the_ship_moves() -> None:
    ships = [S("Kestrel", "Sloop", 8, 20, 180, "A", {"sail": "anchored"}), S("Otter", "Corvette", 28, 20, 180, "B")]
    t = session(ships, terrain=[("island", [(4, 17), (6, 17), (6, 23), (4, 23)])])
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    with pytest.raises(IllegalAction):
        t.submit_line("move Kestrel crew landing 20 20")  # not on the island
    t.submit_line("move Kestrel crew landing 5 20")
    assert len(t.state.ship("Kestrel").landing_parties) == 1


def test_wrong_phase_and_unknown_names() -> None:
    t = session(two_ships())
    with pytest.raises(WrongPhase):
        t.submit_line("move Kestrel")
    from game.errors import ParseError

    with pytest.raises(ParseError):
        t.submit_line("move Nobody")
    with pytest.raises(ParseError) as err:
        t.submit_line("pick A Favorable Wind")  # not in A's hand
    assert "Careful Aim" in err.value.text and "Take Courage" not in err.value.text  # B's hand stays secret


def test_dice_command_refused_outside_test_scenarios() -> None:
    t = session(two_ships(), test_dice=False)
    with pytest.raises(DiceNotAllowed):
        t.submit_line("dice skull")


def test_reload_marker_enum_round_trip() -> None:
    assert ShipSide("port") is ShipSide.PORT


def test_scrolling_sea_moves_the_table_instead_of_losing_the_ship() -> None:
    from game.scenario import load_scenario_text
    from game.table_session import TableSession
    from tests.helpers import scenario_text

    ships = [S("Kestrel", "Sloop", 8, 3, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")]
    text = scenario_text(ships, terrain=[("rock", [(20, 30), (22, 30), (22, 32), (20, 32)])])
    t = TableSession(load_scenario_text(text.replace("seed = 7\n", "seed = 7\nscrolling_sea = true\n")))
    to_movement(t)
    t.submit_line(plain(t, "move Otter"))
    t.submit_line("move Kestrel")  # would sail off the south edge
    k, o = t.state.ship("Kestrel"), t.state.ship("Otter")
    assert k.on_table and Status.LEFT_TABLE not in k.statuses
    assert k.y == pytest.approx(3 - tool(4) + 8)  # everything moved Musket Shot north
    assert o.y == pytest.approx(20 - tool(4) + 8)
    rock = t.state.table.terrain[0]
    assert min(p[1] for p in rock.points) == pytest.approx(0.5)  # pushed off the north edge: back at the south
