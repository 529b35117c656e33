"""The service's part for front ends that run beside it (the bot): its courier's claims on the outbox,
the scheduler's jobs, and opening the storage, all without a session, a SQL row or an engine leaving
the service. A test keeps bot/ from importing the storage (tests/bot/test_bot_storage_wall.py).

The courier's guarantees are the outbox's (game/service/outbox.py): a claim takes a lease and keeps
each game's order; `delivered` and `failed` record the outcome, `failed` with its backoff."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from game.service import outbox
from game.service.db import is_sqlite, make_engine, upgrade_to_head
from game.service.posts import AnyPost, Board, decode_row, stored_all
from game.service.repository import Repository
from game.service.scheduler import Handler
from game.service.scheduler import Job as Job  # the jobs handlers get, for the front ends

if TYPE_CHECKING:
    from game.service.game_service import GameChannel, GameService
    from game.service.workers import Workers


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


class FrontEnd:
    """What the bot needs of the storage, as service calls."""

    def __init__(self, repo: Repository) -> None:
        self._repo = repo

    # ------------------------------------------------------------------ the outbox, for the courier

    async def claim(self, game_id: int, now: datetime) -> Delivery | None:
        """The next post of this game to deliver, claimed with a lease, or None."""
        async with self._repo.session() as s, s.begin():
            claimed = await outbox.claim(s, game_id, now)
        if claimed is None:
            return None
        assert claimed.id is not None
        post: AnyPost | Unreadable
        try:
            post = decode_row(claimed.kind, claimed.payload)
        except ValueError as exc:
            post = Unreadable(claimed.kind, str(exc))
        return Delivery(claimed.id, claimed.game_id, claimed.kind, claimed.attempts, post)

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

    async def logged(self, game_id: int, board: Board) -> list[Any]:
        """The events a board post tells (none for a board with no range)."""
        if board.first is None or board.last is None:
            return []
        return [e for _, _, e in await self._repo.events(game_id, board.first, board.last)]

    async def post(self, game_id: int, *posts: AnyPost) -> list[int]:
        """Posts about a game that no command wrote (a reminder, a note): in the outbox on their own."""
        return await self._repo.enqueue(game_id, stored_all(posts))

    # ------------------------------------------------------------------ jobs

    async def run_jobs(self, handlers: Mapping[str, Handler], every: float = 30.0) -> None:
        """Run the due jobs (reminders, deadlines) with these handlers, forever: the scheduler's task."""
        from game.service.scheduler import run_forever

        await run_forever(self._repo, handlers, every)

    async def close(self) -> None:
        """Let go of the database's connections (the process ends)."""
        await self._repo.engine.dispose()


# ---------------------------------------------------------------------- opening the storage


class StorageUnreadable(Exception):
    """The database could not be read; `cause` is what the database said."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


async def open_service(url: str, workers: Workers | None = None, cached_games: int = 1000) -> GameService:
    """The service on the database at `url`, upgraded to the newest migration first (the bot's start)."""
    from game.service.game_service import GameService

    await upgrade_to_head(url)
    return GameService(make_engine(url), workers=workers, cached_games=cached_games)


def missing_database(url: str) -> str | None:
    """The path of the SQLite file `url` names when it does not exist yet (opening it would make an empty
    one), else None."""
    from sqlalchemy.engine import make_url

    if not is_sqlite(url):
        return None
    database = make_url(url).database
    path = None if not database or database == ":memory:" else database
    return path if path is not None and not os.path.exists(path) else None


async def game_channels_at(url: str) -> list[GameChannel]:
    """Every channel and thread that has or had a game in the database at `url`, read without changing
    it (no migration); StorageUnreadable when it cannot be read."""
    from game.service.game_service import GameService

    engine = make_engine(url)
    try:
        return await GameService(engine).game_channels()
    except SQLAlchemyError as exc:
        raise StorageUnreadable(exc) from exc
    finally:
        await engine.dispose()
