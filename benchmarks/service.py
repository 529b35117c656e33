"""Game service throughput: commands per second and p50/p99 latency with 1, 100 and 1,000
concurrent games, on SQLite and (when BENCH_POSTGRES_URL or TEST_POSTGRES_URL is set) on
PostgreSQL; and the memory of the process holding 1,000 active games."""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from game.ai.match import ai_game
from game.commands import Command, PickCard
from game.dice import seed_from_number
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import Actor, GameService


def SEED() -> str:
    return seed_from_number(1)  # every game rolls the dice the scripted game was played with


SIZES = ((1, 200), (100, 20), (1000, 8))  # (games, commands per game)


def command_script() -> list[tuple[str, Command]]:
    """The commands of one AI game, with the player who gave each."""
    session = ai_game(1)
    from game.engine import decide  # noqa: F401 - the commands below were accepted by it

    out: list[tuple[str, Command]] = []
    # re-derive who issued each command from the game's own record of decisions
    from game.ai.captain import Captain
    from game.phases.flow import deciders
    from game.scenario import quickstart
    from game.table_session import TableSession

    t = TableSession(quickstart(seed=1))
    captains = {p: Captain(p, 1) for p in ("A", "B")}
    while deciders(t.state):
        p = sorted(deciders(t.state))[0]
        cmd = captains[p].act(t.state)
        t.submit(cmd)
        out.append((p, cmd))
    assert t.state == session.state
    return out


ACTORS = {"A": Actor("111", "bench"), "B": Actor("222", "bench")}


async def seated_games(service: GameService, count: int, first: int = 0) -> list[int]:
    """Quick-start games in channels chan-0… (or from chan-`first`), both sides taken: the ids."""
    ids = []
    for g in range(first, first + count):
        info = await service.lobby.create_game(ACTORS["A"], f"chan-{g}")
        await service.lobby.join(ACTORS["A"], info.id, "A")
        await service.lobby.join(ACTORS["B"], info.id, "B")
        ids.append(info.id)
    return ids


async def run(url: str, games: int, per_game: int, script: list[tuple[str, Command]]) -> dict[str, float]:
    engine = make_engine(url)
    service = GameService(engine, seeds=SEED, outbox=True)  # as the bot: each command writes its posts
    actors = ACTORS
    ids = await seated_games(service, games)
    latencies: list[float] = []

    async def client(gid: int) -> None:
        for n, (player, cmd) in enumerate(script[:per_game]):
            t0 = time.perf_counter()
            if isinstance(cmd, PickCard):
                await service.commands.submit(actors[player], gid, cmd, request_id=f"{gid}-{n}")
            else:
                await service.commands.submit(actors[player], gid, cmd, request_id=f"{gid}-{n}")
            latencies.append(time.perf_counter() - t0)

    t_start, cpu_start = time.perf_counter(), time.process_time()
    await asyncio.gather(*(client(g) for g in ids))
    elapsed, cpu = time.perf_counter() - t_start, time.process_time() - cpu_start
    rss = _rss_mb()
    await engine.dispose()
    latencies.sort()
    return {
        "commands": len(latencies),
        "per_s": len(latencies) / elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000,
        "rss": rss,
        "cpu_ms": cpu / max(1, len(latencies)) * 1000,
        "grouped": service.store.repo.writer.appends / max(1, service.store.repo.writer.batches),
    }


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def _postgres_db(base: str) -> tuple[str, str]:
    import asyncpg

    name = f"qd_bench_{uuid.uuid4().hex[:8]}"
    admin = base.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(admin)
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    return base.rpartition("/")[0] + "/" + name, name


async def _drop(base: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(base.replace("postgresql+asyncpg://", "postgresql://"))
    await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await conn.close()


async def amain() -> None:
    script = command_script()
    pg = os.environ.get("BENCH_POSTGRES_URL") or os.environ.get("TEST_POSTGRES_URL")
    engines = [("SQLite", None)] + ([("PostgreSQL", pg)] if pg else [])
    print("the service's CPU per command (decision and write, this process): at the start of issue 15, 10–16 ms on "
          "SQLite and 8–11 ms on PostgreSQL; target ≤ 2 ms")
    for label, base in engines:
        for games, per_game in SIZES:
            if base is None:
                tmp = tempfile.mkdtemp()
                url, name = f"sqlite+aiosqlite:///{tmp}/bench.db", ""
            else:
                url, name = await _postgres_db(base)
            await upgrade_to_head(url)
            r = await run(url, games, per_game, script)
            print(f"{label:10} {games:5} games: {r['commands']:6.0f} commands, {r['per_s']:7.1f} commands/s, "
                  f"p50 {r['p50']:7.1f} ms, p99 {r['p99']:8.1f} ms, CPU {r['cpu_ms']:5.2f} ms/command, "
                  f"{r['grouped']:4.1f} per commit, process RSS {r['rss']:6.0f} MB")
            if base is not None:
                await _drop(base, name)


def main() -> None:
    asyncio.run(amain())


if __name__ == "__main__":
    main()
