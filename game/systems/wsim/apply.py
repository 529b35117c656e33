"""apply(state, event) -> state for WS&IM. Never checks a rule, never rolls a die."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.model import evolve
from game.systems.common import apply_common
from game.systems.wsim import events as ev
from game.systems.wsim.model import WsimGame


def _ship(s: WsimGame, ship_id: str, **changes: Any) -> WsimGame:
    return s.with_ship(evolve(s.ship(ship_id), **changes))


def _plot(s: WsimGame, e: ev.PlotExecuted) -> WsimGame:
    return _ship(s, e.ship, heading=e.heading, anchored=e.anchored, weighing=e.weighing, anchor_lost=e.anchor_lost,
                 hexes_moved=e.hexes, still=e.still)


def _pair(field: str) -> Callable[[WsimGame, Any], WsimGame]:
    def run(s: WsimGame, e: Any) -> WsimGame:
        flag = getattr(e, "fouled" if field == "fouled" else "grappled")
        for a, b in ((e.ship, e.other), (e.other, e.ship)):
            now = getattr(s.ship(a), field)
            new = tuple(x for x in now if x != b) + ((b,) if flag else ())
            s = _ship(s, a, **{field: new})
        return s

    return run


def _load(s: WsimGame, e: ev.LoadChanged) -> WsimGame:
    ship = s.ship(e.ship)
    old = ship.broadside(e.side)
    b = evolve(old, load=e.load, ds_loading=e.ds_loading, initial_used=old.initial_used or e.initial_used)
    return s.with_ship(evolve(ship.with_broadside(b), loaded_this_turn=True))


def _fire(s: WsimGame, e: ev.FireResolved) -> WsimGame:
    s = evolve(s, fires=(*s.fires, e.fire))
    if e.fire.blast:
        return s
    ship = s.ship(e.fire.ship)
    b = evolve(ship.broadside(e.fire.side), load="", fired=True, initial_used=True)
    return s.with_ship(evolve(ship.with_broadside(b), broadsides_fired=ship.broadsides_fired + 1))


def _hits(s: WsimGame, e: ev.HitsEntered) -> WsimGame:
    return evolve(s, fires=tuple(evolve(f, hits=e.hits) if f.number == e.number else f for f in s.fires))


def _melee(s: WsimGame, e: ev.MeleeChanged) -> WsimGame:
    kept = tuple(m for m in s.melees if {m.attacker, m.defender} != {e.attacker, e.defender})
    return evolve(s, melees=kept + ((e.melee,) if e.melee is not None else ()))


_HANDLERS: dict[type, Callable[[WsimGame, Any], WsimGame]] = {
    ev.WindForecast: lambda s, e: evolve(s, wind_next=e.wind),
    ev.WindChanged: lambda s, e: evolve(s, wind=e.wind, wind_next=None),
    ev.PlotExecuted: _plot,
    ev.HeadingSet: lambda s, e: _ship(s, e.ship, heading=e.heading),
    ev.FoulingChanged: _pair("fouled"),
    ev.GrapplingChanged: _pair("grappled"),
    ev.PartiesSet: lambda s, e: _ship(s, e.ship, parties=e.parties),
    ev.LoadChanged: _load,
    ev.RepairChanged: lambda s, e: _ship(s, e.ship, repair=e.repair, repair_turns=e.turns),
    ev.SailsSet: lambda s, e: _ship(s, e.ship, sails=e.sails),
    ev.FireResolved: _fire,
    ev.HitsEntered: _hits,
    ev.DamageMarked: lambda s, e: _ship(s, e.ship, hull_lost=e.hull_lost, crew_lost=e.crew_lost,
                                        rigging_lost=e.rigging_lost),
    ev.CriticalApplied: lambda s, e: s,
    ev.ShipChanged: lambda s, e: s.with_ship(e.ship),
    ev.FiresCleared: lambda s, e: evolve(s, fires=()),
    ev.MeleeRound: lambda s, e: s,
    ev.MeleeChanged: _melee,
}


def apply(state: WsimGame, event: Any) -> WsimGame:
    if isinstance(event, ev.StateRestored):
        return event.state
    new = apply_common(state, event)
    if new is None:
        new = _HANDLERS[type(event)](state, event)
    return evolve(new, log_position=state.log_position + 1)
