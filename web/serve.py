"""Serving the pages: inside the bot's process (WEB_PORT, bot/observe.py) or on their own
(`quarterdeck web`, beside the bot on the same database)."""

from __future__ import annotations

import asyncio
import logging
import signal

from aiohttp import web

from game.service.game_service import GameService
from game.service.settings import Settings, SettingsError
from web.app import make_app
from web.limits import Limits

log = logging.getLogger(__name__)


async def serve(service: GameService, host: str, port: int, trust_proxy: bool = False,
                limits: Limits | None = None) -> tuple[web.AppRunner, int]:
    """The pages listening on host:port (port 0: any free one); the runner to clean up, and the port.
    SettingsError when the address cannot be listened on."""
    runner = web.AppRunner(make_app(service, limits, trust_proxy), access_log=None)  # tokens stay out of logs
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        raise SettingsError(f"The web pages cannot listen on {host}:{port} ({exc.strerror or exc}): choose a free "
                            "port with --port or WEB_PORT.") from None
    bound = int(runner.addresses[0][1])
    log.info("web pages on http://%s:%s/", host, bound)
    return runner, bound


async def run_alone(settings: Settings, host: str, port: int) -> int:
    """`quarterdeck web`: the pages in a process of their own, until SIGTERM or SIGINT."""
    from game.service.opening import open_reader, reader_problem
    from game.service.workers import configure

    problem = reader_problem(settings.database_url)
    if problem is not None:  # refused before the worker processes start: a refused start leaves nothing behind
        raise SettingsError(problem)
    workers = configure(settings.workers)
    service = await open_reader(settings.database_url, workers=workers, cached_games=settings.cached_games)
    workers.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        runner, bound = await serve(service, host, port, settings.web_trust_proxy)
        print(f"Quarterdeck's web pages on http://{host}:{bound}/ (Ctrl+C stops).", flush=True)
        try:
            await stop.wait()
        finally:
            await runner.cleanup()
    finally:
        await service.front.close()
        workers.close()
    return 0
