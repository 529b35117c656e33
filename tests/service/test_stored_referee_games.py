"""Referee games stored by the referee service before it joined the one game store (0311c46: undo
marks in the log, no restore events) load, read and play on after migration 0013: the state each
was read back to then, the dice stream going on where it was, undo still working, and the
migration undone and done again without a change (tests/service/stored/ says how the rows were made)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command

from game.codec import to_data
from game.dice import FairDice
from game.service.authority import Actor
from game.service.db import alembic_config, make_engine
from game.service.errors import UndoRefused
from game.service.game_service import GameService
from game.systems.dice import parse_spec, roll

STORED = Path(__file__).parent / "stored"
EXPECTED: dict[str, Any] = json.loads((STORED / "referee_games_0012.json").read_text(encoding="utf-8"))
# a command with no dice each game may take where it was left: (the seat that gives it, the line)
NO_DICE = {"wsim": ("Umpire", "next"), "iron_and_oak": ("Umpire", "next"),
           "captains_sea": ("British", "maneuver Guerriere straight")}
# fields a state gained since the rows were written, read back at their defaults
ADDED_SINCE: dict[str, dict[str, dict[str, Any]]] = {"wsim": {"options": {"skip_empty": True}}}


def _as_read_today(expected: dict[str, Any]) -> dict[str, Any]:
    state = dict(expected["state"])
    for key, fields in ADDED_SINCE.get(expected["system"], {}).items():
        state[key] = {**state[key], **fields}
    return state


async def _stored_database(tmp_path: Path) -> str:
    """A database at 0012 holding the rows the old service wrote, then migrated to the head."""
    db = tmp_path / "old.db"
    url = f"sqlite+aiosqlite:///{db}"
    await asyncio.to_thread(command.upgrade, alembic_config(url), "0012_league_claims")
    con = sqlite3.connect(db)
    con.executescript((STORED / "referee_games_0012.sql").read_text(encoding="utf-8"))
    con.commit()
    assert con.execute("SELECT count(*) FROM events WHERE type = 'Undone'").fetchone()[0] == 5
    con.close()
    await asyncio.to_thread(command.upgrade, alembic_config(url), "head")
    return url


def _kinds(url: str) -> list[tuple[int, int, str]]:
    con = sqlite3.connect(url.removeprefix("sqlite+aiosqlite:///"))
    try:
        return con.execute("SELECT game_id, seq, type FROM events ORDER BY game_id, seq").fetchall()
    finally:
        con.close()


async def test_games_stored_by_the_old_referee_service_load_and_play_on(tmp_path: Path) -> None:
    url = await _stored_database(tmp_path)
    assert not [k for k in _kinds(url) if k[2] == "Undone"]  # every mark is a restore event now
    engine = make_engine(url)
    try:
        service = GameService(engine)
        ref = service.referee
        for gid_text, expected in EXPECTED.items():
            gid = int(gid_text)
            game = await ref._load(gid)
            assert game.record.system == expected["system"]
            assert to_data(game.state) == _as_read_today(expected)  # exactly the state the old reader folded
            info = await ref.info(gid)
            seated = {name: user for name, user, _ in info.seats}
            referee = Actor(seated[game.state.referee] or "", "guild")
            # the dice go on from where the old log left them: the position its undo marks kept
            out = await ref.submit(referee, gid, "roll 2d6 for the record")
            expected_roll = roll(FairDice(game.record.dice_seed, expected["state"]["log_position"]),
                                 parse_spec("2d6"), "the record", game.state.referee)
            assert out.public == (game.system.account(expected_roll),)
            with pytest.raises(UndoRefused, match="dice"):
                await ref.undo(referee, gid)  # a roll everyone has seen stays
            # a command with no dice is taken back, through the one undo, to the state before it
            before = (await ref._load(gid, fresh=True)).state
            seat, line = NO_DICE[expected["system"]]
            await ref.submit(Actor(seated[seat] or "", "guild"), gid, line)
            assert (await ref._load(gid)).state != before
            await ref.undo(referee, gid)
            assert (await ref._load(gid, fresh=True)).state == before
            assert any("taken back" in line for line in await ref.log(referee, gid))
    finally:
        await engine.dispose()


async def test_the_migration_goes_back_and_forth_without_a_change(tmp_path: Path) -> None:
    url = await _stored_database(tmp_path)
    migrated = _kinds(url)
    await asyncio.to_thread(command.downgrade, alembic_config(url), "0012_league_claims")
    assert sum(k[2] == "Undone" for k in _kinds(url)) == 5
    await asyncio.to_thread(command.upgrade, alembic_config(url), "head")
    assert _kinds(url) == migrated
    engine = make_engine(url)
    try:
        ref = GameService(engine).referee
        for gid_text, expected in EXPECTED.items():
            assert to_data((await ref._load(int(gid_text))).state) == _as_read_today(expected)
    finally:
        await engine.dispose()
