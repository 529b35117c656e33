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
    # where finished games' summary cards also go, each with a thread for after-action reports (a GM's)
    chronicle_channel_id: str | None = Field(default=None, max_length=32)
    # whether the server's games' web pages are listed on its index page (a GM's; off: found by link only)
    web_listed: bool = Field(default=False)
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class WebPage(SQLModel, table=True):
    """The unguessable address of a game's or a league's read-only web page (web/): made the first time
    its link is asked for, kept for the life of what it shows."""

    __tablename__ = "web_pages"
    __table_args__ = (UniqueConstraint("kind", "target_id", name="uq_web_pages_target"),)

    token: str = Field(primary_key=True, max_length=32)
    kind: str = Field(max_length=10)  # game | league
    target_id: int
    guild_id: str = Field(max_length=32, index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class ServerTableEntry(SQLModel, table=True):
    """One cell of a referee system's play-aid table as a server's GM entered it from the printed copy
    (docs/systems/README.md): a new game of the server starts with these as its printed entries. A row
    per cell, so each keeps who entered it, and entering a table again replaces just its cells."""

    __tablename__ = "server_table_entries"
    __table_args__ = (UniqueConstraint("guild_id", "system", "table_name", "row_key", "column_key",
                                       name="uq_server_table_entry"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(max_length=32, index=True)
    system: str = Field(max_length=50)
    table_name: str = Field(max_length=100)
    row_key: str = Field(max_length=100)
    column_key: str = Field(max_length=100)
    value: str = Field(max_length=200)
    override: bool = Field(default=False)  # in place of a legible cell of the play aid's text
    entered_by: str = Field(max_length=32)
    entered_by_name: str = Field(max_length=100)
    entered_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class GameRecord(SQLModel, table=True):
    __tablename__ = "games"
    __table_args__ = (Index("ix_games_guild_channel", "guild_id", "channel_id"),
                      Index("ix_games_rematch_of", "rematch_of", unique=True),
                      # a start asks for the unfinished games only (migration 0023)
                      Index("ix_games_status", "status"))

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
    # the sides the game waits on, each since which log position, for whom and since when (JSON:
    # game/service/decision.py); what every scheduled action's decision is checked against
    waits: str = Field(default="{}", sa_type=Text)
    rematch_of: int | None = Field(default=None)  # the game this one is the rematch of (at most one each)
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
    # the decision a clock job was planned for (game/service/decision.py): the side, its holder and the
    # log position the side's wait began at; it acts only while the game still waits on exactly that
    player: str | None = Field(default=None, max_length=8)
    holder: str | None = Field(default=None, max_length=32)
    since: int | None = Field(default=None)


class PlannedOrder(SQLModel, table=True):
    """An order queued for the player's next activation, carried out when play reaches it."""

    __tablename__ = "planned_orders"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    player: str = Field(max_length=8)
    user_id: str = Field(max_length=32)
    line: str = Field(sa_type=Text)
    status: str = Field(default="pending", max_length=20)  # pending | applied | refused | cancelled | lapsed
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


class DmChannel(SQLModel, table=True):
    """The DM channel between a bot and a member, as Discord's Create DM gave it (the same one each
    time): kept so a process that starts again sends a member's DM without opening it anew, and
    forgotten with the member (docs/privacy.md)."""

    __tablename__ = "dm_channels"

    bot_id: str = Field(primary_key=True, max_length=32)  # a new token on another application opens its own
    user_id: str = Field(primary_key=True, max_length=32, index=True)
    channel_id: str = Field(max_length=32)
    opened_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class League(SQLModel, table=True):
    """A league or tournament of one server: its games are ranked (docs/leagues.md)."""

    __tablename__ = "leagues"
    __table_args__ = (UniqueConstraint("guild_id", "name", name="uq_league_name"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(max_length=32, index=True)
    channel_id: str = Field(max_length=32)  # where pairings and standings are posted
    name: str = Field(max_length=100)
    scenario: str = Field(max_length=100)  # a built-in scenario, or "drafted" with `size`
    scenario_text: str = Field(default="", sa_type=Text)  # an uploaded scenario file, if one was given
    size: str = Field(default="", max_length=20)
    format: str = Field(max_length=20)  # swiss | round_robin
    round_hours: int
    rounds: int = Field(default=0)  # fixed when the first round starts
    current_round: int = Field(default=0)
    round_started_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    status: str = Field(default="registering", max_length=20)  # registering | running | over
    # bumped by every join and drop in the transaction that makes it: the bump takes the league's row
    # lock, so joins count the entrants one at a time, and a round is paired only from the entrants
    # it read (game/service/leagues.py)
    entry_version: int = Field(default=0)
    # a GM's pause of the whole league: the round's deadline moves on by its length when it ends
    paused_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    pause_reason: str = Field(default="", max_length=200)
    # a Swiss league's single-elimination bracket after its Swiss rounds: 0 (none), 2, 4 or 8 entrants;
    # fixed as the league starts (a smaller league plays a smaller cut: game/league/bracket.py)
    top_cut: int = Field(default=0)
    teams: bool = Field(default=False)  # entrants are teams of two
    created_by: str = Field(max_length=32)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
    # a round closes, and the next is paired, as its last game ends (leagues made before 0019: by hand)
    auto_close: bool = Field(default=True, sa_column_kwargs={"server_default": sa.false()})
    # the clock the league's games get as they are made (None: the server's), as /clock sets a game's
    reminder_hours: int | None = Field(default=None)
    deadline_hours: int | None = Field(default=None)
    on_deadline: str | None = Field(default=None, max_length=20)
    skip_quiet: bool | None = Field(default=None)


class LeagueEntry(SQLModel, table=True):
    """An entrant: a member (with the saved squadron they registered) or a computer captain."""

    __tablename__ = "league_entries"
    __table_args__ = (UniqueConstraint("league_id", "member", name="uq_league_entry"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", index=True)
    member: str = Field(max_length=32)  # a Discord user id, or ai:N for a computer captain
    name: str = Field(max_length=100)
    squadron: str = Field(default="", max_length=100)  # the saved list brought to each drafted game
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
    # a GM's /league drop: never paired again, the results so far kept (and shown) in the standings
    dropped_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    dropped_by: str = Field(default="", max_length=32)
    drop_reason: str = Field(default="", max_length=200)
    seed: int = Field(default=0)  # in the top cut: 1 = the best
    # a team league's entrant is a team: `member` registered it under `name`, `partner` is the second
    # member, who joins it with their own /league join (only then is the team paired)
    partner: str = Field(default="", max_length=32)
    partner_name: str = Field(default="", max_length=100)
    partner_joined: bool = Field(default=False)


class LeagueGame(SQLModel, table=True):
    """One pairing of a round (b empty for a bye) and, once decided, its result."""

    __tablename__ = "league_games"
    __table_args__ = (UniqueConstraint("league_id", "round", "table_no", name="uq_league_table"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", index=True)
    round: int
    table_no: int
    a_member: str = Field(max_length=32)
    b_member: str | None = Field(default=None, max_length=32)
    game_id: int | None = Field(default=None, foreign_key="games.id", index=True)
    status: str = Field(default="pending", max_length=20)  # pending | making | playing | done
    winner: str | None = Field(default=None, max_length=32)  # a member; empty for a draw
    a_points: int = Field(default=0)  # Strike Points suffered at the end
    b_points: int = Field(default=0)
    reason: str = Field(default="", max_length=200)
    recorded_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    forfeited: str = Field(default="", max_length=2)  # the sides that forfeited: "", "A", "B" or "AB"
    # who is making this pairing's game (status "making"): only the holder of the claim makes it, so
    # two GMs' commands never make two games of one pairing; a claim older than the lease is taken over
    claim: str = Field(default="", max_length=32)
    claimed_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class LeagueAction(SQLModel, table=True):
    """One organiser action on a league (docs/leagues.md, "The action log"): who, what, when and their
    note, written in the transaction of the action itself (game/service/league_log.py)."""

    __tablename__ = "league_actions"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="leagues.id", index=True)
    actor: str = Field(max_length=32)  # a member's id, or "automatic"
    action: str = Field(max_length=40)
    # the entrant the action concerns (a member's id or ai:N): names are looked up as the log is read,
    # so a member who is forgotten (/privacy) leaves no name behind in it
    subject: str = Field(default="", max_length=32, sa_column_kwargs={"server_default": ""})
    note: str = Field(default="", max_length=300)
    at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class Rating(SQLModel, table=True):
    """A member's rating in one server (OpenSkill: mu and sigma), moved by every ranked game."""

    __tablename__ = "ratings"

    guild_id: str = Field(primary_key=True, max_length=32)
    member: str = Field(primary_key=True, max_length=32)
    name: str = Field(default="", max_length=100)
    mu: float
    sigma: float
    games: int = Field(default=0)
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
    # a pause keeps each wait's clock time: a resume gives back what was left at `paused_at`
    paused_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    paused_until: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    pause_kind: str = Field(default="", max_length=20)  # gm | consent | league: who may resume it
    pause_reason: str = Field(default="", max_length=200)
    proposal: str = Field(default="", sa_type=Text)  # the open request for a pause (game/service/pauses.py)
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
    # the weekday windows they play in, as they typed them ("Mon-Fri 18:00-23:00"); empty: any time
    windows: str = Field(default="", max_length=400)
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
class OutboxRow(SQLModel, table=True):
    """Something the bot owes Discord for a game (a board post, the status edit, a DM nudge, a reminder),
    written in the transaction that commits what it reports, so a crash after the commit still delivers
    it. A courier claims rows with a lease, in order per game, and retries failures with backoff."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_next", "status", "next_try_at"),
                      Index("ix_outbox_game_status", "game_id", "status"))

    id: int | None = Field(default=None, primary_key=True)  # the order of delivery within a game
    game_id: int = Field(foreign_key="games.id")
    kind: str = Field(max_length=20)  # board | status | nudge | note | planned | notice | follow | digest | chronicle
    payload: str = Field(default="{}", sa_type=Text)
    # set for rows that must be written once only (a nudge per pick owed): later copies are not written
    key: str | None = Field(default=None, max_length=100)
    status: str = Field(default="pending", max_length=20)  # pending | running | done | failed | superseded
    attempts: int = Field(default=0)
    next_try_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
    locked_until: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    # who holds the lease: a process's identity, the same after it restarts (docs/service.md, "Outbox leases")
    owner: str | None = Field(default=None, max_length=64)
    last_error: str = Field(default="", sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
    done_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class FormerMember(SQLModel, table=True):
    """A member who had the bot forget them (/privacy delete): only a number, never who it was. What
    stays of them in games and leagues names `former:<id>`, so a game's log still tells its sides apart
    and the same pseudonym links one member's seats and events, while nothing links it to the person."""

    __tablename__ = "former_members"

    id: int | None = Field(default=None, primary_key=True)
    forgotten_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class RecordPrivacy(SQLModel, table=True):
    """The categories of a member's /captain record they hid from everyone else (in every server)."""

    __tablename__ = "record_privacy"

    user_id: str = Field(primary_key=True, max_length=32)
    hidden: str = Field(default="", max_length=200)  # category names, comma-separated
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class Follow(SQLModel, table=True):
    """A member following a game (`game_id`), or a member's games (`member_id`) in one channel of a
    server (`channel_id`, where /game follow was used: the follower could see it), by DM at each board
    or in a daily digest at `digest_hour`, their local hour (their PlayerClock's time zone)."""

    __tablename__ = "follows"
    __table_args__ = (Index("ix_follows_game", "game_id"), Index("ix_follows_member", "guild_id", "member_id"))

    id: int | None = Field(default=None, primary_key=True)
    user_id: str = Field(max_length=32, index=True)  # the follower
    guild_id: str = Field(max_length=32)
    channel_id: str = Field(max_length=32)  # where the follow was made; a member's games are followed there only
    game_id: int | None = Field(default=None, foreign_key="games.id")
    member_id: str | None = Field(default=None, max_length=32)
    digest_hour: int | None = Field(default=None)  # none: a DM at each board
    last_digest_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class Campaign(SQLModel, table=True):
    """A named series of battles among a group of a server, run by its GMs (docs/campaigns.md)."""

    __tablename__ = "campaigns"
    __table_args__ = (UniqueConstraint("guild_id", "name", name="uq_campaign_name"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(max_length=32, index=True)
    channel_id: str = Field(max_length=32)  # where it was created: its battles are made there (or in threads)
    name: str = Field(max_length=100)
    size: str = Field(max_length=20)  # the size of the lists members join with
    status: str = Field(default="open", max_length=20)  # open | over
    # bumped by every change of the members' squadrons, checked in the same transaction: two GMs'
    # carry-overs never both write squadrons read before the other's
    version: int = Field(default=0)
    created_by: str = Field(max_length=32)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class CampaignMember(SQLModel, table=True):
    """A member of a campaign with the campaign's own copy of their squadron (JSON, game/campaign.py)."""

    __tablename__ = "campaign_members"
    __table_args__ = (UniqueConstraint("campaign_id", "member", name="uq_campaign_member"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaigns.id", index=True)
    member: str = Field(max_length=32)
    name: str = Field(max_length=100)
    squadron: str = Field(sa_type=Text)  # the campaign squadron, as it stands now
    points: int = Field(default=0)  # campaign points awarded so far
    joined_at: datetime = Field(default_factory=utcnow, sa_column=_ts())
    left_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))


class CampaignBattle(SQLModel, table=True):
    """A battle of a campaign: its game, who fought which side with which ship, and once applied, the
    carry-over and who applied it."""

    __tablename__ = "campaign_battles"
    __table_args__ = (UniqueConstraint("campaign_id", "number", name="uq_campaign_battle"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaigns.id", index=True)
    number: int
    game_id: int = Field(foreign_key="games.id", unique=True)
    channel_id: str = Field(max_length=32)  # where its game is played: kept so the ledger never loads the game
    start: str = Field(sa_type=Text)  # players and ships to members (game/campaign.py BattleStart)
    status: str = Field(default="playing", max_length=20)  # playing | applied
    result: str = Field(default="", max_length=200)
    winner: str = Field(default="", max_length=8)  # the side that won, "A" or "B" ("" a draw), once applied
    applied_by: str = Field(default="", max_length=32)
    applied_at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    created_by: str = Field(max_length=32)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_ts())


class CampaignEntry(SQLModel, table=True):
    """A line of a campaign's ledger, in plain text: a join, a battle made, a carry-over, the end."""

    __tablename__ = "campaign_ledger"

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaigns.id", index=True)
    kind: str = Field(max_length=20)  # created | joined | left | battle | carry | ended
    actor: str = Field(max_length=32)  # who did it (a member's id; the line names them by their name)
    text: str = Field(max_length=1000)
    at: datetime = Field(default_factory=utcnow, sa_column=_ts())
