"""Fleet building (the rulebook's chapter 9, Fleet Battles, p. 29): "Both sides should construct
fleets of equal point values made up of 2-4 Squadrons each. Individual Squadrons do not have to be
made up of the same number of points as long as the total combined point value is equal to that of
the opposing fleet." A scenario that assembles fleets breaking it is refused, naming the rule."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.fleet import FLEET_SQUADRONS, fleet_problem
from game.scenario import FleetError, ScenarioError, builtin_scenarios, load_scenario_text

FLEET = builtin_scenarios()["fleet_battle"]

SHIP = """
[[squadron]]
player = "{player}"
team = "{team}"
hand = ["Down!"]
[[squadron.ship]]
name = "{name}"
class = "{cls}"
x = {x}
y = {y}
heading = 0
{extra}
"""


def _scenario(*squadrons: tuple[str, str, str, str]) -> str:
    """Squadrons of one ship each: (player, team, class, extra lines), set along the table."""
    body = "".join(SHIP.format(player=p, team=t, name=f"S{i}", cls=c, x=4 + 4 * i, y=10 if t == "Red" else 26,
                               extra=extra) for i, (p, t, c, extra) in enumerate(squadrons))
    return 'name = "fleets"\n[table]\nwidth = 48\nheight = 36\nweather_edge = "W"\n' + body


def test_the_built_in_fleet_battle_keeps_the_rule() -> None:
    # Allies: Fifth Rate 16 + Sloop 7, Fourth Rate 23 + Brigantine 8; Crown: Fifth Rate 16 + Corvette 7,
    # Fourth Rate 23 + Brigantine 8: 54 points a side, two squadrons each
    game = load_scenario_text(FLEET, "fleet_battle.toml")
    assert game.fleet_battle and [len(game.players_of(t)) for t in game.teams] == [2, 2]


def test_unequal_fleets_are_refused_naming_the_rule_and_the_totals() -> None:
    # Red: Sloop 7 + Sloop 7 = 14; Blue: Sloop 7 + Sixth Rate 13 = 20
    text = _scenario(("A1", "Red", "Sloop", ""), ("A2", "Red", "Sloop", ""),
                     ("B1", "Blue", "Sloop", ""), ("B2", "Blue", "Sixth Rate", ""))
    with pytest.raises(FleetError) as caught:
        load_scenario_text(text, "fleets.toml")
    exc = caught.value
    assert isinstance(exc, ScenarioError) and exc.code == "fleet" and exc.file == "fleets.toml"
    assert "chapter 9" in exc.text and "equal point values" in exc.text
    assert "Red 14, Blue 20 points" in exc.text and "make the totals equal" in exc.text


def test_squadrons_need_not_match_only_the_totals() -> None:
    """"Individual Squadrons do not have to be made up of the same number of points": Sixth Rate 13 +
    Sloop 7 against Corvette 7 + Sixth Rate 13 (skill 0), both 20."""
    text = _scenario(("A1", "Red", "Sixth Rate", ""), ("A2", "Red", "Sloop", ""),
                     ("B1", "Blue", "Corvette", ""), ("B2", "Blue", "Sixth Rate", ""))
    assert load_scenario_text(text, "fleets.toml").fleet_battle


def test_skill_upgrades_captains_and_admirals_count_as_in_a_squadron_list() -> None:
    # Red: Sloop with skill 2 (7 + 4) + Sloop with Sweeps (7 + 1) = 19; Blue: Sixth Rate 13 + Sloop 7 = 20
    text = _scenario(("A1", "Red", "Sloop", "skill = 2"), ("A2", "Red", "Sloop", 'upgrades = ["Sweeps"]'),
                     ("B1", "Blue", "Sixth Rate", ""), ("B2", "Blue", "Sloop", ""))
    with pytest.raises(FleetError, match="Red 19, Blue 20"):
        load_scenario_text(text, "fleets.toml")
    # a Bold Captain (1 point) on the Red sloop evens it: 20 each
    even = text.replace("skill = 2", 'skill = 2\ncaptain = "Bold Captain"')
    assert load_scenario_text(even, "fleets.toml").fleet_battle
    # an admiral's points are the squadron's too: Experienced (2) on B1 makes it 20 against 22
    admiral = even.replace('player = "B1"', 'player = "B1"\nadmiral = "Experienced"')
    with pytest.raises(FleetError, match="Red 20, Blue 22"):
        load_scenario_text(admiral, "fleets.toml")


def test_a_side_of_one_squadron_or_of_five_is_no_fleet() -> None:
    one = _scenario(("A1", "Red", "Sloop", ""), ("A2", "Red", "Sloop", ""), ("B1", "Blue", "Sixth Rate", ""))
    with pytest.raises(FleetError) as caught:
        load_scenario_text(one, "fleets.toml")
    assert caught.value.entry == "team Blue" and "1 squadron(s): give it 2 to 4" in caught.value.text
    five = _scenario(*[(f"A{i}", "Red", "Sloop", "") for i in range(5)],
                     *[(f"B{i}", "Blue", "Sloop", "") for i in range(3)])
    with pytest.raises(FleetError, match="side Red has 5 squadron"):
        load_scenario_text(five, "fleets.toml")


def test_a_game_of_two_squadrons_is_no_fleet_battle_and_keeps_its_own_points() -> None:
    """Chapter 9 builds fleets; a one-against-one scenario sets whatever it likes (the quick start
    and many a historical action are not even)."""
    text = _scenario(("A", "", "Sloop", ""), ("B", "", "First Rate", "")).replace('team = ""\n', "")
    assert not load_scenario_text(text, "duel.toml").fleet_battle


@given(st.dictionaries(st.sampled_from(["Red", "Blue"]), st.lists(st.integers(0, 300), max_size=6),
                       min_size=2, max_size=2))
def test_the_check_is_exactly_the_rule(sides: dict[str, list[int]]) -> None:
    low, high = FLEET_SQUADRONS
    legal = all(low <= len(v) <= high for v in sides.values()) and len({sum(v) for v in sides.values()}) == 1
    assert (fleet_problem(sides) is None) == legal
