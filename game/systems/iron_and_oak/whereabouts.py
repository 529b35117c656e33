"""What the map settles about an order (when the scenario gives one): whether its destination is in
reach and whether its target shares the ship's Grid Box. A reason in words, or None when the order
may go ahead; with no map, or a ship off it where the order needs it on, the players judge as before."""

from __future__ import annotations

from game.errors import IllegalAction
from game.systems.iron_and_oak.grid import OFF, adjacent, diagonal_flanks, two_away
from game.systems.iron_and_oak.model import IOGame, IOShip

SAME_BOX = ("oppose", "cross", "spar", "ram", "tow")
# 003 line 74 (Cross the T) and line 98 (Spar/Ram): "Must start order phase in same GB as target";
# an Opposing Maneuver or a tow needs the ship there when it is carried out (lines 27, 59)
SAME_BOX_AT_START = ("cross", "spar", "ram")


def _where(ship: IOShip) -> str:
    return f"in {ship.box}" if ship.box else "off the map"


def refusal(state: IOGame, ship: IOShip, words: tuple[str, ...], revealed: bool = False) -> str | None:
    """Why the order cannot be carried out from where the ships are, or None. `revealed`: it is being
    carried out (the same-box rules for Cross the T, Spar and Ram were settled in the Order Phase)."""
    if not state.grid.on or not words:
        return None
    kind = words[0]
    if kind in ("m1", "m2"):
        return _move_refusal(state, ship, kind, words[1] if len(words) > 1 else "")
    if kind in SAME_BOX and len(words) > 1 and not (revealed and kind in SAME_BOX_AT_START):
        target = state.ship(words[1])
        if not ship.box or ship.box != target.box:
            return (f"{ship.id} is {_where(ship)} and {target.id} {_where(target)}: "
                    f"{'a tow' if kind == 'tow' else 'this order'} needs both in the same Grid Box")
        if kind == "tow":
            return _step_refusal(state, ship, words[2] if len(words) > 2 else "", "tow")
    return None


def _move_refusal(state: IOGame, ship: IOShip, kind: str, dest: str) -> str | None:
    if kind == "m1":
        return _step_refusal(state, ship, dest, "m1")
    if not dest:
        return "on a map, Maneuver 2 names the Grid Box it goes to (`m2 BOX`)"
    if not ship.box or dest == OFF:
        return "Maneuver 2 moves on the map only: a ship enters or leaves the map with Maneuver 1"
    if not two_away(ship.box, dest):
        return (f"{dest} is not two Grid Boxes from {ship.box} (003 line 47: a non-adjacent GB two GBs away, "
                "with one diagonal step at most)")
    enemies = {s.box for s in state.ships if s.player != ship.player and s.box and not s.has("Sunk")}
    if all(a and a in enemies and b in enemies for a, b in diagonal_flanks(ship.box, dest)):
        return f"every way from {ship.box} to {dest} passes diagonally between two enemy ships (003 line 49)"
    return None


def _step_refusal(state: IOGame, ship: IOShip, dest: str, kind: str) -> str | None:
    """A Maneuver 1 or a tow: an adjacent Grid Box, or on or off the map at its edge (003 lines 41-43, 59)."""
    what = "Maneuver 1" if kind == "m1" else "a tow"
    if not dest:
        return f"on a map, {what} names the Grid Box it goes to (`{'m1 BOX' if kind == 'm1' else 'tow SHIP BOX'}`, or `off`)"
    if not ship.box:
        if dest == OFF or kind == "tow":
            return f"{ship.id} is off the map: it can only enter it, with Maneuver 1 to an edge Grid Box"
        return None if state.grid.on_edge(dest) else f"{ship.id} enters the map at an edge Grid Box, not {dest}"
    if dest == OFF:
        return None if state.grid.on_edge(ship.box) else f"{ship.box} is not at the edge of the map: no way off from there"
    if not adjacent(ship.box, dest):
        return f"{dest} is not adjacent to {ship.box}, where {ship.id} is"
    return None


def check_order(state: IOGame, ship: IOShip, words: tuple[str, ...]) -> None:
    """Refuse, in the Order Phase, an order the map already rules out."""
    why = refusal(state, ship, words)
    if why is not None:
        near = f"Adjacent to {ship.box}: {', '.join(state.grid.neighbours(ship.box))}." if ship.box else ""
        raise IllegalAction(f"{ship.id} cannot take that order: {why}.", near if words[0] in ("m1", "tow") else "")
