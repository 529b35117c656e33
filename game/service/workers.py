"""The worker pool: rules decisions, computer captains and renders run in other processes (state in,
events or PNG out) so the event loop only awaits. A thread would not do: the engine and matplotlib
hold the GIL, so a render in a thread still stalls every interaction.

`Workers(0)` runs each job inline, as before the pool (the tests' default: deterministic and with no
start-up cost). Jobs are pure, picklable module-level functions (game/service/jobs.py,
render/pooled.py), so a job run in a worker gives exactly what it gives inline.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from game.service.metrics import JOB_SECONDS

log = logging.getLogger(__name__)

T = TypeVar("T")

# modules each worker imports once in the fork server, before any job: the engine and its data. Not
# matplotlib: a worker loads it on its first render, and the bot process never does.
PRELOAD = ["game.service.jobs"]


def default_size(database_url: str = "") -> int:
    """One worker per core the database leaves, two at most: a PostgreSQL server on this machine takes
    a core of its own under load (issue 29 measured the bot, two workers and the server fighting over
    two cores), SQLite runs inside the bot's own process."""
    cores = os.cpu_count() or 1
    if database_on_this_machine(database_url):
        cores -= 1
    return max(1, min(2, cores))


def database_on_this_machine(database_url: str) -> bool:
    """Whether the URL names a database server on this machine (SQLite is no server)."""
    if not database_url or database_url.startswith("sqlite"):
        return False
    from sqlalchemy.engine import make_url

    try:
        host = make_url(database_url).host
    except Exception:  # Settings has refused a URL it cannot read before this is asked
        return False
    return host in (None, "", "localhost", "127.0.0.1", "::1") or host.startswith("/")


class Workers:
    def __init__(self, size: int = 0) -> None:
        if size < 0:
            raise ValueError("WORKERS must be 0 (inline) or more")
        self.size = size
        self._pool: ProcessPoolExecutor | None = None

    @property
    def inline(self) -> bool:
        return self.size == 0

    async def run(self, fn: Callable[..., T], *args: Any, thread: bool = False) -> T:
        """fn(*args) in a worker process. Inline, on the loop (or, with `thread`, in a thread: what
        renders did before the pool). A worker that died is replaced and the job run once more:
        jobs are pure, so running one twice changes nothing. Each job's time goes to /metrics."""
        started = time.perf_counter()
        try:
            return await self._run(fn, *args, thread=thread)
        finally:
            JOB_SECONDS.labels(getattr(fn, "__name__", "job")).observe(time.perf_counter() - started)

    async def _run(self, fn: Callable[..., T], *args: Any, thread: bool = False) -> T:
        if self.inline:
            return await asyncio.to_thread(fn, *args) if thread else fn(*args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), fn, *args)
        except BrokenProcessPool:
            log.warning("a worker process died; starting the pool again")
            self._reset()
            return await loop.run_in_executor(self._executor(), fn, *args)

    def start(self) -> None:
        """Start the processes now (the bot at start-up) rather than on the first job."""
        if self.inline:
            return
        pool = self._executor()
        for f in [pool.submit(os.getpid) for _ in range(self.size)]:
            f.result()

    def alive(self) -> bool:
        """Whether the pool can take a job now: inline always; else no worker has died (a pool not yet
        started starts on its first job)."""
        pool = self._pool
        if pool is None:
            return True
        # the executor keeps no public account of its processes (pids() reads the same attribute)
        processes = list((pool._processes or {}).values())
        return not pool._broken and all(p.is_alive() for p in processes)

    def pids(self) -> list[int]:
        """The worker processes' ids (for measuring their memory apart from the bot's)."""
        if self._pool is None:
            return []
        return sorted(p.pid for p in self._pool._processes.values() if p.pid is not None)

    def close(self) -> None:
        self._reset()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver: each worker forks from a small clean server that holds no event loop, no
            # sockets and no database connection of the bot's (fork would copy them)
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(PRELOAD)
            self._pool = ProcessPoolExecutor(max_workers=self.size, mp_context=ctx, initializer=_warm_worker)
        return self._pool

    def _reset(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _warm_worker() -> None:
    # the pool's initializer, in each worker (PRELOAD has imported the jobs in the fork server)
    from game.service.jobs import warm_worker

    warm_worker()


INLINE = Workers(0)
_default = INLINE


def configure(size: int) -> Workers:
    """The process's pool, used by renders and by a GameService not given its own (the bot sets it
    from WORKERS at start-up)."""
    global _default
    if _default.size != size:
        _default.close()
        _default = Workers(size) if size else INLINE
    return _default


def default() -> Workers:
    return _default
