"""The models and the migrations describe the same schema."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from game.service import models  # noqa: F401 - the tables
from game.service.db import make_engine
from game.service.game_service import GameService
from tests.databases import pg_admin as _pg_admin
from tests.databases import pg_url as _pg_url
from tests.seeds import counting_seeds
from tests.service.conftest import ENGINES


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


@pytest.mark.parametrize("engine_name", ENGINES)
async def test_the_league_claims_migration_keeps_the_leagues_already_there(engine_name: str, tmp_path: Path) -> None:
    """0012 adds columns to tables that other rows refer to: on SQLite a table copied by batch mode
    cannot be dropped while entrants and pairings point at it (foreign keys are on), so a server with
    a league could not upgrade. Upgrade with a league in the database, and back."""
    import asyncio

    from alembic import command
    from sqlalchemy import text

    from game.service.db import alembic_config

    async def check(url: str) -> None:
        await asyncio.to_thread(command.upgrade, alembic_config(url), "0010_orders")
        engine = make_engine(url)
        try:
            async with engine.begin() as conn:
                await conn.execute(text(
                    "INSERT INTO leagues (id, guild_id, channel_id, name, scenario, scenario_text, size, format, "
                    "round_hours, rounds, current_round, status, created_by, created_at) VALUES (1, 'g', 'c', 'Cup', "
                    "'quickstart', '', '', 'swiss', 72, 1, 1, 'running', 'u', CURRENT_TIMESTAMP)"))
                for n in (1, 2):
                    await conn.execute(text(f"INSERT INTO league_entries (league_id, member, name, squadron, "
                                            f"created_at) VALUES (1, 'ai:{n}', 'C{n}', '', CURRENT_TIMESTAMP)"))
                await conn.execute(text("INSERT INTO league_games (league_id, round, table_no, a_member, b_member, "
                                        "status, a_points, b_points, reason) VALUES (1, 1, 1, 'ai:1', 'ai:2', "
                                        "'pending', 0, 0, '')"))
            await asyncio.to_thread(command.upgrade, alembic_config(url), "head")
            async with engine.connect() as conn:
                assert (await conn.execute(text("SELECT entry_version FROM leagues"))).all() == [(0,)]
                assert (await conn.execute(text("SELECT dropped_at, dropped_by FROM league_entries"))).all() == \
                    [(None, ""), (None, "")]
                assert (await conn.execute(text("SELECT status, forfeited, claim FROM league_games"))).all() == \
                    [("pending", "", "")]
            await asyncio.to_thread(command.downgrade, alembic_config(url), "0011_decisions")
            async with engine.connect() as conn:
                assert (await conn.execute(text("SELECT count(*) FROM league_entries"))).scalar_one() == 2
        finally:
            await engine.dispose()

    if engine_name == "sqlite":
        await check(f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")
        return
    name = f"qd_mig_{uuid.uuid4().hex[:12]}"
    await _pg_admin(f'CREATE DATABASE "{name}"')
    try:
        await check(_pg_url(name))
    finally:
        await _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_the_decisions_migration_goes_down_and_up_again_under_a_game_in_play(db_url: str) -> None:
    """0011 adds a column to `games`, which seats, events and jobs refer to: with a game in play (its
    clock's jobs naming their decisions), go back to 0010 and up to the head again, and play on."""
    import asyncio

    from alembic import command
    from sqlalchemy import text

    from game.service.authority import Actor
    from game.service.db import alembic_config

    ann, bob = Actor("111", "g"), Actor("222", "g")
    engine = make_engine(db_url)
    try:
        svc = GameService(engine, seeds=counting_seeds())
        game = await svc.lobby.create_game(ann, "chan")
        await svc.lobby.join(ann, game.id, "A")
        await svc.lobby.join(bob, game.id, "B")
        await svc.commands.submit(bob, game.id, "pick B Take Courage")
        async with engine.connect() as conn:
            named = (await conn.execute(text("SELECT count(*) FROM scheduled_jobs WHERE since IS NOT NULL"))).scalar_one()
        assert named > 0
        await engine.dispose()
        await asyncio.to_thread(command.downgrade, alembic_config(db_url), "0010_orders")
        await asyncio.to_thread(command.upgrade, alembic_config(db_url), "head")
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM seats"))).scalar_one() == 2
        svc = GameService(engine, seeds=counting_seeds())
        await svc.commands.submit(ann, game.id, "pick A Down!")
        assert (await svc.reading.state_for_audit(game.id)).turn == 1
    finally:
        await engine.dispose()


async def test_the_league_organisers_migration_goes_down_and_up_under_a_running_league(db_url: str) -> None:
    """0019 adds columns to `leagues`, which entrants, pairings and the new log refer to: with a league
    running and logged, go back to 0018 and up again. A league made before 0019 closes its rounds by
    hand, as it was announced (docs/leagues.md)."""
    import asyncio

    from alembic import command
    from sqlalchemy import text

    from game.service.authority import Actor
    from game.service.db import alembic_config

    gm = Actor("9", "g", gm=True)
    engine = make_engine(db_url)
    try:
        svc = GameService(engine, seeds=counting_seeds())
        await svc.leagues.create(gm, "c", "Cup")
        for _ in range(2):
            await svc.leagues.join(gm, "Cup", ai=True)
        await svc.leagues.start(gm, "Cup")
        await engine.dispose()
        await asyncio.to_thread(command.downgrade, alembic_config(db_url), "0018_chronicle")
        await asyncio.to_thread(command.upgrade, alembic_config(db_url), "head")
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT auto_close, deadline_hours FROM leagues"))).all() == [(False, None)]
            assert (await conn.execute(text("SELECT count(*) FROM league_actions"))).scalar_one() == 0
        svc = GameService(engine, seeds=counting_seeds())
        info = await svc.leagues.show("g", "Cup")
        assert info.current_round == 1 and not info.settings.auto_close
    finally:
        await engine.dispose()


async def test_the_league_formats_migration_sits_between_the_organisers_and_the_pauses(db_url: str) -> None:
    """0019 -> 0020 -> 0021: going back to 0020 (the pauses gone) keeps a running team league's cut,
    teams and seeds; back to 0019 drops them, and up to the head again the league reads as one without
    (its entrants and log intact)."""
    import asyncio

    from alembic import command
    from alembic.script import ScriptDirectory
    from sqlalchemy import text

    from game.service.authority import Actor
    from game.service.db import alembic_config

    chain = {s.revision: s.down_revision for s in ScriptDirectory.from_config(alembic_config(db_url)).walk_revisions()}
    assert chain["0020_league_formats"] == "0019_league_organisers"
    assert chain["0021_pause_windows"] == "0020_league_formats"
    gm = Actor("9", "g", gm=True)
    engine = make_engine(db_url)
    try:
        svc = GameService(engine, seeds=counting_seeds())
        await svc.leagues.create(gm, "c", "Pairs", teams=True, top_cut=2)
        for _ in range(2):
            await svc.leagues.join(gm, "Pairs", ai=True)
        await svc.leagues.start(gm, "Pairs")
        await engine.dispose()
        await asyncio.to_thread(command.downgrade, alembic_config(db_url), "0020_league_formats")
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT top_cut, teams FROM leagues"))).all() == [(2, True)]
            assert (await conn.execute(text("SELECT partner FROM league_entries ORDER BY id"))).scalars().all() == [
                "ai:2", "ai:4"]
        await engine.dispose()
        await asyncio.to_thread(command.downgrade, alembic_config(db_url), "0019_league_organisers")
        await asyncio.to_thread(command.upgrade, alembic_config(db_url), "head")
        svc = GameService(engine, seeds=counting_seeds())
        info = await svc.leagues.show("g", "Pairs")
        assert (info.top_cut, info.teams, info.current_round) == (0, False, 1)
        assert [e.partner for e in info.entrants] == ["", ""]
        assert [a.action.action for a in (await svc.leagues.action_log("g", "Pairs")).lines][-1] == "create"
    finally:
        await engine.dispose()
