"""Kill the process mid-game with SIGKILL, again and again: every acknowledged command is in the
log, and the state rebuilt after a restart equals the replay of the log."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from game.service.db import make_engine
from game.service.game_service import Actor, GameService
from game.service.models import ProcessedRequest
from tests.seeds import counting_seeds

ROOT = Path(__file__).resolve().parents[2]
KILLS = 12  # each run acknowledges 1–4 commands: twelve kills fall inside one game


async def _child(url: str, game_id: int, run: str, kill: tuple[int, float] | None) -> list[str]:
    """Run the child; with `kill = (n, delay)`, SIGKILL it `delay` seconds after its n-th
    acknowledgement, while it is busy with the next command."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.service.crash_child", url, str(game_id), run,
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    lines: list[str] = []
    async for raw in proc.stdout:
        lines.append(raw.decode().strip())
        acks = sum(1 for line in lines if line.startswith("ACK"))
        if kill is not None and acks >= kill[0]:
            await asyncio.sleep(kill[1])
            if proc.returncode is None:
                proc.send_signal(signal.SIGKILL)
            break
    await proc.wait()
    rest = await proc.stdout.read()
    lines += [line.strip() for line in rest.decode().splitlines() if line.strip()]
    if proc.returncode not in (0, -signal.SIGKILL):
        raise AssertionError((await proc.stderr.read()).decode()[-2000:])
    return lines


async def test_sigkill_never_loses_an_acknowledged_command(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        service = GameService(engine, seeds=counting_seeds())
        ann, bob = Actor("111", "g1"), Actor("222", "g1")
        info = await service.create_game(ann, "crash")
        await service.join(ann, info.id, "A")
        await service.join(bob, info.id, "B")
        rng = random.Random(7)
        acknowledged: list[str] = []
        over = False
        kills = 0
        while kills < KILLS and not over:
            lines = await _child(db_url, info.id, f"run{kills}", (rng.randint(1, 4), rng.uniform(0, 0.03)))
            acknowledged += [line.split()[1] for line in lines if line.startswith("ACK")]
            over = "OVER" in lines
            kills += 1
            fresh = GameService(engine)
            await fresh.rebuild_all()
            report = await fresh.audit(info.id)
            assert report.ok, report.mismatches
            async with fresh.repo.session() as s:
                stored = set((await s.execute(select(ProcessedRequest.request_id))).scalars())
            missing = [r for r in acknowledged if r not in stored]
            assert not missing, f"acknowledged but lost after kill {kills}: {missing}"
        if not over:
            lines = await _child(db_url, info.id, "final", None)
            assert "OVER" in lines
        final = GameService(engine)
        assert (await final.audit(info.id)).ok
        assert (await final.state_for_audit(info.id)).winner in ("A", "B")
        # most kills fell mid-game (a faster service commits more moves in the moment before a kill,
        # so a game may end before the twelfth)
        assert kills >= KILLS * 2 // 3
    finally:
        await engine.dispose()
