"""Opening the storage for a front end that runs beside the service (the bot's start and its
`--check`): the database upgraded to the newest migration, or read as it is, with nothing of SQL
reaching the caller."""

from __future__ import annotations

import os

from sqlalchemy.exc import SQLAlchemyError

from game.service.db import is_sqlite, make_engine, upgrade_to_head
from game.service.game_service import GameService
from game.service.results import GameChannel
from game.service.workers import Workers


class StorageUnreadable(Exception):
    """The database could not be read; `cause` is what the database said."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


async def open_service(url: str, workers: Workers | None = None, cached_games: int = 1000) -> GameService:
    """The service on the database at `url`, upgraded to the newest migration first (the bot's start)."""
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
    engine = make_engine(url)
    try:
        return await GameService(engine).lobby.game_channels()
    except SQLAlchemyError as exc:
        raise StorageUnreadable(exc) from exc
    finally:
        await engine.dispose()
