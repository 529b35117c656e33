"""Storage of standing orders and of game clocks (kept apart from repository.py: the same
sessions, its own tables)."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlmodel import col

from game.service.models import GameClock, PlayerClock, StandingOrderRecord, utcnow
from game.service.repository import Repository
from game.standing import Standing, decode, encode


async def load_orders(repo: Repository, game_id: int, player: str) -> tuple[Standing, str] | None:
    """The player's standing orders and who gave them."""
    async with repo.session() as s:
        row = (await s.execute(select(StandingOrderRecord).where(
            col(StandingOrderRecord.game_id) == game_id, col(StandingOrderRecord.player) == player))).scalars().first()
    return (decode(row.body), row.user_id) if row is not None else None


async def save_orders(repo: Repository, game_id: int, user_id: str, orders: Standing) -> None:
    async with repo.session() as s, s.begin():
        row = (await s.execute(select(StandingOrderRecord).where(
            col(StandingOrderRecord.game_id) == game_id, col(StandingOrderRecord.player) == orders.player))).scalars().first()
        if row is None:
            s.add(StandingOrderRecord(game_id=game_id, player=orders.player, user_id=user_id, body=encode(orders)))
        else:
            row.user_id, row.body, row.updated_at = user_id, encode(orders), utcnow()


async def clear_orders(repo: Repository, game_id: int, player: str) -> None:
    async with repo.session() as s, s.begin():
        await s.execute(delete(StandingOrderRecord).where(
            col(StandingOrderRecord.game_id) == game_id, col(StandingOrderRecord.player) == player))


async def game_clock(repo: Repository, game_id: int) -> GameClock:
    async with repo.session() as s:
        found = await s.get(GameClock, game_id)
    return found or GameClock(game_id=game_id)


async def save_clock(repo: Repository, clock: GameClock | PlayerClock) -> None:
    """A game's clock or a member's hours, written whole."""
    clock.updated_at = utcnow()
    async with repo.session() as s, s.begin():
        await s.merge(clock)


async def player_clock(repo: Repository, user_id: str) -> PlayerClock:
    async with repo.session() as s:
        found = await s.get(PlayerClock, user_id)
    return found or PlayerClock(user_id=user_id)


async def clocks_for(repo: Repository, game_id: int, users: list[str]) -> tuple[GameClock, dict[str, PlayerClock]]:
    """The game's clock and these members' hours, in one session: this is read on every change of
    whose turn it is, so it costs one round trip, not one per table."""
    async with repo.session() as s:
        clock = await s.get(GameClock, game_id)
        rows = (await s.execute(select(PlayerClock).where(col(PlayerClock.user_id).in_(users)))).scalars().all() \
            if users else []
    return clock or GameClock(game_id=game_id), {r.user_id: r for r in rows}


async def player_clocks(repo: Repository, users: list[str]) -> list[PlayerClock]:
    """These members' hours and vacations, read fresh (a vacation set through another process counts)."""
    if not users:
        return []
    async with repo.session() as s:
        return list((await s.execute(select(PlayerClock).where(col(PlayerClock.user_id).in_(users)))).scalars().all())
