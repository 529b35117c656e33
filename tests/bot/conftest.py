from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.app import QuarterdeckBot
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import GameService
from tests.bot.fake_discord import TOKEN, FakeDiscord


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[tuple[QuarterdeckBot, FakeDiscord]]:
    fake = FakeDiscord()
    base = await fake.start()
    old_base = discord.http.Route.BASE
    discord.http.Route.BASE = base  # both the HTTP client and the webhook adapter build URLs from it
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    await upgrade_to_head(url)
    engine = make_engine(url)
    bot = QuarterdeckBot(GameService(engine), sync_commands=False, run_scheduler=False)
    try:
        await bot.login(TOKEN)
        yield bot, fake
    finally:
        await bot.close()
        await engine.dispose()
        discord.http.Route.BASE = old_base
        await fake.stop()
