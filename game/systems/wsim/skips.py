"""When a phase of the Casus Belli sequence has nothing to do: the predicates that sequence.toml names
in `skip_when` and `pass_when`. Each reads the state alone and gives the reason the account prints, or
"" when some seat may have something to give (docs/systems/wsim.md, "Phases with nothing to do")."""

from __future__ import annotations

from collections import Counter

from game.systems.common import Predicate
from game.systems.wsim.model import Ship, WsimGame


def one_ship_a_side(state: WsimGame) -> str:
    """B: signals pass between the ships of one side; a side with one ship has no one to signal to."""
    sides = Counter(s.player for s in state.ships if s.active)
    return "no side has two ships to signal between" if all(n < 2 for n in sides.values()) else ""


def none_fouled_or_doomed(state: WsimGame) -> str:
    """C: unfouling needs a fouled ship; the sinking and exploding rolls a ship marked to sink or explode."""
    if any(s.fouled or s.doom for s in state.ships):
        return ""
    return "no ship is fouled, and none may sink or explode"


def none_fouled_or_grappled(state: WsimGame) -> str:
    """F and G: grappling, ungrappling and boarding parties are for ships fouled or grappled. Ships that
    end their move alongside may grapple too, but the assistant does not see the table: the referee
    stops in F with `next F`."""
    if any(s.active and (s.fouled or s.grappled) for s in state.ships):
        return ""
    return "no ship is fouled or grappled"


def no_melee(state: WsimGame) -> str:
    """I: a melee carries on from last turn, or starts from an offensive boarding party written in G."""
    if state.melees or any(p.kind == "OBP" for s in state.ships for p in s.parties):
        return ""
    return "no melee carries on and no boarding party attacks"


def sails_set_in_load(state: WsimGame) -> str:
    """K: the sails are set in the Load Phase as well (nothing between J and K depends on them), so K asks
    nothing more, unless the sails are plotted in secret (the hidden sails option)."""
    return "" if state.options.hidden_sails else "the sails were set in the Load Phase"


def wind_rolled(state: WsimGame) -> str:
    """A, once entered: "Roll two dice each turn" is done by the assistant; nobody gives anything in it."""
    return "the wind is rolled and nothing else is done in it"


def may_still_load(ship: Ship) -> bool:
    """The ship may load a broadside in this Load Phase (the checks of `load`)."""
    if not ship.active or ship.repair or ship.loaded_this_turn or all(left <= 0 for left in ship.crew_left):
        return False
    return any(not b.load and not b.ds_loading and not o.ds_loading
               for b, o in zip(ship.broadsides, reversed(ship.broadsides), strict=True))


def may_begin_repair(ship: Ship) -> bool:
    """The ship may mark a repair in this Load Phase instead of loading (the checks of `repair`)."""
    if not ship.active or ship.repair or ship.loaded_this_turn:
        return False
    if sum(1 for left in ship.crew_left if left > 0) - (1 if ship.pumps else 0) < 2:
        return False
    return ship.hull_lost > 0 or any(ship.rigging_lost)


def load_phase_done(state: WsimGame) -> bool:
    """J ends on its own once no ship may load or begin a repair: the loads are the phase's orders."""
    return not any(may_still_load(s) or may_begin_repair(s) for s in state.ships)


PREDICATES: dict[str, Predicate] = {
    f.__name__: f
    for f in (one_ship_a_side, none_fouled_or_doomed, none_fouled_or_grappled, no_melee, sails_set_in_load, wind_rolled)
}
