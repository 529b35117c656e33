"""Database engines: SQLite (embedded default, WAL and a busy timeout) or PostgreSQL (asyncpg),
through the same models; and upgrading a database to the newest migration."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

ROOT = Path(__file__).resolve().parents[2]
BUSY_TIMEOUT_MS = 10_000


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def _in_memory(url: str) -> bool:
    return ":memory:" in url or url.rstrip("/") in ("sqlite+aiosqlite:", "sqlite:")


def _with_pragmas(engine: Engine, url: str) -> None:
    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        if not _in_memory(url):
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()


def make_engine(url: str, **kwargs: Any) -> AsyncEngine:
    if is_sqlite(url):
        engine = create_async_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **kwargs)
        _with_pragmas(engine.sync_engine, url)
        return engine
    # connections are kept, not opened per burst: an overflow connection is closed when it is handed
    # back, and opening one (asyncpg tries TLS first) cost more than the command that wanted it
    kwargs.setdefault("pool_size", 25)
    kwargs.setdefault("max_overflow", 5)
    # the connection used last is used next: its prepared statements are warm (a connection taken in
    # turn prepared each statement anew, a round trip each)
    kwargs.setdefault("pool_use_lifo", True)
    return create_async_engine(url, **kwargs)


def sqlite_writer(engine: AsyncEngine) -> Engine | None:
    """A synchronous engine on the same SQLite file, for the group writer's own thread (None for
    PostgreSQL, or a database in memory, which another connection would not see)."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or _in_memory(url.render_as_string(hide_password=False)):
        return None
    sync_url = url.set(drivername="sqlite")
    found = create_engine(sync_url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, pool_size=1, max_overflow=0)
    _with_pragmas(found, sync_url.render_as_string())
    return found


def sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade_to_head_sync(url: str) -> None:
    from alembic import command

    command.upgrade(alembic_config(url), "head")


async def upgrade_to_head(url: str) -> None:
    """Run the migrations in a worker thread (Alembic's env runs its own event loop)."""
    await asyncio.to_thread(upgrade_to_head_sync, url)
