"""Listing a guild's games a page at a time, and checking a scenario before making anything for it."""

from __future__ import annotations

import pytest

from game.errors import UnknownName
from game.scenario import builtin_scenarios
from game.schema.common import MAX_NAME
from game.service.game_service import Actor, GameService
from game.service.results import ScenarioCheck

ANN = Actor("111", "g1")
BOB = Actor("222", "g1")


async def test_a_page_holds_unfinished_games_first_and_reads_only_its_own(service: GameService) -> None:
    for i in range(11):
        await service.lobby.create_game(ANN, f"c{i}")
    await service.lobby.create_game(Actor("111", "other-guild"), "elsewhere")
    await service.lobby.join(ANN, 2, "A", "Ann")
    await service.lobby.join(BOB, 2, "B", "Bob")
    await service.commands.concede(ANN, 2)
    service.store.cached.clear()
    first, total = await service.lobby.games_page("g1", page=1, per_page=8)
    assert total == 11 and [g.id for g in first] == [11, 10, 9, 8, 7, 6, 5, 4]
    assert sorted(service.store.cached) == [4, 5, 6, 7, 8, 9, 10, 11]  # no other game was read
    second, _ = await service.lobby.games_page("g1", page=2, per_page=8)
    assert [(g.id, g.status) for g in second] == [(3, "open"), (1, "open"), (2, "over")]
    assert await service.lobby.games_page("g1", page=3, per_page=8) == ([], 11)


async def test_a_scenario_is_checked_before_the_game_is_made(service: GameService) -> None:
    assert await service.lobby.check_scenario(ANN, "quickstart") == ScenarioCheck("Quick start", False)
    assert (await service.lobby.check_scenario(ANN, "tutorial")).tutorial
    with pytest.raises(UnknownName, match="There is no built-in scenario 'quickstrat'"):
        await service.lobby.check_scenario(ANN, "quickstrat")
    nameless = builtin_scenarios()["quickstart"].replace('name = "Quick start"\n', "")
    assert await service.lobby.check_scenario(ANN, "N" * 300, nameless) == ScenarioCheck("N" * MAX_NAME)
    info = await service.lobby.create_game(ANN, "c1", scenario="N" * 300, scenario_text=nameless)
    assert info.name == "N" * MAX_NAME
    assert await service.lobby.game_in_channel("g1", "c1") is not None
