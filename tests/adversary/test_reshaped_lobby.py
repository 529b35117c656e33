"""The reshaped lobby: `Lobby.game_here` answers a channel's game id from what it kept, without reading
the game. A game ends and another starts in the same channel (in this process, or in another process
on the same database); the finished game's copy leaves the cache; a channel id of another server. A
command sent then reaches the new game or is refused as "no game here", never the finished game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from game.commands import Concede
from game.service.db import make_engine
from game.service.errors import WrongGuild
from game.service.game_service import Actor, GameService
from tests.adversary.eyes import Table
from tests.databases import sqlite_at_head
from tests.seeds import counting_seeds

GUILD, OTHER_GUILD, CHANNEL = "800000000000000001", "800000000000000002", "700000000000000001"
ANN, BOB, CAT, DAN = "111", "222", "333", "444"


@pytest.fixture
async def pair(tmp_path: Path) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two processes' worth of service (own caches and lobbies) on one database, each told it is shared."""
    url = sqlite_at_head(tmp_path / "qd.db")
    engines = [make_engine(url), make_engine(url)]
    try:
        yield (GameService(engines[0], seeds=counting_seeds(1), shared=True),
               GameService(engines[1], seeds=counting_seeds(1001), shared=True))
    finally:
        for e in engines:
            await e.dispose()


@pytest.fixture
async def one(tmp_path: Path) -> AsyncIterator[GameService]:
    url = sqlite_at_head(tmp_path / "qd.db")
    engine = make_engine(url)
    try:
        yield GameService(engine, seeds=counting_seeds(1))
    finally:
        await engine.dispose()


async def played(service: GameService, guild: str = GUILD) -> int:
    info = await service.lobby.create_game(Actor(ANN, guild), CHANNEL)
    await service.lobby.join(Actor(ANN, guild), info.id, "A")
    await service.lobby.join(Actor(BOB, guild), info.id, "B")
    return info.id


async def conceded(service: GameService, game_id: int) -> None:
    await service.commands.submit(Actor(ANN, GUILD), game_id, Concede("A"))


async def test_a_new_game_in_the_channel_is_found_in_the_same_process(one: GameService) -> None:
    old = await played(one)
    assert await one.lobby.game_here(GUILD, CHANNEL) == old  # kept
    await conceded(one, old)
    new = (await one.lobby.create_game(Actor(CAT, GUILD), CHANNEL)).id
    assert new != old
    assert await one.lobby.game_here(GUILD, CHANNEL) == new
    info = await one.lobby.join(Actor(CAT, GUILD), await one.lobby.game_here(GUILD, CHANNEL), "A")
    assert info.id == new and info.seats[0].user_id == CAT


async def test_a_finished_game_that_left_the_cache_is_not_the_channels_game(one: GameService) -> None:
    """The finished game's copy leaves the store (two minutes after its end, or for room): the lobby
    must not go on naming it as the channel's game in progress."""
    old = await played(one)
    assert await one.lobby.game_here(GUILD, CHANNEL) == old
    await conceded(one, old)
    one.store.forget(old)  # what the cache does to a finished game soon after
    assert await one.lobby.game_here(GUILD, CHANNEL) is None
    assert await one.lobby.game_in_channel(GUILD, CHANNEL) is None
    assert await one.lobby.game_here(GUILD, CHANNEL, include_over=True) == old  # still there to look at


async def test_a_game_made_by_another_process_is_found_after_the_old_one_ended_there(
        pair: tuple[GameService, GameService]) -> None:
    """Process 1 kept the channel's game; process 2 sees it end and starts another in the channel.
    A command in process 1 must reach the new game, never the finished one."""
    p1, p2 = pair
    old = await played(p1)
    assert await p1.lobby.game_here(GUILD, CHANNEL) == old
    await p1.reading.view(Actor(ANN, GUILD), old)  # process 1 holds a copy of the old game, not over
    await conceded(p2, old)
    new = (await p2.lobby.create_game(Actor(CAT, GUILD), CHANNEL)).id
    assert await p1.lobby.game_here(GUILD, CHANNEL) == new
    # and a join sent to process 1 takes a side of the new game
    info = await p1.lobby.join(Actor(DAN, GUILD), await p1.lobby.game_here(GUILD, CHANNEL), "B")
    assert info.id == new and dict((s.player, s.user_id) for s in info.seats)["B"] == DAN
    old_seats = {s.player: s.user_id for s in (await p1.lobby.info(old)).seats}
    assert old_seats == {"A": ANN, "B": BOB}, "the finished game is untouched"


async def test_another_process_game_found_when_the_old_one_left_this_cache(
        pair: tuple[GameService, GameService]) -> None:
    p1, p2 = pair
    old = await played(p1)
    assert await p1.lobby.game_here(GUILD, CHANNEL) == old
    p1.store.forget(old)  # idle: process 1 holds no copy of it
    await conceded(p2, old)
    new = (await p2.lobby.create_game(Actor(CAT, GUILD), CHANNEL)).id
    assert await p1.lobby.game_here(GUILD, CHANNEL) == new


async def test_no_game_then_a_game_made_by_another_process(pair: tuple[GameService, GameService]) -> None:
    p1, p2 = pair
    assert await p1.lobby.game_here(GUILD, CHANNEL) is None
    new = (await p2.lobby.create_game(Actor(CAT, GUILD), CHANNEL)).id
    assert await p1.lobby.game_here(GUILD, CHANNEL) == new


async def test_the_same_channel_id_in_another_server_is_not_this_game(one: GameService) -> None:
    """A channel id is answered per server: the same id in another server has no game, and that
    server's member naming this game's id is refused as another server's."""
    gid = await played(one)
    assert await one.lobby.game_here(GUILD, CHANNEL) == gid
    assert await one.lobby.game_here(OTHER_GUILD, CHANNEL) is None
    assert await one.lobby.game_here(OTHER_GUILD, CHANNEL, include_over=True) is None
    before = (await one.store.repo.load(gid)).record.last_seq  # type: ignore[union-attr]
    with pytest.raises(WrongGuild):
        await one.lobby.join(Actor(CAT, OTHER_GUILD), gid)
    with pytest.raises(WrongGuild):
        await one.commands.submit(Actor(CAT, OTHER_GUILD), gid, Concede("A"))
    assert (await one.store.repo.load(gid)).record.last_seq == before  # type: ignore[union-attr]


async def test_through_the_bot_the_next_game_in_the_channel_gets_the_commands(tmp_path: Path) -> None:
    """The real bot: a game conceded, its copy gone from the cache, a new game created in the same
    channel; /game join and the pick button reach the new game, and the finished one is untouched."""
    from tests.adversary.eyes import ANN as ANN_U
    from tests.adversary.eyes import BOB as BOB_U
    from tests.adversary.eyes import EVE as EVE_U
    from tests.adversary.eyes import Drawn, answer_text
    from tests.bot.harness import running_bot

    async with running_bot(tmp_path) as (bot, fake):
        t = Table(bot, fake, Drawn())
        await t.cmd(ANN_U, "game", "create")
        await t.cmd(ANN_U, "game", "join", side="A")
        await t.cmd(BOB_U, "game", "join", side="B")
        assert "Conceded" in answer_text(await t.cmd(ANN_U, "game", "concede"))
        old = await t.version(1)
        bot.service.store.forget(1)  # the finished game leaves the cache
        refused = answer_text(await t.cmd(EVE_U, "game", "join", side="B"))
        assert refused.startswith("❌ There is no game in progress in this channel."), refused
        await t.cmd(EVE_U, "game", "create")
        joined = answer_text(await t.cmd(BOB_U, "game", "join", side="B"))
        assert not joined.startswith("❌"), joined
        seats = {s.player: s.user_id for s in (await bot.service.lobby.info(2)).seats}
        assert seats["B"] == str(BOB_U[0])
        assert await t.version(1) == old
        assert {s.player: s.user_id for s in (await bot.service.lobby.info(1)).seats} == \
            {"A": str(ANN_U[0]), "B": str(BOB_U[0])}
