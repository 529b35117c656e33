"""What lets someone other than a side's player act for it now, read from the database for the one
rule in authority.py (`acting_for`): the players past their deadline or with an empty seat, and the
stand-ins named for a vacation that is still running."""

from __future__ import annotations

from datetime import datetime

from game.service import orders_store as store
from game.service.authority import Actor, Proxies
from game.service.models import utcnow
from game.service.repository import Loaded, Repository


async def proxies_for(repo: Repository, loaded: Loaded, actor: Actor, override: bool = False) -> Proxies:
    """`override` counts only for a GM: a player's override is no more than their own seat."""
    assert loaded.record.id is not None
    now = utcnow()
    absent: set[str] = set()
    if actor.gm:
        absent = {s.player for s in loaded.seats if s.user_id is None and not s.is_ai}
        absent |= await repo.overdue_players(loaded.record.id, now)
    return Proxies(frozenset(absent), await stand_ins(repo, loaded, now), override and actor.gm)


async def stand_ins(repo: Repository, loaded: Loaded, now: datetime) -> dict[str, tuple[str, str]]:
    """side -> (the member standing in, the away player), for players away now with a substitute."""
    holders = {s.player: s.user_id for s in loaded.seats if s.user_id and not s.is_ai}
    if not holders:
        return {}
    away = await store.stand_ins_named(repo, now)
    return {side: (sub, user) for side, user in holders.items() if (sub := away.get(user)) and sub != user}
