"""apply(state, event) -> state for Iron & Oak. Never checks a rule, never rolls a die."""

from __future__ import annotations

from typing import Any

from game.model import evolve
from game.systems.common import apply_common
from game.systems.iron_and_oak import events as ev
from game.systems.iron_and_oak.model import IOGame


def apply(state: IOGame, event: Any) -> IOGame:
    if isinstance(event, ev.StateRestored):
        return event.state
    new = apply_common(state, event)
    if new is not None:
        pass
    elif isinstance(event, ev.ShipChanged):
        new = state.with_ship(event.ship)
    elif isinstance(event, ev.ProcedureChanged):
        new = evolve(state, procedure=event.procedure)
    elif isinstance(event, ev.PositionsChanged):
        new = evolve(state, positions=event.positions)
    elif isinstance(event, ev.BoxChanged):
        new = evolve(state, grid=state.grid.with_box(event.box))
    elif isinstance(event, ev.DriftChecked):
        new = evolve(state, drift_checked=event.ships)
    else:
        raise TypeError(f"not an Iron & Oak event: {event!r}")
    return evolve(new, log_position=state.log_position + 1)
