"""The outbox's cost: commands through the service with and without the outbox rows written in their
transaction (the same run, alternated, so a loaded machine weighs on both alike), and the database
side of delivering a row (claim, then mark delivered) with Discord left out. SQLite, and PostgreSQL
when BENCH_POSTGRES_URL or TEST_POSTGRES_URL is set."""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from benchmarks.service import command_script
from game.commands import Command
from game.service import outbox
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import LOCAL_GUILD, Actor, GameService
from game.service.models import utcnow

COMMANDS = 120
ROUNDS = 3


async def commands(url: str, script: list[tuple[str, Command]], with_outbox: bool) -> tuple[float, int]:
    """Seconds per command of one game, and the outbox rows it wrote."""
    engine = make_engine(url)
    service = GameService(engine, outbox=with_outbox)
    actors = {"A": Actor("111", LOCAL_GUILD), "B": Actor("222", LOCAL_GUILD)}  # the seed may be chosen
    info = await service.lobby.create_game(actors["A"], f"chan-{uuid.uuid4().hex[:6]}", seed=1)
    await service.lobby.join(actors["A"], info.id, "A")
    await service.lobby.join(actors["B"], info.id, "B")
    t0 = time.perf_counter()
    for player, cmd in script[:COMMANDS]:
        await service.commands.submit(actors[player], info.id, cmd)
    per = (time.perf_counter() - t0) / len(script[:COMMANDS])
    async with service.store.repo.session() as s:
        rows = len(await outbox.rows_of(s, info.id))
    if with_outbox:
        await drain_cost(service, info.id, rows)
    await engine.dispose()
    return per, rows


DRAIN: list[float] = []


async def drain_cost(service: GameService, game_id: int, rows: int) -> None:
    t0 = time.perf_counter()
    done = 0
    while True:
        async with service.store.repo.session() as s, s.begin():
            row = await outbox.claim(s, game_id, utcnow())
        if row is None:
            break
        async with service.store.repo.session() as s, s.begin():
            await outbox.delivered(s, row, utcnow())
        done += 1
    if done:
        DRAIN.append((time.perf_counter() - t0) / done)


async def compare(url: str, label: str) -> None:
    script = command_script()
    off: list[float] = []
    on: list[float] = []
    rows = 0
    DRAIN.clear()
    for _ in range(ROUNDS):
        off.append((await commands(url, script, False))[0])
        per, rows = await commands(url, script, True)
        on.append(per)
    a, b = statistics.median(off), statistics.median(on)
    print(f"{label}: {len(script[:COMMANDS])} commands (a whole AI game), median of {ROUNDS}: {a * 1000:.2f} ms/command without the outbox, "
          f"{b * 1000:.2f} ms with it ({rows} rows a game): ratio {b / a:.2f}")
    if DRAIN:
        print(f"{label}: claiming and closing a row (Discord left out): {statistics.median(DRAIN) * 1000:.2f} ms a row")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        asyncio.run(upgrade_to_head(url))
        asyncio.run(compare(url, "SQLite"))
    pg = os.environ.get("BENCH_POSTGRES_URL") or os.environ.get("TEST_POSTGRES_URL")
    if pg:
        asyncio.run(_pg(pg))


async def _pg(base: str) -> None:
    import asyncpg

    name = f"qd_bench_{uuid.uuid4().hex[:10]}"
    admin = base.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(admin)
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    url = f"{base.rpartition('/')[0]}/{name}"
    try:
        await upgrade_to_head(url)
        await compare(url, "PostgreSQL")
    finally:
        conn = await asyncpg.connect(admin)
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()


if __name__ == "__main__":
    main()
