"""The courier: delivers the outbox (game/service/outbox.py) to Discord, at least once and in order per
game, after crashes and restarts as well.

A game's channel or thread is reached through a partial messageable made from its id, never the
client's cache: a thread that was archived (or never seen by this process, which has no gateway
event for it) is not in the cache, yet posting to it works, and reopens it. A failed delivery is
recorded on its row and tried again with exponential backoff (a 429's `retry_after` when Discord
says how long); what cannot work however often it is tried (a closed DM, a deleted channel, a
locked thread) is recorded and given up at once."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.actions import tell_planner, tell_player
from bot.limits import fit
from bot.publish import created_text, nudge, post_account, post_board, update_status
from game.errors import RulesError
from game.phases.common import owes_pick
from game.service import outbox
from game.service.game_service import Actor, GameService
from game.service.models import OutboxRow, utcnow
from game.service.orders_service import OrderNote
from game.service.results import PlanRefused

if TYPE_CHECKING:
    from game.service.driver import Driver

log = logging.getLogger(__name__)

# Discord's codes for what will fail again however often it is tried
HOPELESS = {
    10003,  # Unknown Channel (deleted)
    10013,  # Unknown User
    50001,  # Missing Access (the bot is no longer in the server or channel)
    50007,  # Cannot send messages to this user (closed DMs, blocked)
    50083,  # the thread is archived and locked
}
MAX_PER_DRAIN = 200  # a drain is a burst of one game's rows, never an endless loop


class Courier:
    def __init__(self, client: discord.Client, service: GameService, driver: Driver | None = None) -> None:
        self.client = client
        self.service = service
        self.driver = driver

    def channel(self, channel_id: str, guild_id: str) -> discord.PartialMessageable:
        """The game's channel or thread by id: works whether or not it is cached, and for archived threads."""
        return self.client.get_partial_messageable(int(channel_id),
                                                   guild_id=int(guild_id) if guild_id.isdigit() else None)

    async def drain(self, game_id: int, now: datetime | None = None) -> int:
        """Deliver every row of this game that is due, in order. Never raises: failures are recorded."""
        done = 0
        for _ in range(MAX_PER_DRAIN):
            at = now or utcnow()
            async with self.service.store.repo.session() as s, s.begin():
                row = await outbox.claim(s, game_id, at)
            if row is None:
                break
            done += await self._attempt(row, now)
        return done

    async def drain_all(self, now: datetime | None = None) -> set[int]:
        """Every game with something due: the pass of the background loop, and the start after a crash."""
        async with self.service.store.repo.session() as s:
            games = await outbox.games_due(s, now or utcnow())
        touched = set()
        for game_id in games:
            if await self.drain(game_id, now):
                touched.add(game_id)
        return touched

    async def run_forever(self, every: float = 2.0) -> None:
        """Drain what is due (retries, rows a crashed process left), and let the games it touched move on."""
        while True:
            try:
                for game_id in await self.drain_all():
                    if self.driver is not None:
                        await self.driver.advance(game_id, self.drain)
            except Exception:  # keep the loop alive through a database hiccup
                log.exception("courier pass failed")
            await asyncio.sleep(every)

    async def _attempt(self, row: OutboxRow, now: datetime | None) -> int:
        try:
            await self.deliver(row)
        except Exception as exc:
            at = now or utcnow()
            retry = retry_at(exc, row.attempts, at)
            async with self.service.store.repo.session() as s, s.begin():
                status = await outbox.failed(s, row, describe(exc), at, retry)
            level = logging.WARNING if status == "pending" else logging.ERROR
            log.log(level, "outbox row %s (%s, game %s), try %s: %s; %s", row.id, row.kind, row.game_id,
                    row.attempts, describe(exc), f"again at {retry:%H:%M:%S}" if status == "pending" else "given up")
            if not isinstance(exc, discord.DiscordException | OSError | asyncio.TimeoutError):
                log.exception("unexpected error delivering outbox row %s", row.id, exc_info=exc)
            return 0
        async with self.service.store.repo.session() as s, s.begin():
            await outbox.delivered(s, row, now or utcnow())
        return 1

    async def deliver(self, row: OutboxRow) -> None:
        info = await self.service.lobby.info(row.game_id)
        channel = self.channel(info.channel_id, info.guild_id)
        payload: dict[str, Any] = json.loads(row.payload)
        if row.kind == "board":
            logged = ([e for _, _, e in await self.service.store.repo.events(row.game_id, payload["first"], payload["last"])]
                      if "first" in payload else [])
            async with self.service.store.repo.session() as s:
                later = await outbox.later_boards(s, row)
            if later:
                await post_account(channel, logged)  # the newest board shows the game; this one tells its part
            else:
                await post_board(channel, self.service, row.game_id, logged)
        elif row.kind == "created":  # where the game is played, for every player and spectator to read
            await channel.send(created_text(info, str(payload.get("system") or "oak_and_iron")),
                               allowed_mentions=discord.AllowedMentions.none())
        elif row.kind == "status":
            await update_status(channel, self.service, row.game_id)
        elif row.kind == "nudge":
            if await self._still_owed(row.game_id, info.guild_id, payload):
                await nudge(self.client, row.game_id, str(payload["user"]), channel.jump_url)
        elif row.kind == "note":  # what a player's standing orders did: theirs alone, by DM
            await tell_player(self.client, row.game_id, OrderNote(
                str(payload["user"]), str(payload["player"]), str(payload["text"])))
        elif row.kind == "planned":
            await tell_planner(self.client, channel, row.game_id, PlanRefused(
                str(payload["user"]), str(payload["player"]), str(payload["line"]), str(payload["reason"])))
        elif row.kind == "notice":  # a line for the channel, pinging only the users it names
            users = [int(u) for u in payload.get("users", []) if str(u).isdigit()]
            await channel.send(fit(str(payload.get("text") or "…")),
                               allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]))
        else:
            log.warning("outbox row %s has an unknown kind %r: dropped", row.id, row.kind)

    async def _still_owed(self, game_id: int, guild_id: str, payload: dict[str, Any]) -> bool:
        """A nudge retried later is pointless once the pick was made (or the turn moved on, or the side
        changed hands). Asked of the player's own view: only it holds the hand the rule looks at."""
        player = str(payload.get("player"))
        try:
            g = (await self.service.reading.view(Actor(str(payload.get("user")), guild_id), game_id, player=player)).game
        except RulesError:  # the side is no longer theirs
            return False
        return g.turn == payload.get("turn") and owes_pick(g, player)


def describe(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.code}: {exc.text}"[:2000]
    return f"{type(exc).__name__}: {exc}"[:2000]


def retry_at(exc: BaseException, attempts: int, now: datetime) -> datetime | None:
    """When to try again after this failure, or None when trying again cannot help."""
    if isinstance(exc, discord.RateLimited):  # longer than discord.py would sleep for: Discord says how long
        return now + timedelta(seconds=exc.retry_after)
    if isinstance(exc, discord.HTTPException):
        if exc.code in HOPELESS:
            return None
        if exc.status == 429:
            header = exc.response.headers.get("Retry-After") if exc.response is not None else None
            try:
                wait = float(header) if header else 5.0
            except ValueError:
                wait = 5.0
            return now + timedelta(seconds=wait)
        if exc.status == 400 and exc.code == 50035:  # the message itself is refused: it would be again
            return None
    return now + outbox.backoff(attempts)
