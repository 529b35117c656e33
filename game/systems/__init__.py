"""The four game systems Quarterdeck serves (docs/systems/): Oak & Iron, the game it plays, and
three it serves as a referee assistant.

Everything a front end needs is reachable from here: `SYSTEMS` by name (each a `GameSystem`,
game/systems/base.py, served by the one game service), `REFEREE_SYSTEMS` the three with a referee's
seat (the /ref commands), `find_table` for a rules look-up, and `ship_sheet` for a ship's sheet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.errors import UnknownName
from game.systems.base import GameSystem
from game.systems.captains_sea import SYSTEM as CAPTAINS_SEA
from game.systems.captains_sea import sheet as _cs_sheet
from game.systems.iron_and_oak import SYSTEM as IRON_AND_OAK
from game.systems.iron_and_oak import sheet as _io_sheet
from game.systems.oak_and_iron import SYSTEM as OAK_AND_IRON
from game.systems.sheet import Sheet, find_ship
from game.systems.tables import Table
from game.systems.wsim import SYSTEM as WSIM
from game.systems.wsim import sheet as _wsim_sheet

__all__ = ["OAK_AND_IRON", "REFEREE_SYSTEMS", "SYSTEMS", "find_table", "referee_system", "ship_sheet", "system"]

REFEREE_SYSTEMS: dict[str, GameSystem[Any, Any, Any]] = {
    WSIM.name: WSIM,
    IRON_AND_OAK.name: IRON_AND_OAK,
    CAPTAINS_SEA.name: CAPTAINS_SEA,
}
SYSTEMS: dict[str, GameSystem[Any, Any, Any]] = {OAK_AND_IRON.name: OAK_AND_IRON, **REFEREE_SYSTEMS}
# each referee system's sheet of one viewed ship (game/systems/<key>/sheet.py)
SHEETS: dict[str, Callable[[Any, str], Sheet]] = {
    WSIM.name: _wsim_sheet.sheet,
    IRON_AND_OAK.name: _io_sheet.sheet,
    CAPTAINS_SEA.name: _cs_sheet.sheet,
}


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


def ship_sheet(system_name: str, view: Any, name: str) -> Sheet:
    """The sheet of the ship `name` (any case, or a unique start of it) from a view of a game of the
    system: what that view shows, so what its viewer may read and nothing else."""
    return SHEETS[referee_system(system_name).name](find_ship(view.ships, name), referee_system(system_name).title)
