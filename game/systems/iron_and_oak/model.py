"""The state of an Iron & Oak game as the assistant keeps it: ship cards' dice (as the players enter
them), status markers, critical hits and WL Shield damage, the map and each ship's Grid Box (when the
scenario gives a map), the hidden order cards, and the order procedure under way with its question,
if it waits for one."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from game.model import evolve
from game.systems.iron_and_oak.grid import Grid
from game.systems.orders import OrderBook
from game.systems.tables import PrintedEntry

MARKERS = ("Fouled", "Grappled", "Grounded", "Anchored", "Smoke", "Sunk")
CRITICALS = ("Engine-Damaged", "Engine-Stopped", "Boiler", "Rudder", "Speed", "Smokestack", "Steering", "Spar", "Ram", "WL")
HELPER_BARRED = ("Engine-Damaged", "Rudder", "Speed", "Smokestack", "Steering")
OBSTACLES = ("obstruction", "heavy obstruction", "hulk")  # what a ship can be fouled with besides ships
MAX_SHIELD = 4


@dataclass(frozen=True)
class Position:
    """A crossed T: `ship` lies across the `aspect` (bow | stern) of `of`."""

    ship: str
    of: str
    aspect: str


@dataclass(frozen=True)
class IOShip:
    id: str
    player: str
    maneuver: str = ""  # the ship card's dice, e.g. "d10d8"; "" until entered
    ram: str = ""
    wl: str = ""  # waterline defence dice
    bow_on: str = ""  # Bow-On Combat dice
    draft: int = -1  # -1: not entered yet
    hits_value: int = -1  # the original (undamaged) Hits value; -1: not entered yet
    powered: bool = True
    markers: tuple[str, ...] = ()
    fouled_with: tuple[str, ...] = ()  # ships, or an obstruction, heavy obstruction or hulk
    grappled_with: tuple[str, ...] = ()
    towed_by: str = ""  # the ship towing this one (rule 5.3), while the two stay grappled
    criticals: tuple[str, ...] = ()
    shield: int = 0  # WL Shield damage, 0-4 (shown as -0 … -4)
    hits: int = 0  # hits taken (the damage track is on the printed ship card)
    opposed_by: str = ""  # an Opposing Maneuver marker placed by this enemy ship
    lockouts: tuple[tuple[str, str, int], ...] = ()  # (kind, target, turn): no Ram/Spar or T on target that turn
    bow_on_target: str = ""  # fires with Bow-On dice at this ship next Gunnery Segment
    point_blank: str = ""  # fires at Point Blank at this ship next Gunnery Segment (after Maneuver 0)
    box: str = ""  # its Grid Box on the map; "": off the map (or the game has no map)

    @property
    def unpowered(self) -> bool:
        return not self.powered or "Boiler" in self.criticals or "Engine-Stopped" in self.criticals

    def has(self, marker: str) -> bool:
        return marker in self.markers or marker in self.criticals

    def with_marker(self, marker: str, present: bool = True) -> IOShip:
        kept = tuple(m for m in self.markers if m != marker)
        return evolve(self, markers=kept + ((marker,) if present else ()))

    def with_critical(self, name: str, present: bool = True) -> IOShip:
        kept = tuple(m for m in self.criticals if m != name)
        return evolve(self, criticals=kept + ((name,) if present else ()))


@dataclass(frozen=True)
class Question:
    key: str  # the fact the answer fills
    kind: str  # int | yesno | dice | response | text | hazards | sunk | cards
    ask: str
    who: tuple[str, ...]  # the players who may answer
    choices: tuple[str, ...] = ()  # kind "order": the words to put in order


@dataclass(frozen=True)
class Procedure:
    """An order being carried out: where it stands, what it knows, what it waits for."""

    order: str  # the order as written: "m1", "ram Monitor", "cross Monitor bow" …
    ship: str
    step: str = "start"
    facts: tuple[tuple[str, str], ...] = ()
    question: Question | None = None

    def fact(self, key: str) -> str | None:
        return next((v for k, v in self.facts if k == key), None)

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(shlex.split(self.order))


@dataclass(frozen=True)
class IOGame:
    players: tuple[str, ...]
    referee: str
    ships: tuple[IOShip, ...]
    turn: int = 0
    phase: str = ""
    orders: OrderBook = OrderBook()
    procedure: Procedure | None = None
    positions: tuple[Position, ...] = ()  # crossed Ts: counters butted together
    grid: Grid = Grid()  # the scenario's map; no columns: the players say what lies where
    drift_checked: tuple[str, ...] = ()  # ships whose fouled group checked for drift this turn
    printed: tuple[PrintedEntry, ...] = ()
    result: str = ""
    seed: int = 0
    log_position: int = 0

    def ship(self, ship_id: str) -> IOShip:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def with_ship(self, ship: IOShip) -> IOGame:
        return evolve(self, ships=tuple(ship if s.id == ship.id else s for s in self.ships))
