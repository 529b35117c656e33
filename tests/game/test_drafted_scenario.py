"""A scenario file that names a drafted size (`drafted = "skirmish"`) is a drafted game of that size
waiting for its squadron lists (docs/scenario-format.md); the built-in drafted_skirmish is one. The
example squadron files (examples/) are legal and even, and `enlist` is no order of the game."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from game.errors import ParseError
from game.model import Phase
from game.notation import parse
from game.phases.preparation import drafted_game
from game.rules_data import load_rules
from game.scenario import ScenarioError, builtin_scenarios, load_scenario_text
from game.squadron import parse_squadron, squadron_points, validate

RULES = load_rules()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_built_in_drafted_skirmish_waits_for_two_lists() -> None:
    game = load_scenario_text(builtin_scenarios()["drafted_skirmish"], "drafted_skirmish.toml")
    assert game.phase is Phase.PREPARATION and game.prep is not None and game.prep.step == "enlist"
    assert game == drafted_game("skirmish", 24, name="Drafted skirmish")  # its size, seed and name, nothing else


@pytest.mark.parametrize("text, field", [
    ('drafted = "armada"', "drafted"),
    ('drafted = 100', "drafted"),
    ('drafted = "patrol"\nseed = -1', "seed"),
    ('drafted = "patrol"\nsystem = "wsim"', "system"),
])
def test_a_drafted_file_out_of_bounds_is_refused_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "mine.toml")
    assert caught.value.field == field and caught.value.file == "mine.toml"


def test_an_uploaded_drafted_file_sets_its_size_and_name() -> None:
    game = load_scenario_text('name = "Friday night"\ndrafted = "engagement"', "mine.toml")
    assert game.name == "Friday night" and game.prep is not None and game.prep.size == "engagement"
    assert (game.table.width, game.table.height) == (48, 36)  # docs/setup.md: an Engagement table


def test_the_example_squadrons_are_legal_skirmish_lists_of_equal_points() -> None:
    dutch = parse_squadron((EXAMPLES / "dutch_skirmish.toml").read_text())
    english = parse_squadron((EXAMPLES / "english_skirmish.toml").read_text())
    for sq in (dutch, english):
        assert sq.size == "skirmish" and validate(sq, RULES) == []
    assert squadron_points(dutch, RULES) == squadron_points(english, RULES) == 73
    # the example is the built-in starter list, not a copy drifting from it
    builtin = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()
    assert dutch == parse_squadron(builtin)


def test_enlist_is_refused_as_an_order_saying_where_it_belongs() -> None:
    with pytest.raises(ParseError) as caught:
        parse("A: enlist A examples/dutch_skirmish.toml", drafted_game("skirmish"))
    assert "not an order in the game" in caught.value.text
    assert "/game join" in caught.value.text and "`enlist PLAYER FILE`" in caught.value.text
