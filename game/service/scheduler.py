"""Jobs that fall due later (reminders, deadlines) live in the database; one task runs them, so
they survive restarts. The bot attaches what a job does (a ping, a forfeit notice) as a handler."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, and_, or_, select, update
from sqlmodel import col

from game.service.models import ScheduledJob, utcnow
from game.service.repository import Repository

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    """A due job as its handler gets it: the row's values, no database row (front ends run handlers and
    never see the storage). `payload` is the JSON text the job was scheduled with."""

    id: int
    game_id: int | None
    kind: str
    payload: str
    attempts: int  # tries before this one
    due_at: datetime
    # the decision a clock job was planned for (game/service/decision.py)
    player: str | None = None
    holder: str | None = None
    since: int | None = None

    @classmethod
    def of(cls, row: ScheduledJob) -> Job:
        assert row.id is not None  # a claimed row was read from the table
        return cls(row.id, row.game_id, row.kind, row.payload, row.attempts, row.due_at, row.player, row.holder,
                   row.since)


Handler = Callable[[Job], Awaitable[None]]
MAX_ATTEMPTS = 5
LEASE = timedelta(minutes=10)  # a claimed job is its claimer's until then; a claimer that died lets it go


async def schedule(repo: Repository, kind: str, due_at: datetime, game_id: int | None, payload: dict[str, Any]) -> int:
    job = ScheduledJob(game_id=game_id, kind=kind, due_at=due_at, payload=json.dumps(payload))
    async with repo.session() as s, s.begin():
        s.add(job)
        await s.flush()
    assert job.id is not None
    return job.id


def _claimable(now: datetime) -> Any:
    return or_(
        and_(col(ScheduledJob.status) == "pending", col(ScheduledJob.due_at) <= now),
        and_(col(ScheduledJob.status) == "running", col(ScheduledJob.locked_until) < now),
    )


async def claim_due(repo: Repository, now: datetime | None = None, limit: int = 50) -> list[ScheduledJob]:
    """Claim up to `limit` due jobs for this process: each goes to running with a lease. On PostgreSQL
    the rows another process is claiming are skipped (FOR UPDATE SKIP LOCKED) rather than waited for;
    the conditional UPDATE is what makes the claim safe on SQLite, which has no row locks."""
    claimed_at = now or utcnow()
    mine: list[ScheduledJob] = []
    async with repo.session() as s, s.begin():
        q = (select(ScheduledJob).where(_claimable(claimed_at)).order_by(col(ScheduledJob.due_at))
             .limit(limit).with_for_update(skip_locked=True))
        for job in (await s.execute(q)).scalars():
            # an UPDATE's result is a CursorResult, which counts the rows it matched
            claimed = cast(CursorResult[Any], await s.execute(
                update(ScheduledJob)
                .where(col(ScheduledJob.id) == job.id, _claimable(claimed_at))
                .values(status="running", attempts=job.attempts + 1, locked_until=claimed_at + LEASE)
                .execution_options(synchronize_session=False)  # `job` keeps the attempts it was claimed with
            ))
            if claimed.rowcount == 1:
                mine.append(job)
        s.expunge_all()
    return mine


async def run_due(repo: Repository, handlers: Mapping[str, Handler], now: datetime | None = None) -> int:
    """Run every job that is due. A job is claimed first (to running, with a lease), so two schedulers
    never run the same job; a failed job is retried later, up to MAX_ATTEMPTS."""
    done = 0
    for job in await claim_due(repo, now):
        handler = handlers.get(job.kind)
        status, error = "done", ""
        if handler is not None:
            try:
                await handler(Job.of(job))
            except Exception as exc:  # a failing handler must not stop the other jobs
                log.exception("job %s (%s) failed", job.id, job.kind)
                error = repr(exc)[:2000]
                status = "failed" if job.attempts + 1 >= MAX_ATTEMPTS else "pending"
        async with repo.session() as s, s.begin():
            values: dict[str, Any] = {"status": status, "last_error": error, "locked_until": None}
            if status == "pending":
                values["due_at"] = utcnow() + timedelta(minutes=5)
            await s.execute(update(ScheduledJob).where(col(ScheduledJob.id) == job.id).values(**values))
        done += 1 if status == "done" else 0
    return done


async def run_forever(repo: Repository, handlers: Mapping[str, Handler], every: float = 30.0) -> None:
    while True:
        try:
            await run_due(repo, handlers)
        except Exception:  # keep the loop alive through a database hiccup
            log.exception("scheduler pass failed")
        await asyncio.sleep(every)
