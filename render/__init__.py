"""Board rendering from a player's view of the game (never the full state)."""

from render.board import AttackLine, Pose, Preview, RenderOptions, render_board, render_board_async

__all__ = ["AttackLine", "Pose", "Preview", "RenderOptions", "render_board", "render_board_async"]
