"""The offline table's boards: a PNG of the set-up before the first card, one after every activation
and a final one naming the winner, written into the game's own folder, each path printed so a player
at a terminal knows where to look."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from cli.common import LOCAL
from game import events as ev
from game.model import Phase
from game.service.game_service import GameService

SETUP_NAME = "0000-turn01-setup.png"
_NUMBERED = re.compile(r"^(\d{4})-turn")


def final_name(index: int, turn: int, winner: str | None) -> str:
    """The last board's file name says how the game ended, so a folder listing shows it."""
    return f"{index:04d}-turn{turn:02d}-final-{'player-' + winner + '-wins' if winner else 'drawn'}.png"


class Boards:
    """Writes the board after every activation into a folder and says where (None: no boards)."""

    def __init__(self, service: GameService, game_id: int, folder: Path | None, out: TextIO) -> None:
        self.service, self.game_id, self.folder, self.out = service, game_id, folder, out
        # a resumed game goes on numbering after its last board (the set-up's 0000 and preview.png aside)
        numbers = [int(m.group(1)) for p in (folder.glob("*.png") if folder and folder.exists() else [])
                   if (m := _NUMBERED.match(p.name))]
        self.count = max(numbers, default=0)
        # an activation given over several commands (one broadside, then the other) is drawn whole
        self.activation: list[Any] = []

    def announce(self) -> None:
        if self.folder is not None:
            print(f"Boards are written to {self.folder}/ (the set-up, then one after every activation).",
                  file=self.out)

    async def setup(self) -> None:
        """The set-up, drawn once while the first initiative cards are chosen (a drafted game's once its
        deployment is done)."""
        if self.folder is None or self.count or (self.folder / SETUP_NAME).exists():
            return
        state = await self.service.reading.state_for_audit(self.game_id)
        if state.turn > 1 or state.phase not in (Phase.SETUP, Phase.INITIATIVE):
            return  # no ship has moved yet only while the first cards are chosen
        print(f"  board: {await self._write(SETUP_NAME, [], '')}", file=self.out)

    async def after(self, events: Sequence[Any]) -> None:
        from render.files import ends_an_activation, write_activation

        restored = [i for i, e in enumerate(events) if isinstance(e, ev.StateRestored)]
        if restored:  # an undo: what was taken back is not drawn
            self.activation, events = [], events[restored[-1] + 1:]
        self.activation.extend(events)
        await self.setup()
        if self.folder is None or not ends_an_activation(events):
            return
        if any(isinstance(e, ev.GameEnded) for e in events):
            return  # the final board (final) draws the game's last activation and names the winner
        events, self.activation = self.activation, []
        self.count += 1
        view = await self.service.reading.view(LOCAL, self.game_id)
        path = await asyncio.to_thread(write_activation, self.folder, self.count, view, events)
        print(f"  board: {path}", file=self.out)

    async def final(self) -> Path | None:
        """The board as the game ended, its last activation drawn, the winner in its name and on it."""
        if self.folder is None:
            return None
        state = await self.service.reading.state_for_audit(self.game_id)
        self.count += 1
        events, self.activation = self.activation, []
        said = f"Player {state.winner} wins" if state.winner else "No one wins"  # bold, first line: seen on a phone
        return await self._write(final_name(self.count, state.turn, state.winner), events, said)

    async def _write(self, name: str, events: Sequence[Any], title: str) -> Path:
        from render.options import RenderOptions
        from render.overlays import last_attacks, last_move
        from render.pooled import render_board_async

        assert self.folder is not None
        view = await self.service.reading.view(LOCAL, self.game_id)
        png = await render_board_async(view, RenderOptions(last_move=last_move(events),
                                                           last_attacks=last_attacks(events), title=title))
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / name
        await asyncio.to_thread(path.write_bytes, png)
        return path

    async def preview(self, view: Any, pv: Any) -> None:
        from render.options import RenderOptions
        from render.pooled import render_board_async

        if self.folder is None:
            return
        png = await render_board_async(view, RenderOptions(preview=pv, zoom_ship=pv.ship, zoom_radius=10))
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / "preview.png"
        await asyncio.to_thread(path.write_bytes, png)
        print(f"  preview: {path}", file=self.out)
