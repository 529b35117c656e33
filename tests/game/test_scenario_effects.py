"""The project's own scenario cards at work: events while face up, advantages and conditions for
the game, and the objectives that read roles and deployment edges."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game import effects
from game.context import Decision
from game.dice import FairDice, seed_from_number
from game.errors import IllegalAction
from game.model import Game, PointOfSail, Sail, Status
from game.phases.attack import _hit_band
from game.phases.end import strike_points
from game.rules_data import load_rules
from game.scenario import load_scenario_text
from game.table_session import TableSession
from tests.game.test_setup_sequence import set_up_game
from tests.helpers import S, scenario_text

RULES = load_rules()


def tie(events: list[str], ships: list[S]) -> TableSession:
    """Turn 1 begins on an initiative tie, so the first event card is face up; A moves first."""
    text = scenario_text(ships).replace("seed = 7\n", "seed = 7\nevents = [" + ", ".join(f'"{e}"' for e in events) + "]\n")
    t = TableSession(load_scenario_text(text))
    t.submit_line("pick A Down!")
    t.submit_line("dice sail skull skull skull skull skull skull skull skull skull")  # A wins the Challenge
    t.submit_line("pick B Fire as She Bears")
    t.submit_line("pick A Careful Aim")
    t.submit_line("pick B Reload!")
    assert t.state.event_face_up == events[0] or RULES.events[events[0]].duration == "instant"
    return t


def test_becalmed_slows_every_ship_but_not_below_speed_1() -> None:
    t = tie(["Becalmed"], [S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Hulk", "Third Rate", 28, 20, 90, "B")])
    t.submit_line("move Kestrel")  # Large 4, one less
    assert t.state.ship("Kestrel").y == pytest.approx(20 - RULES.tool(3).length)
    t.submit_line("move Hulk as windward")  # Windward 1: the minimum keeps it at 1
    assert t.state.ship("Hulk").x == pytest.approx(28 + RULES.tool(1).length)


def test_squall_tires_ships_at_full_sail_after_their_move() -> None:
    t = tie(["Squall"], [S("Kestrel", "Sloop", 8, 20, 180, "A", {"sail": "full"}), S("Otter", "Corvette", 28, 20, 180, "B")])
    t.submit_line("move Kestrel")
    t.submit_line("move Otter")
    assert (t.state.ship("Kestrel").fatigue, t.state.ship("Otter").fatigue) == (1, 0)


def test_boats_adrift_forbids_boarding() -> None:
    ships = [S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")]
    t = tie(["Boats Adrift"], ships)
    with pytest.raises(IllegalAction) as err:
        t.submit_line("move Kestrel crew board Otter")
    assert "Boats Adrift: no ship may take a Boarding action" in str(err.value)
    calm = tie(["Lookout's Cry"], ships)
    with pytest.raises(IllegalAction) as err:
        calm.submit_line("move Kestrel crew board Otter")
    assert "Boarding needs it within Yard Arm" in str(err.value)  # without the event: only the distance


def test_reduced_visibility_reads_every_shot_one_band_farther() -> None:
    t = tie(["Reduced Visibility"], [S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 11, 20, 180, "B")])
    ctx = Decision(t.state, FairDice(seed_from_number(0), 0), RULES)
    kestrel, otter = t.state.ship("Kestrel"), t.state.ship("Otter")
    assert _hit_band(ctx, kestrel, otter, 3.0)[0] == "musket"  # Pistol Shot, read as Musket
    assert _hit_band(ctx, kestrel, otter, 11.0)[1] == "fog_beyond_cannon"
    clear = Decision(replace(t.state, event_face_up=None), FairDice(seed_from_number(0), 0), RULES)
    assert _hit_band(clear, kestrel, otter, 3.0)[0] == "pistol"


def with_advantage(game: Game, player: str, card: str, turn: int) -> Game:
    return replace(game.with_squadron(replace(game.squadron(player), advantage=card)), turn=turn)


@pytest.fixture(scope="module")
def deployed() -> Game:
    return set_up_game().state


def test_veteran_gun_crews_add_a_die_on_turns_1_and_2(deployed: Game) -> None:
    ship = deployed.ship("Zeelandia")
    assert [effects.dice_bonus(with_advantage(deployed, "A", "Veteran Gun Crews", n), ship, "broadside", RULES)
            for n in (1, 2, 3)] == [1, 1, 0]


def test_damp_powder_is_a_condition_on_the_enemy(deployed: Game) -> None:
    game = with_advantage(deployed, "B", "Damp Powder", 1)
    assert effects.dice_bonus(game, game.ship("Zeelandia"), "broadside", RULES) == -1  # A's ship
    assert effects.dice_bonus(game, game.ship("Lion"), "broadside", RULES) == 0  # B's own
    assert effects.dice_bonus(replace(game, turn=2), game.ship("Zeelandia"), "broadside", RULES) == 0


def test_fair_wind_scouted_waters_local_pilot_and_flag_officers_eye(deployed: Game) -> None:
    ship = deployed.ship("Zeelandia")
    fair = with_advantage(deployed, "A", "Fair Wind", 1)
    assert effects.speed_bonus(fair, ship, PointOfSail.LARGE, RULES) == 1
    assert effects.speed_bonus(replace(fair, turn=2), ship, PointOfSail.LARGE, RULES) == 0
    scouted = with_advantage(deployed, "A", "Scouted Waters", 3)
    assert effects.ignores_terrain(scouted, ship, "fog_bank", RULES)
    assert not effects.ignores_terrain(replace(scouted, turn=4), ship, "shoal", RULES)
    assert effects.ignores_terrain(with_advantage(deployed, "A", "Local Pilot", 9), ship, "shoal", RULES)
    assert effects.admiral_bonus(with_advantage(deployed, "A", "Flag Officer's Eye", 1), "A", RULES) == 1
    assert effects.admiral_bonus(with_advantage(deployed, "A", "Flag Officer's Eye", 1), "B", RULES) == 0


def test_delivery_counts_sides_far_from_the_enemy_edge(deployed: Game) -> None:
    game = replace(deployed, objective="Delivery")
    # every ship of each side lies more than Cannon Shot from the enemy's edge: both earn a point
    assert (strike_points(game, "A", RULES), strike_points(game, "B", RULES)) == (1, 1)
    assert strike_points(replace(game, objective=None), "A", RULES) == 0
    closer = game.with_ship(replace(game.ship("Dove"), y=10.0))  # one of B's ships within 12" of A's edge
    assert strike_points(closer, "B", RULES) == 0


def test_raze_takes_points_from_an_attacker_anchored_near_land(deployed: Game) -> None:
    game = replace(deployed, objective="Raze")
    brak = replace(game.ship("Brak"), x=18, y=13.4, heading=90, sail=Sail.ANCHORED, damage=7,
                   statuses=frozenset({Status.CRIPPLED}))  # within Pistol Shot of island-1, crippled: 1 point
    game = game.with_ship(brak)
    assert strike_points(replace(game, objective=None), "A", RULES) == 1
    assert strike_points(game, "A", RULES) == 1 - 1
    lion = replace(game.ship("Lion"), sail=Sail.ANCHORED, x=18, y=22.6)
    assert strike_points(game.with_ship(lion), "B", RULES) == 0  # only the attacker's ships count


def test_escort_scores_the_defenders_flagship_leaving_by_the_attackers_edge(deployed: Game) -> None:
    game = replace(deployed, objective="Escort")
    assert strike_points(game, "A", RULES) == 0
    gone = replace(game.ship("Lion"), y=1.0, statuses=frozenset({Status.LEFT_TABLE}))
    game = game.with_ship(gone)
    assert strike_points(game, "A", RULES) == 3
    north = game.with_ship(replace(gone, y=35.0))
    assert strike_points(north, "A", RULES) == 0  # it left by its own edge
