"""The upload bombs where a user uploads them: a scenario given to create_game, a data file given to
import_data, a squadron list given to save_squadron. Each is refused as a rules error naming the
field, and nothing is kept."""

from __future__ import annotations

import pytest

from game.errors import DataError, RulesError
from game.scenario import ScenarioError
from game.service.game_service import Actor, GameService, SquadronRefused
from tests.bombs import DATA_BOMBS, SCENARIO_BOMBS, SQUADRON_BOMBS, Bomb

ANN = Actor("111", "g1")
GM = Actor("999", "g1", gm=True)


def _bomb(bombs: list[Bomb], name: str) -> Bomb:
    return next(b for b in bombs if b.name == name)


@pytest.mark.parametrize("name", ["width 1e308", "width 100000", "heading nan", "hand = []", "1000 nested arrays"])
async def test_a_malformed_scenario_is_a_rules_error_naming_the_field(service: GameService, name: str) -> None:
    bomb = _bomb(SCENARIO_BOMBS, name)
    with pytest.raises(RulesError) as err:
        await service.lobby.create_game(ANN, "chan-1", scenario_text=bomb.text())
    assert isinstance(err.value, ScenarioError)
    assert (err.value.entry, err.value.field) == (bomb.entry, bomb.field)
    assert f"entry {bomb.entry!r}, field {bomb.field!r}" in err.value.text  # what the bot shows
    assert await service.lobby.game_in_channel("g1", "chan-1") is None
    await service.lobby.create_game(ANN, "chan-1")  # the channel is still free


@pytest.mark.parametrize("name", ["sword = 0x7fffffff", "collision_damage deleted", "max = -nan",
                                  "1000 nested arrays in ships.toml", "an effect adding 1e9"])
async def test_a_malformed_data_file_is_refused_and_not_kept(service: GameService, name: str) -> None:
    bomb = _bomb(DATA_BOMBS, name)
    before = await service.data.export_data("g1")
    with pytest.raises(DataError) as err:
        await service.data.import_data(GM, bomb.file, bomb.text())
    assert isinstance(err.value, RulesError)
    assert (err.value.file, err.value.entry, err.value.field) == (bomb.file, bomb.entry, bomb.field)
    assert await service.data.export_data("g1") == before


async def test_a_data_set_that_passes_the_schemas_but_cannot_be_played_is_refused(service: GameService) -> None:
    """Renaming a card passes every schema, but the quick start's hands (and a running game's pick
    menu) name the old card: the trial game finds it before the guild's games do."""
    files = await service.data.export_data("g1")
    renamed = files["initiative_cards.toml"].replace('name = "Down!"', 'name = "Duck!"', 1)
    with pytest.raises(DataError) as err:
        await service.data.import_data(GM, "initiative_cards.toml", renamed)
    assert (err.value.file, err.value.entry, err.value.field) == (
        "initiative_cards.toml", "trial game (quick start)", "hand")
    assert "unknown initiative card 'Down!'" in err.value.text
    assert await service.data.export_data("g1") == files
    tougher = files["ships.toml"].replace("fortitude = 1", "fortitude = 2", 1)  # playable: accepted
    await service.data.import_data(GM, "ships.toml", tougher)
    assert (await service.data.rules("g1")).ships["Sloop"].fortitude == 2


async def test_a_squadron_bomb_is_refused_naming_the_field(service: GameService) -> None:
    bomb = _bomb(SQUADRON_BOMBS, "1000 nested arrays")
    with pytest.raises(SquadronRefused) as err:
        await service.squadrons.save(ANN, bomb.text())
    assert "(file), (nesting)" in err.value.text
    assert await service.squadrons.saved(ANN) == []
