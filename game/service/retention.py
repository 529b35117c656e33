"""A server's data after the bot leaves it (docs/privacy.md): kept for GUILD_RETENTION_DAYS, so a
kick by mistake costs nothing, then purged by a scheduled `guild_purge` job; the bot's return first
cancels it. The purge takes only rows of that server: a member's own hours (kept for their games in
other servers) and the shared data versions (a content hash, no one's data) stay."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Collection
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlmodel import col

from game.service.models import (
    Campaign,
    CampaignBattle,
    CampaignEntry,
    CampaignMember,
    EventRecord,
    Follow,
    GameClock,
    GameRecord,
    GuildSettings,
    League,
    LeagueAction,
    LeagueEntry,
    LeagueGame,
    OutboxRow,
    PendingSecret,
    PlannedOrder,
    ProcessedRequest,
    Rating,
    SavedSquadron,
    ScheduledJob,
    Seat,
    ServerTableEntry,
    Snapshot,
    StandingOrderRecord,
    WebPage,
    utcnow,
)
from game.service.store import GameStore

PURGE = "guild_purge"
GAME_ROWS = (Seat, EventRecord, Snapshot, ProcessedRequest, PendingSecret, ScheduledJob, PlannedOrder,
             StandingOrderRecord, GameClock, OutboxRow, LeagueGame)


def purge_payload(guild_id: str) -> str:
    return json.dumps({"guild_id": guild_id})


class Retention:
    def __init__(self, store: GameStore, purged: Callable[[str, list[int]], None] = lambda g, ids: None) -> None:
        self.store = store
        self._purged = purged  # what the parts keep of the server in memory (its channels' games) is dropped
        # a join and a removal arrive as events whose handlers run as tasks: taken one at a time, in the
        # order they came, a return told just before a removal never cancels the removal's purge
        self._order = asyncio.Lock()

    async def left(self, guild_id: str, days: int) -> datetime:
        """The bot was removed from the server: its purge is planned (one only, however often told)."""
        async with self._order:
            return await self._plan(guild_id, days)

    async def _plan(self, guild_id: str, days: int) -> datetime:
        due = utcnow() + timedelta(days=days)
        async with self.store.repo.session() as s, s.begin():  # the old plan goes with the new one's commit
            await s.execute(self._planned(guild_id).values(status="cancelled"))
            s.add(ScheduledJob(kind=PURGE, due_at=due, payload=purge_payload(guild_id)))
        return due

    @staticmethod
    def _planned(guild_id: str) -> Any:
        return update(ScheduledJob).where(col(ScheduledJob.kind) == PURGE,
                                          col(ScheduledJob.status).in_(("pending", "running")),
                                          col(ScheduledJob.payload) == purge_payload(guild_id))

    async def reconcile(self, present: Collection[str], ours: Callable[[str], bool], days: int) -> tuple[int, int]:
        """After a start: Discord tells a bot of no removal or return that happened while it was down,
        so the servers it is in now (`present`, of the servers `ours` says this process hears about)
        are compared with the servers that have data. One with data the bot is no longer in gets its
        purge planned (an earlier plan is kept, not moved on); one the bot is in loses a planned purge.
        How many were planned and cancelled."""
        planned = cancelled = 0
        async with self._order:
            for guild_id in sorted(await self._servers_with_data()):
                if not ours(guild_id):
                    continue
                if guild_id in present:
                    cancelled += await self._cancel(guild_id)
                elif await self.purge_due(guild_id) is None:
                    await self._plan(guild_id, days)
                    planned += 1
        return planned, cancelled

    async def _servers_with_data(self) -> set[str]:
        found: set[str] = set()
        async with self.store.repo.session() as s:
            for table in (GameRecord, GuildSettings, League, SavedSquadron, Rating, ServerTableEntry, Campaign, WebPage):
                found.update((await s.execute(select(col(table.guild_id)).distinct())).scalars())
        return found

    async def returned(self, guild_id: str) -> bool:
        """The bot is in the server again: a planned purge is cancelled. Whether there was one."""
        async with self._order:
            return await self._cancel(guild_id)

    async def _cancel(self, guild_id: str) -> bool:
        async with self.store.repo.session() as s, s.begin():
            result = await s.execute(self._planned(guild_id).values(status="cancelled"))
        return bool(getattr(result, "rowcount", 0))

    async def purge_due(self, guild_id: str) -> datetime | None:
        async with self.store.repo.session() as s:
            return (await s.execute(select(col(ScheduledJob.due_at)).where(
                col(ScheduledJob.kind) == PURGE, col(ScheduledJob.status) == "pending",
                col(ScheduledJob.payload) == purge_payload(guild_id)))).scalar()

    async def purge(self, guild_id: str) -> dict[str, int]:
        """Delete everything of the server, in one transaction: its games with their logs, seats, clocks,
        orders and posts, its leagues, campaigns and ratings, saved squadrons, table entries and settings. What was
        deleted, counted by kind."""
        counts: dict[str, int] = {}
        async with self.store.repo.session() as s, s.begin():
            games = [g for g in (await s.execute(select(col(GameRecord.id)).where(col(GameRecord.guild_id) == guild_id))).scalars()
                     if g is not None]
            leagues = list((await s.execute(select(col(League.id)).where(col(League.guild_id) == guild_id))).scalars())

            async def gone(table: type, *where: object) -> None:
                result = await s.execute(delete(table).where(*where))  # type: ignore[arg-type]
                counts[table.__tablename__] = counts.get(table.__tablename__, 0) + int(  # type: ignore[attr-defined]
                    getattr(result, "rowcount", 0) or 0)

            if leagues:
                await gone(LeagueGame, col(LeagueGame.league_id).in_(leagues))
                await gone(LeagueAction, col(LeagueAction.league_id).in_(leagues))
                await gone(LeagueEntry, col(LeagueEntry.league_id).in_(leagues))
            await gone(Follow, col(Follow.guild_id) == guild_id)  # before the games they name
            campaigns = list((await s.execute(select(col(Campaign.id)).where(col(Campaign.guild_id) == guild_id))).scalars())
            if campaigns:  # their battles name games: gone before the games
                await gone(CampaignEntry, col(CampaignEntry.campaign_id).in_(campaigns))
                await gone(CampaignBattle, col(CampaignBattle.campaign_id).in_(campaigns))
                await gone(CampaignMember, col(CampaignMember.campaign_id).in_(campaigns))
                await gone(Campaign, col(Campaign.id).in_(campaigns))
            if games:
                for table in GAME_ROWS:
                    await gone(table, col(table.game_id).in_(games))
                await gone(GameRecord, col(GameRecord.id).in_(games))
            if leagues:
                await gone(League, col(League.id).in_(leagues))
            for kept in (Rating, SavedSquadron, ServerTableEntry, GuildSettings, WebPage):  # the pages' tokens too
                await gone(kept, col(kept.guild_id) == guild_id)
        for game_id in games:
            self.store.forget(game_id)
        self.store.forget_guild(guild_id)
        self._purged(guild_id, games)
        return {k: v for k, v in counts.items() if v}
