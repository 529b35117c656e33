"""The service at a chat's pace: commands arrive open-loop (Poisson, at a given rate across 1,000 live
games), not one after another, so a slow command delays the ones behind it as it would on a server.
Each arrival is a whole interaction as the bot makes it: the game looked up for the channel, the
command submitted, then the board's view, the options in words and the roll decision read back for
the post. Prints, per engine and rate, the throughput reached, p50/p99 latency of the submit and of
the whole interaction, and the process's RSS.

    python -m benchmarks chat [RATE …]        (defaults 20 50 200 commands/s; BENCH_GAMES=1000)

Issue 15 measured at its start (same machine, closed loop): SQLite topped out at 50–75 commands/s
with p99 0.1–0.6 s at 20/s; PostgreSQL 60–116/s with p99 38–50 ms at 20/s. Targets: ≥ 500/s, p99 ≤
50 ms at 200/s.

Issue 29 (PostgreSQL's latency flat under load; target p99 ≤ 100 ms at 200/s on two cores with the
database on the same machine): each rate runs twice on the same games, first with the group writer of
`WRITER_BASE` taken from git (`benchmarks/baseline.py`: batches bounded by size alone, one batch at a
time, a version check per command), the pool sized as it was (two workers) and reads as they were (a
transaction for each, the game's version checked at each), then with today's writer, pool size
(`default_size`: a core left to a PostgreSQL server on this machine) and reads (one look at a game per
interaction, as the bot's `act` takes it; a read of one statement without a transaction). The load
average is printed with the figures: on a shared machine only the ratio of a pair compares."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from typing import Any

from benchmarks.baseline import old_module
from benchmarks.service import ACTORS, SEED, _drop, _postgres_db, _rss_mb, command_script, seated_games
from game.commands import Command
from game.errors import RulesError
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import GameService
from game.service.workers import Workers, default_size

GAMES = int(os.environ.get("BENCH_GAMES", "1000"))
# decisions and options run in the worker pool as in the bot (WORKERS: by default one per core the
# database leaves, two at most); BENCH_WORKERS sets both runs' pools alike
WORKERS = os.environ.get("BENCH_WORKERS", "")
SECONDS = float(os.environ.get("BENCH_SECONDS", "15"))
WRITER_BASE = "58b9578"  # main when issue 29 was taken up
BATCH = 20  # commands in the batch whose statements are counted (issue 29 saw 19 a commit at 200/s)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] * 1000


async def load(service: GameService, ids: list[int], script: list[tuple[str, Command]], rate: float,
               seconds: float, rng: random.Random, progress: dict[int, int], look: bool = True) -> dict[str, float]:
    """Offer `rate` interactions a second for `seconds`; a game takes its next command only when its
    last one is answered (a player answers the post), so arrivals go to idle games. With `look`, each
    interaction reads each game once (GameStore.one_look), as the bot's commands do."""
    submit_ms: list[float] = []
    whole_ms: list[float] = []
    refused = 0
    busy: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()

    async def interaction(gid: int) -> None:
        nonlocal refused
        n = progress[gid]
        player, cmd = script[n % len(script)]
        t0 = time.perf_counter()
        try:
            with service.front.one_look() if look else contextlib.nullcontext():  # as the bot's `act`
                await service.lobby.game_in_channel("bench", f"chan-{gid - 1}")
                t1 = time.perf_counter()
                await service.commands.submit(ACTORS[player], gid, cmd, request_id=f"{gid}-{n}")
                t2 = time.perf_counter()
                await service.reading.view(ACTORS[player], gid)
                await service.reading.public_options(gid)
                await service.reading.roll_decision(gid)
            submit_ms.append(t2 - t1)
            whole_ms.append(time.perf_counter() - t0)
        except RulesError:
            refused += 1  # a game the script has played out; it counts as offered, not as served
        finally:
            progress[gid] = n + 1
            busy.discard(gid)

    loop = asyncio.get_running_loop()
    start = loop.time()
    next_at = start
    while next_at - start < seconds:
        next_at += rng.expovariate(rate)
        delay = next_at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        idle = [g for g in rng.sample(ids, min(len(ids), 8)) if g not in busy and progress[g] < len(script)]
        if not idle:
            continue
        busy.add(idle[0])
        task = asyncio.create_task(interaction(idle[0]))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks)
    elapsed = loop.time() - start
    return {"served": len(whole_ms), "per_s": len(whole_ms) / elapsed, "refused": refused,
            "submit_p50": _pct(submit_ms, 0.5), "submit_p99": _pct(submit_ms, 0.99),
            "whole_p50": _pct(whole_ms, 0.5), "whole_p99": _pct(whole_ms, 0.99), "rss": _rss_mb()}


async def round_trips(service: GameService, ids: list[int], writer: Any) -> tuple[int, int, float]:
    """The statements one batch of commands sends (each a round trip to the database) and its time:
    a pick in each of `ids`, written at once through the store as a command writes (clock plans and
    outbox rows included). The count does not depend on how loaded the machine is."""
    from sqlalchemy import event

    from game import events as ev
    from game.apply import apply_all

    service.store.repo.writer = writer
    batches = writer.batches
    loaded = [await service.store.load(gid, fresh=True) for gid in ids]
    sent = 0

    def count(*_: object) -> None:
        nonlocal sent
        sent += 1

    sync = service.store.repo.engine.sync_engine
    event.listen(sync, "before_cursor_execute", count)
    try:
        pick = ev.CardPicked("A", "Effective Fire")
        t0 = time.perf_counter()
        await asyncio.gather(*(service.store.write(lo, ACTORS["A"], [pick], apply_all(lo.state, [pick]), None)
                               for lo in loaded))
        return sent, writer.batches - batches, (time.perf_counter() - t0) * 1000
    finally:
        event.remove(sync, "before_cursor_execute", count)


def _load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


async def amain(rates: list[float]) -> None:
    script = command_script()
    pg = os.environ.get("BENCH_POSTGRES_URL") or os.environ.get("TEST_POSTGRES_URL")
    print(f"{GAMES} live games, {SECONDS:.0f} s per rate and run, interactions = lookup + submit + view + options "
          f"+ roll; {os.cpu_count()} cores")
    print("at the start of issue 15 (closed loop, commands alone): SQLite topped out at 50–75/s, PostgreSQL at "
          "60–116/s; target ≥ 500/s, p99 ≤ 50 ms at 200/s; issue 29: PostgreSQL p99 ≤ 100 ms at 200/s")
    base_writer = old_module("game/service/writer.py", "qd_writer_base", WRITER_BASE)
    engines = [("SQLite", None)] if os.environ.get("BENCH_SQLITE", "1") != "0" else []  # BENCH_SQLITE=0: PostgreSQL alone
    for label, base in engines + ([("PostgreSQL", pg)] if pg else []):
        if base is None:
            url, name = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/bench.db", ""
        else:
            url, name = await _postgres_db(base)
        await upgrade_to_head(url)
        engine = make_engine(url)
        runs = [("now", Workers(int(WORKERS or default_size(url))), None)]
        if base_writer is not None:
            runs.insert(0, (WRITER_BASE, Workers(int(WORKERS or 2)), base_writer.GroupWriter(engine)))
        try:
            for _, pool, _ in runs:
                pool.start()
            # as the bot: each command writes its posts, and the pool decides
            service = GameService(engine, seeds=SEED, outbox=True, workers=runs[-1][1])
            today = service.store.repo.writer
            reads, read_session = service.store.repo.reads, service.store.repo.read_session
            t0 = time.perf_counter()
            ids = await seated_games(service, GAMES)
            print(f"{label}: {GAMES} games set up in {time.perf_counter() - t0:.0f} s, RSS {_rss_mb():.0f} MB")
            if base is not None:  # (SQLite's writer is unchanged: one batch a time, bounded by size)
                trial = await seated_games(service, 2 * BATCH, first=GAMES)
                for n, (run, _, writer) in enumerate(runs):
                    sent, batches, ms = await round_trips(service, trial[n * BATCH:(n + 1) * BATCH], writer or today)
                    print(f"{label:10} {run:7} {BATCH} commands written at once: {sent} statements (round trips, "
                          f"BEGIN and COMMIT apart) in {batches} batch(es), {ms:.0f} ms")
            progress = dict.fromkeys(ids, 0)
            for rate in rates:
                for run, pool, writer in runs:
                    repo = service.store.repo
                    repo.writer = writer or today
                    # the base run reads as it did: a transaction for every read, every read checked
                    repo.reads, repo.read_session = (reads if writer is None else repo.engine,
                                                     read_session if writer is None else repo.session)
                    service.store.workers = pool
                    used = service.store.repo.writer
                    batches, appends = used.batches, used.appends
                    r = await load(service, ids, script, rate, SECONDS, random.Random(int(rate)), progress,
                                   look=writer is None)
                    grouped = (used.appends - appends) / max(1, used.batches - batches)
                    print(f"{label:10} {run:7} {pool.size} workers, offered {rate:5.0f}/s: served {r['per_s']:6.1f}/s "
                          f"({r['served']:.0f}), submit p50 {r['submit_p50']:6.1f} ms p99 {r['submit_p99']:7.1f} ms, "
                          f"interaction p50 {r['whole_p50']:6.1f} ms p99 {r['whole_p99']:7.1f} ms, "
                          f"{grouped:.1f} commands per commit, RSS {r['rss']:4.0f} MB, load {_load_average()}")
        finally:
            await engine.dispose()
            for _, pool, _ in runs:
                pool.close()
            if base is not None:
                await _drop(base, name)


def main(*rates_given: str) -> None:
    rates = [float(a) for a in rates_given] or [20.0, 50.0, 200.0]
    asyncio.run(amain(rates))


if __name__ == "__main__":
    main(*sys.argv[1:])
