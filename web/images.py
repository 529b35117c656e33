"""The board and the replay's frames as PNG, drawn by the same renderer as the Discord posts (in a worker:
render/pooled.py) from a spectator's view, each drawn once per game version however many pages ask
at the same moment, and kept in a cache bounded in bytes."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Any

from game.replay import Frame
from game.rules_data import RulesData
from game.views import View
from render.alt_text import board_alt
from render.options import RenderOptions
from render.overlays import deployment_zones, last_attacks, last_move
from render.pooled import render_board_async

MAX_BYTES = 64 * 1024 * 1024
WIDTH = 1080  # the Discord posts' width: the page scales it to the reader's screen


def options_for(view: View, events: Sequence[Any], rules: RulesData) -> RenderOptions:
    return RenderOptions(width_px=WIDTH, last_move=last_move(events), last_attacks=last_attacks(events),
                         zones=deployment_zones(view.game, rules), rules=rules)


def alt_for(view: View, events: Sequence[Any]) -> str:
    """The board in words (render/alt_text.py), as the Discord post's attachment description."""
    return board_alt(view, last_move(events), last_attacks(events))


def frame_alt(frame: Frame) -> str:
    return alt_for(frame.view, frame.events)


class Images:
    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._size = 0
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}

    async def png(self, key: Hashable, draw: Callable[[], Awaitable[bytes]]) -> bytes:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            return found
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            png = await draw()
        except asyncio.CancelledError:  # the asker left: those waiting with it ask again
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a failure nobody else awaited is not logged as lost
            raise
        finally:
            self._drawing.pop(key, None)
        future.set_result(png)
        self._keep(key, png)
        return png

    def _keep(self, key: Hashable, png: bytes) -> None:
        if len(png) > self.max_bytes:
            return
        self._kept[key] = png
        self._size += len(png)
        while self._size > self.max_bytes:
            _, old = self._kept.popitem(last=False)
            self._size -= len(old)

    async def board(self, game_id: int, version: int, view: View, events: Sequence[Any], rules: RulesData) -> bytes:
        return await self.png(("board", game_id, version),
                              lambda: render_board_async(view, options_for(view, events, rules)))

    async def frame(self, game_id: int, command: int, frame: Frame, rules: RulesData) -> bytes:
        # a frame never changes once played (an undo makes new commands): keyed by its command
        return await self.png(("frame", game_id, command),
                              lambda: render_board_async(frame.view, options_for(frame.view, frame.events, rules)))
