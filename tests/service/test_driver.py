"""The driver plays computer captains' moves as they fall due, and hands what they wrote to the courier
when they stop and every `pace` seconds while they go on: a game two captains play out is a burst of
commands, which the bot posts as one, not one post each."""

from __future__ import annotations

from game.service.driver import Driver
from game.service.game_service import Actor, GameService

ANN = Actor("1", "g")


async def captains_game(service: GameService) -> int:
    service.front.outbox = True
    info = await service.lobby.create_game(ANN, "c1")
    await service.lobby.join(ANN, info.id, "A", ai=True)
    await service.lobby.join(ANN, info.id, "B", ai=True)
    return info.id


async def handed_over(service: GameService, game_id: int, pace: float) -> tuple[int, list[int]]:
    """The moves the driver played, and each time it handed the game to the courier."""
    handed: list[int] = []

    async def deliver(gid: int) -> None:
        handed.append(gid)

    return await Driver(service, pace=pace).advance(game_id, deliver), handed


async def test_a_burst_is_handed_over_once_when_the_captains_stop(service: GameService) -> None:
    gid = await captains_game(service)
    played, handed = await handed_over(service, gid, pace=3600)
    assert played > 20 and (await service.lobby.info(gid)).status == "over"
    assert handed == [gid]
    assert await handed_over(service, gid, pace=3600) == (0, [])  # nothing new: nothing handed over


async def test_with_no_pace_each_move_is_handed_over_as_it_is_played(service: GameService) -> None:
    gid = await captains_game(service)
    played, handed = await handed_over(service, gid, pace=0)
    assert played > 20 and len(handed) == played


async def test_the_drivers_lock_of_a_game_goes_when_its_pass_ends(service: GameService) -> None:
    """A long-running bot drives every game it ever sees: a game's lock lives only while a pass holds
    or waits for it, so the map does not grow with every game."""
    import gc

    driver = Driver(service, pace=3600)

    async def deliver(gid: int) -> None:
        return None

    for _ in range(3):
        gid = await captains_game(service)
        assert await driver.advance(gid, deliver) > 20
    gc.collect()
    assert len(driver._locks) == 0
