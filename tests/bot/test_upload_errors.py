"""A malformed upload answers with the entry and field to fix, never the bot's generic apology."""

from __future__ import annotations

from typing import Any

from bot.actions import UNEXPECTED
from tests.bombs import SCENARIO_BOMBS
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, command, dispatch
from tests.bot.test_bot import ANN, last_followup


async def test_a_malformed_scenario_upload_names_the_field(harness: Any) -> None:
    bot, fake = harness
    bomb = next(b for b in SCENARIO_BOMBS if b.name == "width 1e308")
    upload = fake.attach("bomb.toml", bomb.text().encode())
    sent = await dispatch(bot, command(ANN, "game", "create", attachments={"file": upload}), fake)
    answer = last_followup(sent).content
    assert answer.startswith("❌") and "entry 'table', field 'width'" in answer and "120" in answer
    assert UNEXPECTED not in answer
    assert await bot.service.lobby.game_in_channel(str(GUILD_ID), str(CHANNEL_ID)) is None
