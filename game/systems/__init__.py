"""Game systems Quarterdeck serves besides Oak & Iron, as referee assistants (docs/systems/).

Everything a front end needs is reachable from here: `SYSTEMS` by name (each a `GameSystem`,
game/systems/base.py) and `find_table` for a rules look-up. `OAK_AND_IRON` is Oak & Iron behind the
same interface; it is not among `SYSTEMS`, which the referee service serves: the game service plays it.
"""

from __future__ import annotations

from typing import Any

from game.errors import UnknownName
from game.systems.base import GameSystem
from game.systems.captains_sea import SYSTEM as CAPTAINS_SEA
from game.systems.iron_and_oak import SYSTEM as IRON_AND_OAK
from game.systems.oak_and_iron import SYSTEM as OAK_AND_IRON
from game.systems.tables import Table
from game.systems.wsim import SYSTEM as WSIM

__all__ = ["OAK_AND_IRON", "SYSTEMS", "find_table", "system"]

SYSTEMS: dict[str, GameSystem[Any, Any, Any]] = {
    WSIM.name: WSIM,
    IRON_AND_OAK.name: IRON_AND_OAK,
    CAPTAINS_SEA.name: CAPTAINS_SEA,
}


def system(name: str) -> GameSystem[Any, Any, Any]:
    try:
        return SYSTEMS[name]
    except KeyError:
        raise UnknownName(f"There is no game system {name!r}.", f"Systems: {', '.join(SYSTEMS)}.") from None


def find_table(system_name: str, query: str) -> Table:
    """A play-aid table by name or title (any case, or a unique prefix), for a `/rules` look-up."""
    return system(system_name).tables().find(query)
