"""Group commit: the accepted commands of many games written in one transaction.

A command is acknowledged only after its commit, so under load most of a command's time used to be
its own transaction: a dozen statements through the ORM, and on SQLite a wait for the single write
lock. Here one task per service writes whatever appends are waiting when it is free: a version check
for each game (a game another process moved on fails alone, as VersionConflict), then one statement
per table for the lot, through SQLAlchemy Core (the models stay the schema). While it writes, the next
appends gather; at a chat's pace a batch is one command and the cost is that of the leaner path.

If a batch fails as a whole (a request id carried out before hits its unique key, a database error),
each of its appends is written again on its own, so the failure lands on the command it belongs to.

Under load a batch used to grow with the queue (19 commands a commit on PostgreSQL at 200/s, p99 876
ms: issue 29), and every command of it waited for the whole. A batch is therefore bounded by time as
well as size on PostgreSQL: it takes as many appends as the last batches say fit in `BATCH_SECONDS`,
and several batches are written at once, each on its own connection (`LANES`: one process's batches never
share a game, as a game's commands run one at a time), and a batch costs the same few round trips
whatever its size: the version checks are one `UPDATE … FROM unnest(…) RETURNING`, the clock jobs
replaced one `DELETE … USING unnest(…)`, the rows of each table one executemany (asyncpg pipelines it).
SQLite has one write lock: one batch at a time, on its own thread.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, Table, bindparam, delete, insert, or_, select, text, tuple_, update
from sqlalchemy.ext.asyncio import AsyncEngine

from game.service.models import (
    EventRecord,
    GameRecord,
    OutboxRow,
    PendingSecret,
    ProcessedRequest,
    ScheduledJob,
    Seat,
    Snapshot,
)
from game.service.outbox import Post

log = logging.getLogger(__name__)

MAX_BATCH = 64  # appends per transaction: enough to drain a burst, small enough to keep a commit short
BATCH_SECONDS = 0.015  # what a batch aims to take on PostgreSQL: a command waits about one batch behind its own
LANES = 3  # batches written at once on PostgreSQL (SQLite's one write lock allows one)
CLOCK_KINDS = ("reminder", "deadline")


def _table(model: Any) -> Table:
    table: Table = model.__table__
    return table


GAMES, EVENTS, SNAPSHOTS, REQUESTS = _table(GameRecord), _table(EventRecord), _table(Snapshot), _table(ProcessedRequest)
JOBS, OUTBOX, SECRETS, SEATS = _table(ScheduledJob), _table(OutboxRow), _table(PendingSecret), _table(Seat)


# the hot statements, built once: building a statement cost more than SQLite took to run it
_MOVE_ON = (update(GAMES).where(GAMES.c.id == bindparam("w_id"), GAMES.c.version == bindparam("w_version"))
            .values(version=bindparam("w_next"), last_seq=bindparam("w_last_seq"), commands=bindparam("w_commands"),
                    updated_at=bindparam("w_updated_at"), status=bindparam("w_status"), waits=bindparam("w_waits")))
_ADD_REQUESTS, _ADD_EVENTS, _ADD_SNAPSHOTS, _ADD_JOBS = insert(REQUESTS), insert(EVENTS), insert(SNAPSHOTS), insert(JOBS)
_ADD_POSTS = insert(OUTBOX).returning(OUTBOX.c.id, sort_by_parameter_order=True)
_KEYS_SEEN = select(OUTBOX.c.game_id, OUTBOX.c.key).where(
    tuple_(OUTBOX.c.game_id, OUTBOX.c.key).in_(bindparam("keys", expanding=True)))
_CLEAR_JOBS = delete(JOBS).where(JOBS.c.game_id.in_(bindparam("games", expanding=True)),
                                 JOBS.c.kind.in_(bindparam("kinds", expanding=True)), JOBS.c.status != "running")
# a side's jobs, and those planned before jobs named their side (they belong to the whole game)
_CLEAR_SIDES = delete(JOBS).where(JOBS.c.game_id == bindparam("game"), JOBS.c.kind.in_(CLOCK_KINDS),
                                  JOBS.c.status != "running",
                                  or_(JOBS.c.player.in_(bindparam("sides", expanding=True)), JOBS.c.player.is_(None)))
# PostgreSQL: the batch's version checks in one statement, each game moved on only at the version read;
# the games that moved come back (the others were moved on by another process)
_MOVE_ON_ALL = text(
    "UPDATE games AS g SET version = v.next, last_seq = v.last_seq, commands = v.commands, "
    "updated_at = v.updated_at, status = v.status, waits = v.waits "
    "FROM unnest(CAST(:ids AS INTEGER[]), CAST(:versions AS INTEGER[]), CAST(:nexts AS INTEGER[]), "
    "CAST(:last_seqs AS INTEGER[]), CAST(:commands AS INTEGER[]), CAST(:updated AS TIMESTAMPTZ[]), "
    "CAST(:statuses AS VARCHAR[]), CAST(:waits AS TEXT[])) "
    "AS v(id, version, next, last_seq, commands, updated_at, status, waits) "
    "WHERE g.id = v.id AND g.version = v.version RETURNING g.id")
# PostgreSQL: the batch's replaced sides' jobs in one statement (a row with no side per game takes the
# jobs planned before jobs named their side, as _CLEAR_SIDES does)
_CLEAR_ALL_SIDES = text(
    "DELETE FROM scheduled_jobs AS j USING unnest(CAST(:games AS INTEGER[]), CAST(:sides AS VARCHAR[])) "
    "AS v(game_id, player) WHERE j.game_id = v.game_id AND j.kind IN ('reminder', 'deadline') "
    "AND j.status != 'running' AND (j.player = v.player OR j.player IS NULL)")


class VersionConflict(Exception):
    """Another writer changed the game since it was read."""


@dataclass
class Picks:
    """The initiative picks the new state owes (game/service/repository.py works them out)."""

    owed: frozenset[str]
    turn: int
    users: dict[str, str | None]


@dataclass
class Append:
    """One command's writes, ready made: the game's record moves from `version` to `version + 1`."""

    game_id: int
    version: int
    values: dict[str, Any]  # the record's new last_seq, commands, status, updated_at
    events: list[dict[str, Any]]
    request: dict[str, Any] | None = None
    snapshot: dict[str, Any] | None = None
    picks: Picks | None = None
    seats: Sequence[Seat] = ()
    jobs: list[dict[str, Any]] | None = None  # None: the game's clock jobs stay as they are
    sides: Sequence[str] = ()  # the sides whose jobs `jobs` replace
    posts: Sequence[Post] = ()
    now: datetime | None = None
    outbox_ids: list[int] = field(default_factory=list)  # filled by the write


PlannedJob = tuple[str, datetime, dict[str, Any], str, str | None, int]  # kind, due, payload, side, holder, since


def job_rows(game_id: int, jobs: Sequence[PlannedJob], now: datetime) -> list[dict[str, Any]]:
    """The rows of a game's new plan, as its clock planned them (game/service/clock.py), each naming
    the decision it was planned for: the side, its holder and the log position its wait began at."""
    return [{"game_id": game_id, "kind": kind, "due_at": due, "payload": json.dumps(payload), "status": "pending",
             "attempts": 0, "last_error": "", "created_at": now, "locked_until": None,
             "player": player, "holder": holder, "since": since}
            for kind, due, payload, player, holder, since in jobs]


def clear_clock_jobs(conn: Connection, game_ids: Sequence[int], kinds: Sequence[str] = CLOCK_KINDS) -> None:
    """The games' reminders (and deadlines) go, done or not, before new ones are planned: the table
    holds only what is planned now (it used to gain two rows a command). A job a scheduler is running
    stays until it ends."""
    conn.execute(_CLEAR_JOBS, {"games": list(game_ids), "kinds": list(kinds)})


def clear_side_jobs(conn: Connection, game_id: int, sides: Sequence[str]) -> None:
    """These sides' reminders and deadlines go before theirs are planned again; the other sides' plans
    stay as they are (an opponent's move never re-times a side whose wait goes on). A job a scheduler
    is running stays until it ends, and then finds its decision gone."""
    conn.execute(_CLEAR_SIDES, {"game": game_id, "sides": list(sides)})


class BatchCost:
    """What a batch of n appends takes, a + b·n, fitted by least squares to the last batches: the
    transaction's own cost (a) apart from what each append adds (b). A cost per append taken as a batch's
    time over its size would count the transaction in it, and once that alone passed the budget every
    batch would be held to one append, however long the queue (on a loaded machine it did)."""

    def __init__(self, keep: int = 32) -> None:
        self._seen: deque[tuple[int, float]] = deque(maxlen=keep)

    def add(self, size: int, seconds: float) -> None:
        self._seen.append((size, seconds))

    def fits(self, seconds: float, most: int) -> int:
        """How many appends fit in `seconds`: `most` while that is not known (batches of one size only)
        or cannot be met (the transaction alone takes longer: then a batch takes what waits, which
        keeps up best)."""
        if len(self._seen) < 4 or math.isinf(seconds):
            return most
        mean_n = sum(n for n, _ in self._seen) / len(self._seen)
        mean_t = sum(t for _, t in self._seen) / len(self._seen)
        spread = sum((n - mean_n) ** 2 for n, _ in self._seen)
        if spread == 0:
            return most
        per_append = sum((n - mean_n) * (t - mean_t) for n, t in self._seen) / spread
        fixed = mean_t - per_append * mean_n
        if per_append <= 0 or fixed >= seconds:
            return most
        return max(1, min(most, int((seconds - max(fixed, 0.0)) / per_append)))


class GroupWriter:
    """Writes appends in batches. On SQLite the batch runs in one thread of its own on a plain
    (synchronous) connection: one hop off the event loop per batch, where the async driver made a
    hop per cursor call, and a wait for the write lock blocks that thread, never the loop. On
    PostgreSQL it runs on the async connection (asyncpg's round trips are the cost there)."""

    def __init__(self, engine: AsyncEngine, max_batch: int = MAX_BATCH, seconds: float = BATCH_SECONDS,
                 lanes: int = LANES) -> None:
        from game.service.db import sqlite_writer

        self.engine = engine
        self.max_batch = max_batch
        self._sync: Engine | None = sqlite_writer(engine)
        sqlite = engine.dialect.name == "sqlite"
        self.lanes = 1 if sqlite else max(1, lanes)
        # SQLite's one write lock takes one batch at a time: a shorter batch there only adds commits (each
        # command waits for the batch ahead and its own either way), so only the size bounds it
        self.seconds = math.inf if sqlite else seconds
        self._thread: ThreadPoolExecutor | None = None
        self._waiting: list[tuple[Append, asyncio.Future[None]]] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._writing: set[int] = set()  # the games of the batches being written
        self.cost = BatchCost()  # what the last batches took, by size
        self.batches = 0  # transactions written, and the appends in them (the benchmark prints both)
        self.appends = 0
        self.split = 0  # batches that failed as a whole and were written again one by one

    async def write(self, item: Append) -> None:
        """Commit `item` (with whatever else is waiting); returns once it is committed."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._waiting.append((item, done))
        # a lane whose loop has ended is done at once, though its done-callback runs later: counted as
        # busy, this append would wait for a lane that never comes
        self._tasks = {task for task in self._tasks if not task.done()}
        if len(self._tasks) < self.lanes:
            # a lane's task ends when nothing waits: no task outlives its work or its event loop
            task = loop.create_task(self._drain())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        await done

    def limit(self) -> int:
        """How many appends the next batch takes: as many as the last batches say fit in `seconds`."""
        return self.cost.fits(self.seconds, self.max_batch)

    def _take(self) -> list[tuple[Append, asyncio.Future[None]]]:
        """The oldest waiting appends, up to the limit, leaving any whose game another lane is writing
        (its next command waits for that commit: a game's rows are written in order)."""
        batch: list[tuple[Append, asyncio.Future[None]]] = []
        kept: list[tuple[Append, asyncio.Future[None]]] = []
        games: set[int] = set()
        limit = self.limit()
        for entry in self._waiting:
            gid = entry[0].game_id
            if len(batch) < limit and gid not in self._writing and gid not in games:
                batch.append(entry)
                games.add(gid)
            else:
                kept.append(entry)
        self._waiting[:] = kept
        self._writing |= games
        return batch

    async def _drain(self) -> None:
        while self._waiting:
            batch = self._take()
            if not batch:
                return  # what waits belongs to games another lane is writing: that lane takes it next
            try:
                await self._written(batch)
            finally:
                self._writing.difference_update(item.game_id for item, _ in batch)

    async def _written(self, batch: list[tuple[Append, asyncio.Future[None]]]) -> None:
        started = time.perf_counter()
        try:
            await self._batch(batch)
        except BaseException as exc:
            if len(batch) == 1 or not isinstance(exc, Exception):
                _fail(batch, exc)
                if not isinstance(exc, Exception):
                    raise
                return
            log.info("a batch of %d appends failed (%s); writing each on its own", len(batch), type(exc).__name__)
            self.split += 1
            for one in batch:
                try:
                    await self._batch([one])
                except Exception as alone:
                    _fail([one], alone)
            return
        self.cost.add(len(batch), time.perf_counter() - started)

    async def _batch(self, batch: list[tuple[Append, asyncio.Future[None]]]) -> None:
        items = [item for item, _ in batch]
        if self._sync is not None:
            if self._thread is None:
                self._thread = ThreadPoolExecutor(1, thread_name_prefix="qd-writer")
            conflicts = await asyncio.get_running_loop().run_in_executor(self._thread, _in_transaction, self._sync, items)
        else:
            async with self.engine.begin() as conn:
                conflicts = await conn.run_sync(write_batch, items)
        self.batches += 1
        self.appends += len(batch)
        for item, done in batch:
            if done.done():
                continue  # its caller went away; the command is committed all the same
            if item.game_id in conflicts:
                done.set_exception(VersionConflict(f"game {item.game_id} changed since version {item.version}"))
            else:
                done.set_result(None)


def _in_transaction(engine: Engine, items: list[Append]) -> set[int]:
    with engine.begin() as conn:
        return write_batch(conn, items)


def write_batch(conn: Connection, items: list[Append]) -> set[int]:
    """The batch inside the caller's transaction: the games another writer moved on (their rows are
    left out), after writing every other game's rows."""
    conflicts: set[int] = set()
    for item in items:
        item.outbox_ids.clear()  # an attempt that failed at its commit may have filled them
    if conn.dialect.name == "postgresql" and len(items) > 1:
        conflicts = _move_on_all(conn, items)
    else:
        for item in items:
            moved = conn.execute(_MOVE_ON, {"w_id": item.game_id, "w_version": item.version,
                                            "w_next": item.version + 1,
                                            **{f"w_{k}": v for k, v in item.values.items()}})
            if moved.rowcount != 1:
                conflicts.add(item.game_id)
    live = [item for item in items if item.game_id not in conflicts]
    if live:
        _rows(conn, live)
    return conflicts


def _move_on_all(conn: Connection, items: list[Append]) -> set[int]:
    """PostgreSQL: every game of the batch moved on in one statement; the games that were not."""
    ordered = sorted(items, key=lambda i: i.game_id)  # rows locked in one order by every process
    moved = set(conn.execute(_MOVE_ON_ALL, {
        "ids": [i.game_id for i in ordered], "versions": [i.version for i in ordered],
        "nexts": [i.version + 1 for i in ordered], "last_seqs": [i.values["last_seq"] for i in ordered],
        "commands": [i.values["commands"] for i in ordered], "updated": [i.values["updated_at"] for i in ordered],
        "statuses": [i.values["status"] for i in ordered], "waits": [i.values["waits"] for i in ordered],
    }).scalars())
    return {i.game_id for i in items} - moved


def _fail(batch: list[tuple[Append, asyncio.Future[None]]], exc: BaseException) -> None:
    for _, done in batch:
        if not done.done():
            done.set_exception(exc if isinstance(exc, Exception) else asyncio.CancelledError())


def _rows(conn: Connection, items: list[Append]) -> None:
    """Every row of the batch's commands, one statement per table (where a table has rows)."""
    requests = [i.request for i in items if i.request is not None]
    if requests:
        # the primary key is the check: a request carried out before fails here (no look-up first)
        conn.execute(_ADD_REQUESTS, requests)
    events = [row for i in items for row in i.events]
    if events:
        conn.execute(_ADD_EVENTS, events)
    snapshots = [i.snapshot for i in items if i.snapshot is not None]
    if snapshots:
        conn.execute(_ADD_SNAPSHOTS, snapshots)
    picking = [i for i in items if i.picks is not None]
    if len(picking) > 1:
        keep_all_picks(conn, picking)
    for item in picking[:1] if len(picking) == 1 else ():
        assert item.picks is not None
        keep_picks(conn, item.game_id, item.picks, item.now)
    for item in items:
        for seat in item.seats:
            conn.execute(update(SEATS).where(SEATS.c.id == seat.id).values(
                user_id=seat.user_id, display_name=seat.display_name, is_ai=seat.is_ai, player=seat.player))
    replanned = [i for i in items if i.jobs is not None]
    if conn.dialect.name == "postgresql" and len(replanned) > 1:
        pairs = [(i.game_id, side) for i in replanned for side in (*i.sides, None)]
        conn.execute(_CLEAR_ALL_SIDES, {"games": [g for g, _ in pairs], "sides": [p for _, p in pairs]})
    else:
        for item in replanned:
            clear_side_jobs(conn, item.game_id, item.sides)
    jobs = [row for i in replanned for row in i.jobs or ()]
    if jobs:
        conn.execute(_ADD_JOBS, jobs)
    _stage(conn, [i for i in items if i.posts])


def stage_posts(conn: Connection, posts: Sequence[tuple[int, Post, datetime | None]]) -> list[int | None]:
    """Outbox rows for (game, post, time) triples, in the caller's transaction, one statement: the id of
    each, in the order given. A keyed row already written (a nudge per pick owed) is not written again:
    its id is None."""
    keyed = [(game_id, p.key) for game_id, p, _ in posts if p.key is not None]
    seen: set[tuple[int, str]] = set()
    if keyed:
        seen = {(g, k) for g, k in conn.execute(_KEYS_SEEN, {"keys": keyed})}
    rows, written = [], []
    for n, (game_id, post, now) in enumerate(posts):
        if post.key is not None:
            if (game_id, post.key) in seen:
                continue
            seen.add((game_id, post.key))
        rows.append({"game_id": game_id, "kind": post.kind, "payload": json.dumps(post.payload),
                     "key": post.key, "status": "pending", "attempts": 0, "next_try_at": now,
                     "locked_until": None, "last_error": "", "created_at": now, "done_at": None})
        written.append(n)
    ids: list[int | None] = [None] * len(posts)
    if rows:
        # the ids come back in the order of the rows
        for n, row_id in zip(written, conn.execute(_ADD_POSTS, rows).scalars(), strict=True):
            ids[n] = int(row_id)
    return ids


def _stage(conn: Connection, items: list[Append]) -> None:
    """The batch's outbox rows; each command learns which are its own."""
    owners = [i for i in items for _ in i.posts]
    ids = stage_posts(conn, [(i.game_id, p, i.now) for i in items for p in i.posts])
    for owner, row_id in zip(owners, ids, strict=True):
        if row_id is not None:
            owner.outbox_ids.append(row_id)


def keep_all_picks(conn: Connection, items: list[Append]) -> None:
    """`keep_picks` for a batch's games at once: four statements whatever the batch's size (a pick turn
    made them four a command)."""
    games = [i.game_id for i in items]
    open_rows = conn.execute(select(SECRETS.c.id, SECRETS.c.game_id, SECRETS.c.player, SECRETS.c.turn).where(
        SECRETS.c.game_id.in_(games), SECRETS.c.resolved_at.is_(None))).all()
    resolved: list[dict[str, Any]] = []
    missing: dict[int, set[str]] = {}
    for item in items:
        picks = item.picks
        assert picks is not None
        mine = [(rid, player, turn) for rid, gid, player, turn in open_rows if gid == item.game_id]
        resolved += [{"r_id": rid, "r_at": item.now} for rid, player, turn in mine
                     if player not in picks.owed or turn != picks.turn]
        have = {player for _, player, turn in mine if player in picks.owed and turn == picks.turn}
        if picks.owed - have:
            missing[item.game_id] = set(picks.owed - have)
    if resolved:
        conn.execute(update(SECRETS).where(SECRETS.c.id == bindparam("r_id")).values(resolved_at=bindparam("r_at")),
                     resolved)
    if not missing:
        return
    # a pick resolved earlier this turn (and owed again after an undo) keeps its row
    noted = set(conn.execute(select(SECRETS.c.game_id, SECRETS.c.player, SECRETS.c.turn).where(
        SECRETS.c.game_id.in_(list(missing)), SECRETS.c.kind == "initiative_pick")).tuples())
    rows = []
    for item in items:
        picks = item.picks
        assert picks is not None
        rows += [{"game_id": item.game_id, "player": p, "user_id": picks.users.get(p), "kind": "initiative_pick",
                  "turn": picks.turn, "created_at": item.now, "resolved_at": None}
                 for p in sorted(missing.get(item.game_id, ())) if (item.game_id, p, picks.turn) not in noted]
    if rows:
        conn.execute(insert(SECRETS), rows)


def keep_picks(conn: Connection, game_id: int, picks: Picks, now: datetime | None) -> None:
    """Keep the table of owed initiative picks in step with the state: rows no longer owed are
    resolved, and a row is added for each pick owed this turn that has none yet."""
    open_rows = (conn.execute(select(SECRETS.c.id, SECRETS.c.player, SECRETS.c.turn).where(
        SECRETS.c.game_id == game_id, SECRETS.c.resolved_at.is_(None)))).all()
    done = [rid for rid, player, turn in open_rows if player not in picks.owed or turn != picks.turn]
    if done:
        conn.execute(update(SECRETS).where(SECRETS.c.id.in_(done)).values(resolved_at=now))
    have = {player for _, player, turn in open_rows if player in picks.owed and turn == picks.turn}
    missing = sorted(picks.owed - have)
    if not missing:
        return
    # a pick resolved earlier this turn (and owed again after an undo) keeps its row
    noted = set((conn.execute(select(SECRETS.c.player).where(
        SECRETS.c.game_id == game_id, SECRETS.c.turn == picks.turn, SECRETS.c.kind == "initiative_pick",
        SECRETS.c.player.in_(missing)))).scalars())
    rows = [{"game_id": game_id, "player": p, "user_id": picks.users.get(p), "kind": "initiative_pick",
             "turn": picks.turn, "created_at": now, "resolved_at": None} for p in missing if p not in noted]
    if rows:
        conn.execute(insert(SECRETS), rows)
