"""Child process for the crash test: plays a game through the service and prints one line per
acknowledged command, until it is killed or the game ends."""

from __future__ import annotations

import asyncio
import sys

from game.ai.captain import Captain
from game.phases.flow import deciders
from game.service.db import make_engine
from game.service.game_service import Actor, GameService


async def main(url: str, game_id: int, run: str) -> None:
    engine = make_engine(url)
    service = GameService(engine, snapshot_every=5)
    await service.audit.rebuild_all()
    actors = {"A": Actor("111", "g1"), "B": Actor("222", "g1")}
    n = 0
    while True:
        state = await service.reading.state_for_audit(game_id)
        due = deciders(state)
        if not due:
            print("OVER", flush=True)
            break
        player = sorted(due)[0]
        cmd = Captain(player, state.log_position).act(state)
        request = f"{run}-{n}"
        out = await service.commands.submit(actors[player], game_id, cmd, request_id=request)
        print(f"ACK {request} {out.last_seq}", flush=True)
        n += 1
    await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
