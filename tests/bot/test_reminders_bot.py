"""Reminders and deadline notices reach the player in the game's thread even after the thread has
gone quiet, been archived and left discord.py's cache (the finding of issue 13: they were lost)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select

from game.service.models import ScheduledJob, utcnow
from game.service.scheduler import run_due
from tests.bot.fake_discord import GUILD_ID, command, dispatch
from tests.bot.test_bot import ANN, BOB


async def test_an_archived_thread_game_gets_its_reminder_and_deadline(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "game", "create", thread=True), fake)
    [thread] = fake.threads()
    info = await bot.service.game_in_channel(str(GUILD_ID), thread["id"])
    assert info is not None
    await dispatch(bot, command(ANN, "game", "join", side="A", channel_id=int(thread["id"])), fake)
    await dispatch(bot, command(BOB, "game", "join", side="B", channel_id=int(thread["id"])), fake)
    fake.archive(thread["id"])  # a quiet day: archived, and never in the bot's cache (no gateway here)
    assert bot.get_channel(int(thread["id"])) is None
    mark = len(fake.requests)
    handlers = {"reminder": bot._remind, "deadline": bot._deadline}
    assert await run_due(bot.service.repo, handlers, now=utcnow() + timedelta(days=3)) == 4  # both players, both jobs
    posts = [r for r in fake.requests[mark:] if r.method == "POST" and r.path.endswith(f"/channels/{thread['id']}/messages")]
    texts = sorted(p.content for p in posts)
    assert len(texts) == 4 and sum("Reminder" in t for t in texts) == 2 and sum("deadline" in t for t in texts) == 2
    assert {f"<@{ANN[0]}>" in t or f"<@{BOB[0]}>" in t for t in texts} == {True}
    assert fake.channels[thread["id"]]["thread_metadata"]["archived"] is False  # the post reopened it


async def test_a_locked_thread_keeps_the_job_for_a_retry(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "game", "create", thread=True), fake)
    [thread] = fake.threads()
    await dispatch(bot, command(ANN, "game", "join", side="A", channel_id=int(thread["id"])), fake)
    await dispatch(bot, command(BOB, "game", "join", side="B", channel_id=int(thread["id"])), fake)
    fake.archive(thread["id"], locked=True)  # a moderator locked it: Discord refuses the post
    handlers = {"reminder": bot._remind, "deadline": bot._deadline}
    assert await run_due(bot.service.repo, handlers, now=utcnow() + timedelta(days=3)) == 0
    async with bot.service.repo.session() as s:
        jobs = list((await s.execute(select(ScheduledJob).where(ScheduledJob.status == "pending"))).scalars())
    assert len(jobs) == 4 and all("50083" in j.last_error or "archived" in j.last_error.lower() for j in jobs)
