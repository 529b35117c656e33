"""Databases at the schema's head for the tests, without running every migration for every test.

The migrations run once per test process into a template (a SQLite file; a PostgreSQL database used
as CREATE DATABASE's template), and each test gets a copy of it: running all of them for each test
cost a third of a second on SQLite and half a second on PostgreSQL, for some 800 tests a sixth of the
suite. The copy is the migrated database byte for byte (SQLite's file after a checkpoint; PostgreSQL
copies the template's files). tests/service/test_migrations.py still runs the migrations themselves,
one by one, up and down."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import sqlite3
import tempfile
import uuid
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

from game.service.db import upgrade_to_head_sync

_sqlite_template: Path | None = None
_pg_head: str | None = None


def _migrated(url: str) -> None:
    # in a thread of its own: Alembic's env runs an event loop of its own, and a test's may be running
    with ThreadPoolExecutor(1) as pool:
        pool.submit(upgrade_to_head_sync, url).result()


def sqlite_template() -> Path:
    """This process's SQLite file at the schema's head (made on first use)."""
    global _sqlite_template
    if _sqlite_template is None:
        made = Path(tempfile.mkdtemp(prefix="qd-head-")) / "head.db"
        _migrated(f"sqlite+aiosqlite:///{made}")
        with sqlite3.connect(made) as conn:  # everything in the one file: no write-ahead log beside it
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        atexit.register(shutil.rmtree, made.parent, True)
        _sqlite_template = made
    return _sqlite_template


def sqlite_at_head(path: Path) -> str:
    """A SQLite database at `path`, at the schema's head: its URL."""
    shutil.copyfile(sqlite_template(), path)
    return f"sqlite+aiosqlite:///{path}"


async def pg_admin(sql: str) -> None:
    import asyncpg

    base = os.environ["TEST_POSTGRES_URL"].replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(base)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def pg_url(name: str) -> str:
    head, _, _db = os.environ["TEST_POSTGRES_URL"].rpartition("/")
    return f"{head}/{name}"


async def _pg_template() -> str:
    global _pg_head
    if _pg_head is None:
        name = f"qd_head_{uuid.uuid4().hex[:12]}"
        await pg_admin(f'CREATE DATABASE "{name}"')
        await asyncio.to_thread(upgrade_to_head_sync, pg_url(name))  # a thread of its own already
        atexit.register(lambda: asyncio.run(pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))
        _pg_head = name
    return _pg_head


@asynccontextmanager
async def pg_database(prefix: str = "qd_test") -> AsyncIterator[str]:
    """A fresh PostgreSQL database at the schema's head, dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    await pg_admin(f'CREATE DATABASE "{name}" TEMPLATE "{await _pg_template()}"')
    try:
        yield pg_url(name)
    finally:
        await pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
