"""What one player, the referee or a spectator may see of a WS&IM game.

Another player's sealed orders show no text, and another player's load column is never shown
("the load column of the log may never be inspected"): its loads read "?", and neither a half-loaded
double shot nor its completion in the Load Phase shows. A referee who is not also a player sees
everything. The view is a `WsimGame` itself, so every read-out works on it."""

from __future__ import annotations

from typing import Any

from game.model import evolve
from game.systems.common import sees_all
from game.systems.orders import order_event_for
from game.systems.wsim import events as ev
from game.systems.wsim.model import Ship, WsimGame


def _masked(ship: Ship) -> Ship:
    # the double-shot flag goes with the load; so does "loaded this turn", which the Load Phase sets
    # for a double shot it completes with no order from the owner: seen, it would tell of the flag
    return evolve(ship, loaded_this_turn=False,
                  broadsides=tuple(evolve(b, load="?", ds_loading=False) for b in ship.broadsides))


def view(state: WsimGame, viewer: str | None) -> WsimGame:
    if sees_all(state, viewer):
        return evolve(state, seed=0)
    ships = tuple(s if s.player == viewer else _masked(s) for s in state.ships)
    return evolve(state, ships=ships, orders=state.orders.seen_by(viewer), seed=0)


def event_for(event: Any, viewer: str | None) -> Any:
    """Events are filtered for every viewer but the owner (a referee reads the secrets in `view`)."""
    if isinstance(event, ev.StateRestored):
        return ev.StateRestored(view(event.state, viewer), event.reason, event.by, event.undid)
    if isinstance(event, ev.LoadChanged) and event.player != viewer:
        if event.load == "DS" and not event.ds_loading:
            # a double shot the Load Phase completes (an owner's load of DS starts it half loaded): the
            # owner gave no order, so a line for others would tell them it had been half loaded.
            # Load "" is what nobody may read: it accounts no line
            return ev.LoadChanged(event.ship, event.side, "", False, event.player, event.initial_used)
        return ev.LoadChanged(event.ship, event.side, "?", False, event.player, event.initial_used)
    if isinstance(event, ev.ShipChanged) and event.ship.player != viewer:
        return ev.ShipChanged(_masked(event.ship), event.what)
    return order_event_for(event, viewer)
