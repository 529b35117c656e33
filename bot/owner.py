"""Reports to the bot's owner through OWNER_WEBHOOK_URL (a Discord webhook): every error logged, and
each server the bot joins or leaves. Posting never holds up what reported it: reports wait in a
bounded queue that one task empties; when errors come faster than they can be posted, the surplus is
counted and said in the next report, not queued without end."""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

import aiohttp
import discord

from bot.limits import fit

log = logging.getLogger(__name__)
QUEUE = 50


class OwnerReports:
    def __init__(self, url: str, session: aiohttp.ClientSession) -> None:
        self.webhook = discord.Webhook.from_url(url, session=session)
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE)
        self.dropped = 0
        self.loop = asyncio.get_running_loop()

    def say(self, text: str) -> None:
        """From the loop, or from any thread (a job run in a thread logs its errors there too): the
        queue is the loop's own, so another thread hands the report over to it."""
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is self.loop:
            self._put(text)
            return
        with suppress(RuntimeError):  # the loop has closed: the bot is gone, and the log keeps the record
            self.loop.call_soon_threadsafe(self._put, text)

    def _put(self, text: str) -> None:
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped += 1

    async def run(self) -> None:
        while True:
            text = await self.queue.get()
            if self.dropped:
                text, self.dropped = f"{text}\n({self.dropped} more reports were not posted)", 0
            try:
                await self.webhook.send(fit(text), allowed_mentions=discord.AllowedMentions.none())
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
                # logged below ERROR: a report of a failed report would loop
                log.warning("could not post a report to OWNER_WEBHOOK_URL: %s", exc)
            finally:
                self.queue.task_done()


class ErrorsToOwner(logging.Handler):
    """A logging handler: each ERROR (and worse) record, with the last line of its exception, as a report."""

    def __init__(self, reports: OwnerReports) -> None:
        super().__init__(logging.ERROR)
        self.reports = reports

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("bot.owner", "discord.webhook")):
            return  # the reporting's own trouble: reported by the log alone
        try:
            text = f"⚠️ {record.levelname} {record.name}: {record.getMessage()}"
            if record.exc_info and record.exc_info[1] is not None:
                exc = record.exc_info[1]
                text += f"\n`{type(exc).__name__}: {str(exc)[:500]}`"
            self.reports.say(text)
        except Exception:
            self.handleError(record)
