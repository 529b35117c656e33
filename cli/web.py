"""`quarterdeck web`: the games' read-only web pages in a process of their own, beside the bot on the
same database (docs/web.md)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from cli.terminal import refuse
from game.service.settings import Settings, SettingsError

DEFAULT_PORT = 8081


def run_web(host: str | None, port: int | None, db: str | None) -> int:
    from web.serve import run_alone

    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        return refuse(str(exc))
    if db:
        settings = replace(settings, database_url=db)
    where = settings.web or ("127.0.0.1", DEFAULT_PORT)
    if port is not None and not 0 <= port <= 65535:
        return refuse(f"--port must be a port from 0 to 65535, not {port}.")
    try:
        return asyncio.run(run_alone(settings, host or where[0], where[1] if port is None else port))
    except SettingsError as exc:
        return refuse(str(exc))
