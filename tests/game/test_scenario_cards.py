"""Every card of the project's own scenario decks shown at work: the deployment zones and terrain
pools the draft hands out, the events while face up, and the objectives' Strike Points."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game import effects
from game.deployment import zone
from game.model import Game, PointOfSail, PoolPiece, Sail, Status, TerrainKind
from game.phases.end import strike_points
from game.phases.preparation import allowed_kinds
from game.rules_data import load_rules
from tests.game.test_scenario_effects import tie
from tests.game.test_setup_sequence import set_up_game
from tests.helpers import S

RULES = load_rules()


@pytest.fixture(scope="module")
def deployed() -> Game:
    return set_up_game().state


def drafted(game: Game, player: str, deck: str, card: str) -> Game:
    """The game as if `player` had drafted `card` from `deck` instead."""
    assert game.prep is not None
    rest = tuple(d for d in game.prep.drafted if not (d[0] == player and d[1] == deck))
    return replace(game, prep=replace(game.prep, drafted=(*rest, (player, deck, card))))


# A is the attacker on the south edge; the Weather Edge is the west. (x0, y0, x1, y1) of each zone.
ZONES = {
    ("Line of Battle", "A"): (0, 0, 36, 6), ("Line of Battle", "B"): (0, 30, 36, 36),
    ("Meeting Engagement", "A"): (9, 0, 27, 9), ("Meeting Engagement", "B"): (9, 27, 27, 36),
    ("Weather Gauge", "A"): (0, 0, 18, 8), ("Weather Gauge", "B"): (0, 30, 36, 36),
    ("Corner Approach", "A"): (0, 0, 10, 10), ("Corner Approach", "B"): (0, 26, 10, 36),
    ("Close Quarters", "A"): (0, 0, 36, 14), ("Close Quarters", "B"): (0, 22, 36, 36),
    ("Scattered", "A"): (0, 0, 36, 12), ("Scattered", "B"): (0, 24, 36, 36),
}


@pytest.mark.parametrize(("card", "player"), sorted(ZONES))
def test_each_deployment_card_sets_its_holders_zone(deployed: Game, card: str, player: str) -> None:
    game = drafted(deployed, player, "deployment", card)
    assert tuple(round(v, 3) for v in zone(game, player, RULES).bounds) == ZONES[(card, player)]


def test_every_deployment_card_is_covered() -> None:
    assert {c for c, _ in ZONES} == set(RULES.scenario_cards["deployment"])


SETTINGS = [
    ("Open Sea", ["shoal", "fog_bank"], ["shoal", "fog_bank"]),  # one piece, nothing required
    ("Coastal Waters", ["island", "landmass", "shoal", "rock"], ["island", "landmass"]),
    ("Archipelago", ["island", "rock"], ["island", "rock"]),
    ("Banks and Shallows", ["shoal"], ["shoal"]),
    ("Morning Mist", ["fog_bank", "rock"], ["fog_bank", "rock"]),
    ("Harbour Mouth", ["landmass", "rock", "shoal"], ["landmass"]),
]


@pytest.mark.parametrize(("card", "first", "last"), SETTINGS)
def test_each_setting_sets_the_terrain_its_holder_adds(deployed: Game, card: str, first: list[str],
                                                       last: list[str]) -> None:
    """What may be added first, and for the last piece when none chosen so far met the requirement."""
    game = drafted(deployed, "A", "setting", card)
    game = replace(game, prep=replace(game.prep, pool=()))  # type: ignore[union-attr]
    assert allowed_kinds(game, "A", RULES) == first
    count = int(RULES.scenario_cards["setting"][card].details["terrain"]["count"])

    other = next((k for k in first if k not in last), first[0])
    pool = tuple(PoolPiece(f"p{i}", TerrainKind(other), "A") for i in range(count - 1))
    game = replace(game, prep=replace(game.prep, pool=pool))  # type: ignore[union-attr]
    assert allowed_kinds(game, "A", RULES) == last
    full = replace(game, prep=replace(game.prep, pool=(*pool, PoolPiece("x", TerrainKind(last[0]), "A"))))  # type: ignore[union-attr]
    assert allowed_kinds(full, "A", RULES) == []  # the setting's count is reached


def test_every_setting_is_covered() -> None:
    assert {c for c, *_ in SETTINGS} == set(RULES.scenario_cards["setting"])


SHIPS = [S("Kestrel", "Sloop", 8, 20, 180, "A", {"fatigue": 2}), S("Otter", "Fifth Rate", 28, 20, 180, "B")]


def test_powder_damp_takes_a_broadside_die_from_everyone() -> None:
    t = tie(["Powder Damp"], SHIPS)
    assert [effects.dice_bonus(t.state, s, "broadside", RULES) for s in t.state.ships] == [-1, -1]


def test_steady_hands_allows_a_critical_die_re_roll() -> None:
    t = tie(["Steady Hands"], SHIPS)
    assert effects.rerollable_faces(t.state, t.state.ship("Otter"), "critical", RULES) == {"cannon", "musket", "pistol"}


def test_crew_fever_tires_each_flagship_at_once() -> None:
    t = tie(["Crew Fever", "Calm Seas"], SHIPS)
    assert (t.state.ship("Kestrel").fatigue, t.state.ship("Otter").fatigue) == (3, 1)
    assert t.state.event_face_up is None  # instant: discarded at once


def test_lookouts_cry_speeds_small_ships_only() -> None:
    t = tie(["Lookout's Cry"], SHIPS)
    speeds = [effects.speed_bonus(t.state, s, PointOfSail.LARGE, RULES) for s in t.state.ships]
    assert speeds == [1, 0]  # the Sloop is Small, the Fifth Rate is not


def test_calm_seas_changes_nothing() -> None:
    t = tie(["Calm Seas", "Powder Damp"], SHIPS)
    assert t.state.event_face_up is None and t.state.event_deck == ("Powder Damp",)
    assert [s.fatigue for s in t.state.ships] == [2, 0]


def test_hold_the_anchorage_break_the_line_and_take_a_prize(deployed: Game) -> None:
    anchorage = replace(deployed, objective="Hold the Anchorage")
    # A's ships lie by the south edge; B's Lion is within Musket Shot of the centre
    assert (strike_points(anchorage, "A", RULES), strike_points(anchorage, "B", RULES)) == (1, 0)
    near = anchorage.with_ship(replace(anchorage.ship("Brak"), x=18, y=13))
    assert strike_points(near, "A", RULES) == 0
    line = replace(deployed, objective="Break the Line")
    assert strike_points(line, "A", RULES) == 1  # line abreast is no Formation
    ahead = line
    for i, name in enumerate(("Zeelandia", "Vlissingen", "Brak", "Hazewind", "Zwaluw")):
        ahead = ahead.with_ship(replace(ahead.ship(name), x=30 - 4.5 * i, y=8, heading=90))  # line ahead
    assert effects.formation(ahead, "A", RULES) and strike_points(ahead, "A", RULES) == 0
    prize = replace(deployed, objective="Take a Prize")
    taken = prize.with_ship(replace(prize.ship("Dove"), controller="A", statuses=frozenset({Status.CAPTURED}),
                                    sail=Sail.BATTLE))
    assert strike_points(taken, "B", RULES) == 2 + 1  # the captured ship, and the objective's point
