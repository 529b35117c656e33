"""Storage models (sqlmodel). The schema changes only through an Alembic migration
(migrations/versions); a test fails when these models and the migrations disagree."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy import Column, DateTime, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def _ts() -> Column:  # type: ignore[type-arg]
    return Column(DateTime(timezone=True), nullable=False)


class GuildSettings(SQLModel, table=True):
    __tablename__ = "guild_settings"

    guild_id: str = Field(primary_key=True, max_length=32)
    gm_role_id: str | None = Field(default=None, max_length=32)
    turn_deadline_hours: int = Field(default=48)
    reminder_hours: int = Field(default=12)
    data_overrides: str = Field(default="{}", sa_type=Text)
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class GameRecord(SQLModel, table=True):
    __tablename__ = "games"
    __table_args__ = (Index("ix_games_guild_channel", "guild_id", "channel_id"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(max_length=32, index=True)
    channel_id: str = Field(max_length=32)
    thread_id: str | None = Field(default=None, max_length=32)
    name: str = Field(max_length=200)
    system: str = Field(max_length=50)
    edition: str = Field(max_length=100)
    seed: int  # a chosen number in old games; the dice come from dice_seed
    # the secret 256-bit seed of the game's dice (hex): never shown until the game is over
    dice_seed: str = Field(default="", max_length=64)
    status: str = Field(max_length=20)  # open | active | over
    version: int = Field(default=0)
    last_seq: int = Field(default=0)
    commands: int = Field(default=0)
    initial_state: str = Field(sa_type=Text)
    data_version: str = Field(default="builtin", max_length=64)
    status_message_id: str | None = Field(default=None, max_length=32)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class Seat(SQLModel, table=True):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "player", name="uq_seats_game_player"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    player: str = Field(max_length=8)
    user_id: str | None = Field(default=None, max_length=32)
    display_name: str = Field(default="", max_length=100)
    is_ai: bool = Field(default=False)


class EventRecord(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_events_game_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seq: int  # 1-based position in the game's log
    command: int  # which accepted command produced it (events of one command share it)
    type: str = Field(max_length=50)
    payload: str = Field(sa_type=Text)  # the event as JSON, dice faces included
    actor: str = Field(default="", max_length=32)  # the Discord user (or ai:A, system)
    request_id: str | None = Field(default=None, max_length=100)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class Snapshot(SQLModel, table=True):
    __tablename__ = "snapshots"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_snapshots_game_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seq: int  # the state after this many events
    state: str = Field(sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class ProcessedRequest(SQLModel, table=True):
    __tablename__ = "processed_requests"

    request_id: str = Field(primary_key=True, max_length=100)
    game_id: int = Field(foreign_key="games.id", index=True)
    first_seq: int
    last_seq: int
    response: str = Field(sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class PendingSecret(SQLModel, table=True):
    """A secret choice a player still owes (the initiative pick): the bot nudges them about it."""

    __tablename__ = "pending_secrets"
    __table_args__ = (UniqueConstraint("game_id", "player", "kind", "turn", name="uq_pending_secret"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    player: str = Field(max_length=8)
    user_id: str | None = Field(default=None, max_length=32)
    kind: str = Field(max_length=30)
    turn: int
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
    resolved_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class ScheduledJob(SQLModel, table=True):
    __tablename__ = "scheduled_jobs"
    __table_args__ = (Index("ix_jobs_status_due", "status", "due_at"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="games.id", index=True)
    kind: str = Field(max_length=30)  # reminder | deadline | …
    due_at: datetime = Field(sa_column=_ts())
    payload: str = Field(default="{}", sa_type=Text)
    status: str = Field(default="pending", max_length=20)  # pending | running | done | failed | cancelled
    attempts: int = Field(default=0)
    # a claimed job belongs to its claimer until then; a claimer that died lets it fall due again
    locked_until: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    last_error: str = Field(default="", sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class PlannedOrder(SQLModel, table=True):
    """An order queued for the player's next activation, carried out when play reaches it."""

    __tablename__ = "planned_orders"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    player: str = Field(max_length=8)
    user_id: str = Field(max_length=32)
    line: str = Field(sa_type=Text)
    status: str = Field(default="pending", max_length=20)  # pending | applied | refused | cancelled
    note: str = Field(default="", sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class DataVersion(SQLModel, table=True):
    """The game data a guild's games start with; a game keeps its version for its whole life."""

    __tablename__ = "data_versions"

    id: str = Field(primary_key=True, max_length=64)  # content hash of the files
    system: str = Field(max_length=50)
    files: str = Field(sa_type=Text)  # JSON: file name -> TOML text (only the files that differ)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class SavedSquadron(SQLModel, table=True):
    """A squadron list a player keeps for reuse across games."""

    __tablename__ = "saved_squadrons"
    __table_args__ = (UniqueConstraint("guild_id", "owner_id", "name", name="uq_saved_squadron"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(max_length=32, index=True)
    owner_id: str = Field(max_length=32)
    name: str = Field(max_length=100)
    size: str = Field(max_length=20)
    faction: str = Field(max_length=30)
    points: int
    text: str = Field(sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
    # a list still being built with the /squadron commands: kept, but not yet legal to bring to a game
    complete: bool = Field(default=True, sa_column_kwargs={"server_default": sa.true()})


class BotState(SQLModel, table=True):
    """Small facts a bot process keeps between starts, shared by every process on the database (the
    digest of the slash commands last synced, so a restart does not spend Discord's sync budget)."""

    __tablename__ = "bot_state"

    key: str = Field(primary_key=True, max_length=100)
    value: str = Field(sa_type=Text)
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class StandingOrderRecord(SQLModel, table=True):
    """A player's standing orders for the current turn (game.standing.encode): carried out as play
    reaches each of their decisions, edited with /orders."""

    __tablename__ = "standing_orders"
    __table_args__ = (UniqueConstraint("game_id", "player", name="uq_standing_orders_game_player"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    player: str = Field(max_length=8)
    user_id: str = Field(max_length=32)
    body: str = Field(sa_type=Text)
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class GameClock(SQLModel, table=True):
    """One game's clock: its reminder and deadline (None: the server's), what the deadline does, and
    whether a GM has paused it. Every change is also written in the game's log (ClockChanged)."""

    __tablename__ = "game_clocks"

    game_id: int = Field(foreign_key="games.id", primary_key=True)
    reminder_hours: int | None = Field(default=None)
    deadline_hours: int | None = Field(default=None)
    on_deadline: str = Field(default="gm", max_length=20)  # gm | captain | pass
    skip_quiet: bool = Field(default=True)  # deadlines wait out the late player's quiet hours
    paused: bool = Field(default=False)
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class PlayerClock(SQLModel, table=True):
    """A member's own hours, for every game they play: time zone, quiet hours, vacation."""

    __tablename__ = "player_clocks"

    user_id: str = Field(primary_key=True, max_length=32)
    time_zone: str = Field(default="UTC", max_length=64)
    quiet_from: int | None = Field(default=None)  # local hour quiet hours begin (no pings)
    quiet_to: int | None = Field(default=None)  # local hour they end
    away_until: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    away_mode: str = Field(default="stop", max_length=20)  # stop | substitute | captain
    substitute: str | None = Field(default=None, max_length=32)
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
