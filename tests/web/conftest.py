"""A service on a fresh database (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set) and the web
application over it, served on a real socket by aiohttp's test server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from game.service.db import make_engine
from game.service.game_service import GameService
from tests.databases import pg_database, sqlite_at_head
from tests.seeds import counting_seeds
from tests.service.conftest import ENGINES
from web.app import make_app
from web.limits import Limits


@asynccontextmanager
async def opened(kind: str, tmp_path: Path) -> AsyncIterator[GameService]:
    if kind == "sqlite":
        url = sqlite_at_head(tmp_path / "quarterdeck.db")
        engine = make_engine(url)
        try:
            yield GameService(engine, snapshot_every=10, seeds=counting_seeds())
        finally:
            await engine.dispose()
        return
    async with pg_database("qd_web") as url:
        engine = make_engine(url)
        try:
            yield GameService(engine, snapshot_every=10, seeds=counting_seeds())
        finally:
            await engine.dispose()


@asynccontextmanager
async def browsing(service: GameService) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    """A reader of the pages, without the rate limit in its way (tests/adversary/test_web_probes.py has it)."""
    app = make_app(service, Limits(burst=10_000, per_second=1_000.0), poll_seconds=0.2)
    async with TestClient(TestServer(app)) as c:
        yield c


@pytest.fixture(params=ENGINES)
async def service(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[GameService]:
    async with opened(request.param, tmp_path) as s:
        yield s


@pytest.fixture
async def client(service: GameService) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    async with browsing(service) as c:
        yield c
