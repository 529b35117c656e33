from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import QuarterdeckBot
from tests.bot.fake_discord import FakeDiscord
from tests.bot.harness import running_bot


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[tuple[QuarterdeckBot, FakeDiscord]]:
    async with running_bot(tmp_path) as running:
        yield running
