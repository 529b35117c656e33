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
    service.store.cached.limit = 2
    for i in range(4):
        await service.lobby.create_game(ANN, f"c{i}")
    await service.lobby.join(ANN, 1, "A", "Ann")
    await service.lobby.join(BOB, 1, "B", "Bob")
    for gid in (2, 3, 4):
        await service.lobby.info(gid)
    assert len(service.store.cached) == 2 and 1 not in service.store.cached and 1 not in service.store.locks
    outcome = await service.commands.pick(ANN, 1, "Down!")  # read from the database again, decided and written
    assert outcome.last_seq == 1 and list(service.store.cached)[-1] == 1 and len(service.store.cached) == 2
    await service.commands.concede(BOB, 1)
    assert list(service.store.cached)[0] == 1  # finished: the first to leave when room is needed


class Reads:
    """Counts the repository reads a service makes (each still goes to the database)."""

    def __init__(self, service: GameService, *names: str) -> None:
        self.count = dict.fromkeys(names, 0)
        for name in names:
            real = getattr(service.store.repo, name)

            async def counted(*args: object, _real: object = real, _name: str = name, **kw: object) -> object:
                self.count[_name] += 1
                return await _real(*args, **kw)  # type: ignore[operator]

            setattr(service.store.repo, name, counted)


async def test_what_autocomplete_asks_is_read_once_and_again_after_a_change(service: GameService) -> None:
    from importlib import resources

    dutch = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()
    service.store.shared = False  # one process (test_two_services.py: what a process sharing the database re-reads)
    reads = Reads(service, "game_in_channel", "squadrons_of", "guild_settings")
    assert await service.lobby.game_in_channel("g1", "c1") is None
    first = await service.lobby.create_game(ANN, "c1")
    for _ in range(3):  # keystrokes
        assert (await service.lobby.game_in_channel("g1", "c1")).id == first.id  # type: ignore[union-attr]
        assert await service.squadrons.saved(ANN) == []
        assert (await service.data.settings("g1")).gm_role_id is None
    # the first miss, create_game's own busy check, and once after the new game: not per keystroke
    assert reads.count == {"game_in_channel": 3, "squadrons_of": 1, "guild_settings": 1}

    await service.squadrons.save(ANN, dutch)
    assert [s.name for s in await service.squadrons.saved(ANN)] == ["Zeeland Admiralty"]
    await service.data.set_gm_role(Actor("9", "g1", gm=True), "42")
    assert (await service.data.settings("g1")).gm_role_id == "42"
    await service.lobby.join(ANN, first.id, "A", "Ann")
    await service.lobby.join(BOB, first.id, "B", "Bob")
    await service.commands.concede(BOB, first.id)
    assert await service.lobby.game_in_channel("g1", "c1") is None  # over: no longer the channel's game
    second = await service.lobby.create_game(ANN, "c1")
    assert (await service.lobby.game_in_channel("g1", "c1")).id == second.id  # type: ignore[union-attr]
    assert reads.count["squadrons_of"] == 2 and reads.count["guild_settings"] == 1
