"""Reading and writing games: the append-only event log, snapshots, processed requests.

Appending is one transaction that moves the game's version on only if nobody else did first
(optimistic concurrency), so two processes sharing a database cannot interleave commands.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar, cast

from sqlalchemy import (
    CursorResult,
    Integer,
    bindparam,
    case,
    delete,
    func,
    insert,
    select,
    type_coerce,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlmodel import col

from game.codec import from_data, to_data
from game.events import EVENTS
from game.model import Game
from game.phases.common import PICKING, awaiting_pick
from game.service.db import sessions
from game.service.errors import GameDamaged, ServiceRefusal
from game.service.models import (
    BotState,
    DataVersion,
    EventRecord,
    GameRecord,
    GuildSettings,
    PendingSecret,
    PlannedOrder,
    ProcessedRequest,
    SavedSquadron,
    ScheduledJob,
    Seat,
    ServerTableEntry,
    Snapshot,
    StandingOrderRecord,
    utcnow,
)
from game.service.outbox import Post
from game.service.writer import (
    Append,
    GroupWriter,
    Picks,
    PlannedJob,
    VersionConflict,
    clear_side_jobs,
    job_rows,
    keep_picks,
    stage_posts,
)
from game.systems import OAK_AND_IRON, SYSTEMS
from game.systems.base import PICKS, GameSystem

log = logging.getLogger(__name__)

# a stored game's id as the database hands it back: never None (only a record not yet saved lacks one)
GAME_ID = type_coerce(col(GameRecord.id), Integer)


class DuplicateRequest(ServiceRefusal):
    """The request id was already carried out (by this process or another). The service answers as the
    first time; where it cannot, the player reads this rather than an unexpected error."""

    def __init__(self, request_id: str) -> None:
        super().__init__("That order was already carried out.", "See the game's log (/game log).")
        self.request_id = request_id


def encode_state(state: Any) -> str:
    return json.dumps(to_data(state), ensure_ascii=False, separators=(",", ":"))


def decode_state(text: str) -> Game:
    result: Game = from_data(Game, json.loads(text))
    return result


def encode_event(event: Any) -> str:
    return json.dumps(EVENTS.encode(event), ensure_ascii=False, separators=(",", ":"))


def decode_event(text: str) -> Any:
    return EVENTS.decode(json.loads(text))


S = TypeVar("S")


@dataclass
class Stored(Generic[S]):
    """A game as read: its record, its seats and its state, in whichever system it is played."""

    record: GameRecord
    seats: list[Seat]
    state: S

    @property
    def system(self) -> GameSystem[Any, Any, Any]:
        return system_of(self.record)


Loaded = Stored[Game]  # an Oak & Iron game (GameStore.load refuses the others)

__all__ = ["DuplicateRequest", "Loaded", "Repository", "Stored", "VersionConflict"]


def system_of(record: GameRecord) -> GameSystem[Any, Any, Any]:
    found = SYSTEMS.get(record.system)
    if found is None:  # a row no version of Quarterdeck wrote: said as damage, never a crash
        raise GameDamaged(f"Game #{record.id} is of an unknown system {record.system[:30]!r}.",
                          "Its record is damaged; start a new game.")
    return found


def picks_owed(seats: Sequence[Seat], state: Game) -> Picks:
    """The initiative picks the state owes, and who owes them."""
    owed = frozenset(awaiting_pick(state))
    return Picks(owed, state.turn, {seat.player: seat.user_id for seat in seats})


def status_of(state: Any, system: GameSystem[Any, Any, Any]) -> str:
    return "over" if system.over(state) else "active"


_VERSION_OF = select(col(GameRecord.version)).where(col(GameRecord.id) == bindparam("game_id"))


class Repository:
    def __init__(self, engine: AsyncEngine, snapshot_every: int = 50) -> None:
        self.engine = engine
        self.session: async_sessionmaker[AsyncSession] = sessions(engine)
        # a read of one statement needs no transaction of its own: through asyncpg one costs a BEGIN
        # and a ROLLBACK, two round trips more than the SELECT (issue 29: three quarters of the round
        # trips of an interaction). SQLite keeps its transactions: changing a connection's mode there
        # ends a transaction the connection may be in (a database in memory shares one connection).
        self.reads = engine.execution_options(isolation_level="AUTOCOMMIT") if engine.dialect.name == "postgresql" else engine
        self.read_session: async_sessionmaker[AsyncSession] = sessions(self.reads)
        self.snapshot_every = snapshot_every
        self.writer = GroupWriter(engine)  # every append goes through it (group commit)

    async def create_game(self, record: GameRecord, state: Game | None, seats: Sequence[Seat],
                          posts: Sequence[Post] = ()) -> GameRecord:
        """The game and its seats, in one transaction, with the outbox rows that announce it. With an
        Oak & Iron `state`, its encoding is the starting state and the picks it owes are noted; another
        system's record comes with its own `initial_state` (game/service/referee.py)."""
        if state is not None:
            record.initial_state = encode_state(state)
        async with self.session() as s, s.begin():
            s.add(record)
            await s.flush()
            assert record.id is not None
            for seat in seats:
                seat.game_id = record.id
                s.add(seat)
            conn = await s.connection()
            if state is not None and state.phase in PICKING:
                await conn.run_sync(keep_picks, record.id, picks_owed(seats, state), utcnow())
            if posts:
                await conn.run_sync(stage_posts, [(record.id, p, utcnow()) for p in posts])
        return record

    async def load(self, game_id: int) -> Stored[Any] | None:
        """The game from its newest readable snapshot plus the events after it, in its own system. A
        damaged snapshot falls back to an older one (or the start); a damaged event makes the game
        unreadable, which is said as a typed error rather than a crash."""
        async with self.read_session() as s:
            record = await s.get(GameRecord, game_id)
            if record is None:
                return None
            sysm = system_of(record)
            seats = list((await s.execute(select(Seat).where(col(Seat.game_id) == game_id))).scalars())
            # each statement sees what was committed when it ran (READ COMMITTED): another process may
            # append between them, so the state is built only up to the record's last event
            marks = (await s.execute(
                select(col(Snapshot.seq))
                .where(col(Snapshot.game_id) == game_id, col(Snapshot.seq) <= record.last_seq)
                .order_by(col(Snapshot.seq).desc())
            )).scalars().all()
            state, after = None, 0
            for seq in marks:
                text = (await s.execute(
                    select(col(Snapshot.state)).where(col(Snapshot.game_id) == game_id, col(Snapshot.seq) == seq)
                )).scalar_one()
                try:
                    state, after = from_data(sysm.state_type, json.loads(text)), seq
                    break
                except Exception as exc:  # a damaged row: an older snapshot, or the events, rebuild it
                    log.warning("game %s: snapshot at %s cannot be read (%s); using an older one", game_id, seq, exc)
            if state is None:
                try:
                    state = from_data(sysm.state_type, json.loads(record.initial_state))
                except Exception as exc:
                    raise GameDamaged(f"Game #{game_id}'s starting state cannot be read ({type(exc).__name__}).",
                                      "Its log is damaged; a GM can start a new game.") from None
            rows = (
                await s.execute(
                    select(col(EventRecord.seq), col(EventRecord.payload))
                    .where(col(EventRecord.game_id) == game_id, col(EventRecord.seq) > after,
                           col(EventRecord.seq) <= record.last_seq)
                    .order_by(col(EventRecord.seq))
                )
            ).all()
            for seq, payload in rows:
                try:
                    state = sysm.apply(state, sysm.events.decode(json.loads(payload)))
                except Exception as exc:
                    raise GameDamaged(f"Game #{game_id}'s event {seq} cannot be read ({type(exc).__name__}).",
                                      "Its log is damaged; a GM can start a new game.") from None
            return Stored(record, seats, state)

    async def version_of(self, game_id: int) -> int | None:
        """The stored version: asked before a shared store uses a cached game, several times an
        interaction, so through a bare connection (half an ORM session's cost, issue 29)."""
        async with self.reads.connect() as c:
            found: int | None = (await c.execute(_VERSION_OF, {"game_id": game_id})).scalar_one_or_none()
            return found

    async def overdue_players(self, game_id: int, now: datetime) -> set[str]:
        """Players whose current deadline has passed: the newest deadline planned for each, if it was
        not cancelled by play moving on."""
        async with self.session() as s:
            rows = (await s.execute(
                select(col(ScheduledJob.payload), col(ScheduledJob.due_at), col(ScheduledJob.status))
                .where(col(ScheduledJob.game_id) == game_id, col(ScheduledJob.kind) == "deadline")
                .order_by(col(ScheduledJob.id).desc())
            )).all()
        seen: set[str] = set()
        out = set()
        for payload, due, status in rows:
            player = json.loads(payload).get("player")
            if not isinstance(player, str) or player in seen:
                continue
            seen.add(player)
            due = due.replace(tzinfo=UTC) if due.tzinfo is None else due
            if status != "cancelled" and due <= now:
                out.add(player)
        return out

    async def events(self, game_id: int, first: int = 1, last: int | None = None,
                     system: GameSystem[Any, Any, Any] | None = None) -> list[tuple[int, int, Any]]:
        """(seq, command, event) from first to last, read as the game's system's events (Oak & Iron's
        unless it is named)."""
        decode = decode_event if system is None else (lambda text: system.events.decode(json.loads(text)))
        async with self.read_session() as s:
            q = select(col(EventRecord.seq), col(EventRecord.command), col(EventRecord.payload)).where(
                col(EventRecord.game_id) == game_id, col(EventRecord.seq) >= first
            )
            if last is not None:
                q = q.where(col(EventRecord.seq) <= last)
            rows = (await s.execute(q.order_by(col(EventRecord.seq)))).all()
            return [(seq, cmd, decode(p)) for seq, cmd, p in rows]

    async def last_event_seq(self, game_id: int, kind: str, upto: int) -> int | None:
        """The number of the latest event of this kind up to `upto` (the log as the caller read it)."""
        async with self.reads.connect() as c:
            found = await c.execute(select(func.max(col(EventRecord.seq))).where(
                col(EventRecord.game_id) == game_id, col(EventRecord.type) == kind, col(EventRecord.seq) <= upto))
            seq: int | None = found.scalar()
            return seq

    async def snapshots(self, game_id: int) -> list[tuple[int, Game]]:
        async with self.read_session() as s:
            rows = (
                await s.execute(
                    select(col(Snapshot.seq), col(Snapshot.state))
                    .where(col(Snapshot.game_id) == game_id).order_by(col(Snapshot.seq))
                )
            ).all()
            return [(seq, decode_state(st)) for seq, st in rows]

    async def processed(self, request_id: str) -> ProcessedRequest | None:
        async with self.read_session() as s:
            return await s.get(ProcessedRequest, request_id)

    async def append(
        self,
        loaded: Stored[Any],
        events: Sequence[Any],
        new_state: Any,
        actor: str,
        request_id: str | None,
        response: dict[str, Any],
        replan: tuple[Sequence[str], Sequence[PlannedJob]] | None = None,  # sides planned again, their jobs
        seats: Sequence[Seat] = (),
        posts: Sequence[Post] = (),
        written: list[int] | None = None,
        waits: str | None = None,  # the sides' waits after the command (None: as they were)
    ) -> tuple[int, int]:
        """Write the events of one accepted command (and the seats it changed), atomically, if the game
        is still at the version it was read at, with what the bot must post about them (`posts`, in the
        same transaction: a crash after the commit still delivers them; their row ids go to `written`).
        The write goes through the group writer (game/service/writer.py): it returns once committed.
        Returns (first_seq, last_seq)."""
        rec = loaded.record
        assert rec.id is not None
        sysm = loaded.system
        first = rec.last_seq + 1
        last = rec.last_seq + len(events)
        command = rec.commands + 1
        now = utcnow()
        waits = rec.waits if waits is None else waits
        status = status_of(new_state, sysm)
        item = Append(
            rec.id, rec.version,
            {"last_seq": last, "commands": command, "updated_at": now, "status": status, "waits": waits},
            [{"game_id": rec.id, "seq": first + i, "command": command, "type": type(e).__name__,
              "payload": json.dumps(sysm.events.encode(e), ensure_ascii=False, separators=(",", ":")),
              "actor": actor, "request_id": request_id, "created_at": now}
             for i, e in enumerate(events)],
            request=None if not request_id else {
                "request_id": request_id, "game_id": rec.id, "first_seq": first, "last_seq": last,
                "response": json.dumps(response), "created_at": now},
            seats=seats, posts=posts, now=now,
        )
        if last // self.snapshot_every > (first - 1) // self.snapshot_every:
            item.snapshot = {"game_id": rec.id, "seq": last, "state": encode_state(new_state), "created_at": now}
        if PICKS in sysm.capabilities and (loaded.state.phase in PICKING or new_state.phase in PICKING):
            item.picks = picks_owed(loaded.seats, new_state)
        if replan is not None:
            item.sides, item.jobs = replan[0], job_rows(rec.id, replan[1], now)
        try:
            await self.writer.write(item)
        except IntegrityError:
            if request_id and await self.processed(request_id) is not None:
                raise DuplicateRequest(request_id) from None
            raise
        if written is not None:
            written.extend(item.outbox_ids)
        rec.version += 1
        rec.last_seq = last
        rec.commands = command
        rec.updated_at = now
        rec.status = status
        rec.waits = waits
        return first, last

    async def replan(self, record: GameRecord, sides: Sequence[str], jobs: Sequence[PlannedJob],
                     waits: str | None = None) -> None:
        """Plan these sides' clocks again outside a command (the game began; a member's hours changed),
        if the game is still at the version it was read at: a plan made from an older copy would name
        decisions the game has moved past. New waits move the version on (every copy is then stale)."""
        assert record.id is not None
        step = 0 if waits is None else 1
        async with self.engine.begin() as conn:
            moved = await conn.execute(
                update(GameRecord).where(col(GameRecord.id) == record.id, col(GameRecord.version) == record.version)
                .values(version=record.version + step, waits=record.waits if waits is None else waits))
            if moved.rowcount != 1:
                raise VersionConflict(f"game {record.id} changed since version {record.version}")
            await conn.run_sync(clear_side_jobs, record.id, list(sides))
            rows = job_rows(record.id, jobs, utcnow())
            if rows:
                await conn.execute(insert(ScheduledJob), rows)
        record.version += step
        record.waits = record.waits if waits is None else waits

    async def add_seat(self, seat: Seat) -> Seat:
        async with self.session() as s, s.begin():
            s.add(seat)
        return seat

    async def update_seat(self, seat: Seat, record: GameRecord) -> None:
        """Change a seat if the game is still at the version it was read at (two processes seating two
        members on one side: one of them is told the game changed); the version moves on, so every
        process's copy of the game is known to be stale."""
        async with self.session() as s, s.begin():
            # an UPDATE's result is a CursorResult, which counts the rows it matched
            moved = cast(CursorResult[Any], await s.execute(
                update(GameRecord).where(col(GameRecord.id) == record.id, col(GameRecord.version) == record.version)
                .values(version=record.version + 1)
            ))
            if moved.rowcount != 1:
                raise VersionConflict(f"game {record.id} changed since version {record.version}")
            await s.merge(seat)
        record.version += 1

    async def games_of_guild(self, guild_id: str) -> list[GameRecord]:
        async with self.session() as s:
            q = select(GameRecord).where(col(GameRecord.guild_id) == guild_id).order_by(col(GameRecord.id))
            return list((await s.execute(q)).scalars())

    async def games_page(self, guild_id: str, limit: int, offset: int = 0) -> tuple[list[GameRecord], int]:
        """One page of a guild's games, unfinished ones first and the newest first among each, and
        how many games the guild has in all: a listing never reads more rows than it shows."""
        async with self.session() as s:
            finished = case((col(GameRecord.status) == "over", 1), else_=0)
            q = (select(GameRecord).where(col(GameRecord.guild_id) == guild_id)
                 .order_by(finished, col(GameRecord.id).desc()).limit(limit).offset(offset))
            total = (await s.execute(
                select(func.count()).select_from(GameRecord).where(col(GameRecord.guild_id) == guild_id)
            )).scalar_one()
            return list((await s.execute(q)).scalars()), int(total)

    async def game_in_channel(self, guild_id: str, channel_id: str, include_over: bool = False) -> GameRecord | None:
        """The channel's unfinished game (or, with include_over, its latest game)."""
        async with self.read_session() as s:
            q = select(GameRecord).where(col(GameRecord.guild_id) == guild_id,
                                         col(GameRecord.channel_id) == channel_id)
            if not include_over:
                q = q.where(col(GameRecord.status) != "over")
            return (await s.execute(q.order_by(col(GameRecord.id).desc()))).scalars().first()

    async def rematch_of(self, game_id: int) -> int | None:
        """The id of the game made as this game's rematch, if one was."""
        async with self.session() as s:
            q = select(col(GameRecord.id)).where(col(GameRecord.rematch_of) == game_id)
            found: int | None = (await s.execute(q)).scalars().first()
            return found

    async def game_places(self, leave_out_guild: str) -> list[tuple[int, str, str, str | None, str]]:
        """(id, guild, channel, thread, status) of every game of every system but those of one guild,
        by guild, channel and id: the columns alone, as the games themselves are not needed."""
        async with self.session() as s:
            q = (select(GAME_ID, col(GameRecord.guild_id), col(GameRecord.channel_id), col(GameRecord.thread_id),
                        col(GameRecord.status))
                 .where(col(GameRecord.guild_id) != leave_out_guild)
                 .order_by(col(GameRecord.guild_id), col(GameRecord.channel_id), col(GameRecord.id)))
            return [(int(i), g, c, t, st) for i, g, c, t, st in (await s.execute(q)).all()]

    async def live_games_of_user(self, user_id: str, limit: int = 100) -> list[int]:
        """The unfinished games where this user holds a seat, in any server, newest first."""
        async with self.session() as s:
            q = (select(GAME_ID).join(Seat, col(Seat.game_id) == col(GameRecord.id))
                 .where(col(Seat.user_id) == user_id, col(Seat.is_ai).is_(False), col(GameRecord.status) != "over")
                 .distinct().order_by(col(GameRecord.id).desc()).limit(limit))
            return [i for i in (await s.execute(q)).scalars()]

    async def all_game_ids(self) -> list[int]:
        async with self.session() as s:
            q = select(GAME_ID).where(col(GameRecord.system) == OAK_AND_IRON.name).order_by(col(GameRecord.id))
            return [i for i in (await s.execute(q)).scalars()]

    async def active_game_ids(self, every_system: bool = False, recent_first: bool = False) -> list[int]:
        """The unfinished games: Oak & Iron's (what plays by itself), or with `every_system` all of them;
        by id, or those written last first."""
        async with self.session() as s:
            q = select(GAME_ID).where(col(GameRecord.status) != "over")
            if not every_system:
                q = q.where(col(GameRecord.system) == OAK_AND_IRON.name)
            order = (col(GameRecord.updated_at).desc(), GAME_ID) if recent_first else (GAME_ID,)
            return [i for i in (await s.execute(q.order_by(*order))).scalars()]

    async def games_owing_play(self) -> list[int]:
        """The unfinished Oak & Iron games where something may play by itself with nobody pressing a
        button: a computer captain's seat, a planned order waiting, standing orders kept. A start moves
        these on first (a crash may have come between a commit and the move it made due)."""
        unfinished = (col(GameRecord.status) != "over") & (col(GameRecord.system) == OAK_AND_IRON.name)
        ai = select(col(Seat.game_id)).where(col(Seat.is_ai).is_(True))
        planned = select(col(PlannedOrder.game_id)).where(col(PlannedOrder.status) == "pending")
        standing = select(col(StandingOrderRecord.game_id))
        q = select(GAME_ID).where(unfinished, GAME_ID.in_(ai.union(planned, standing))).order_by(GAME_ID)
        async with self.session() as s:
            return [i for i in (await s.execute(q)).scalars()]

    async def pending_secrets(self, game_id: int) -> list[PendingSecret]:
        async with self.session() as s:
            q = select(PendingSecret).where(col(PendingSecret.game_id) == game_id,
                                            col(PendingSecret.resolved_at).is_(None))
            return list((await s.execute(q)).scalars())

    async def guild_settings(self, guild_id: str) -> GuildSettings:
        async with self.session() as s:
            found = await s.get(GuildSettings, guild_id)
            return found if found is not None else GuildSettings(guild_id=guild_id)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        settings.updated_at = utcnow()
        async with self.session() as s, s.begin():
            await s.merge(settings)

    async def next_deadline(self, game_id: int) -> datetime | None:
        async with self.read_session() as s:
            q = (
                select(col(ScheduledJob.due_at))
                .where(col(ScheduledJob.game_id) == game_id, col(ScheduledJob.kind) == "deadline",
                       col(ScheduledJob.status) == "pending")
                .order_by(col(ScheduledJob.due_at))
                .limit(1)
            )
            found: datetime | None = (await s.execute(q)).scalars().first()
            # SQLite hands back naive datetimes; every time stored here is UTC
            return found.replace(tzinfo=UTC) if found is not None and found.tzinfo is None else found

    async def set_status_message(self, game_id: int, message_id: str) -> None:
        async with self.session() as s, s.begin():
            await s.execute(update(GameRecord).where(col(GameRecord.id) == game_id).values(status_message_id=message_id))

    async def add_planned(self, game_id: int, player: str, user_id: str, line: str) -> None:
        async with self.session() as s, s.begin():
            s.add(PlannedOrder(game_id=game_id, player=player, user_id=user_id, line=line))

    async def next_planned(self, game_id: int, player: str) -> PlannedOrder | None:
        async with self.session() as s:
            q = (
                select(PlannedOrder)
                .where(col(PlannedOrder.game_id) == game_id, col(PlannedOrder.player) == player,
                       col(PlannedOrder.status) == "pending")
                .order_by(col(PlannedOrder.id))
                .limit(1)
            )
            found: PlannedOrder | None = (await s.execute(q)).scalars().first()
            return found

    async def finish_planned(self, order: PlannedOrder, status: str, note: str) -> None:
        async with self.session() as s, s.begin():
            await s.execute(
                update(PlannedOrder).where(col(PlannedOrder.id) == order.id).values(status=status, note=note)
            )

    async def bot_state(self, key: str) -> str | None:
        async with self.session() as s:
            row = await s.get(BotState, key)
            return row.value if row is not None else None

    async def set_bot_state(self, key: str, value: str) -> None:
        async with self.session() as s, s.begin():
            row = await s.get(BotState, key)
            if row is None:
                s.add(BotState(key=key, value=value))
            else:
                row.value, row.updated_at = value, utcnow()

    async def table_entries(self, guild_id: str, system: str) -> list[ServerTableEntry]:
        async with self.session() as s:
            q = select(ServerTableEntry).where(col(ServerTableEntry.guild_id) == guild_id,
                                               col(ServerTableEntry.system) == system).order_by(col(ServerTableEntry.id))
            return list((await s.execute(q)).scalars())

    async def replace_table_entries(self, guild_id: str, system: str, table: str,
                                    rows: Sequence[ServerTableEntry]) -> None:
        """A table entered again replaces all its cells (one transaction: no reader sees half a table)."""
        async with self.session() as s, s.begin():
            await s.execute(delete(ServerTableEntry).where(
                col(ServerTableEntry.guild_id) == guild_id, col(ServerTableEntry.system) == system,
                col(ServerTableEntry.table_name) == table))
            s.add_all(rows)

    async def data_version(self, version: str) -> DataVersion | None:
        async with self.session() as s:
            return await s.get(DataVersion, version)

    async def save_data_version(self, version: DataVersion) -> None:
        async with self.session() as s, s.begin():
            if await s.get(DataVersion, version.id) is None:
                s.add(version)

    async def save_squadron(self, row: SavedSquadron) -> None:
        async with self.session() as s, s.begin():
            await s.execute(
                delete(SavedSquadron).where(
                    col(SavedSquadron.guild_id) == row.guild_id, col(SavedSquadron.owner_id) == row.owner_id,
                    col(SavedSquadron.name) == row.name,
                )
            )
            s.add(row)

    async def squadrons_of(self, guild_id: str, owner_id: str) -> list[SavedSquadron]:
        async with self.session() as s:
            q = select(SavedSquadron).where(
                col(SavedSquadron.guild_id) == guild_id, col(SavedSquadron.owner_id) == owner_id
            ).order_by(col(SavedSquadron.name))
            return list((await s.execute(q)).scalars())

    async def enqueue(self, game_id: int, posts: Sequence[Post]) -> list[int]:
        """Outbox rows that report no new event (the board on /game status, a reminder): on their own."""
        now = utcnow()
        async with self.engine.begin() as conn:
            ids = await conn.run_sync(stage_posts, [(game_id, p, now) for p in posts])
        return [i for i in ids if i is not None]
