"""`/healthz` and `/metrics` on HEALTH_PORT (docs/hosting.md, "Watching it run"): a small aiohttp app
in the bot's own event loop, so an answer also says the loop is not stuck.

/healthz answers 200 with a JSON body when the gateway is connected, the database answers, the worker
pool can take a job and the courier keeps up with the outbox; otherwise 503, naming what is not. The
database is reached through the service (FrontEnd.vitals): the bot opens no session of its own.
/metrics is Prometheus's text format (game/service/metrics.py), with the backlog and the games live
read from the database as it is asked."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from game.service.frontend import Vitals
from game.service.game_service import GameService
from game.service.metrics import BACKLOG, GAMES_LIVE
from game.service.workers import Workers

log = logging.getLogger(__name__)

# the courier tries what is due every two seconds: a post due this long means it has stopped
OVERDUE = timedelta(minutes=10)
ASK_TIMEOUT = 5.0  # a database that does not answer in this long is as good as down, for a health check


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str


class Health:
    def __init__(self, client: discord.Client, service: GameService, workers: Workers) -> None:
        self.client = client
        self.service = service
        self.workers = workers

    async def vitals(self) -> Vitals:
        try:
            return await asyncio.wait_for(self.service.front.vitals(), ASK_TIMEOUT)
        except TimeoutError:
            return Vitals(problem=f"no answer in {ASK_TIMEOUT:g} seconds")

    def gateway(self) -> Check:
        shards = getattr(self.client, "shards", {})
        down = sorted(i for i, shard in shards.items() if shard.is_closed())
        if self.client.is_closed() or not self.client.is_ready():
            return Check(False, "not connected to Discord's gateway")
        if down:
            return Check(False, f"shards {down} are disconnected")
        return Check(True, "connected")

    async def checks(self) -> tuple[dict[str, Check], Vitals]:
        vitals = await self.vitals()
        database = Check(vitals.problem is None, vitals.problem or "reachable")
        alive = self.workers.alive()
        workers = Check(alive, "alive" if alive else "a worker process died")
        overdue = vitals.problem is None and vitals.overdue > OVERDUE
        outbox = Check(vitals.problem is None and not overdue,
                       "unknown (the database is unreachable)" if vitals.problem is not None else
                       f"{vitals.backlog} posts waiting" + (f", one due for {vitals.overdue}" if overdue else ""))
        return {"gateway": self.gateway(), "database": database, "workers": workers, "outbox": outbox}, vitals

    async def healthz(self, request: web.Request) -> web.Response:
        checks, vitals = await self.checks()
        failing = [name for name, check in checks.items() if not check.ok]
        body: dict[str, Any] = {
            "status": "ok" if not failing else "failing", "failing": failing,
            "checks": {name: {"ok": c.ok, "detail": c.detail} for name, c in checks.items()},
            "outbox_backlog": vitals.backlog, "games_live": vitals.games_live,
        }
        return web.json_response(body, status=503 if failing else 200)

    async def metrics(self, request: web.Request) -> web.Response:
        vitals = await self.vitals()
        if vitals.problem is None:  # else the last values read stay, and /healthz says why
            BACKLOG.set(vitals.backlog)
            GAMES_LIVE.set(vitals.games_live)
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        return app


async def serve(health: Health, host: str, port: int) -> tuple[web.AppRunner, int]:
    """The endpoint listening on host:port (port 0: any free one); the runner to clean up, and the port."""
    runner = web.AppRunner(health.app(), access_log=None)  # a scrape every few seconds is not news
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = int(runner.addresses[0][1])
    log.info("health endpoint on http://%s:%s/healthz and /metrics", host, bound)
    return runner, bound
