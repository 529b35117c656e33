"""A PNG per activation into a folder a person can flip through."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.baseline_render.board import RenderOptions, render_board
from benchmarks.baseline_render.overlays import last_attacks, last_move
from game import events as ev
from game.views import View


def ends_an_activation(events: Sequence[Any]) -> bool:
    return any(isinstance(e, ev.ActivationEnded | ev.GameEnded) for e in events)


def write_activation(folder: Path, index: int, view: View, events: Sequence[Any]) -> Path:
    """Render the board after these events (with the last move and attack drawn) as NNNN-….png."""
    folder.mkdir(parents=True, exist_ok=True)
    ended = [e for e in events if isinstance(e, ev.ActivationEnded)]
    who = ended[-1].ship if ended else "end"
    g = view.game
    name = f"{index:04d}-turn{g.turn:02d}-{(ended[-1].phase.value if ended else g.phase.value)}-{who}.png"
    options = RenderOptions(last_move=last_move(events), last_attacks=last_attacks(events))
    path = folder / name.replace(" ", "_")
    path.write_bytes(render_board(view, options))
    return path
