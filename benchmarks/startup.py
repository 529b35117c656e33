"""Start-up with many stored games (issue 29, item 3): how long after the service starts its first command
is answered, with the start as it was (every unfinished game rebuilt before the bot answers:
`audit.rebuild_all`) and as it is now (nothing read; the catch-up, `Leagues.recover_results` and
`Driver.advance_all`, runs behind the players' commands), in the same run on the same database.

    python -m benchmarks startup [STORED]     (default 10,000 stored games; BENCH_UNFINISHED=1000 of them unfinished)

The games are made quickly by writing rows: one game is played through the service for each kind (a
game waiting on both players' picks, a conceded one) and its rows (game, seats, events, snapshots) are
copied, each copy in a channel of its own. The command timed is a pick in a game not yet read (a cold
load). Target: answered within 3 s of the start with 10,000 stored games."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from typing import Any

from sqlalchemy import Table, insert, select

from benchmarks.service import SEED, _drop, _postgres_db
from game.service.db import make_engine, upgrade_to_head
from game.service.driver import Driver
from game.service.game_service import Actor, GameService
from game.service.models import EventRecord, GameRecord, Seat, Snapshot

UNFINISHED = int(os.environ.get("BENCH_UNFINISHED", "1000"))
TARGET_S = 3.0
ANN, BOB = Actor("111", "bench"), Actor("222", "bench")
CHUNK = 1000


def _table(model: Any) -> Table:
    table: Table = model.__table__
    return table


GAMES, SEATS, EVENTS, SNAPSHOTS = _table(GameRecord), _table(Seat), _table(EventRecord), _table(Snapshot)


async def _template(service: GameService, channel: str, finish: bool) -> int:
    info = await service.lobby.create_game(ANN, channel)
    await service.lobby.join(ANN, info.id, "A")
    await service.lobby.join(BOB, info.id, "B")
    if finish:
        await service.commands.concede(ANN, info.id)
    return info.id


async def store_games(url: str, stored: int, unfinished: int) -> list[int]:
    """`stored` games, `unfinished` of them waiting on both picks and the rest over: the ids of the
    unfinished ones."""
    engine = make_engine(url)
    try:
        service = GameService(engine, seeds=SEED)
        templates = {False: await _template(service, "template-0", False),
                     True: await _template(service, "template-1", True)}
        rows: dict[bool, dict[str, list[dict[str, Any]]]] = {}
        async with engine.connect() as conn:
            for finished, gid in templates.items():
                rows[finished] = {
                    name: [dict(r._mapping) for r in await conn.execute(select(table).where(table.c.game_id == gid))]
                    for name, table in (("seats", SEATS), ("events", EVENTS), ("snapshots", SNAPSHOTS))}
                (game,) = [dict(r._mapping) for r in await conn.execute(select(GAMES).where(GAMES.c.id == gid))]
                rows[finished]["game"] = [game]
        live: list[int] = []
        next_id = max(templates.values()) + 1
        for start in range(0, stored - 2, CHUNK):
            batch: dict[str, list[dict[str, Any]]] = {"games": [], "seats": [], "events": [], "snapshots": []}
            for n in range(start, min(stored - 2, start + CHUNK)):
                finished = n >= unfinished - 1
                gid = next_id
                next_id += 1
                if not finished:
                    live.append(gid)
                kind = rows[finished]
                batch["games"].append({**kind["game"][0], "id": gid, "channel_id": f"chan-{gid}"})
                for name in ("seats", "events", "snapshots"):
                    batch[name] += [{**{k: v for k, v in r.items() if k != "id"}, "game_id": gid} for r in kind[name]]
            async with engine.begin() as conn:
                for name, table in (("games", GAMES), ("seats", SEATS), ("events", EVENTS), ("snapshots", SNAPSHOTS)):
                    if batch[name]:
                        await conn.execute(insert(table), batch[name])
        if engine.dialect.name == "postgresql":  # ids written by hand: the sequence moves past them
            async with engine.begin() as conn:
                from sqlalchemy import text

                await conn.execute(text("SELECT setval('games_id_seq', (SELECT max(id) FROM games))"))
        return [templates[False], *live]
    finally:
        await engine.dispose()


async def first_answer(url: str, game_id: int, old: bool) -> dict[str, float]:
    """A fresh service (a new process's) started the old way or the new, and the time until a pick in
    `game_id` is answered; with the new start, also how long its catch-up took in the background."""
    engine = make_engine(url)
    try:
        t0 = time.perf_counter()
        service = GameService(engine, seeds=SEED)
        caught_up = asyncio.get_running_loop().create_future()
        if old:
            await service.audit.rebuild_all()  # what setup_hook did before the bot could answer
        else:
            async def catch_up() -> None:
                await service.leagues.recover_results()
                await Driver(service).advance_all(pause=0.002)  # as the bot's RESUME_PAUSE
                caught_up.set_result(time.perf_counter() - t0)

            task = asyncio.create_task(catch_up())
        await service.commands.pick(ANN, game_id, "Effective Fire", request_id=f"first-{old}")
        answered = time.perf_counter() - t0
        background = float("nan")
        if not old:
            await task
            background = caught_up.result()
        return {"answered": answered, "caught_up": background}
    finally:
        await engine.dispose()


async def amain(stored: int) -> None:
    unfinished = min(UNFINISHED, stored)
    pg = os.environ.get("BENCH_POSTGRES_URL") or os.environ.get("TEST_POSTGRES_URL")
    print(f"{stored} stored games, {unfinished} unfinished (BENCH_UNFINISHED); time from the service's start "
          f"until a pick in a game not yet read is answered; target ≤ {TARGET_S:.0f} s")
    for label, base in [("SQLite", None)] + ([("PostgreSQL", pg)] if pg else []):
        if base is None:
            url, name = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/startup.db", ""
        else:
            url, name = await _postgres_db(base)
        try:
            await upgrade_to_head(url)
            t0 = time.perf_counter()
            live = await store_games(url, stored, unfinished)
            print(f"{label}: {stored} games stored in {time.perf_counter() - t0:.1f} s")
            old = await first_answer(url, live[0], old=True)
            new = await first_answer(url, live[1], old=False)
            met = "met" if new["answered"] <= TARGET_S else f"missed by {new['answered'] - TARGET_S:.2f} s"
            print(f"{label:10} before (every unfinished game rebuilt first): answered after {old['answered']:6.2f} s")
            print(f"{label:10} now (nothing read; catch-up behind):        answered after {new['answered']:6.2f} s "
                  f"({old['answered'] / max(new['answered'], 1e-9):.0f}× sooner; target {met}); "
                  f"catch-up over {unfinished} unfinished games done after {new['caught_up']:.1f} s")
        finally:
            if base is not None:
                await _drop(base, name)


def main(*args: str) -> None:
    asyncio.run(amain(int(args[0]) if args else 10_000))


if __name__ == "__main__":
    main(*sys.argv[1:])
