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

from game.model import Phase
from game.service.db import make_engine
from game.service.game_service import Actor, GameService
from game.service.models import ProcessedRequest
from tests.seeds import counting_seeds

ROOT = Path(__file__).resolve().parents[2]
KILLS = 12  # each run acknowledges 1–4 commands before its kill
GAMES = 6  # a bound on new games, far above the two or three twelve kills take


async def _child(url: str, game_id: int, run: str, kill: tuple[int, float] | None) -> tuple[list[str], bool]:
    """Run the child; with `kill = (n, delay)`, SIGKILL it `delay` seconds after its n-th
    acknowledgement, while it is busy with the next command. Also says whether the kill landed: a
    game that ends first lets the child exit on its own."""
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
    return lines, proc.returncode == -signal.SIGKILL


async def _new_game(service: GameService, number: int) -> int:
    ann, bob = Actor("111", "g1"), Actor("222", "g1")
    info = await service.lobby.create_game(ann, f"crash{number}")
    await service.lobby.join(ann, info.id, "A")
    await service.lobby.join(bob, info.id, "B")
    return info.id


async def _assert_finished(service: GameService, game_id: int) -> None:
    assert (await service.audit.check(game_id)).ok
    assert (await service.reading.state_for_audit(game_id)).winner in ("A", "B")


async def test_sigkill_never_loses_an_acknowledged_command(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        service = GameService(engine, seeds=counting_seeds())
        games = [await _new_game(service, 0)]
        rng = random.Random(7)
        acknowledged: list[str] = []
        kills = runs = 0
        # a game that ends between kills is followed by a new one, so every run makes exactly KILLS
        # kills land while a game is being played, however fast the service commits
        while kills < KILLS:
            lines, killed = await _child(db_url, games[-1], f"run{runs}", (rng.randint(1, 4), rng.uniform(0, 0.03)))
            runs += 1
            acknowledged += [line.split()[1] for line in lines if line.startswith("ACK")]
            fresh = GameService(engine)
            await fresh.audit.rebuild_all()
            report = await fresh.audit.check(games[-1])
            assert report.ok, report.mismatches
            over = (await fresh.reading.state_for_audit(games[-1])).phase is Phase.OVER
            kills += killed and not over  # a kill after the last move did not fall mid-game
            async with fresh.store.repo.session() as s:
                stored = set((await s.execute(select(ProcessedRequest.request_id))).scalars())
            missing = [r for r in acknowledged if r not in stored]
            assert not missing, f"acknowledged but lost after kill {kills}: {missing}"
            if over:
                await _assert_finished(fresh, games[-1])
                assert len(games) < GAMES, "games keep ending before a kill lands"
                games.append(await _new_game(service, len(games)))
        lines, _ = await _child(db_url, games[-1], "final", None)
        assert "OVER" in lines
        for game_id in games:
            await _assert_finished(GameService(engine), game_id)
    finally:
        await engine.dispose()
