"""A frozen copy of the board renderer (`render/`) as it stood at the start of issue 15, imported
only by benchmarks.render so that every figure is printed beside the same board drawn the old way
in the same run. Not maintained: do not change it."""

from benchmarks.baseline_render.board import render_board, render_board_async
from benchmarks.baseline_render.options import AttackLine, Pose, Preview, RenderOptions

__all__ = ["AttackLine", "Pose", "Preview", "RenderOptions", "render_board", "render_board_async"]
