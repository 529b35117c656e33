"""Opening the storage for a front end that runs beside the service (the bot's start and its
`--check`): the database upgraded to the newest migration, or read as it is, with nothing of SQL
reaching the caller."""

from __future__ import annotations

import getpass
import os

from sqlalchemy.exc import SQLAlchemyError

from game.service.db import is_sqlite, make_engine, upgrade_to_head
from game.service.game_service import GameService
from game.service.results import GameChannel
from game.service.settings import SettingsError
from game.service.workers import Workers


class StorageUnreadable(Exception):
    """The database could not be read; `cause` is what the database said."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


async def open_service(url: str, workers: Workers | None = None, cached_games: int = 1000) -> GameService:
    """The service on the database at `url`, upgraded to the newest migration first (the bot's start).
    SettingsError when the SQLite file cannot be written where DATABASE_URL puts it."""
    problem = unwritable_database(url)
    if problem is not None:
        raise SettingsError(problem)
    await upgrade_to_head(url)
    return GameService(make_engine(url), workers=workers, cached_games=cached_games)


async def open_reader(url: str, workers: Workers | None = None, cached_games: int = 1000) -> GameService:
    """The service for a process that only reads beside the bot (`quarterdeck web`): the bot migrates
    the database; this one checks every cached game against its stored version (shared)."""
    problem = reader_problem(url)
    if problem is not None:
        raise SettingsError(problem)
    return GameService(make_engine(url), workers=workers, cached_games=cached_games, shared=True)


def reader_problem(url: str) -> str | None:
    """Why a reader beside the bot cannot open `url` (a SQLite file the bot has not made yet), or None."""
    missing = missing_database(url)
    if missing is None:
        return None
    return (f"DATABASE_URL names {missing}, which does not exist yet: start the bot first (it makes the database), "
            "or point DATABASE_URL at the bot's database.")


def unwritable_database(url: str) -> str | None:
    """What stops this user from writing the SQLite file `url` names (SQLite says only "unable to open
    database file"), or None. Its directory must be writable too: the -wal and -shm files go beside it."""
    from sqlalchemy.engine import make_url

    database = make_url(url).database if is_sqlite(url) else None
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    path = os.path.abspath(database)
    folder = os.path.dirname(path)
    who = _user()
    if not os.path.isdir(folder):
        return f"DATABASE_URL puts the database in {folder}, which does not exist: create it, or change DATABASE_URL."
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK)):
        return (f"DATABASE_URL puts the database at {path}, which {who} cannot write (SQLite also writes its -wal "
                f"file in {folder}): give {who} that directory, or point DATABASE_URL where it may write.")
    return None


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


def _user() -> str:
    try:
        return f"user {getpass.getuser()}"
    except (OSError, KeyError):  # a uid with no name (a container run with --user 1234)
        return f"user id {os.getuid()}" if hasattr(os, "getuid") else "this user"
