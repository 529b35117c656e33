"""Board rendering from a player's view of the game (never the full state).

The names are loaded on first use: `from render.options import …` or `render.pooled` must not pull in
matplotlib (the bot process never loads it; its renders run in worker processes)."""

from __future__ import annotations

import os
from typing import Any

# Pillow gives an image's memory back at once by default, so each board took its few megabytes anew
# from the system, page by page: on the quick start that cost as much as the encoding itself (24 ms
# a board against 17 with blocks kept). Pillow keeps a few freed blocks for the next image when its
# documented setting says so (PILLOW_BLOCKS_MAX, Pillow's "Block allocator" page), read once as
# Pillow loads: it is said here, before any module of render imports Pillow. A value already in the
# environment wins.
BLOCKS_KEPT = 4
os.environ.setdefault("PILLOW_BLOCKS_MAX", str(BLOCKS_KEPT))

__all__ = ["AttackLine", "Pose", "Preview", "RenderOptions", "render_board", "render_board_async"]


def __getattr__(name: str) -> Any:
    if name == "render_board":
        from render import board

        return board.render_board
    if name == "render_board_async":
        from render import pooled

        return pooled.render_board_async
    if name in ("AttackLine", "Pose", "Preview", "RenderOptions"):
        from render import options

        return getattr(options, name)
    raise AttributeError(f"module 'render' has no attribute {name!r}")
