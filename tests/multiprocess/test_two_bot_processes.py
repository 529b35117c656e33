"""Two bot processes (real OS processes) share one PostgreSQL database and one fake Discord: a game's
commands alternate between them, one is killed mid-turn and started again, and at the end nothing
was lost (the log audits, every post the outbox owed was delivered) and nothing was sent twice."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlmodel import col

from game.ai.captain import Captain
from game.commands import Command, KeepRoll, PickCard, Reroll, UseFortune
from game.notation import format_command
from game.phases.flow import deciders
from game.service.db import make_engine
from game.service.game_service import GameService
from game.service.models import OutboxRow, utcnow
from tests.bot.fake_discord import FakeDiscord, Sent, command, component
from tests.bot.test_bot import last_followup
from tests.databases import pg_database

pytestmark = pytest.mark.skipif(not os.environ.get("TEST_POSTGRES_URL"), reason="needs PostgreSQL (TEST_POSTGRES_URL)")

ANN = (111111111111111111, "Ann")
BOB = (222222222222222222, "Bob")
USERS = {"A": ANN, "B": BOB}


class BotProcess:
    def __init__(self, name: str, base: str, db_url: str) -> None:
        self.name, self.base, self.db_url = name, base, db_url
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.multiprocess.child", self.base, self.db_url, self.name,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        assert line.strip() == b"ready", line

    def feed(self, fake: FakeDiscord, payload: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        fake.receive(payload)  # Discord sends it now: the 3 seconds to acknowledge it start here
        self.proc.stdin.write(json.dumps(payload).encode() + b"\n")

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                await self.kill()


async def answered(fake: FakeDiscord, payload: dict[str, Any], before: int, settle: float = 30.0) -> list[Sent]:
    """Wait for the interaction's answer (its last follow-up), as tests/bot's dispatch does."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settle
    while loop.time() < deadline:
        await asyncio.sleep(0.02)
        mine = [r for r in fake.requests[before:] if payload["token"] in r.path]
        if any(r.path.startswith("/api/v10/webhooks/") and r.method == "POST" for r in mine) or \
                any(r.payload.get("type") == 4 for r in mine if "/callback" in r.path):
            await asyncio.sleep(0.05)
            return fake.requests[before:]
    raise AssertionError(f"no answer to {payload['data'].get('name') or payload['data'].get('custom_id')}")


async def send(proc: BotProcess, fake: FakeDiscord, payload: dict[str, Any]) -> list[Sent]:
    before = len(fake.requests)
    proc.feed(fake, payload)
    return await answered(fake, payload, before)


async def lease_runs_out(service: GameService) -> None:
    """What the killed process had claimed is released as its lease would run out (minutes later)."""
    async with service.store.repo.session() as s, s.begin():
        await s.execute(update(OutboxRow).where(col(OutboxRow.status) == "running")
                        .values(locked_until=utcnow() - timedelta(seconds=1)))


async def undelivered(service: GameService, wait: float = 60.0) -> list[tuple[int | None, str, str]]:
    """The outbox rows not delivered once the couriers have had `wait` seconds to finish."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while True:
        async with service.store.repo.session() as s:
            rows = list((await s.execute(select(OutboxRow).where(
                col(OutboxRow.status).in_(("pending", "running", "failed"))))).scalars())
        if not rows or loop.time() > deadline or any(r.status == "failed" for r in rows):
            return [(r.id, r.kind, f"{r.status}: {r.last_error[:100]}") for r in rows]
        await asyncio.sleep(0.5)


@pytest.fixture
async def db_url() -> AsyncIterator[str]:
    async with pg_database("qd_two") as url:
        yield url


async def act(proc: BotProcess, fake: FakeDiscord, service: GameService, user: tuple[int, str], cmd: Command,
              n: int) -> list[Sent]:
    if isinstance(cmd, PickCard):
        opened = await send(proc, fake, component(user, "qd:pick:1", message_id="1"))
        callback = next(r for r in opened if "/callback" in r.path)
        menu = last_followup(opened).payload["components"][0]["components"][0]
        return await send(proc, fake, component(user, menu["custom_id"], callback.response_message_id,
                                                component_type=3, values=[cmd.card]))
    roll = await service.reading.roll_decision(1)
    if isinstance(cmd, KeepRoll | UseFortune):
        custom = f"qd:keep:1:{roll}" if isinstance(cmd, KeepRoll) else f"qd:fortune:1:{roll}"
        return await send(proc, fake, component(user, custom, message_id="1"))
    if isinstance(cmd, Reroll):
        state = await service.reading.state_for_audit(1)
        faces = len(state.pending.faces) if state.pending else 5
        return await send(proc, fake, component(user, f"qd:reroll:1:{roll}:{faces}:1", "1", 3,
                                                [str(d) for d in cmd.dice]))
    return await send(proc, fake, command(user, "order", line=format_command(cmd).split(": ", 1)[-1]))


async def test_a_game_alternating_between_two_processes_survives_one_being_killed(db_url: str) -> None:
    fake = FakeDiscord()
    base = await fake.start()
    procs = [BotProcess("bot-a", base, db_url), BotProcess("bot-b", base, db_url)]
    engine = make_engine(db_url)
    referee = GameService(engine)  # the test's own reader of the shared database
    try:
        await asyncio.gather(*(p.start() for p in procs))
        sent = await send(procs[0], fake, command(ANN, "game", "create"))
        assert "is set up" in last_followup(sent).content
        await send(procs[1], fake, command(ANN, "game", "join", side="A"))
        await send(procs[0], fake, command(BOB, "game", "join", side="B"))
        captains = {p: Captain(p, 4) for p in "AB"}
        killed = False
        for n in range(600):
            state = await referee.reading.state_for_audit(1)
            due = deciders(state)
            if not due:
                break
            player = sorted(due)[0]
            cmd = captains[player].act(state)
            proc = procs[n % 2]
            if not killed and n >= 12 and not isinstance(cmd, PickCard | KeepRoll | UseFortune | Reroll):
                # mid-turn: the process is killed while it handles a move, then started again
                payload = command(USERS[player], "order", line=format_command(cmd).split(": ", 1)[-1])
                proc.feed(fake, payload)
                await asyncio.sleep(0.3)
                await proc.kill()
                killed = True
                await lease_runs_out(referee)
                await proc.start()
                if (await referee.reading.state_for_audit(1)) == state:  # it died before the commit: ask again
                    await send(proc, fake, payload | {"id": payload["id"] + "1", "token": payload["token"] + "x"})
                continue
            sent = await act(proc, fake, referee, USERS[player], cmd, n)
            assert not last_followup(sent).content.startswith("⚠️"), last_followup(sent).content
        state = await referee.reading.state_for_audit(1)
        assert killed and state.winner in ("A", "B"), state.result
        assert (await referee.audit.check(1)).ok
        left = await undelivered(referee)
        assert not left, f"posts never delivered: {left}"
        boards = [(r.content, hashlib.sha256(r.files[0][1]).hexdigest()) for r in fake.channel_messages() if r.files]
        assert len(boards) == len(set(boards)), "a board was posted twice"
        # two processes keep their own buckets: a 429 may come, but it is honoured and nothing is lost
        assert fake.invalid_requests < 50
        broken = fake.unexpected_violations()  # as the harness asks of every bot test
        assert not broken, "Discord's contract was broken:\n" + "\n".join(map(str, broken))
    finally:
        for p in procs:
            await p.stop()
        await engine.dispose()
        await fake.stop()
