"""The league action log: every organiser action (create, start, a round closed, a result, a forfeit,
a drop, a late entry, a settings change …) as a row, written in the transaction of the action itself,
so the log never tells of an action that did not happen nor misses one that did.

Any part of the service that acts on a league logs through `log_action`; `/league log` reads it with
`actions`. Anyone in the server may read it (docs/leagues.md, "The action log")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from game.service.models import LeagueAction, utcnow

AUTOMATIC = "automatic"  # the actor of what the league did by itself (a round closed as its last game ended)
MAX_NOTE = 300


@dataclass(frozen=True)
class LoggedAction:
    actor: str  # a member's id, or AUTOMATIC
    action: str
    subject: str  # the entrant concerned (member id or ai:N), or ""
    note: str
    at: datetime


async def log_action(session: AsyncSession, league_id: int | None, actor: str, action: str, note: str = "",
                     subject: str = "", at: datetime | None = None) -> None:
    """Add one action to the league's log, in the caller's transaction (commit or roll back together)."""
    assert league_id is not None, "a league is logged once it has its id"
    session.add(LeagueAction(league_id=league_id, actor=actor[:32], action=action[:40], subject=subject[:32],
                             note=" ".join(note.split())[:MAX_NOTE], at=at or utcnow()))


async def actions(session: AsyncSession, league_id: int | None, offset: int, limit: int) -> tuple[list[LoggedAction], int]:
    """A page of the league's log, newest first, and how many actions it holds in all."""
    total = (await session.execute(select(func.count()).select_from(LeagueAction)
                                   .where(col(LeagueAction.league_id) == league_id))).scalar_one()
    q = (select(LeagueAction).where(col(LeagueAction.league_id) == league_id)
         .order_by(col(LeagueAction.id).desc()).offset(offset).limit(limit))
    rows = (await session.execute(q)).scalars()
    return [LoggedAction(r.actor, r.action, r.subject, r.note,
                         r.at if r.at.tzinfo is not None else r.at.replace(tzinfo=UTC)) for r in rows], int(total)
