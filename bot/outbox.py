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
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.actions import tell_planner, tell_player
from bot.chronicle import post_card, post_chronicle
from bot.follow import follow_board, follow_digest
from bot.league_rounds import round_closed
from bot.limits import fit
from bot.publish import created_text, nudge, page_link, post_account, post_board, update_status
from game import names
from game.errors import RulesError
from game.phases.common import owes_pick
from game.service import outbox, posts
from game.service.frontend import Delivery, Unreadable
from game.service.game_service import Actor, GameInfo, GameService
from game.service.metrics import DELIVERED, FAILED
from game.service.orders_service import OrderNote
from game.service.results import BoardRead, PlanRefused

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
# games drained at once by the process: after a restart the backlog is many games' posts, each game's in
# order, and one game's board (read, drawn, posted) need not wait for another's; but no more than this,
# or drains waiting for the database's write lock hold every pooled connection and commands time out
DRAINS_AT_ONCE = 4


def utcnow() -> datetime:
    return datetime.now(UTC)


class Courier:
    def __init__(self, client: discord.Client, service: GameService, driver: Driver | None = None) -> None:
        self.client = client
        self.service = service
        self.driver = driver
        self._gate = asyncio.Semaphore(DRAINS_AT_ONCE)

    def channel(self, channel_id: str, guild_id: str) -> discord.PartialMessageable:
        """The game's channel or thread by id: works whether or not it is cached, and for archived threads."""
        return self.client.get_partial_messageable(int(channel_id),
                                                   guild_id=int(guild_id) if guild_id.isdigit() else None)

    async def drain(self, game_id: int, now: datetime | None = None) -> int:
        """Deliver every row of this game that is due, in order. Never raises: failures are recorded.

        A direct message (a nudge, a note of standing orders) keeps no place in the channel's order
        (game/service/posts.py, its lane): it goes out beside the drain, not in it, and outside the
        gate. Discord makes a member's DMs wait their channel's rate limit (about five in five seconds),
        and a member nudged in many games waits seconds: in the drain, every game's boards waited
        behind them (the soak of issue 29: a drain slot held 4 s by a DM, posts 20 s late)."""
        beside: list[asyncio.Task[int]] = []
        try:
            async with self._gate:
                done = await self._drain(game_id, now, beside)
        finally:  # each DM's outcome is collected, even when the drain itself failed
            sent = await asyncio.gather(*beside, return_exceptions=True)
        for outcome in sent:
            if isinstance(outcome, BaseException):
                raise outcome  # what the drain's own rows would have raised (a database that failed)
        return done + sum(n for n in sent if isinstance(n, int))

    async def _drain(self, game_id: int, now: datetime | None, beside: list[asyncio.Task[int]]) -> int:
        done = 0
        reads: dict[int, BoardRead] = {}
        for _ in range(MAX_PER_DRAIN):
            claimed = await self.service.front.claim(game_id, now or utcnow())
            if claimed is None:
                break
            if posts.lane(claimed.kind) == posts.DM:  # claimed (leased): the next claim passes it over
                beside.append(asyncio.create_task(self._attempt(claimed, now, reads)))
            else:
                done += await self._attempt(claimed, now, reads)
        return done

    async def drain_all(self, now: datetime | None = None) -> set[int]:
        """Every game with something due: the pass of the background loop, and the start after a crash.
        Games go DRAINS_AT_ONCE at a time (each game's own posts stay in order: its drain is one task)."""
        games = await self.service.front.games_due(now or utcnow())
        touched = set()

        async def one(game_id: int) -> None:
            if await self.drain(game_id, now):
                touched.add(game_id)

        await asyncio.gather(*(one(g) for g in games))
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

    async def _attempt(self, row: Delivery, now: datetime | None, reads: dict[int, BoardRead]) -> int:
        try:
            await self.deliver(row, reads)
        except Exception as exc:
            at = now or utcnow()
            retry = retry_at(exc, row.attempts, at)
            status = await self.service.front.failed(row, describe(exc), at, retry)
            FAILED.labels("retry" if status == "pending" else "given_up").inc()
            level = logging.WARNING if status == "pending" else logging.ERROR
            log.log(level, "outbox row %s (%s, game %s), try %s: %s; %s", row.id, row.kind, row.game_id,
                    row.attempts, describe(exc), f"again at {retry:%H:%M:%S}" if status == "pending" else "given up")
            if not isinstance(exc, discord.DiscordException | OSError | asyncio.TimeoutError):
                log.exception("unexpected error delivering outbox row %s", row.id, exc_info=exc)
            return 0
        await self.service.front.delivered(row, now or utcnow())
        DELIVERED.inc()
        return 1

    async def deliver(self, row: Delivery, reads: dict[int, BoardRead] | None = None) -> None:
        """Deliver one claimed row. `reads` keeps the game as one read of it showed it (Reading.board)
        for the rest of a drain: a board post, the status edit and a nudge of one command read it once.
        A post that shows no board (a referee-assistant game's, an announcement) needs only the game's
        place, which the lobby tells for every system."""
        reads = {} if reads is None else reads
        handler = HANDLERS.get(type(row.post))
        if handler is None:  # a post type without a handler: tests/bot/test_posts_bot.py keeps this from happening
            raise TypeError(f"no handler for {type(row.post).__name__} posts")
        if isinstance(row.post, posts.Board | posts.Status) and (isinstance(row.post, posts.Board)
                                                                or row.game_id not in reads):
            board = row.post if isinstance(row.post, posts.Board) else posts.Board()
            reads[row.game_id] = await self.service.reading.board(row.game_id, board.first, board.last)
        read = reads.get(row.game_id)
        info = read.info if read is not None else await self.service.lobby.info(row.game_id)
        await handler(Delivering(self, row, info, read, self.channel(info.channel_id, info.guild_id)), row.post)


@dataclass(frozen=True)
class Delivering:
    """One post on its way: the courier, the claimed row, its game and the game's channel or thread."""

    courier: Courier
    row: Delivery
    info: GameInfo
    board_read: BoardRead | None  # the game as the drain read it, for the posts that show it
    channel: discord.PartialMessageable

    @property
    def read(self) -> BoardRead:
        assert self.board_read is not None, "a board or status post is delivered with the board read"
        return self.board_read

    @property
    def service(self) -> GameService:
        return self.courier.service

    @property
    def nonce(self) -> str:
        """The nonce of the one message this row makes (a row that makes two names the second's itself)."""
        return nonce(self.row.id)

    @property
    def client(self) -> discord.Client:
        return self.courier.client


P = TypeVar("P")
Handler = Callable[[Delivering, Any], Awaitable[None]]
HANDLERS: dict[type, Handler] = {}  # one per post type (game/service/posts.py), and one for unreadable rows


def handles(cls: type[P]) -> Callable[[Callable[[Delivering, P], Awaitable[None]]],
                                      Callable[[Delivering, P], Awaitable[None]]]:
    def add(handler: Callable[[Delivering, P], Awaitable[None]]) -> Callable[[Delivering, P], Awaitable[None]]:
        HANDLERS[cls] = handler
        return handler
    return add


@handles(posts.Board)
async def _board(d: Delivering, post: posts.Board) -> None:
    # the followers' DMs first (keyed by this row): a board post retried after a failure writes none twice
    await d.service.following.fan_out(d.row.game_id, d.row.id, post)
    if await d.service.front.later_boards(d.row):
        # the newest board shows the game; this one tells its part
        await post_account(d.channel, d.read.events, nonce=d.nonce)
    else:
        await post_board(d.channel, d.read, nonce=d.nonce)


@handles(posts.Created)
async def _created(d: Delivering, post: posts.Created) -> None:
    """Where the game is played, for every player and spectator to read."""
    system = post.system or "oak_and_iron"
    link = await page_link(d.courier.client, d.service, d.info.id) if system == "oak_and_iron" else ""
    await d.channel.send(created_text(d.info, system, link),
                         allowed_mentions=discord.AllowedMentions.none(), nonce=d.nonce)


@handles(posts.Status)
async def _status(d: Delivering, post: posts.Status) -> None:
    await update_status(d.channel, d.service, d.read, await page_link(d.courier.client, d.service, d.info.id),
                        nonce=d.nonce)


@handles(posts.Nudge)
async def _nudge(d: Delivering, post: posts.Nudge) -> None:
    if await _still_owed(d, post):
        await nudge(d.client, d.row.game_id, post.user, d.channel.jump_url, nonce=d.nonce)


@handles(posts.Note)
async def _note(d: Delivering, post: posts.Note) -> None:
    """What a player's standing orders did: theirs alone, by DM."""
    await tell_player(d.client, d.row.game_id, OrderNote(post.user, post.player, post.text), nonce=d.nonce)


@handles(posts.Planned)
async def _planned(d: Delivering, post: posts.Planned) -> None:
    await tell_planner(d.client, d.channel, d.row.game_id, PlanRefused(post.user, post.player, post.line, post.reason),
                       nonces=(nonce(d.row.id, "dm"), d.nonce))


@handles(posts.Notice)
async def _notice(d: Delivering, post: posts.Notice) -> None:
    """A line for the channel, pinging only the users it names."""
    await d.channel.send(fit(post.text or "…"),
                         allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in post.user_ids]),
                         nonce=d.nonce)


handles(posts.FollowBoard)(follow_board)
handles(posts.FollowDigest)(follow_digest)

@handles(posts.CampaignBattleOver)
async def _campaign(d: Delivering, post: posts.CampaignBattleOver) -> None:
    """A campaign battle's end: which battle it was, and what its GM does next (docs/campaigns.md)."""
    name = fit(post.campaign, 64)
    await d.channel.send(fit(f"🗺️ This was battle {post.number} of **{names.text(name)}**. A GM now applies what "
                             "carries over (ships lost, damage, Fortune, points): "
                             + names.code(f"/campaign apply name: {name} battle: {post.number}")
                             + "; " + names.code(f"/campaign ledger name: {name}") + " tells the campaign so far."),
                         allowed_mentions=discord.AllowedMentions.none())


@handles(posts.ChronicleCard)
async def _chronicle(d: Delivering, post: posts.ChronicleCard) -> None:
    """A finished game's summary card: in its channel, or in the server's chronicle channel (if a GM
    set one when the row goes out) with a thread for after-action reports."""
    card = await d.service.chronicle.card(d.row.game_id)
    if not post.chronicle:
        await post_card(d.channel, card, nonce=d.nonce)
    elif card.chronicle_channel is not None:
        await post_chronicle(d.client, d.courier.channel(card.chronicle_channel, card.guild_id), card, d.channel.jump_url,
                             nonce=d.nonce)


@handles(posts.LeagueRound)
async def _league_round(d: Delivering, post: posts.LeagueRound) -> None:
    """A league round that closed by itself: the league's channel is told, the next round's games made."""
    await round_closed(d.client, d.service, d.courier.drain, post.league, post.round, list(zip(post.told, post.texts,
                                                                                                strict=False)))


@handles(Unreadable)
async def _unreadable(d: Delivering, post: Unreadable) -> None:
    log.warning("outbox row %s has an unknown kind %r or a payload that does not fit it (%s): dropped",
                d.row.id, post.kind, post.why)


async def _still_owed(d: Delivering, post: posts.Nudge) -> bool:
    """A nudge retried later is pointless once the pick was made (or the turn moved on, or the side
    changed hands). The drain's read of the game tells it (who owes a pick is public), unless a board
    row written after this nudge waits: something was committed since (the pick, a hand-over) that the
    read may predate. Then, as for a nudge delivered on its own, the player's own view is asked."""
    if d.board_read is not None and not await d.service.front.later_boards(d.row):
        read = d.board_read
        seat = read.info.seat(post.player)
        return (seat is not None and seat.user_id == post.user and read.spectator.game.turn == post.turn
                and post.player in read.owed)
    try:
        g = (await d.service.reading.view(Actor(post.user, d.info.guild_id), d.row.game_id, player=post.player)).game
    except RulesError:  # the side is no longer theirs
        return False
    return g.turn == post.turn and owes_pick(g, post.player)


def nonce(row_id: int, part: str = "") -> str:
    """The Create Message `nonce` of a row's message, sent with `enforce_nonce` (discord.py sends that
    flag with every nonce): "If another message was created by the same author with the same nonce,
    that message will be returned and no new message will be created", for a few minutes
    (resources-message.mdx, Create Message). So a post whose try reached Discord but was never recorded
    as delivered (the process was killed, the answer was lost) is not made twice when it is tried again.
    The row's id, unique in the database, names it; a string of at most 25 characters (the document's
    limit): "qd", up to 19 digits and a short part for a row's second message."""
    return f"qd{row_id}{part}"


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
