"""The game service: every front end (bot, offline table, script runner) calls this.

It only composes the parts, each a class with a public API that holds the one game store
(game/service/store.py): commands, undo, lobby, seats, reading, squadrons, the guild's data, the
audit, the front end's posts, the clock, standing orders, leagues, campaigns, captains' records, the
referee-assistant systems and privacy (a member's export and deletion; a server's data purged after
the bot leaves it).
A front end calls a part: `service.commands.submit(…)`, `service.clock.extend(…)`.
docs/architecture.md maps them.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncEngine

from game.fairness import new_seed
from game.rules_data import RulesData
from game.service.audit import Audit
from game.service.authority import LOCAL_GUILD, Actor
from game.service.autoplay import AutoPlay
from game.service.campaigns import Campaigns
from game.service.chronicle import Chronicle
from game.service.clock_service import Clock
from game.service.commands import Commands
from game.service.errors import (
    AlreadyDecided,
    ChannelBusy,
    GameDamaged,
    GameNotFound,
    NotPermitted,
    NotSeated,
    SeatTaken,
    ServiceError,
    SquadronRefused,
    UndoRefused,
    WrongGuild,
)
from game.service.following import Following
from game.service.frontend import FrontEnd
from game.service.guild_data import GuildData
from game.service.league_pause import LeaguePauses
from game.service.leagues import Leagues
from game.service.lobby import DRAFTED, Lobby
from game.service.orders_service import StandingOrders
from game.service.pauses import Pauses
from game.service.privacy import Privacy
from game.service.reading import Reading
from game.service.records import Records
from game.service.referee import RefereeService
from game.service.results import Expect, GameInfo, Outcome, SeatInfo
from game.service.retention import Retention
from game.service.seats import Seats
from game.service.squadrons import Squadrons
from game.service.store import GameStore
from game.service.undo import Undo
from game.service.web_pages import WebPages
from game.service.workers import Workers

__all__ = [
    "DRAFTED", "LOCAL_GUILD", "Actor", "AlreadyDecided", "ChannelBusy", "Expect", "GameDamaged", "GameInfo",
    "GameNotFound", "GameService", "NotPermitted", "NotSeated", "Outcome", "SeatInfo", "SeatTaken", "ServiceError",
    "SquadronRefused", "UndoRefused", "WrongGuild",
]


class GameService:
    def __init__(
        self,
        engine: AsyncEngine,
        snapshot_every: int = 50,
        rules: RulesData | None = None,
        max_db_concurrency: int = 8,
        seeds: Callable[[], str] = new_seed,
        shared: bool | None = None,
        workers: Workers | None = None,
        cached_games: int = 1000,
        outbox: bool = False,
    ) -> None:
        self.store = store = GameStore(engine, snapshot_every, rules, max_db_concurrency, shared, workers,
                                       cached_games)
        self.front = FrontEnd(store, outbox)  # what the front ends (the bot) use rather than the storage
        self.data = GuildData(store)
        self.squadrons = Squadrons(store, self.data)
        self.reading = Reading(store)
        self.following = Following(store)  # DMs to members following a game (/game follow)
        self.commands = Commands(store, self.reading)
        self.undo = Undo(store)
        self.audit = Audit(store)
        self.clock = Clock(store, self.commands)
        self.referee = RefereeService(store, self.undo, seeds, announcement=self.front.announcement,
                                      on_create=self._channel_used, replan=self.clock.plan_afresh)
        self.chronicle = Chronicle(store, self.audit, self.clock, self.front, seeds, self._channel_used)
        self.orders = StandingOrders(store, self.reading, self.commands)
        self.lobby = Lobby(store, self.data, self.squadrons, self.commands, self.clock, self.front, self.referee,
                           seeds)
        self.leagues = Leagues(store, self.data, self.reading, self.commands, self.lobby, game_clock=self.clock,
                               front=self.front)
        self.league_pauses = LeaguePauses(store, self.clock, round_over=self.leagues.round_over)  # a league's
        self.pauses = Pauses(store, self.clock, self.league_pauses.holds)  # by the players' consent, or a GM's
        self.seats = Seats(store, self.leagues.ranked)
        self.campaigns = Campaigns(store, self.data, self.reading, self.lobby, self.front)  # /campaign: series of battles
        self.records = Records(store)  # /captain: a captain's record from the finished games' logs
        self.autoplay = AutoPlay(store, self.commands, self.orders)
        # a member's data, exported or forgotten; a server's, purged once the bot has left it
        self.privacy = Privacy(store, forgotten=self.clock.forget_member)
        self.retention = Retention(store, purged=lambda guild_id, games: self.lobby.forget_guild(guild_id))
        self.web = WebPages(store, self.reading, self.audit, self.leagues)  # the read-only web pages (web/)

    def _channel_used(self, guild_id: str, channel_id: str) -> None:
        self.lobby.forget_channel(guild_id, channel_id)
