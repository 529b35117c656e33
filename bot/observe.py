"""What watches the running bot, started and stopped around it by run_bot: the health endpoint
(HEALTH_PORT), the games' web pages (WEB_PORT), the reports to the owner (OWNER_WEBHOOK_URL), and systemd's READY=1 and watchdog."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import aiohttp

from bot.app import QuarterdeckBot
from bot.health import Health, serve
from bot.notify import feed_watchdog, notify, watchdog_interval
from bot.owner import ErrorsToOwner, OwnerReports
from game.service.settings import Settings, SettingsError
from game.service.workers import Workers

log = logging.getLogger(__name__)


@asynccontextmanager
async def observing(settings: Settings, bot: QuarterdeckBot, workers: Workers) -> AsyncIterator[None]:
    """SettingsError when HEALTH_PORT cannot be listened on (taken, or an address not this machine's)."""
    tasks: list[asyncio.Task[Any]] = []
    runner = None
    pages = None
    session = None
    handler = None
    try:
        if settings.health is not None:
            host, port = settings.health
            try:
                runner, _ = await serve(Health(bot, bot.service, workers), host, port)
            except OSError as exc:
                raise SettingsError(f"HEALTH_PORT {host}:{port} cannot be listened on ({exc.strerror or exc}): "
                                    f"choose a free port, or leave HEALTH_PORT empty.") from None
        if settings.web is not None:  # the games' web pages in this process (docs/web.md): live at once
            from web.serve import serve as serve_pages

            pages, _ = await serve_pages(bot.service, settings.web[0], settings.web[1], settings.web_trust_proxy)
        if settings.owner_webhook_url:
            session = aiohttp.ClientSession()
            bot.owner_reports = OwnerReports(settings.owner_webhook_url, session)
            handler = ErrorsToOwner(bot.owner_reports)
            logging.getLogger().addHandler(handler)
            tasks.append(asyncio.create_task(bot.owner_reports.run()))
        tasks.append(asyncio.create_task(_ready(bot)))
        interval = watchdog_interval()
        if interval is not None:
            tasks.append(asyncio.create_task(feed_watchdog(interval)))
        yield
    finally:
        notify("STOPPING=1")
        if bot.owner_reports is not None:  # what was said before the stop still goes out, briefly
            with suppress(TimeoutError):
                await asyncio.wait_for(bot.owner_reports.queue.join(), 5)
        for task in tasks:
            task.cancel()
        if handler is not None:
            logging.getLogger().removeHandler(handler)
        if session is not None:
            await session.close()
        if runner is not None:
            await runner.cleanup()
        if pages is not None:
            await pages.cleanup()


async def _ready(bot: QuarterdeckBot) -> None:
    """READY=1 once the gateway has said READY: systemd counts the start done only then."""
    await bot.wait_until_ready()
    notify("READY=1")
    log.info("connected to Discord as %s", bot.user)
