"""Several processes share one database: each due job is claimed by exactly one of them, even when
they claim at the same moment (FOR UPDATE SKIP LOCKED on PostgreSQL, the conditional claim on SQLite)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from game.service.db import make_engine
from game.service.models import utcnow
from game.service.repository import Repository
from game.service.scheduler import claim_due, run_due, schedule


async def test_two_processes_claiming_at_once_share_the_jobs_without_overlap(db_url: str) -> None:
    engines = [make_engine(db_url) for _ in range(2)]  # two engines: two pools, as two processes have
    try:
        repos = [Repository(e) for e in engines]
        past = utcnow() - timedelta(minutes=1)
        ids = {await schedule(repos[0], "reminder", past, None, {"n": n}) for n in range(40)}
        rounds = [await asyncio.gather(*(claim_due(r, limit=7) for r in repos)) for _ in range(4)]
        claimed = [job.id for pair in rounds for jobs in pair for job in jobs]
        assert len(claimed) == len(set(claimed)), "a job was claimed twice"
        assert set(claimed) <= ids and len(claimed) >= 28  # each round claims for both, nobody waits
        # whatever was not claimed in those rounds is still there for the next pass, and nothing runs twice
        ran: list[int] = []

        async def handler(job: object) -> None:
            ran.append(job.id)  # type: ignore[attr-defined]

        later = utcnow()
        await asyncio.gather(*(run_due(r, {"reminder": handler}, now=later) for r in repos))
        assert sorted(ran + claimed) == sorted(ids)
    finally:
        for e in engines:
            await e.dispose()


async def test_a_claimed_job_is_not_run_again_before_its_lease_ends(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        repo = Repository(engine)
        await schedule(repo, "reminder", utcnow() - timedelta(minutes=1), None, {})
        first = await claim_due(repo)
        assert len(first) == 1 and first[0].attempts == 0  # the job as it was claimed
        assert await claim_due(repo) == []
        assert len(await claim_due(repo, now=utcnow() + timedelta(minutes=11))) == 1  # its claimer died
    finally:
        await engine.dispose()
