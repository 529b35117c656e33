"""Event-loop lag while 20 games with computer captains play (a few of them drafted, whose set-up
choices are the heaviest) and a board is rendered after every command, as the bot posts one: the
decisions, captains and renders inline (WORKERS=0: on the loop, renders in a thread as before the
pool) against the worker pool (WORKERS=2), in the same run.

Printed per mode: p99 and max loop lag (a 10 ms timer's lateness; target p99 <= 50 ms),
interaction-to-defer p99 (an interaction due every 50 ms, from when it was due until its handler runs
the defer, its first statement; the HTTP call itself is Discord's part; target p99 <= 100 ms), and how many
commands and boards the games got through."""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import Actor, GameService
from game.service.workers import Workers, configure
from render.options import RenderOptions
from render.pooled import render_board_async

GAMES = 20
DRAFTED = 4  # of the 20
SECONDS = 20.0
TICK = 0.010
INTERACTION_EVERY = 0.050
GM = Actor("gm", "bench", gm=True)
SPECTATOR = Actor("spectator", "bench")


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else (values[0] if values else 0.0)


async def _new_game(service: GameService, slot: int, drafted: bool) -> int:
    scenario = "drafted" if drafted else "quickstart"
    info = await service.lobby.create_game(GM, f"chan-{slot}-{time.monotonic_ns()}", scenario=scenario)
    await service.lobby.join(GM, info.id, "A", ai=True)
    await service.lobby.join(GM, info.id, "B", ai=True)
    return info.id


async def _play(service: GameService, slot: int, gid: int, stop: asyncio.Event, done: list[int],
                making: asyncio.Lock) -> None:
    while not stop.is_set():
        if not await service.commands.play_ai(gid, limit=1):  # over: the slot starts another game
            async with making:  # one at a time, as games are made in a guild (SQLite has one writer)
                gid = await _new_game(service, slot, slot < DRAFTED)
            continue
        done[0] += 1
        view = await service.reading.view(SPECTATOR, gid)
        await render_board_async(view, RenderOptions(rules=await service.reading.rules(gid)))
        done[1] += 1


async def _probe(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(TICK)
        lags.append(time.perf_counter() - t0 - TICK)


async def _interactions(stop: asyncio.Event, waits: list[float]) -> None:
    async def handler(arrived: float) -> None:
        waits.append(time.perf_counter() - arrived)  # where a cog calls defer()

    # interactions arrive on the socket on their own schedule, not when a busy loop gets round to
    # making them: each is timed from when it was due, so a blocked loop's backlog is all counted
    tasks = []
    start, k = time.perf_counter(), 0
    while not stop.is_set():
        while start + k * INTERACTION_EVERY <= time.perf_counter():
            tasks.append(asyncio.create_task(handler(start + k * INTERACTION_EVERY)))
            k += 1
        await asyncio.sleep(max(0.0, start + k * INTERACTION_EVERY - time.perf_counter()))
    await asyncio.gather(*tasks)


async def measure(workers: int) -> dict[str, float]:
    pool = configure(workers)
    t0 = time.perf_counter()
    pool.start()
    started = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        await upgrade_to_head(url)
        engine = make_engine(url)
        # one transaction at a time: SQLite has one writer, and a loop blocked by inline decisions would
        # otherwise keep a write open past the 10 s busy timeout of the transactions queued behind it
        service = GameService(engine, workers=pool, max_db_concurrency=1)
        stop = asyncio.Event()
        lags: list[float] = []
        waits: list[float] = []
        done = [0, 0]
        making = asyncio.Lock()
        games = [await _new_game(service, i, i < DRAFTED) for i in range(GAMES)]
        players = [asyncio.create_task(_play(service, i, gid, stop, done, making)) for i, gid in enumerate(games)]
        probes = [asyncio.create_task(_probe(stop, lags)), asyncio.create_task(_interactions(stop, waits))]
        await asyncio.sleep(SECONDS)
        stop.set()
        await asyncio.gather(*players, *probes)
        await engine.dispose()
    configure(0)
    return {"lag_p99": p99(lags) * 1000, "lag_max": max(lags) * 1000, "defer_p99": p99(waits) * 1000,
            "defer_max": max(waits) * 1000, "commands": done[0], "boards": done[1], "start_s": started}


def main(argv: list[str] | None = None) -> None:
    modes = [("inline (WORKERS=0)", 0), ("pool (WORKERS=2)", 2)]
    results = {}
    for name, size in modes:
        r = asyncio.run(measure(size))
        results[name] = r
        print(f"{name}: loop lag p99 {r['lag_p99']:.1f} ms (max {r['lag_max']:.0f} ms); interaction-to-defer p99 "
              f"{r['defer_p99']:.1f} ms (max {r['defer_max']:.0f} ms); {r['commands']:.0f} commands and "
              f"{r['boards']:.0f} boards in {SECONDS:.0f} s" + (f"; pool started in {r['start_s']:.1f} s" if size else ""))
    inline, pooled = results[modes[0][0]], results[modes[1][0]]
    print(f"ratio inline/pool: lag p99 {inline['lag_p99'] / max(pooled['lag_p99'], 0.01):.1f}x, "
          f"defer p99 {inline['defer_p99'] / max(pooled['defer_p99'], 0.01):.1f}x; targets lag p99 <= 50 ms, "
          f"defer p99 <= 100 ms: {'met' if pooled['lag_p99'] <= 50 and pooled['defer_p99'] <= 100 else 'NOT met'}")
    Workers(0).close()


if __name__ == "__main__":
    main(sys.argv[1:])
