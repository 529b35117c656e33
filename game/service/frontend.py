"""The service's part for front ends that run beside it (the bot): the posts a commit writes into the
outbox, its courier's claims on them, the game's status message, announcements, notes and jobs, the
slash commands last synced, the members' DM channels, and opening the storage, all without a session,
a SQL row or an engine leaving the service. A test keeps bot/ from importing the storage (tests/bot/test_bot_storage_wall.py).

The courier's guarantees are the outbox's (game/service/outbox.py): a claim takes a lease and keeps
each game's order; `delivered` and `failed` record the outcome, `failed` with its backoff."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from game import events as ev
from game.model import Game, Phase
from game.phases.common import owes_pick
from game.service import dm_channels, outbox, posts
from game.service.models import Seat, utcnow
from game.service.outbox import Post
from game.service.posts import AnyPost, Board, Created, Nudge, Status, decode_row, stored, stored_all
from game.service.scheduler import Handler, run_forever, schedule
from game.service.scheduler import Job as Job  # the jobs handlers get, for the front ends
from game.service.store import GameStore, Look, PostMaker


def posts_for(seats: Sequence[Seat], events: Sequence[Any], state: Game, first: int, last: int) -> list[Post]:
    """What the bot posts about a command: the board with its account, the status, and a DM to each
    player who now owes a pick. Enlisting a squadron is part of taking a seat: the game's first board
    comes when every seat is taken (announce)."""
    if all(isinstance(e, ev.SquadronEnlisted) for e in events):
        return []
    return [stored(Board(first, last)), stored(Status()), *nudges(seats, state)]


def nudges(seats: Sequence[Seat], state: Game) -> list[Post]:
    """A DM for each pick owed, once per player and turn (the key), to a seated member only."""
    if state.phase not in (Phase.SETUP, Phase.INITIATIVE) or state.choices:
        return []
    users = {s.player: s.user_id for s in seats if not s.is_ai and s.user_id and s.user_id.isdigit()}
    return [stored(Nudge(q.player, users[q.player], state.turn))
            for q in state.squadrons if owes_pick(state, q.player) and q.player in users]


@dataclass(frozen=True)
class Unreadable:
    """A row whose kind no post type claims, or whose payload does not fit its type (written by a newer
    or broken version): the courier gives it up rather than guess."""

    kind: str
    why: str


@dataclass(frozen=True)
class Delivery:
    """An outbox row claimed for delivery: the post it carries, and what the courier records and logs."""

    id: int
    game_id: int
    kind: str
    attempts: int  # this try included
    post: AnyPost | Unreadable


@dataclass(frozen=True)
class Vitals:
    """What /healthz and /metrics need of the storage (bot/health.py): whether the database answered
    (`problem` says what it said when not), the outbox's backlog, and the games not over."""

    problem: str | None = None
    backlog: int = 0
    overdue: timedelta = timedelta(0)  # how long the longest-due post has waited for the courier
    games_live: int = 0


class FrontEnd:
    """What the bot needs of the storage, as service calls."""

    def __init__(self, store: GameStore, outbox: bool = False) -> None:
        self.store = store
        self._repo = store.repo
        self._outbox = False
        self._more: list[PostMaker] = []
        self.outbox = outbox
        # the identity the courier's leases are taken under (`own_leases`); None: leases with no owner
        self.owner: str | None = None

    @property
    def outbox(self) -> bool:
        """With a front end that posts (the bot), each command writes what to post into the outbox."""
        return self._outbox

    @outbox.setter
    def outbox(self, on: bool) -> None:
        if on and not self._outbox:
            self.store.post_with(posts_for)
            for make in self._more:
                self.store.post_with(make)
        self._outbox = self._outbox or on

    def one_look(self) -> AbstractContextManager[Look]:
        """An interaction's scope: each game it reads is checked against the database once
        (GameStore.one_look)."""
        return self.store.one_look()

    def also_post(self, make: PostMaker) -> None:
        """A feature's posts about a commit (the chronicle's card), written after the board and the status."""
        self._more.append(make)
        if self._outbox:
            self.store.post_with(make)

    # ------------------------------------------------------------------ what is posted about a game

    def announcement(self, system: str) -> list[Post]:
        """A new game is announced where it is played, with the SHA-256 of its dice seed, for every
        player and spectator to compare with the seed revealed at the end."""
        return [stored(Created(system))] if self.outbox else []

    async def announce(self, game_id: int) -> list[int]:
        """Put the board (with no new account), the status and the owed pick nudges in the outbox: the
        game begins, or someone asked to see it (/game status)."""
        loaded = await self.store.load(game_id)
        return await self._repo.enqueue(game_id, [stored(Board()), stored(Status()),
                                                  *nudges(loaded.seats, loaded.state)])

    async def enqueue(self, game_id: int, kind: str, payload: dict[str, Any]) -> list[int]:
        """A post by its kind and fields (a kind or payload that fits no post type is refused)."""
        return await self.post(game_id, posts.decode(kind, payload))

    async def schedule(self, kind: str, due_in: timedelta, game_id: int | None = None,
                       payload: dict[str, Any] | None = None) -> int:
        return await schedule(self._repo, kind, utcnow() + due_in, game_id, payload or {})

    async def set_status_message(self, game_id: int, message_id: str) -> None:
        loaded = await self.store.load(game_id)
        loaded.record.status_message_id = message_id
        await self._repo.set_status_message(game_id, message_id)

    async def synced_commands(self, scope: str) -> str | None:
        """The digest of the slash commands last synced to `scope` ("global" or a guild id)."""
        return await self._repo.bot_state(f"commands:{scope}")

    async def remember_synced_commands(self, scope: str, digest: str) -> None:
        await self._repo.set_bot_state(f"commands:{scope}", digest)

    async def dm_channel(self, bot_id: str, user_id: str) -> str | None:
        """The DM channel with `user_id` a process of this bot opened before, if any (bot/dms.py)."""
        return await dm_channels.channel_of(self._repo, bot_id, user_id)

    async def remember_dm_channel(self, bot_id: str, user_id: str, channel_id: str) -> None:
        await dm_channels.keep(self._repo, bot_id, user_id, channel_id)

    async def forget_dm_channel(self, bot_id: str, user_id: str, channel_id: str) -> None:
        await dm_channels.drop(self._repo, bot_id, user_id, channel_id)

    # ------------------------------------------------------------------ the outbox, for the courier

    async def claim(self, game_id: int, now: datetime) -> Delivery | None:
        """The next post of this game to deliver, claimed with a lease, or None."""
        async with self._repo.session() as s, s.begin():
            claimed = await outbox.claim(s, game_id, now, self.owner)
        if claimed is None:
            return None
        assert claimed.id is not None
        post: AnyPost | Unreadable
        try:
            post = decode_row(claimed.kind, claimed.payload)
        except ValueError as exc:
            post = Unreadable(claimed.kind, str(exc))
        return Delivery(claimed.id, claimed.game_id, claimed.kind, claimed.attempts, post)

    async def own_leases(self, owner: str, now: datetime | None = None) -> int:
        """Take leases as `owner` from now on, and free at once the rows a process of that identity held
        when it was stopped (a start after a crash): how many. Call before the courier's first pass."""
        self.owner = owner
        async with self._repo.session() as s, s.begin():
            return await outbox.reclaim(s, owner, now or utcnow())

    async def delivered(self, delivery: Delivery, now: datetime) -> None:
        async with self._repo.session() as s, s.begin():
            await outbox.delivered(s, delivery, now)

    async def failed(self, delivery: Delivery, error: str, now: datetime, retry_at: datetime | None) -> str:
        """Record a failed try: due again at `retry_at`, or given up (None, or too many tries). The status."""
        async with self._repo.session() as s, s.begin():
            return await outbox.failed(s, delivery, error, now, retry_at)

    async def games_due(self, now: datetime) -> list[int]:
        """Games with a post that may go out now."""
        async with self._repo.session() as s:
            return await outbox.games_due(s, now)

    async def later_boards(self, delivery: Delivery) -> int:
        """Board posts of the same game written after this one and not yet delivered."""
        async with self._repo.session() as s:
            return await outbox.later_boards(s, delivery)

    async def post(self, game_id: int, *posts: AnyPost) -> list[int]:
        """Posts about a game that no command wrote (a reminder, a note): in the outbox on their own."""
        return await self._repo.enqueue(game_id, stored_all(posts))

    async def vitals(self) -> Vitals:
        """One look at the database for the health endpoint; never raises for an unreachable one."""
        try:
            async with self._repo.session() as s:
                count, overdue = await outbox.backlog(s, utcnow())
            live = len(await self._repo.active_game_ids(every_system=True))
        except Exception as exc:  # whatever the driver raises: the endpoint reports it, the bot goes on
            return Vitals(problem=f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}")
        return Vitals(backlog=count, overdue=overdue, games_live=live)

    # ------------------------------------------------------------------ jobs

    async def run_jobs(self, handlers: Mapping[str, Handler], every: float = 30.0) -> None:
        """Run the due jobs (reminders, deadlines) with these handlers, forever: the scheduler's task."""
        await run_forever(self._repo, handlers, every)

    async def close(self) -> None:
        """Let go of the database's connections (the process ends)."""
        await self._repo.engine.dispose()
