"""Board rendering from a player's view of the game (never the full state)."""

from render.board import render_board, render_board_async
from render.options import AttackLine, Pose, Preview, RenderOptions

__all__ = ["AttackLine", "Pose", "Preview", "RenderOptions", "render_board", "render_board_async"]
