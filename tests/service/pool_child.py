"""Run in its own process by test_workers: the real bot on the fake Discord with one worker process
sets up a game (posting boards), plays both picks and posts a replay; prints what the test checks."""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

from game.service.workers import configure
from tests.bot.fake_discord import command, dispatch
from tests.bot.harness import running_bot
from tests.bot.test_bot import ANN, BOB, pick, setup_game


async def main() -> None:
    workers = configure(1)
    with tempfile.TemporaryDirectory() as folder:
        async with running_bot(Path(folder)) as (bot, fake):
            sent = await setup_game(bot, fake)
            await pick(bot, fake, ANN, "Down!")
            sent += await pick(bot, fake, BOB, "Take Courage")
            boards = [f for r in sent if r.in_channel for f in r.files]
            replay = await dispatch(bot, command(BOB, "game", "replay", format="gif"), fake, settle=60)
            gifs = [f for r in replay for f in r.files if f[0].endswith(".gif")]
            state = await bot.service.reading.state_for_audit(1)
            pids = workers.pids()
    workers.close()
    print(json.dumps({
        "boards": len(boards), "png": all(f[1][:8] == b"\x89PNG\r\n\x1a\n" for f in boards),
        "gif": gifs[0][1][:6].decode() if gifs else "", "phase": state.phase.value,
        "matplotlib": "matplotlib" in sys.modules, "workers": len(pids),
    }))


if __name__ == "__main__":
    asyncio.run(main())
