"""What one player, the referee or a spectator may see of an Iron & Oak game: everything but the
order cards still face down (their owners see their own)."""

from __future__ import annotations

from typing import Any

from game.model import evolve
from game.systems.common import sees_all
from game.systems.iron_and_oak import events as ev
from game.systems.iron_and_oak.model import IOGame
from game.systems.orders import order_event_for


def view(state: IOGame, viewer: str | None) -> IOGame:
    return evolve(state, orders=state.orders.seen_by(viewer, sees_all(state, viewer)), seed=0)


def event_for(event: Any, viewer: str | None) -> Any:
    if isinstance(event, ev.StateRestored):  # the state as the viewer may see it: sealed orders stay sealed
        return ev.StateRestored(view(event.state, viewer), event.reason, event.by, event.undid)
    return order_event_for(event, viewer)
