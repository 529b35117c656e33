"""OWNER_WEBHOOK_URL: errors logged and servers joined or left reach the owner's channel through the
webhook, on the fake Discord; and the watchers started around the bot (bot/observe.py) refuse a
HEALTH_PORT that is taken with the setting's name."""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import replace
from typing import Any

import aiohttp
import pytest

from bot.observe import observing
from bot.owner import QUEUE, OwnerReports
from game.service.settings import Settings, SettingsError
from game.service.workers import Workers

OWNER_CHANNEL = 900000000000000009


def posted(fake: Any) -> list[str]:
    return [m.content for m in fake.messages.values() if m.channel_id == str(OWNER_CHANNEL)]


async def settle(bot: Any) -> None:
    assert bot.owner_reports is not None
    await asyncio.wait_for(bot.owner_reports.queue.join(), 5)


def guild(guild_id: int, name: str) -> dict[str, Any]:
    return {"id": str(guild_id), "name": name, "member_count": 12, "roles": [], "channels": [], "emojis": [],
            "stickers": [], "features": [], "threads": [], "members": [], "voice_states": [], "presences": []}


async def test_errors_and_servers_joined_and_left_reach_the_owner(harness: Any) -> None:
    bot, fake = harness
    settings = Settings(owner_webhook_url=fake.channel_webhook(OWNER_CHANNEL))
    async with observing(settings, bot, Workers(0)):
        try:
            raise RuntimeError("the courier's database went away")
        except RuntimeError:
            logging.getLogger("bot.outbox").exception("courier pass failed")
        logging.getLogger("bot.outbox").warning("a warning is not reported")
        bot._connection.parse_guild_create(guild(700000000000000007, "The *Nelson* Club"))
        await settle(bot)
        bot._connection.parse_guild_delete({"id": "700000000000000007"})  # kicked: not "unavailable"
        await settle(bot)
    said = posted(fake)
    assert len(said) == 3, said
    assert said[0].startswith("⚠️ ERROR bot.outbox: courier pass failed")
    assert "RuntimeError: the courier's database went away" in said[0]
    assert said[1].startswith("➕ Joined The \\*Nelson\\* Club (700000000000000007), 12 members")
    assert said[2].startswith("➖ Left The \\*Nelson\\* Club (700000000000000007)")
    assert not any(isinstance(h, logging.Handler) and type(h).__name__ == "ErrorsToOwner"
                   for h in logging.getLogger().handlers), "the handler goes with the bot"


async def test_a_flood_of_errors_is_counted_not_queued_without_end() -> None:
    async with aiohttp.ClientSession() as session:
        reports = OwnerReports("https://discord.com/api/webhooks/123456789012345678/" + "t" * 68, session)
        for n in range(QUEUE + 7):
            reports.say(f"error {n}")
        assert reports.queue.qsize() == QUEUE and reports.dropped == 7


async def test_a_taken_health_port_is_named(harness: Any) -> None:
    bot, _ = harness
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = replace(Settings(), health=("127.0.0.1", port))
        with pytest.raises(SettingsError, match=f"HEALTH_PORT 127.0.0.1:{port} cannot be listened on"):
            async with observing(settings, bot, Workers(0)):
                pass


async def test_an_error_logged_in_a_thread_is_reported_too(harness: Any) -> None:
    bot, fake = harness
    settings = Settings(owner_webhook_url=fake.channel_webhook(OWNER_CHANNEL))
    async with observing(settings, bot, Workers(0)):
        await asyncio.to_thread(logging.getLogger("render.pooled").error, "a render failed in its thread")
        # the hand-over was scheduled on the loop before the thread's result was: it has run by now
        await settle(bot)
    assert posted(fake) == ["⚠️ ERROR render.pooled: a render failed in its thread"]
