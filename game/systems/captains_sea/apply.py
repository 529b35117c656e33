"""apply(state, event) -> state for Captain's Sea. Never checks a rule, never rolls a die."""

from __future__ import annotations

from typing import Any

from game.model import evolve
from game.systems.captains_sea import events as ev
from game.systems.captains_sea.model import CSGame
from game.systems.common import apply_common


def apply(state: CSGame, event: Any) -> CSGame:
    if isinstance(event, ev.StateRestored):
        return event.state
    new = apply_common(state, event)
    if new is not None:
        pass
    elif isinstance(event, ev.ShipChanged):
        new = state.with_ship(event.ship)
    elif isinstance(event, ev.InitiativeSet):
        new = evolve(state, initiative=event.player)
    elif isinstance(event, ev.ImpulseReached):
        new = evolve(state, impulse=event.impulse)
    elif isinstance(event, ev.OffsetSet):
        new = evolve(state, offsets=tuple(o for o in state.offsets if o[0] != event.aim) + ((event.aim, event.value),),
                     offset_sources=tuple(o for o in state.offset_sources if o[0] != event.aim) + ((event.aim, "referee"),))
    elif isinstance(event, ev.VolleyResolved):
        new = state
    else:
        raise TypeError(f"not a Captain's Sea event: {event!r}")
    return evolve(new, log_position=state.log_position + 1)
