"""Each member's DM channel with the bot, kept between starts (game/service/dm_channels.py): read back
for the same bot only, kept once when two processes open it together, and forgotten only as the
channel that was found unknown (a newer one another process kept stays)."""

from __future__ import annotations

import asyncio

from game.service.game_service import GameService

BOT, OTHER_BOT, ANN = "500000000000000001", "500000000000000002", "100000000000000111"


async def test_a_kept_channel_is_read_back_by_the_same_bot_only(service: GameService) -> None:
    front = service.front
    assert await front.dm_channel(BOT, ANN) is None
    await front.remember_dm_channel(BOT, ANN, "300000000000000001")
    assert await front.dm_channel(BOT, ANN) == "300000000000000001"
    # a new token on another application has DM channels of its own
    assert await front.dm_channel(OTHER_BOT, ANN) is None


async def test_two_processes_keeping_the_same_channel_at_once_both_succeed(two: list[GameService]) -> None:
    await asyncio.gather(*(s.front.remember_dm_channel(BOT, ANN, "300000000000000001") for s in two))
    assert [await s.front.dm_channel(BOT, ANN) for s in two] == ["300000000000000001"] * 2


async def test_only_the_channel_found_unknown_is_forgotten(service: GameService) -> None:
    front = service.front
    await front.remember_dm_channel(BOT, ANN, "300000000000000001")
    await front.remember_dm_channel(BOT, ANN, "300000000000000002")  # another process opened it again
    await front.forget_dm_channel(BOT, ANN, "300000000000000001")  # the stale id a slower one held
    assert await front.dm_channel(BOT, ANN) == "300000000000000002"
    await front.forget_dm_channel(BOT, ANN, "300000000000000002")
    assert await front.dm_channel(BOT, ANN) is None
