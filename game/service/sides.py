"""The seats of a game in any system: the key a seat is stored under, the name its system knows it
by, and what the rules of a wait (game/service/decision.py) read of a state.

Oak & Iron's seats are its sides ("A", "B"), stored under their own names. A referee system's
players are whatever its setup says ("Confederate"), longer than the seats table allows, so they are
stored as "p1", "p2"…, and "ref" for a referee who is not one of the players."""

from __future__ import annotations

from typing import Any

from game.service.decision import Moment
from game.systems.base import GM_AUTHORITY, GameSystem

REFEREE_SEAT = "ref"  # the seat of a referee who is not one of the players


def seat_keys(state: Any) -> dict[str, str]:
    """A referee system's seat keys -> the names the system knows the seats by."""
    out = {f"p{i + 1}": name for i, name in enumerate(state.players)}
    if state.referee not in state.players:
        out[REFEREE_SEAT] = state.referee
    return out


def moment(system: GameSystem[Any, Any, Any], state: Any) -> Moment:
    """The turn, the phase, whether the game is over and the seats it waits on, by their keys."""
    over = system.over(state)
    deciding = set() if over else system.deciders(state)
    if GM_AUTHORITY not in system.capabilities:
        deciding = {key for key, name in seat_keys(state).items() if name in deciding}
    return Moment(state.turn, str(state.phase), over, frozenset(deciding))
