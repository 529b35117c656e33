"""Writes `referee_games_0012.sql` and `referee_games_0012.json`: referee-assistant games as the
referee service stored them up to migration 0012 (commit 0311c46), undo marks included, and the
state each game was read back to then. tests/service/test_stored_referee_games.py loads them with
today's code after the migrations. Kept to show how the files were made; it ran against 0311c46
(`git worktree add /tmp/old 0311c46`, then `python tests/service/stored/make_referee_games.py` there)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import create_async_engine

from game.codec import to_data
from game.service.authority import Actor
from game.service.game_service import GameService

G = "guild"
HERE = Path(__file__).parent
SEEDS = iter(f"{n:064x}" for n in range(0xABC0, 0xABD0))

GAMES = {
    "wsim": (("British", "French", "Umpire"),
             [("Umpire", "next"), ("Umpire", "next"), ("Umpire", "next"), ("Umpire", "next"),
              ("French", "plot Redoutable L1R1"), ("Umpire", "undo"), ("French", "plot Redoutable 2"),
              ("British", "plot Victory 1"), ("Umpire", "roll 2d6 for a test"), ("Umpire", "next"),
              ("Umpire", "undo")]),
    "iron_and_oak": (("Union", "Confederate", "Umpire"),
                     [("Union", "roll 2d6"), ("Umpire", "next"), ("Umpire", "undo"), ("Umpire", "next"),
                      ("Umpire", "next"), ("Umpire", "undo")]),
    "captains_sea": (("US", "British", "Umpire"),
                     [("Umpire", "next"), ("Umpire", "next"), ("Umpire", "initiative US"), ("Umpire", "next"),
                      ("US", "impulses Constitution 2 6"), ("British", "impulses Guerriere 5"), ("Umpire", "next"),
                      ("US", "maneuver Constitution turn-port"), ("Umpire", "undo"),
                      ("US", "maneuver Constitution wear")]),
}


async def main(db: Path) -> dict[str, object]:
    url = f"sqlite+aiosqlite:///{db}"
    cfg = Config("alembic.ini")
    cfg.set_main_option("sqlalchemy.url", url)
    await asyncio.to_thread(command.upgrade, cfg, "head")
    engine = create_async_engine(url)
    service = GameService(engine, seeds=lambda: next(SEEDS))
    ref = service.referee
    expected: dict[str, object] = {}
    for n, (name, (seats, lines)) in enumerate(GAMES.items()):
        actors = {}
        info = await ref.create_game(Actor("100", G), f"chan-{name}", name)
        for i, seat in enumerate(seats):
            actors[seat] = Actor(str(10 * (n + 1) + i), G)
            await ref.join(actors[seat], info.id, seat, f"member {seat}")
        for who, line in lines:
            actor = actors[who]
            if line == "undo":
                await ref.undo(actor, info.id)
            else:
                await ref.submit(actor, info.id, line)
        game = await ref._read(info.id)
        expected[str(info.id)] = {"system": name, "state": to_data(game.state), "log": len(game.log)}
    await engine.dispose()
    return expected


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.db"
        expected = asyncio.run(main(db))
        con = sqlite3.connect(db)
        dump = "\n".join(line for line in con.iterdump()
                         if line.startswith("INSERT INTO") and any(
                             f'INSERT INTO "{t}"' in line for t in ("games", "seats", "events", "scheduled_jobs")))
        con.close()
    (HERE / "referee_games_0012.sql").write_text(dump + "\n", encoding="utf-8")
    (HERE / "referee_games_0012.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n",
                                                  encoding="utf-8")
    sys.exit(0)
