"""GameService.game_channels, what `python -m bot --check` asks Discord about: every channel and
thread that has or had a game, of both kinds of game, on SQLite and PostgreSQL."""

from __future__ import annotations

from game.service.game_service import LOCAL_GUILD, Actor, GameService
from game.service.results import GameChannel

ANN, BOB = Actor("111", "g1"), Actor("222", "g1")
OTHER = Actor("333", "g2")
TABLE = Actor("local", LOCAL_GUILD, gm=True)


async def test_every_game_of_both_kinds_where_it_is_played_finished_ones_too(service: GameService) -> None:
    over = await service.lobby.create_game(ANN, "chan-1")
    await service.lobby.join(ANN, over.id, "A", "Ann")
    await service.lobby.join(BOB, over.id, "B", "Bob")
    await service.commands.concede(BOB, over.id)
    again = await service.lobby.create_game(ANN, "chan-1")  # the channel is free again: its second game
    threaded = await service.lobby.create_game(ANN, "chan-1", thread_id="thread-9")
    referee = await service.referee.create_game(OTHER, "chan-7", "wsim")
    referee_thread = await service.referee.create_game(OTHER, "chan-7", "wsim", thread_id="thread-8")
    await service.lobby.create_game(TABLE, "table")  # the offline table's games are in no Discord server

    assert await service.lobby.game_channels() == [
        GameChannel(over.id, "g1", "chan-1", None, True),
        GameChannel(again.id, "g1", "chan-1", None, False),
        # a game in a thread is played in the thread: its record keeps the thread, not the parent
        GameChannel(threaded.id, "g1", "thread-9", "thread-9", False),
        GameChannel(referee.id, "g2", "chan-7", None, False),
        GameChannel(referee_thread.id, "g2", "thread-8", "thread-8", False),
    ]


async def test_no_games_no_channels(service: GameService) -> None:
    assert await service.lobby.game_channels() == []
