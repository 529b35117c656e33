"""Every persistence test runs on SQLite, and on PostgreSQL too when TEST_POSTGRES_URL is set
(a fresh database per test, dropped afterwards)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import GameService
from tests.seeds import counting_seeds

ENGINES = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_POSTGRES_URL") else [])


async def _pg_admin(sql: str) -> None:
    import asyncpg

    base = os.environ["TEST_POSTGRES_URL"].replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(base)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _pg_url(name: str) -> str:
    base = os.environ["TEST_POSTGRES_URL"]
    head, _, _db = base.rpartition("/")
    return f"{head}/{name}"


@pytest.fixture(params=ENGINES)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'quarterdeck.db'}"
        await upgrade_to_head(url)
        yield url
        return
    async with pg_database() as url:
        yield url


@asynccontextmanager
async def pg_database(prefix: str = "qd_test") -> AsyncIterator[str]:
    """A fresh PostgreSQL database at the schema's head, dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    await _pg_admin(f'CREATE DATABASE "{name}"')
    url = _pg_url(name)
    try:
        await upgrade_to_head(url)
        yield url
    finally:
        await _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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
