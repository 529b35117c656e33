"""How a league's writers keep out of each other's way: every change that two GMs (or two members, or
two processes) could make at once is claimed in the database before it is acted on.

- A pairing's game is made only by whoever moved its row from "pending" to "making" under a fresh
  claim token (one conditional UPDATE of the row that holds the pairing's unique key (league, round,
  table)); the game is linked to the pairing only under that same token. A claim outlives a crash
  for CLAIM_LEASE, then the next GM command takes it over.
- Every join and drop first bumps the league's `entry_version`: that UPDATE takes the league's row
  lock (PostgreSQL) or the write lock (SQLite) before anything is counted, so joins count the
  entrants, and number computer captains, one at a time; and a round is paired only if the version
  it read its entrants at is still the league's.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from game.service.models import League, LeagueGame

CLAIM_LEASE = timedelta(minutes=10)  # making one game (a thread, the game, two seats) takes seconds


async def claim_pairing(s: AsyncSession, row_id: int | None, now: datetime) -> str | None:
    """The token under which this caller makes the pairing's game, or None: another holds it (or it has
    its game, or its result)."""
    token = uuid.uuid4().hex
    claimable = or_(col(LeagueGame.status) == "pending",
                    and_(col(LeagueGame.status) == "making", col(LeagueGame.claimed_at) < now - CLAIM_LEASE))
    done = await s.execute(update(LeagueGame).where(col(LeagueGame.id) == row_id, claimable)
                           .values(status="making", claim=token, claimed_at=now))
    return token if _changed(done) else None


async def release_pairing(s: AsyncSession, row_id: int | None, token: str) -> None:
    """The game could not be made (no thread, a refused scenario): the next command tries again."""
    await s.execute(update(LeagueGame).where(col(LeagueGame.id) == row_id, col(LeagueGame.claim) == token,
                                             col(LeagueGame.status) == "making")
                    .values(status="pending", claim="", claimed_at=None))


async def link_game(s: AsyncSession, row_id: int | None, token: str, game_id: int) -> bool:
    """The made game becomes the pairing's, if the claim is still this caller's."""
    done = await s.execute(update(LeagueGame).where(col(LeagueGame.id) == row_id, col(LeagueGame.claim) == token,
                                                    col(LeagueGame.status) == "making")
                           .values(game_id=game_id, status="playing"))
    return _changed(done)


async def change_entrants(s: AsyncSession, league_id: int | None, *statuses: str) -> bool:
    """The first statement of a transaction that adds or drops an entrant: False when the league is in
    none of `statuses` (registration closed, the league over)."""
    done = await s.execute(update(League).where(col(League.id) == league_id, col(League.status).in_(statuses))
                           .values(entry_version=League.entry_version + 1))
    return _changed(done)


def _changed(result: Any) -> bool:
    """Whether a conditional UPDATE of one row found it (an UPDATE's result is a CursorResult)."""
    return int(result.rowcount) == 1
