"""Storage of standing orders and of game clocks (kept apart from repository.py: the same
sessions, its own tables)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from weakref import WeakKeyDictionary

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
    async with repo.read_session() as s:
        found = await s.get(GameClock, game_id)
    return found or GameClock(game_id=game_id)


async def save_clock(repo: Repository, clock: GameClock | PlayerClock) -> None:
    """A game's clock or a member's hours, written whole."""
    clock.updated_at = utcnow()
    async with repo.session() as s, s.begin():
        await s.merge(clock)
    if isinstance(clock, PlayerClock):
        forget_stand_ins(repo)


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


STAND_IN_LIST_FOR = 2.0  # seconds a process answers from its list of members away with a stand-in


@dataclass
class _StandIns:
    read_at: float  # time.monotonic()
    away: dict[str, tuple[str, datetime]]  # member -> (stand-in, away until), as read


_STAND_INS: WeakKeyDictionary[Repository, _StandIns] = WeakKeyDictionary()


async def stand_ins_named(repo: Repository, now: datetime) -> dict[str, str]:
    """Members away now who named a stand-in: member -> stand-in. Every command and every view asks
    (proxies.stand_ins), and vacations are rare: the few rows are read at most every
    STAND_IN_LIST_FOR seconds by a process, and again at once after it writes a member's hours
    (`save_clock`, `forget_stand_ins`). A vacation set or called off through another process counts
    within that time (docs/service.md, the stand-in list)."""
    kept = _STAND_INS.get(repo)
    if kept is None or time.monotonic() - kept.read_at > STAND_IN_LIST_FOR:
        read_at = time.monotonic()
        async with repo.session() as s:
            rows = (await s.execute(select(PlayerClock).where(
                col(PlayerClock.away_mode) == "substitute", col(PlayerClock.substitute).is_not(None),
                col(PlayerClock.away_until).is_not(None)))).scalars().all()
        kept = _STAND_INS[repo] = _StandIns(read_at, {
            r.user_id: (r.substitute, _aware(r.away_until)) for r in rows
            if r.substitute is not None and r.away_until is not None})
    return {user: sub for user, (sub, until) in kept.away.items() if until > now}


def forget_stand_ins(repo: Repository) -> None:
    """This process wrote members' hours: the next question reads the list again."""
    _STAND_INS.pop(repo, None)


def _aware(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when
