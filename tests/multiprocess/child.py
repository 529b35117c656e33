"""One bot process for the multi-process tests: the real bot on the shared fake Discord (reached over
loopback HTTP) and the shared PostgreSQL database. It reads interaction payloads, one JSON object a
line, from stdin and feeds them to discord.py as the gateway would; it prints `ready` once logged in.

    python -m tests.multiprocess.child FAKE_BASE_URL DATABASE_URL NAME
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys

import discord

from bot.app import QuarterdeckBot
from game.service.db import make_engine
from game.service.game_service import GameService
from tests.bot.fake_discord import TOKEN
from tests.seeds import counting_seeds


async def main(base: str, db_url: str, name: str) -> None:
    logging.basicConfig(level=logging.WARNING, format=f"[{name}] %(levelname)s %(name)s: %(message)s")
    discord.http.Route.BASE = base
    engine = make_engine(db_url)
    # each process draws seeds from its own counter: two processes must never give two games one seed
    first_seed = 1001 if name.endswith("b") else 1
    # as deployed: each process its own shard (so its own outbox lease owner, docs/service.md)
    bot = QuarterdeckBot(GameService(engine, seeds=counting_seeds(first_seed)), sync_commands=False,
                         run_scheduler=True, shard_count=2, shard_ids=(1,) if name.endswith("b") else (0,))
    await bot.login(TOKEN)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        while line := await reader.readline():
            payload = json.loads(line)
            bot._connection.parse_interaction_create(payload)  # type: ignore[attr-defined]
            print(f"got {payload['id']}", flush=True)
    finally:
        await bot.close()
        await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
