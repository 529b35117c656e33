"""The game moves on by itself: computer captains, planned and standing orders play what is theirs after each
commit, from here, not from whichever interaction happened to post the last board. A failed post
therefore never stops an AI game; the bot runs this after each command, on each courier pass and
once for every unfinished game at start (a crash between a commit and the captain's move)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable

from game.errors import RulesError
from game.service.errors import ServiceError
from game.service.game_service import GameService
from game.service.posts import Note, Planned

log = logging.getLogger(__name__)
Step = Callable[[int], Awaitable[object]]


PACE = 5.0  # seconds between posts while captains play on: Discord allows a channel about 5 messages in 5 s


class Driver:
    def __init__(self, service: GameService, limit: int = 200, pace: float = PACE) -> None:
        self.service = service
        self.limit = limit
        # what the captains play in a burst goes out once they stop, and every `pace` seconds meanwhile:
        # the courier tells the moves since the last post in one post under the newest board
        self.pace = pace
        # one driver per game in this process: two would decide for the same captain on the same state
        # a game's lock lives while a pass holds or waits for it (the map does not grow with every game)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def advance(self, game_id: int, after_step: Step | None = None) -> int:
        """Play every computer captain's and planned move now due, one command at a time; `after_step`
        (the courier delivers what they wrote) runs when they stop, and every `pace` seconds while they
        go on. Returns how many commands were played."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        played = 0
        loop = asyncio.get_running_loop()
        posted = loop.time()
        owed = False  # steps played since `after_step` last ran
        async with lock:
            for _ in range(self.limit):
                try:
                    step = await self.service.autoplay.step(game_id)
                except (RulesError, ServiceError) as exc:
                    # a captain's choice refused (the game moved on under it): the next pass decides again
                    log.warning("game %s: the driver stopped: %s", game_id, exc)
                    break
                for item in step.refused:
                    await self.service.front.post(game_id, Planned(item.user_id, item.player, item.line, item.reason))
                for note in step.notes:  # what standing orders did is the player's alone: a DM
                    await self.service.front.post(game_id, Note(note.user_id, note.player, note.text))
                if not step.outcomes and not step.refused:
                    owed = owed or bool(step.notes)  # the notes of orders that wait
                    break
                played += len(step.outcomes) + len(step.refused)
                owed = True
                if after_step is not None and loop.time() - posted >= self.pace:
                    await after_step(game_id)
                    posted, owed = loop.time(), False
            if owed and after_step is not None:
                await after_step(game_id)
        return played

    async def advance_all(self, after_step: Step | None = None) -> int:
        """Every unfinished game: at start, so a game left waiting for its captain by a crash goes on."""
        played = 0
        for game_id in await self.service.store.repo.active_game_ids():
            try:
                played += await self.advance(game_id, after_step)
            except Exception:  # one broken game never stops the others
                log.exception("game %s could not be advanced", game_id)
        return played
