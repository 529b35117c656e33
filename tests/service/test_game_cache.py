"""The service's game cache is bounded: least recently used games leave first, idle and finished
ones leave after a while, and a lock leaves with its game only when nobody holds or waits for it."""

from __future__ import annotations

import asyncio

from game.service.cache import FINISHED_SECONDS, GameCache
from game.service.game_service import Actor, GameService

ANN = Actor("111", "g1")
BOB = Actor("222", "g1")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_the_least_recently_used_game_leaves_first_with_its_lock() -> None:
    locks: dict[int, asyncio.Lock] = {}
    cache = GameCache(3, locks)
    for gid in (1, 2, 3):
        locks[gid] = asyncio.Lock()
        cache[gid] = f"game {gid}"
    assert cache.get(1) == "game 1"  # a read is a use: 2 is now the oldest
    cache[4] = "game 4"
    assert list(cache) == [3, 1, 4] and sorted(locks) == [1, 3]


async def test_a_game_whose_lock_is_held_or_awaited_stays() -> None:
    locks: dict[int, asyncio.Lock] = {}
    cache = GameCache(1, locks)
    locks[1] = asyncio.Lock()
    cache[1] = "busy"
    async with locks[1]:
        cache[2] = "other"
        assert list(cache) == [1, 2]  # over the limit for as long as game 1's command runs
        waiter = asyncio.create_task(locks[1].acquire())
        await asyncio.sleep(0)
        cache[3] = "third"
        assert 1 in cache and 1 in locks  # someone waits for it: same lock for them and for the next
    await waiter
    locks[1].release()
    cache[4] = "fourth"
    assert list(cache) == [4] and list(locks) == []


async def test_idle_and_finished_games_leave() -> None:
    clock = Clock()
    cache = GameCache(100, {}, idle_seconds=3600, clock=clock)
    cache[1], cache[2], cache[3] = "idle", "finished", "busy"
    cache.finished(2)
    clock.now = FINISHED_SECONDS + 1
    cache.get(3)
    cache.sweep()
    assert list(cache) == [1, 3]
    clock.now = 3601
    cache.sweep()
    assert list(cache) == [3]  # touched at 121 s: idle only from 3721 s


async def test_the_service_keeps_at_most_its_limit_and_reads_a_dropped_game_again(service: GameService) -> None:
    service._cache.limit = 2
    for i in range(4):
        await service.create_game(ANN, f"c{i}")
    await service.join(ANN, 1, "A", "Ann")
    await service.join(BOB, 1, "B", "Bob")
    for gid in (2, 3, 4):
        await service.info(gid)
    assert len(service._cache) == 2 and 1 not in service._cache and 1 not in service._locks
    outcome = await service.pick(ANN, 1, "Down!")  # read from the database again, decided and written
    assert outcome.last_seq == 1 and list(service._cache)[-1] == 1 and len(service._cache) == 2
    await service.concede(BOB, 1)
    assert list(service._cache)[0] == 1  # finished: the first to leave when room is needed
