"""The web pages (issue 28): time to first byte of a game's page and the update latency after a move,
with 100 live games and 50 pages open on their live streams, over real sockets (aiohttp's server and
client in one process, SQLite). Targets: TTFB p99 <= 100 ms, update p99 <= 1 s.

Two set-ups, measured in the same run: the pages served in the bot's own process (woken by the
store's commit hook), and served apart (`quarterdeck web`: a second service on the same database,
woken by its quarter-second poll of the watched games' versions). The baseline beside them, in the same
process, is what the bot already pays for the same game at the same moment: one `Reading.board`
(the read behind a Discord board post and `/game status`); the web has no earlier version in git to
compare with."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import Actor, GameService
from web.app import make_app
from web.limits import Limits

GAMES = 100
PAGES = 50
PAGE_REQUESTS = 400
MOVES = 60


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def line(name: str, xs: list[float], unit: float = 1000.0, label: str = "ms") -> str:
    return (f"  {name:<44} p50 {statistics.median(xs) * unit:7.1f} {label}   p99 {pct(xs, 99) * unit:7.1f} {label}"
            f"   max {max(xs) * unit:7.1f} {label}   (n={len(xs)})")


async def make_games(service: GameService) -> list[int]:
    ids = []
    for i in range(GAMES):
        actor = Actor("100", "bench-guild")
        info = await service.lobby.create_game(actor, f"chan-{i}", scenario="quickstart")
        await service.lobby.join(actor, info.id, "A", "Ann", ai=True)
        await service.lobby.join(actor, info.id, "B", "Bob", ai=True)
        for _ in range(6):  # the picks and the first activations: every game under way
            if await service.commands.captain_move(await service.store.load(info.id)) is None:
                break
        ids.append(info.id)
    return ids


class Page:
    """An open page: its live stream, read in the background, each state's arrival time noted."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.session, self.url = session, url
        self.versions: dict[int, float] = {}
        self.task: asyncio.Task[None] | None = None
        self.opened = asyncio.Event()

    async def run(self) -> None:
        async with self.session.get(self.url, timeout=aiohttp.ClientTimeout(total=None)) as r:
            assert r.status == 200, r.status
            data = b""
            async for raw in r.content:
                if raw.startswith(b"data: "):
                    data = raw[6:]
                elif raw == b"\n" and data:
                    self.versions[json.loads(data)["version"]] = time.perf_counter()
                    self.opened.set()
                    data = b""

    async def newer_than(self, version: int, seconds: float = 10.0) -> float:
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            later = [t for v, t in self.versions.items() if v > version]
            if later:
                return min(later)
            await asyncio.sleep(0.002)
        raise TimeoutError("no update reached the page")


async def measure(writer: GameService, reader: GameService, ids: list[int], title: str) -> None:
    app = make_app(reader, Limits(burst=100_000, per_second=100_000.0, streams=10_000, streams_per_client=10_000))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    tokens = {gid: await reader.web.game_token(gid) for gid in ids}
    rng = random.Random(28)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        watched = ids[:PAGES]
        pages = {gid: Page(session, f"{base}/g/{tokens[gid]}/events") for gid in watched}
        for p in pages.values():
            p.task = asyncio.create_task(p.run())
        await asyncio.wait_for(asyncio.gather(*(p.opened.wait() for p in pages.values())), 120)

        async def ttfb(path: str) -> float:
            t0 = time.perf_counter()
            async with session.get(base + path) as r:
                first = time.perf_counter() - t0
                assert r.status == 200, (path, r.status)
                await r.read()
            return first

        for gid in ids:  # warm: each game read once (as the first reader after a restart would)
            await ttfb(f"/g/{tokens[gid]}/")
        cached, boards = [], []
        for _ in range(PAGE_REQUESTS):
            gid = rng.choice(ids)
            cached.append(await ttfb(f"/g/{tokens[gid]}/"))
            t0 = time.perf_counter()
            await reader.reading.board(gid)
            boards.append(time.perf_counter() - t0)
        # after a move: the first page read of the new version, and the update reaching its open page
        fresh, updates = [], []
        for _ in range(MOVES):
            gid = rng.choice(watched)
            loaded = await writer.store.load(gid)
            version = loaded.record.version
            played = await writer.commands.captain_move(loaded)
            if played is None:
                continue  # that game is over (or waits on nobody): another is chosen
            t0 = time.perf_counter()
            arrived = await pages[gid].newer_than(version)
            updates.append(arrived - t0)
            fresh.append(await ttfb(f"/g/{tokens[gid]}/"))
        print(f"{title}: {GAMES} live games, {PAGES} pages open on their live streams")
        print(line("page TTFB, a game read at its version", cached))
        print(line("page TTFB, the first read after a move", fresh))
        print(line("update latency: move committed -> page", updates))
        print(line("baseline: the bot's Reading.board, same games", boards))
        ok = pct(cached + fresh, 99) <= 0.100 and pct(updates, 99) <= 1.0
        print(f"  targets (TTFB p99 <= 100 ms, update p99 <= 1 s): {'met' if ok else 'NOT met'}")
        for p in pages.values():
            assert p.task is not None
            p.task.cancel()
        await asyncio.gather(*(p.task for p in pages.values() if p.task), return_exceptions=True)
    await runner.cleanup()


async def run(url: str) -> None:
    engine = make_engine(url)
    service = GameService(engine)
    t0 = time.perf_counter()
    ids = await make_games(service)
    print(f"({GAMES} games made and under way in {time.perf_counter() - t0:.0f} s)", flush=True)
    await measure(service, service, ids, "In the bot's process (woken by the commit hook)")
    apart_engine = make_engine(url)
    apart = GameService(apart_engine, shared=True)
    await measure(service, apart, ids, "Apart, `quarterdeck web` (woken by its poll of the versions)")
    await engine.dispose()
    await apart_engine.dispose()


def main(*args: Any) -> None:
    global GAMES, PAGES
    argv = [int(a) for a in args if str(a).isdigit()]
    if argv:
        GAMES = int(argv[0])
        PAGES = min(GAMES, int(argv[1])) if len(argv) > 1 else min(PAGES, GAMES)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        asyncio.run(upgrade_to_head(url))
        asyncio.run(run(url))


if __name__ == "__main__":
    main()
