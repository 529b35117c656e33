"""The models and the migrations describe the same schema."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from game.service import models  # noqa: F401 - the tables
from game.service.db import make_engine


async def test_autogenerate_finds_no_difference(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:

            def diff(sync_conn):  # type: ignore[no-untyped-def]
                ctx = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                return compare_metadata(ctx, SQLModel.metadata)

            changes = await conn.run_sync(diff)
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
    finally:
        await engine.dispose()
    assert changes == []
    assert {"games", "seats", "events", "snapshots", "processed_requests", "pending_secrets",
            "scheduled_jobs", "guild_settings", "alembic_version"} <= tables


async def test_a_model_change_without_a_migration_is_caught(db_url: str) -> None:
    from sqlalchemy import Column, Integer, MetaData, Table

    extra = MetaData()
    for t in SQLModel.metadata.tables.values():
        t.to_metadata(extra)
    Table("games", extra, Column("surprise", Integer), extend_existing=True)
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            changes = await conn.run_sync(
                lambda c: compare_metadata(MigrationContext.configure(c), extra)
            )
    finally:
        await engine.dispose()
    assert any(op[0] == "add_column" and op[3].name == "surprise" for op in changes)
