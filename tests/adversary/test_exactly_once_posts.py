"""Exactly-once posting played against itself (issue 29, item 4): the nonce that keeps a retried post
from being made twice must never swallow a message that should be made, and a restart's reclaim must
never make a post twice. Discord's rule, as the fake keeps it (resources-message.mdx, Create Message,
`enforce_nonce`): "If another message was created by the same author with the same nonce, that message
will be returned and no new message will be created" — the same author, in any channel."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import QuarterdeckBot
from game.service.game_service import Actor
from game.service.models import utcnow
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.bot.harness import running_bot
from tests.bot.test_bot import ANN, setup_game
from tests.bot.test_exactly_once_bot import boards, process
from tests.bot.test_outbox_bot import rows


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[tuple[QuarterdeckBot, FakeDiscord]]:
    async with running_bot(tmp_path) as running:
        yield running


async def test_a_rolling_restart_posts_a_board_once_though_both_processes_post_it(harness: Any,
                                                                                    tmp_path: Path) -> None:
    """The new process starts before the old one has finished a post (same shards, so the same lease
    owner): it takes the row back and posts it, the old one's post lands too and is recorded late. One
    message, one row done."""
    bot, fake = harness
    await setup_game(bot, fake)
    await bot.service.commands.pick(Actor(str(ANN[0]), str(GUILD_ID)), 1, "Effective Fire")
    delivery = await bot.service.front.claim(1, utcnow())
    assert delivery is not None and delivery.kind == "board"
    before = sum(1 for m in fake.messages.values() if m.channel_id == str(CHANNEL_ID) and m.files)
    async with process(tmp_path) as new:
        await new.courier.drain_all()  # the new process posts the row it took back
        await bot.courier.deliver(delivery)  # the old one's try, still under way, reaches Discord after
        await bot.service.front.delivered(delivery, utcnow())
    made = [m for m in fake.messages.values() if m.channel_id == str(CHANNEL_ID) and m.files]
    assert len(made) == before + 1 and fake.nonce_replays == 1
    assert len({r.response_message_id for r in boards(fake)[-2:]}) == 1
    assert [r.status for r in await rows(bot) if r.id == delivery.id] == ["done"]


async def test_one_row_s_two_messages_are_both_made_and_each_only_once(harness: Any) -> None:
    """A planned order refused makes a DM to its planner and a line in the channel from one row: were
    they to share a nonce, Discord would answer the second with the first (the same author) and the
    channel would never hear of it. Tried twice, each is made once."""
    bot, fake = harness
    await setup_game(bot, fake)
    note = {"user": str(ANN[0]), "player": "A", "line": "Ocean move 1 <@&1> @everyone", "reason": "it sank"}
    [row_id] = await bot.service.front.enqueue(1, "planned", note)
    delivery = await bot.service.front.claim(1, utcnow())
    assert delivery is not None and delivery.id == row_id
    await bot.courier.deliver(delivery)
    await bot.courier.deliver(delivery)  # the same row again: a retry after an answer was lost
    dm = fake.dm_channels[str(ANN[0])]
    dms = [m for m in fake.messages.values() if m.channel_id == dm and "planned order" in m.content]
    lines = [m for m in fake.messages.values() if m.channel_id == str(CHANNEL_ID) and "planned order" in m.content]
    assert len(dms) == 1 and len(lines) == 1 and dms[0].nonce != lines[0].nonce
    assert "@everyone" not in lines[0].content and fake.nonce_replays == 2
    assert not fake.pinged(1)  # nor did the role in the line ping anyone

