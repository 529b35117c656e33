"""Every persistence test runs on SQLite, and on PostgreSQL too when TEST_POSTGRES_URL is set
(a fresh database per test, dropped afterwards)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from game.service.db import make_engine
from game.service.game_service import GameService
from tests.databases import pg_database, sqlite_at_head
from tests.seeds import counting_seeds

ENGINES = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_POSTGRES_URL") else [])


@pytest.fixture(params=ENGINES)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield sqlite_at_head(tmp_path / "quarterdeck.db")
        return
    async with pg_database() as url:
        yield url


@pytest.fixture
async def service(db_url: str) -> AsyncIterator[GameService]:
    engine = make_engine(db_url)
    try:
        yield GameService(engine, snapshot_every=10, seeds=counting_seeds())
    finally:
        await engine.dispose()


@pytest.fixture
async def two(db_url: str) -> AsyncIterator[list[GameService]]:
    """Two processes' worth of service (separate caches, locks and connection pools) on one database."""
    engines = [make_engine(db_url), make_engine(db_url)]
    try:
        # SQLite shared by two processes is not the default set-up, but the check is the same
        yield [GameService(e, seeds=counting_seeds(1 + 1000 * i), shared=True) for i, e in enumerate(engines)]
    finally:
        for e in engines:
            await e.dispose()
