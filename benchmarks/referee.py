"""The referee service (game/service/referee.py): a WS&IM game played turn after turn on SQLite,
the latency of a command with the game in memory, and the time to read a game back cold (another
process, or after a restart: the log is replayed from the start, there are no snapshots), by
the length of its log."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from game.service.authority import Actor
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import GameService

TURNS = (10, 40)  # measured after this many turns
PLOTS = {"French": ("p2", "plot Redoutable 0"), "British": ("p1", "plot Victory 0")}


async def run(url: str) -> list[tuple[int, int, float, float, float]]:
    engine = make_engine(url)
    service = GameService(engine)
    actors = {"p1": Actor("1", "bench"), "p2": Actor("2", "bench"), "ref": Actor("3", "bench")}
    ref = service.referee
    gid = (await ref.create_game(actors["p1"], "chan", "wsim")).id
    for key, seat in (("p1", "British"), ("p2", "French"), ("ref", "Umpire")):
        info = await ref.join(actors[key], gid, seat)
    out = []
    played = 0
    for turns in TURNS:
        latencies = []
        while played < turns:
            who, line = PLOTS.get(info.waiting[0], ("ref", "next"))
            t0 = time.perf_counter()
            info = (await ref.submit(actors[who], gid, line)).info
            latencies.append(time.perf_counter() - t0)
            played = info.turn - 1
        cold = []
        for _ in range(5):
            t0 = time.perf_counter()
            game = await GameService(engine).referee._load(gid)
            cold.append(time.perf_counter() - t0)
        out.append((turns, game.record.last_seq, statistics.median(latencies) * 1000,
                    sorted(latencies)[int(len(latencies) * 0.99) - 1] * 1000, statistics.median(cold) * 1000))
    await engine.dispose()
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        asyncio.run(upgrade_to_head(url))
        for turns, events, p50, p99, cold in asyncio.run(run(url)):
            print(f"after {turns:3d} turns ({events:5d} events): command p50 {p50:6.1f} ms, p99 {p99:6.1f} ms; "
                  f"cold read {cold:6.1f} ms")


if __name__ == "__main__":
    main()
