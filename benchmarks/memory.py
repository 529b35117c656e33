"""The bot process's memory: its resident set (RSS) with 1,000 live games loaded (as after a
restart: `rebuild_all`), then after boards of 50 distinct tables were rendered, with the renders in
the worker pool (WORKERS=2; the workers' RSS printed apart) against inline (WORKERS=0: renders in
a thread of the bot process, as before the pool). Each mode runs in a fresh process that imports
what the bot imports (discord.py, the cogs), over the same database. Target: the bot process
<= 150 MB."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

GAMES = 1000
TABLES = 50
SPECTATOR_GUILD = "bench"


def rss_mb(pid: str | int = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _make_games(url: str) -> float:
    from game.fairness import new_seed
    from game.service.db import make_engine, upgrade_to_head
    from game.service.game_service import Actor, GameService
    from game.service.models import GameRecord, Seat
    from game.service.repository import decode_state

    await upgrade_to_head(url)
    engine = make_engine(url)
    service = GameService(engine)
    gm = Actor("gm", SPECTATOR_GUILD, gm=True)
    t0 = time.perf_counter()
    for g in range(50):  # games that have moved on, with seats and events
        info = await service.lobby.create_game(gm, f"chan-{g}")
        await service.lobby.join(gm, info.id, "A", ai=True)
        await service.lobby.join(gm, info.id, "B", ai=True)
        await service.commands.play_ai(info.id, limit=4)
    first = await service.store.repo.load(1)
    assert first is not None
    state = decode_state(first.record.initial_state)
    for g in range(50, GAMES):  # the rest as create_game writes them, without parsing the scenario each time
        record = GameRecord(guild_id=SPECTATOR_GUILD, channel_id=f"chan-{g}", name=first.record.name, system=state.system,
                            edition=state.edition, seed=0, dice_seed=new_seed(), status="open", initial_state="",
                            data_version="builtin")
        await service.store.repo.create_game(record, state, [Seat(game_id=0, player=p, display_name=f"Player {p}")
                                                       for p in state.players])
    await engine.dispose()
    return time.perf_counter() - t0


async def _child(url: str, workers: int) -> dict[str, object]:
    import importlib

    import bot.app  # noqa: F401 - the bot's own imports count in its memory
    import bot.publish  # noqa: F401
    from game.service.db import make_engine
    from game.service.game_service import Actor, GameService
    from game.service.workers import configure
    from render.options import RenderOptions
    from render.pooled import render_board_async

    for cog in bot.app.COGS:
        importlib.import_module(cog)
    pool = configure(workers)
    pool.start()
    started = rss_mb()
    engine = make_engine(url)
    service = GameService(engine, workers=pool)
    report = await service.audit.rebuild_all()
    live = rss_mb()
    view = await service.reading.view(Actor("spectator", SPECTATOR_GUILD), 1)
    for i in range(TABLES):  # each its own static layer: another table size
        table = replace(view.game.table, width=view.game.table.width + i, height=view.game.table.height + i % 7)
        png = await render_board_async(replace(view, game=replace(view.game, table=table)), RenderOptions(whole_table=True))
        assert png[:4] == b"\x89PNG"
    rendered = rss_mb()
    out = {"loaded": report.loaded, "cached": len(service.store.cached), "start": started, "live": live,
           "rendered": rendered, "workers": [round(rss_mb(p), 1) for p in pool.pids()],
           "matplotlib": "matplotlib" in sys.modules}
    await engine.dispose()
    pool.close()
    return out


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["child"]:
        print(json.dumps(asyncio.run(_child(args[1], int(args[2])))))
        return
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        made = asyncio.run(_make_games(url))
        print(f"{GAMES} games made in {made:.0f} s")
        for name, size in (("inline (WORKERS=0)", 0), ("pool (WORKERS=2)", 2)):
            run = subprocess.run([sys.executable, "-m", "benchmarks.memory", "child", url, str(size)],
                                 capture_output=True, text=True, check=True)
            r = json.loads(run.stdout.strip().splitlines()[-1])
            workers = f"; workers {' + '.join(f'{w:.0f}' for w in r['workers'])} MB" if r["workers"] else ""
            print(f"{name}: bot RSS {r['start']:.0f} MB at start, {r['live']:.0f} MB with {r['loaded']} live games "
                  f"({r['cached']} cached), {r['rendered']:.0f} MB after {TABLES} distinct tables"
                  f"{workers}; matplotlib in the bot process: {'yes' if r['matplotlib'] else 'no'}")
            if size:
                print(f"target bot RSS <= 150 MB: {'met' if r['rendered'] <= 150 else 'NOT met'}")


if __name__ == "__main__":
    main()
