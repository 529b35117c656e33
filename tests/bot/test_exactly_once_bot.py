"""Issue 29, item 4: exactly once where Discord allows it. Every message the courier makes carries its
outbox row's nonce with `enforce_nonce` (resources-message.mdx, Create Message: "If another message
was created by the same author with the same nonce, that message will be returned and no new message
will be created"), so a post tried again after a process was killed between Discord making it and the
database recording it is not made twice. And the process that was killed takes its claims back as
soon as it starts again, instead of leaving the game's later posts behind the lease."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.app import QuarterdeckBot, lease_owner
from bot.outbox import nonce
from game.service import outbox
from game.service.db import make_engine
from game.service.game_service import Actor, GameService
from game.service.models import utcnow
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord, Sent
from tests.bot.test_bot import ANN, BOB, pick, setup_game
from tests.bot.test_outbox_bot import posts_to, rows
from tests.seeds import counting_seeds


@asynccontextmanager
async def process(tmp_path: Path, shard_ids: tuple[int, ...] | None = None) -> AsyncIterator[QuarterdeckBot]:
    """Another start of the bot on the same database (a restart, or another process of the bot)."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    bot = QuarterdeckBot(GameService(engine, seeds=counting_seeds()), sync_commands=False, run_scheduler=False,
                         shard_ids=shard_ids, shard_count=2 if shard_ids is not None else None)
    await bot.login(TOKEN)  # its setup_hook takes back what this identity held
    try:
        yield bot
    finally:
        await bot.close()
        await engine.dispose()


def boards(fake: FakeDiscord) -> list[Sent]:
    return [r for r in posts_to(fake, CHANNEL_ID) if r.files]


def made(fake: FakeDiscord) -> int:
    """Messages Discord made in the game's channel (a request answered with an earlier message made none)."""
    return sum(1 for m in fake.messages.values() if m.channel_id == str(CHANNEL_ID))


async def test_every_courier_message_carries_its_own_nonce_enforced(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await pick(bot, fake, ANN, "Effective Fire")
    await pick(bot, fake, BOB, "Take Courage")
    created = [r for r in fake.requests if r.in_channel and r.response_message_id]
    assert len(created) >= 6  # the announcement, boards, the status message, the nudges (DMs)
    for r in created:
        assert r.payload["enforce_nonce"] is True and re.fullmatch(r"qd\d{1,19}", r.payload["nonce"]), r.payload
    nonces = [r.payload["nonce"] for r in created]
    assert len(set(nonces)) == len(nonces)  # one message a row: no nonce answers for another message
    delivered = {nonce(r.id or 0) for r in await rows(bot) if r.status == "done" and r.kind != "status"}
    assert set(nonces) <= delivered | {nonce(r.id or 0) for r in await rows(bot) if r.kind == "status"}
    assert fake.nonce_replays == 0  # nothing was sent twice


async def test_a_post_made_before_the_process_was_killed_is_not_made_again(harness: Any, tmp_path: Path) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await bot.service.commands.pick(Actor(str(ANN[0]), str(GUILD_ID)), 1, "Effective Fire")
    before_boards, before_made = len(boards(fake)), made(fake)
    # the courier claims the board and posts it; Discord makes the message, and the process is killed
    # before the database hears of it (the row stays claimed under this process's identity)
    delivery = await bot.service.front.claim(1, utcnow())
    assert delivery is not None and delivery.kind == "board"
    await bot.courier.deliver(delivery)
    assert len(boards(fake)) == before_boards + 1 and made(fake) == before_made + 1
    [row] = [r for r in await rows(bot) if r.id == delivery.id]
    assert row.status == "running" and row.owner == bot.lease_owner == lease_owner(None)
    async with process(tmp_path) as restarted:  # the service manager starts it again: same shards
        [row] = [r for r in await rows(restarted) if r.id == delivery.id]
        assert row.status == "pending" and row.owner is None  # taken back at once, not in two minutes
        await restarted.courier.drain_all()
    retried = boards(fake)[-1]
    assert len(boards(fake)) == before_boards + 2 and retried.payload["nonce"] == nonce(delivery.id)
    assert retried.response_message_id == boards(fake)[-2].response_message_id  # Discord's first message
    assert made(fake) == before_made + 1  # the board once (the status is an edit of its message)
    assert fake.nonce_replays == 1
    assert [r.status for r in await rows(bot) if r.id == delivery.id] == ["done"]


async def test_a_killed_process_s_claim_waits_out_its_lease_for_any_other_process(harness: Any,
                                                                                   tmp_path: Path) -> None:
    """Only the same identity may know its old self is dead: another live process (other shards) cannot
    tell a killed claimer from a slow one, so it leaves the row until the lease ends."""
    bot, fake = harness
    await setup_game(bot, fake)
    await bot.service.commands.pick(Actor(str(ANN[0]), str(GUILD_ID)), 1, "Effective Fire")
    delivery = await bot.service.front.claim(1, utcnow())
    assert delivery is not None
    before = len(boards(fake))
    async with process(tmp_path, shard_ids=(1,)) as other:
        assert other.lease_owner == "shards:1" != bot.lease_owner
        await other.courier.drain_all()
        assert len(boards(fake)) == before
        [row] = [r for r in await rows(other) if r.id == delivery.id]
        assert row.status == "running" and row.owner == bot.lease_owner
        await other.courier.drain_all(now=utcnow() + outbox.LEASE + timedelta(seconds=5))
    assert len(boards(fake)) == before + 1 and boards(fake)[-1].payload["nonce"] == nonce(delivery.id)


async def test_the_status_message_retried_after_a_crash_is_the_one_recorded(harness: Any,
                                                                            monkeypatch: Any) -> None:
    """A new status message is posted and then recorded: a failure in between (the process dying, the
    database away) and the retry is given the first message back by its nonce, which is the one recorded
    and edited from then on: no second status line left behind, never updated."""
    bot, fake = harness
    await setup_game(bot, fake)
    await bot.service.front.set_status_message(1, "1")  # the status message was deleted: a new one is due
    record = bot.service.front.set_status_message
    calls = 0

    async def lost_once(game_id: int, message_id: str) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("the database went away after Discord made the message")
        await record(game_id, message_id)

    monkeypatch.setattr(bot.service.front, "set_status_message", lost_once)
    await bot.service.front.enqueue(1, "status", {})
    later = utcnow() + timedelta(minutes=1)
    await bot.courier.drain(1, now=later)
    [row] = [r for r in await rows(bot) if r.kind == "status" and r.status == "pending"]
    assert "OSError" in row.last_error
    await bot.courier.drain(1, now=later + timedelta(minutes=15))
    statuses = [m for m in fake.messages.values() if m.content.startswith("📋")]
    assert len(statuses) == 2  # the one deleted by "1" aside: the first, and exactly one new one
    new = [r for r in fake.requests if r.in_channel and r.method == "POST" and "📋" in r.content][-2:]
    assert new[0].payload["nonce"] == new[1].payload["nonce"] == nonce(row.id or 0)
    assert new[0].response_message_id == new[1].response_message_id
    assert (await bot.service.store.load(1)).record.status_message_id == new[0].response_message_id


async def test_a_post_retried_when_its_lease_ends_is_still_in_discord_s_nonce_window(harness: Any) -> None:
    """The claimer posted, then could not record it (its database away) and the row's lease ran out:
    whoever claims it next does so within NONCE_WINDOW of that post ("checked for uniqueness in the
    past few minutes"), so Discord answers with the first message."""
    from tests.bot.discord_protocol import NONCE_WINDOW

    assert outbox.LEASE.total_seconds() + 10 < NONCE_WINDOW  # the margin: a pass every 2 s, a slow claim
    bot, fake = harness
    await setup_game(bot, fake)
    await bot.service.commands.pick(Actor(str(ANN[0]), str(GUILD_ID)), 1, "Effective Fire")
    delivery = await bot.service.front.claim(1, utcnow())
    assert delivery is not None
    await bot.courier.deliver(delivery)
    before = made(fake)
    fake.advance(outbox.LEASE.total_seconds() + 5)  # Discord's clock moves on with the lease
    await bot.courier.drain_all(now=utcnow() + outbox.LEASE + timedelta(seconds=5))
    assert made(fake) == before and fake.nonce_replays == 1
    assert [r.status for r in await rows(bot) if r.id == delivery.id] == ["done"]
