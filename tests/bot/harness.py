"""The real bot on the fake Discord, over a fresh SQLite database: shared by the bot tests and the
adversary suite (which also chooses where each game's secret dice seed comes from). A test fails
if the bot sent anything Discord would refuse for breaking one of its limits, unless the test said
it expected that (`fake.expect_violation`), or ran into a rate limit the headers had told it of."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import discord

from bot.app import QuarterdeckBot
from game.service.db import make_engine
from game.service.game_service import GameService
from tests.bot.fake_discord import TOKEN, FakeDiscord
from tests.bot.routes import assert_covers
from tests.databases import sqlite_at_head
from tests.seeds import counting_seeds


@asynccontextmanager
async def running_bot(tmp_path: Path, seeds: Callable[[], str] | None = None) -> AsyncIterator[tuple[QuarterdeckBot, FakeDiscord]]:
    fake = FakeDiscord()
    base = await fake.start()
    old_base = discord.http.Route.BASE
    discord.http.Route.BASE = base  # both the HTTP client and the webhook adapter build URLs from it
    url = sqlite_at_head(tmp_path / "bot.db")
    engine = make_engine(url)
    bot = QuarterdeckBot(GameService(engine, seeds=seeds or counting_seeds()), sync_commands=False, run_scheduler=False)
    try:
        await bot.login(TOKEN)
        yield bot, fake
    finally:
        await bot.close()
        await engine.dispose()
        discord.http.Route.BASE = old_base
        await fake.stop()
    # reached only when the test itself passed: a request Discord would have refused fails it, and so
    # does an answer of the fake's that is not what Discord's contract says Discord answers, and a 429
    # for a limit the answers' headers had told of (a test's own `fake.rate_limit` is shared)
    broken = fake.unexpected_violations()
    assert not broken, "Discord's contract was broken (a request Discord would have refused, or the fake's " \
        "own answer):\n" + "\n".join(map(str, broken))
    assert not fake.rates.refused, f"rate limited by Discord: {fake.rates.refused[:5]}"
    assert_covers(fake.operations)
