"""docs/hosting.md's backup and restore of the SQLite file, done as it says: an online backup taken
while games are being played, then the copy put in place of the database and played on."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import Actor, GameService
from tests.seeds import counting_seeds

GM = Actor("111", "g1")


def backup(live: Path, copy: Path) -> None:
    """The Python one-liner of docs/hosting.md (SQLite's online backup API, like `.backup`)."""
    src, dst = sqlite3.connect(live), sqlite3.connect(copy)
    src.backup(dst)
    dst.close()
    src.close()


async def test_a_backup_taken_during_play_restores_to_a_database_that_plays_on(tmp_path: Path) -> None:
    live = tmp_path / "quarterdeck.db"
    url = f"sqlite+aiosqlite:///{live}"
    await upgrade_to_head(url)
    engine = make_engine(url)
    service = GameService(engine, snapshot_every=10, seeds=counting_seeds())
    info = await service.lobby.create_game(GM, "chan-1")
    await service.lobby.join(GM, info.id, "A", ai=True)
    await service.lobby.join(GM, info.id, "B", ai=True)
    copies = []
    try:
        for n in range(4):  # each backup runs in a thread while the computer captains play on
            copy = tmp_path / f"backup-{n}.db"
            await asyncio.gather(service.commands.play_ai(info.id, limit=6), asyncio.to_thread(backup, live, copy))
            copies.append(copy)
        live_events = (await service.audit.check(info.id)).events
    finally:
        await engine.dispose()

    counts = []
    for copy in copies:
        with sqlite3.connect(copy) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        restored = tmp_path / copy.stem / "quarterdeck.db"  # restore: the copy takes the database's place
        restored.parent.mkdir()
        shutil.copy(copy, restored)
        engine = make_engine(f"sqlite+aiosqlite:///{restored}")
        try:
            service = GameService(engine, snapshot_every=10, seeds=counting_seeds())
            assert (await service.audit.rebuild_all()).damaged == ()
            report = await service.audit.check(info.id)
            assert report.ok, report.mismatches
            counts.append(report.events)
            await service.commands.play_ai(info.id, limit=2)  # and the game goes on from where the copy left it
            assert (await service.audit.check(info.id)).ok
        finally:
            await engine.dispose()
    # each copy holds a later moment of the game than the one before, none one beyond the live database
    assert counts == sorted(set(counts)) and counts[-1] <= live_events
