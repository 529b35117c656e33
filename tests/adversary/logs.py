"""A real finished game's log, as `/game verify` attaches it, for the forger's tests to tamper with:
two computer captains play a short game to its end through the service."""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import tempfile
from pathlib import Path
from typing import Any

from game.model import Phase
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import Actor, GameService
from tests.helpers import S, scenario_text
from tests.seeds import counting_seeds

GM = Actor("999", "g1", gm=True)
ROLLS = ("DiceRolled", "DiceRerolled", "SetupCardsDrawn")


async def finished_log(service: GameService) -> dict[str, Any]:
    text = scenario_text([S("Lion", "Fourth Rate", 15, 18, 0, "A"), S("Otter", "Sloop", 19, 18, 0, "B")],
                         test_dice=False)
    info = await service.lobby.create_game(GM, "forged", scenario_text=text)
    for side in ("A", "B"):
        await service.lobby.join(GM, info.id, side, ai=True)
    await service.commands.play_ai(info.id, limit=5000)
    assert (await service.reading.state_for_audit(info.id)).phase is Phase.OVER
    return await service.audit.export_log(GM, info.id)


@functools.cache
def _real_log_text() -> str:
    async def play() -> dict[str, Any]:
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite+aiosqlite:///{Path(tmp) / 'log.db'}"
            await upgrade_to_head(url)
            engine = make_engine(url)
            try:
                return await finished_log(GameService(engine, seeds=counting_seeds()))
            finally:
                await engine.dispose()

    return json.dumps(asyncio.run(play()))


def real_log() -> dict[str, Any]:
    """A fresh copy of one real log (played once per test process), for a synchronous test."""
    return copy.deepcopy(json.loads(_real_log_text()))


def rolls_of(log: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(1-based event number, event) of every roll."""
    return [(i, e) for i, (_, e) in enumerate(log["events"], 1) if e["type"] in ROLLS]
