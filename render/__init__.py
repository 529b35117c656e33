"""Board rendering from a player's view of the game (never the full state).

The names are loaded on first use: `from render.options import …` or `render.pooled` must not pull in
matplotlib (the bot process never loads it; its renders run in worker processes)."""

from __future__ import annotations

from typing import Any

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
