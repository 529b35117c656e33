"""One interaction, one look at each game (issue 29): with several processes, the bot's command and
its posts check a game against the stored version once, not at every read; the next interaction (or
a read outside any) checks again, and a command decided on a copy gone stale is still refused by the
commit's own check and decided again. Reads of one statement go without a transaction on PostgreSQL,
and the connection goes back to the pool able to hold one."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event, text

from game.service.game_service import Actor, GameService

ANN, BOB = Actor("111", "g1"), Actor("222", "g1")


@contextmanager
def version_checks(service: GameService) -> Iterator[list[str]]:
    """The version checks the service sends (a SELECT of games.version alone)."""
    seen: list[str] = []

    def sent(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.lstrip().upper().startswith("SELECT GAMES.VERSION"):
            seen.append(statement)

    sync = service.store.repo.engine.sync_engine
    event.listen(sync, "before_cursor_execute", sent)
    try:
        yield seen
    finally:
        event.remove(sync, "before_cursor_execute", sent)


async def seated(first: GameService) -> int:
    info = await first.lobby.create_game(ANN, "chan-1")
    await first.lobby.join(ANN, info.id, "A", "Ann")
    await first.lobby.join(BOB, info.id, "B", "Bob")
    return info.id


async def test_an_interaction_checks_each_game_once(two: list[GameService]) -> None:
    first, _ = two
    gid = await seated(first)
    await first.reading.view(ANN, gid)  # cached
    with version_checks(first) as checks:
        with first.front.one_look():
            await first.lobby.info(gid)
            await first.reading.view(ANN, gid)
            await first.reading.public_options(gid)
            await first.reading.roll_decision(gid)
        assert len(checks) == 1
        await first.reading.view(ANN, gid)  # outside a look: every read asks
        await first.reading.view(ANN, gid)
        assert len(checks) == 3


async def test_a_write_elsewhere_is_seen_by_the_next_look_not_within_one(two: list[GameService]) -> None:
    first, second = two
    gid = await seated(first)
    with first.front.one_look():
        before = await first.reading.view(ANN, gid)
        await second.commands.submit(BOB, gid, "pick B Take Courage")
        within = await first.reading.view(ANN, gid)
    assert not before.game.squadron("B").picked
    assert not within.game.squadron("B").picked  # the game as the interaction first saw it
    with first.front.one_look():
        assert (await first.reading.view(ANN, gid)).game.squadron("B").picked


async def test_a_command_on_a_copy_gone_stale_within_a_look_is_decided_again(two: list[GameService]) -> None:
    first, second = two
    gid = await seated(first)
    with first.front.one_look():
        await first.reading.view(ANN, gid)
        await second.commands.submit(BOB, gid, "pick B Take Courage")
        await first.commands.submit(ANN, gid, "pick A Effective Fire")  # the commit's check finds it stale
        after = await first.reading.view(ANN, gid)
    assert after.game.squadron("A").face_up == "Effective Fire"
    assert after.game.squadron("B").face_up == "Take Courage"  # both picks made: the cards are shown


async def test_a_look_reads_its_own_commit_without_asking(two: list[GameService]) -> None:
    first, _ = two
    gid = await seated(first)
    await first.reading.view(ANN, gid)
    with version_checks(first) as checks, first.front.one_look():
        await first.commands.submit(ANN, gid, "pick A Effective Fire")  # no check on the way in
        seen = await first.reading.view(ANN, gid)
        await first.reading.public_options(gid)
    assert checks == []
    assert seen.game.squadron("A").picked


async def test_a_task_started_in_a_look_checks_again_once_the_look_ends(two: list[GameService]) -> None:
    first, second = two
    gid = await seated(first)
    go = asyncio.Event()

    async def later() -> bool:
        await go.wait()
        return (await first.reading.view(ANN, gid)).game.squadron("B").picked

    with first.front.one_look():
        await first.reading.view(ANN, gid)
        task = asyncio.create_task(later())  # inherits the look, and outlives it
    await second.commands.submit(BOB, gid, "pick B Take Courage")
    go.set()
    assert await task


async def test_two_stores_keep_their_looks_apart(two: list[GameService]) -> None:
    first, second = two
    gid = await seated(first)
    await second.reading.view(BOB, gid)
    with first.front.one_look():
        await first.reading.view(ANN, gid)  # the first store's look, not the second's
        await first.commands.submit(ANN, gid, "pick A Effective Fire")
        with version_checks(second) as checks:
            seen = await second.reading.view(BOB, gid)
    assert len(checks) == 1 and seen.game.squadron("A").picked


async def test_a_read_leaves_its_connection_able_to_hold_a_transaction(service: GameService) -> None:
    """The reads of one statement borrow a pooled connection in autocommit (PostgreSQL); it goes
    back as it was: a transaction on it afterwards still rolls back."""
    repo = service.store.repo
    gid = await seated(service)
    assert await repo.version_of(gid) is not None
    with pytest.raises(RuntimeError):
        async with repo.engine.begin() as conn:
            await conn.execute(text("UPDATE games SET name = 'lost' WHERE id = :id"), {"id": gid})
            raise RuntimeError("rolled back")
    assert (await service.lobby.info(gid)).name != "lost"
    if repo.engine.dialect.name == "postgresql":
        async with repo.reads.connect() as c:
            assert (await c.get_raw_connection()).dbapi_connection.autocommit  # no BEGIN, no ROLLBACK
        async with repo.engine.connect() as c:
            assert not (await c.get_raw_connection()).dbapi_connection.autocommit
