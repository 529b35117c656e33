"""A PNG per activation into a folder a person can flip through."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from game import events as ev
from game.views import View
from render.board import RenderOptions, render_board
from render.overlays import last_attacks, last_move


def ends_an_activation(events: Sequence[Any]) -> bool:
    return any(isinstance(e, ev.ActivationEnded | ev.GameEnded) for e in events)


def activation_turn(events: Sequence[Any], now: int) -> int:
    """The turn the last activation of these events happened in: the state may have moved on to the
    next turn since (the last activation of a turn leads into its End Phase and the next turn's)."""
    last = max((i for i, e in enumerate(events) if isinstance(e, ev.ActivationEnded)), default=-1)
    begun = [e.turn for e in events[last + 1:] if isinstance(e, ev.PhaseBegan)] if last >= 0 else []
    return min(begun, default=now)


def write_activation(folder: Path, index: int, view: View, events: Sequence[Any]) -> Path:
    """Render the board after these events (every move and attack of the activation drawn: pass all its
    commands' events) as NNNN-turnTT-PHASE-SHIP.png, TT the turn the activation happened in."""
    folder.mkdir(parents=True, exist_ok=True)
    ended = [e for e in events if isinstance(e, ev.ActivationEnded)]
    who = ended[-1].ship if ended else "end"
    g = view.game
    turn = activation_turn(events, g.turn)
    name = f"{index:04d}-turn{turn:02d}-{(ended[-1].phase.value if ended else g.phase.value)}-{who}.png"
    options = RenderOptions(last_move=last_move(events), last_attacks=last_attacks(events))
    path = folder / name.replace(" ", "_")
    path.write_bytes(render_board(view, options))
    return path
