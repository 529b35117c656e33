"""Opening a database someone already has, to read it (`quarterdeck audit`, `quarterdeck verify`): a
backup is evidence, so it is never changed. A file that does not exist is refused (opening it would
make an empty one and report nothing), an SQLite file is opened read-only, and a database at another
migration than this code's is refused rather than migrated in place: the command says how to read a
copy instead."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.ext.asyncio import create_async_engine

from game.errors import RulesError
from game.service.db import alembic_config, is_sqlite, make_engine
from game.service.game_service import GameService
from game.service.opening import missing_database


class NotReadable(RulesError):
    """The database named cannot be read as it is."""


def read_only_url(url: str) -> str:
    """An SQLite URL opened read-only through SQLite's URI form (`mode=ro`); other URLs as they are."""
    if not is_sqlite(url):
        return url
    database = make_url(url).database or ""
    return f"sqlite+aiosqlite:///file:{database}?mode=ro&uri=true"


def _head(url: str) -> str | None:
    return ScriptDirectory.from_config(alembic_config(url)).get_current_head()


def as_url(text: str) -> str:
    """A database URL, or a file's path taken as an SQLite database's (`--db backup.db`)."""
    return text if "://" in text else f"sqlite+aiosqlite:///{Path(text).expanduser().absolute()}"


async def open_stored(url: str) -> tuple[Any, GameService]:
    """The service over an existing database, read as it is (NotReadable if it cannot be)."""
    url = as_url(url)
    try:
        make_url(url)
    except ArgumentError:
        raise NotReadable(f"{url[:80]!r} is not a database URL.",
                          "Give a file path's URL, e.g. sqlite+aiosqlite:///backup.db.") from None
    missing = missing_database(url)
    if missing is not None:
        raise NotReadable(f"There is no database at {missing}.", "Check the path: nothing was created.")
    # no connection pragmas on a file opened read-only: setting WAL on a backup kept in another journal
    # mode is a write, which SQLite refuses
    engine = create_async_engine(read_only_url(url)) if is_sqlite(url) else make_engine(url)
    try:
        async with engine.connect() as conn:
            at = await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
    except SQLAlchemyError as exc:
        await engine.dispose()
        cause = getattr(exc, "orig", None) or exc  # what the driver said, where SQLAlchemy wraps it
        raise NotReadable(f"That database cannot be read ({type(cause).__name__}).",
                          "Is it a Quarterdeck database?") from None
    head = _head(url)
    if at != head:
        await engine.dispose()
        what = "has no Quarterdeck tables" if at is None else f"is at migration {at}, this code reads {head}"
        raise NotReadable(f"That database {what}.",
                          "It is read as it is, never migrated: open a copy with `quarterdeck table --db COPY` "
                          "to bring the copy up to date, then read the copy.")
    return engine, GameService(engine)
