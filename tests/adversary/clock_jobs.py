"""What the adversary clock tests share: the game's planned jobs as rows, a job made due now, and a
scheduler pass with the bot's own handlers (optionally as a scheduler that starts after a lease)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select, update

from game.service.models import ScheduledJob, utcnow
from game.service.scheduler import LEASE, claim_due, run_due
from tests.adversary.eyes import Table


async def planned(t: Table, kind: str, player: str, game_id: int = 1) -> list[tuple[datetime, dict[str, Any]]]:
    """The pending jobs of this kind for this side, soonest first: (due, payload)."""
    async with t.service.store.repo.session() as s:
        rows = (await s.execute(select(ScheduledJob).where(
            ScheduledJob.game_id == game_id, ScheduledJob.kind == kind,  # type: ignore[arg-type]
            ScheduledJob.status == "pending"))).scalars().all()  # type: ignore[arg-type]
    out = [(r.due_at.replace(tzinfo=UTC) if r.due_at.tzinfo is None else r.due_at, json.loads(r.payload))
           for r in rows]
    return sorted((j for j in out if j[1].get("player") == player), key=lambda j: j[0])


async def make_due(t: Table, kind: str, player: str, game_id: int = 1) -> None:
    """The side's pending jobs of this kind fall due now (as if the hours had gone by)."""
    async with t.service.store.repo.session() as s, s.begin():
        await s.execute(update(ScheduledJob)
                        .where(ScheduledJob.kind == kind, ScheduledJob.game_id == game_id,  # type: ignore[arg-type]
                               ScheduledJob.status == "pending",  # type: ignore[arg-type]
                               ScheduledJob.payload.contains(f'"player": "{player}"'))  # type: ignore[attr-defined]
                        .values(due_at=utcnow() - timedelta(minutes=1)))


async def claim_and_die(t: Table) -> list[ScheduledJob]:
    """A scheduler claims every due job and dies before running any of them."""
    return await claim_due(t.service.store.repo)


async def scheduler_pass(t: Table, after_lease: bool = False) -> int:
    """One pass of the bot's scheduler; `after_lease`: a scheduler starting once a dead one's lease ran out."""
    now = utcnow() + LEASE + timedelta(minutes=1) if after_lease else None
    return await run_due(t.service.store.repo, {"deadline": t.bot._deadline, "reminder": t.bot._remind}, now=now)
