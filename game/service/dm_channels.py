"""Each member's DM channel with the bot, kept between starts (bot/dms.py reads and writes it
through the front end).

Discord keeps one DM channel between a bot and a user and Create DM gives that same one every time,
so an id once opened stays good. A process that starts after a crash owes DMs to many members at
once; opening each again costs a Create DM on a route whose limit all of a bot's DMs share, and the
soak of issue 29 waited up to 70 s for them. The ids are shared by every process on the database."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from game.service.models import DmChannel, utcnow
from game.service.repository import Repository


async def channel_of(repo: Repository, bot_id: str, user_id: str) -> str | None:
    async with repo.read_session() as s:
        return (await s.execute(select(col(DmChannel.channel_id)).where(
            col(DmChannel.bot_id) == bot_id, col(DmChannel.user_id) == user_id))).scalar()


async def keep(repo: Repository, bot_id: str, user_id: str, channel_id: str) -> None:
    try:
        async with repo.session() as s, s.begin():
            row = await s.get(DmChannel, (bot_id, user_id))
            if row is None:
                s.add(DmChannel(bot_id=bot_id, user_id=user_id, channel_id=channel_id))
            else:
                row.channel_id, row.opened_at = channel_id, utcnow()  # opened again: Discord forgot the old one
    except IntegrityError:
        pass  # another process kept it a moment ago: Discord gave both the same channel


async def drop(repo: Repository, bot_id: str, user_id: str, channel_id: str) -> None:
    """Forget a channel Discord no longer knows, unless another process has kept a newer one since."""
    async with repo.session() as s, s.begin():
        await s.execute(delete(DmChannel).where(col(DmChannel.bot_id) == bot_id, col(DmChannel.user_id) == user_id,
                                                col(DmChannel.channel_id) == channel_id))
