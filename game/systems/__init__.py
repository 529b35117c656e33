"""The four game systems Quarterdeck serves (docs/systems/): Oak & Iron, the game it plays, and
three it serves as a referee assistant.

Everything a front end needs is reachable from here: `SYSTEMS` by name (each a `GameSystem`,
game/systems/base.py, served by the one game service), `REFEREE_SYSTEMS` the three with a referee's
seat (the /ref commands), and `find_table` for a rules look-up.
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

__all__ = ["OAK_AND_IRON", "REFEREE_SYSTEMS", "SYSTEMS", "find_table", "referee_system", "system"]

REFEREE_SYSTEMS: dict[str, GameSystem[Any, Any, Any]] = {
    WSIM.name: WSIM,
    IRON_AND_OAK.name: IRON_AND_OAK,
    CAPTAINS_SEA.name: CAPTAINS_SEA,
}
SYSTEMS: dict[str, GameSystem[Any, Any, Any]] = {OAK_AND_IRON.name: OAK_AND_IRON, **REFEREE_SYSTEMS}


def system(name: str) -> GameSystem[Any, Any, Any]:
    try:
        return SYSTEMS[name]
    except KeyError:
        raise UnknownName(f"There is no game system {name!r}.", f"Systems: {', '.join(SYSTEMS)}.") from None


def referee_system(name: str) -> GameSystem[Any, Any, Any]:
    """A system the /ref commands serve."""
    if name not in REFEREE_SYSTEMS:
        raise UnknownName(f"There is no referee-assistant system {name!r}.", f"Systems: {', '.join(REFEREE_SYSTEMS)}.")
    return REFEREE_SYSTEMS[name]


def find_table(system_name: str, query: str) -> Table:
    """A play-aid table by name or title (any case, or a unique prefix), for a `/rules` look-up."""
    return referee_system(system_name).tables().find(query)
