"""The outbox in the database (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set): rows are written
in the transaction of the game's events or not at all; claims keep each game's order, take a lease and
never hand one row to two claimers; failures wait their backoff."""

from __future__ import annotations

import asyncio
import copy
import json
from datetime import timedelta

import pytest

from game import events as ev
from game.service import outbox
from game.service.game_service import Actor, GameService
from game.service.models import OutboxRow, utcnow
from game.service.outbox import Post
from game.service.repository import Loaded, VersionConflict

ANN, BOB = Actor("1", "g"), Actor("2", "g")


async def started(service: GameService) -> int:
    """A game with both sides taken, whose announcement (written with the game) has gone out."""
    service.front.outbox = True
    info = await service.lobby.create_game(ANN, "c1")
    created = await claim(service, info.id)
    assert created is not None and created.kind == "created"
    assert json.loads(created.payload) == {"system": "oak_and_iron"}
    async with service.store.repo.session() as s, s.begin():
        await outbox.delivered(s, created, utcnow())
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.lobby.join(BOB, info.id, "B", "Bob")
    return info.id


async def rows(service: GameService, game_id: int) -> list[OutboxRow]:
    async with service.store.repo.session() as s:
        return await outbox.rows_of(s, game_id)


async def claim(service: GameService, game_id: int, now: object = None) -> OutboxRow | None:
    async with service.store.repo.session() as s, s.begin():
        return await outbox.claim(s, game_id, now or utcnow())  # type: ignore[arg-type]


async def test_a_command_writes_its_posts_with_its_events(service: GameService) -> None:
    gid = await started(service)
    assert [r.kind for r in await rows(service, gid)] == ["created"]  # taking seats posts nothing by itself
    await service.front.announce(gid)
    await service.front.announce(gid)  # /game status again: the board again, but each pick is nudged once
    kinds = [r.kind for r in await rows(service, gid)]
    assert kinds.count("board") == 2 and kinds.count("nudge") == 2
    outcome = await service.commands.pick(ANN, gid, "Effective Fire")
    written = [r for r in await rows(service, gid) if r.id in outcome.posts]
    assert [r.kind for r in written] == ["board", "status"]
    assert json.loads(written[0].payload) == {"first": outcome.first_seq, "last": outcome.last_seq}


async def test_a_write_that_loses_the_race_leaves_no_rows(service: GameService) -> None:
    gid = await started(service)
    loaded = await service.store.load(gid)
    stale = Loaded(copy.copy(loaded.record), loaded.seats, loaded.state)
    await service.commands.pick(ANN, gid, "Effective Fire")  # another command moves the game on first
    before = len(await rows(service, gid))
    with pytest.raises(VersionConflict):
        await service.store.repo.append(stale, [ev.CardPicked("B", "Take Courage")], stale.state, "2", None, {},
                                  posts=[Post("board", {"first": 1, "last": 1})])
    assert len(await rows(service, gid)) == before


async def test_claims_keep_the_order_of_each_lane(service: GameService) -> None:
    gid = await started(service)
    await service.store.repo.enqueue(gid, [Post("board", {}), Post("notice", {"text": "⏰"}), Post("status", {}),
                                     Post("nudge", {"user": "1", "player": "A", "turn": 1}, key="n")])
    first = await claim(service, gid)
    assert first is not None and first.kind == "board" and first.attempts == 1
    taken = [await claim(service, gid), await claim(service, gid), await claim(service, gid)]
    # the notice waits for the board; the status and the nudge do not
    assert [r.kind if r else None for r in taken] == ["status", "nudge", None]
    now = utcnow()
    async with service.store.repo.session() as s, s.begin():
        assert await outbox.failed(s, first, "503", now, now + timedelta(seconds=10)) == "pending"
    assert await claim(service, gid, now + timedelta(seconds=5)) is None  # its backoff holds the lane
    again = await claim(service, gid, now + timedelta(seconds=11))
    assert again is not None and again.id == first.id and again.attempts == 2
    # its claimer dies: the row is nobody's until the lease runs out, then it is claimed again
    assert await claim(service, gid, now + timedelta(seconds=12)) is None
    third = await claim(service, gid, now + timedelta(seconds=12) + outbox.LEASE)
    assert third is not None and third.id == first.id and third.attempts == 3
    async with service.store.repo.session() as s, s.begin():
        await outbox.delivered(s, third, now)
    nxt = await claim(service, gid, now + timedelta(seconds=13) + outbox.LEASE)
    assert nxt is not None and nxt.kind == "notice"


async def test_boards_in_a_row_go_out_as_one_post_and_a_notice_keeps_its_place(service: GameService) -> None:
    gid = await started(service)
    await service.store.repo.enqueue(gid, [Post("board", {"first": 5, "last": 6}), Post("board", {"first": 7, "last": 7}),
                                     Post("status", {}), Post("board", {"first": 8, "last": 9}),
                                     Post("notice", {"text": "⏰"}), Post("board", {"first": 10, "last": 10})])
    head = await claim(service, gid)
    assert head is not None and head.kind == "board"
    assert json.loads(head.payload) == {"first": 5, "last": 9}  # the status lane between them is no matter
    stored = {r.id: r for r in await rows(service, gid)}
    assert json.loads(stored[head.id].payload) == {"first": 5, "last": 9}  # a retry tells all three too
    boards = [r for r in stored.values() if r.kind == "board"]
    assert [r.status for r in boards] == ["running", "superseded", "superseded", "pending"]
    async with service.store.repo.session() as s, s.begin():
        await outbox.delivered(s, head, utcnow())
    nxt = [await claim(service, gid), await claim(service, gid)]
    assert [r.kind if r else None for r in nxt] == ["status", "notice"]
    assert outbox.merged_range([{}, {"first": 3, "last": 4}]) == {"first": 3, "last": 4}
    assert outbox.merged_range([{}, {}]) == {}


async def test_what_cannot_work_is_given_up_and_frees_the_lane(service: GameService) -> None:
    gid = await started(service)
    await service.store.repo.enqueue(gid, [Post("notice", {"text": "⏰ Reminder"}), Post("board", {})])
    row = await claim(service, gid)
    assert row is not None
    async with service.store.repo.session() as s, s.begin():
        assert await outbox.failed(s, row, "10003 Unknown Channel", utcnow(), None) == "failed"
    nxt = await claim(service, gid)
    assert nxt is not None and nxt.kind == "board"


async def test_after_the_last_try_a_row_is_given_up(service: GameService) -> None:
    gid = await started(service)
    await service.store.repo.enqueue(gid, [Post("board", {})])
    now = utcnow()
    for attempt in range(1, outbox.MAX_ATTEMPTS + 1):
        row = await claim(service, gid, now)
        assert row is not None and row.attempts == attempt
        async with service.store.repo.session() as s, s.begin():
            status = await outbox.failed(s, row, "503", now, now + outbox.backoff(attempt))
        now += outbox.backoff(attempt) + timedelta(seconds=1)
    assert status == "failed" and await claim(service, gid, now) is None
    assert outbox.backoff(1) == timedelta(seconds=2) and outbox.backoff(30) == timedelta(seconds=outbox.BACKOFF_CAP)


async def test_claimers_at_once_never_share_a_row(service: GameService) -> None:
    gid = await started(service)
    await service.store.repo.enqueue(gid, [Post("board", {}), Post("board", {})])
    got = await asyncio.gather(*(claim(service, gid) for _ in range(4)))
    taken = [r.id for r in got if r is not None]
    assert len(taken) == 1  # one claimer has the head of the lane; the second board waits behind it


async def test_a_restart_takes_back_its_own_claims_at_once_and_no_one_else_s(service: GameService) -> None:
    """Leases name their owner (a process's shard identity): the owner starting again frees what it
    held, in place and due now; a claim of another owner keeps its lease (that process may be alive)."""
    gid = await started(service)
    await service.store.repo.enqueue(gid, [Post("board", {}), Post("notice", {"text": "⏰"}),
                                           Post("nudge", {"user": "1", "player": "A", "turn": 1}, key="n")])
    now = utcnow()
    async with service.store.repo.session() as s, s.begin():
        mine = await outbox.claim(s, gid, now, "shards:0")
        theirs = await outbox.claim(s, gid, now, "shards:1")
    assert mine is not None and theirs is not None and (mine.kind, theirs.kind) == ("board", "nudge")
    assert await claim(service, gid, now + timedelta(seconds=1)) is None  # the notice waits behind the board
    async with service.store.repo.session() as s, s.begin():
        assert await outbox.reclaim(s, "shards:0", now + timedelta(seconds=2)) == 1
    by_id = {r.id: r for r in await rows(service, gid)}
    assert (by_id[mine.id].status, by_id[mine.id].owner, by_id[mine.id].attempts) == ("pending", None, 1)
    assert (by_id[theirs.id].status, by_id[theirs.id].owner) == ("running", "shards:1")
    again = await claim(service, gid, now + timedelta(seconds=2))  # at once, long before the lease ends
    assert again is not None and again.id == mine.id and again.attempts == 2
    async with service.store.repo.session() as s, s.begin():
        assert await outbox.reclaim(s, "shards:2", now) == 0  # nothing of a process that held nothing
        await outbox.delivered(s, again, now)
    assert {r.id: r.owner for r in await rows(service, gid)}[mine.id] is None


async def test_the_front_end_claims_under_its_owner(service: GameService) -> None:
    gid = await started(service)
    await service.store.repo.enqueue(gid, [Post("notice", {"text": "⏰"})])
    assert await service.front.own_leases("shards:3") == 0
    delivery = await service.front.claim(gid, utcnow())
    assert delivery is not None
    assert {r.id: r.owner for r in await rows(service, gid)}[delivery.id] == "shards:3"
    assert await service.front.own_leases("shards:3") == 1  # the same identity starting again
    assert {r.id: r.status for r in await rows(service, gid)}[delivery.id] == "pending"
