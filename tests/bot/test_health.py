"""Issue 26 item 4, done when `/healthz` and `/metrics` are scraped while a game is played: the real
bot on the fake Discord, its health endpoint on an ephemeral port, asked over HTTP as Prometheus and
a container's HEALTHCHECK would ask it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.health import Health, serve
from game.service.db import make_engine
from game.service.game_service import GameService
from game.service.workers import Workers
from tests.bot.fake_discord import command, dispatch
from tests.bot.test_bot import ANN, BOB, pick, setup_game


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def get(port: int, path: str) -> tuple[int, str, Any]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as answer:
        body = await answer.text()
        return answer.status, answer.headers["Content-Type"], await answer.json() if path == "/healthz" else body


def command_count(metrics: str) -> float:
    return samples(metrics).get(("quarterdeck_interactions_total", (("type", "application_command"),)), 0.0)


async def test_healthz_and_metrics_while_a_game_is_played(harness: Any) -> None:
    bot, fake = harness
    runner, port = await serve(Health(bot, bot.service, Workers(0)), "127.0.0.1", 0)
    try:
        status, _, body = await get(port, "/healthz")
        # logged in, but the gateway has not said READY: not healthy yet, and saying why
        assert status == 503 and body["failing"] == ["gateway"]
        assert body["checks"]["database"] == {"ok": True, "detail": "reachable"}
        bot._connection.call_handlers("ready")  # what discord.py does when the gateway's READY arrives

        _, _, before = await get(port, "/metrics")
        await setup_game(bot, fake)
        await pick(bot, fake, ANN, "Effective Fire")
        await pick(bot, fake, BOB, "Take Courage")
        assert await dispatch(bot, command(ANN, "order", line="nonsense that is no order"), fake)
        status, kind, metrics = await get(port, "/metrics")
        assert status == 200 and kind.startswith("text/plain")
        assert command_count(metrics) - command_count(before) == 4  # create, two joins, the order
        found = samples(metrics)
        components = ("quarterdeck_interactions_total", (("type", "component"),))
        assert found[components] - samples(before).get(components, 0.0) == 4  # each pick: its button, its menu
        assert ("quarterdeck_games_live", ()) in found and found[("quarterdeck_games_live", ())] >= 1
        assert ("quarterdeck_outbox_backlog", ()) in found
        delivered = ("quarterdeck_outbox_delivered_total", ())
        assert found[delivered] > samples(before).get(delivered, 0.0)  # the announcement, the boards
        refusals = ("quarterdeck_interaction_errors_total", (("kind", "refused"),))
        assert found.get(refusals, 0.0) > samples(before).get(refusals, 0.0)
        for job in ("decide_job", "render_job"):  # the picks were decided, the boards rendered
            key = ("quarterdeck_job_seconds_count", (("job", job),))
            assert found[key] > samples(before).get(key, 0.0)

        status, kind, body = await get(port, "/healthz")
        assert (status, kind.split(";")[0]) == (200, "application/json")
        assert body["status"] == "ok" and body["failing"] == [] and body["games_live"] >= 1
        assert set(body["checks"]) == {"gateway", "database", "workers", "outbox"}
    finally:
        await runner.cleanup()


async def test_healthz_names_an_unreachable_database(harness: Any, tmp_path: Path) -> None:
    bot, _ = harness
    bot._connection.call_handlers("ready")
    # a database file in a directory that does not exist: SQLite cannot open it
    broken = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'gone' / 'quarterdeck.db'}")
    runner, port = await serve(Health(bot, GameService(broken), Workers(0)), "127.0.0.1", 0)
    try:
        status, _, body = await get(port, "/healthz")
        assert status == 503 and body["failing"] == ["database", "outbox"]
        assert "unable to open database file" in body["checks"]["database"]["detail"]
        status, _, metrics = await get(port, "/metrics")  # still answers: the counters are the process's
        assert status == 200 and "quarterdeck_interactions_total" in metrics
    finally:
        await runner.cleanup()
        await broken.dispose()


async def test_the_images_healthcheck_fails_until_healthy(harness: Any) -> None:
    """The Dockerfile's HEALTHCHECK command, run against the endpoint: it fails on a 503, passes on 200."""
    import os
    import sys

    from tests.docs.test_image import healthcheck

    bot, _ = harness
    runner, port = await serve(Health(bot, bot.service, Workers(0)), "127.0.0.1", 0)

    async def check() -> int:
        command = healthcheck()
        ran = await asyncio.create_subprocess_exec(sys.executable, *command[1:], env={
            **os.environ, "HEALTH_PORT": f"127.0.0.1:{port}"}, stderr=asyncio.subprocess.DEVNULL)
        return await ran.wait()

    try:
        assert await check() != 0  # not connected to the gateway yet: 503
        bot._connection.call_handlers("ready")
        assert await check() == 0
    finally:
        await runner.cleanup()
