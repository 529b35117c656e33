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
from game.service.errors import GameDamaged, ServiceError
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
                except GameDamaged as exc:  # its log cannot be read: said once per pass, and the game left alone
                    log.error("game %s cannot be rebuilt: %s", game_id, exc.text)
                    break
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

    async def advance_all(self, after_step: Step | None = None, pause: float = 0.0) -> int:
        """At start, after the bot answers: every unfinished game, so a game left waiting by a crash goes
        on. Those the tables say something plays by itself in (a computer captain's seat, a planned
        order, standing orders) come first; then the others, whose player may face a decision with one
        legal answer, taken for them. A game read only for this pass leaves the cache again (nobody
        asked for it), and `pause` seconds between games keep the pass behind the players' commands.
        A finished game is never read."""
        repo = self.service.store.repo
        owing = await repo.games_owing_play()
        first = set(owing)
        played = 0
        # the games written last first: a crash can only have left those it was writing
        for game_id in owing + [g for g in await repo.active_game_ids(recent_first=True) if g not in first]:
            kept = game_id in self.service.store.cached
            try:
                moved = await self.advance(game_id, after_step)
            except Exception:  # one broken game (a damaged log is reported here) never stops the others
                log.exception("game %s could not be advanced", game_id)
                moved = 0
            played += moved
            if not kept and not moved and game_id not in first:
                self.service.store.forget(game_id)
            if pause:
                await asyncio.sleep(pause)
        return played
