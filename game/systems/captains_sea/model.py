"""The state of a Captain's Sea duel as the assistant keeps it: per ship the crew's morale and
Crew Status, the hits taken, the movement rate and marked impulses of the turn, and the secret
maneuver blocks; per game the initiative, the impulse reached and the rule-11 base rows the setup or the referee gives."""

from __future__ import annotations

from dataclasses import dataclass

from game.model import evolve
from game.systems.orders import OrderBook
from game.systems.tables import PrintedEntry

MORALES = ("handy", "normal", "unfit")
BEARINGS = ("A", "B", "C", "D", "E", "F", "G", "H")
IMPULSES = 12


@dataclass(frozen=True)
class CSShip:
    id: str
    player: str
    hull_type: str = ""  # the Hull Type Bonus row: "row 1", "row 2" or "Slow" ("" until entered)
    quality: int = 0  # the crew Quality modifier of the Hull Type Bonus roll
    morale: str = "normal"  # handy | normal | unfit: the "Crew Morale" of the die roll modifiers
    track: tuple[str, ...] = ()  # the Crew Status track, left to right, as on the ship mat
    crew_status: int = 0  # the space on the track
    hull_hits: int = 0
    rigging_hits: int = 0
    crew_hits: int = 0
    fire_checks: int = 0  # fire checks owed (rules 11-12)
    morale_rolls: int = 0  # Morale rolls owed
    bearing: str = ""  # this turn's bearing to the wind, A-H
    mp: int = -1  # this turn's movement points (-1: not worked out)
    bonus: int = 0  # this turn's Hull Type Bonus
    impulses: tuple[int, ...] = ()  # the impulses marked for it this turn
    marked: bool = False  # its impulses have been entered this turn

    @property
    def status_label(self) -> str:
        return self.track[self.crew_status] if self.track else str(self.crew_status)


@dataclass(frozen=True)
class Volley:
    """One fire combat after the hits achieved: the three dice and both tables read at once."""

    ship: str
    target: str
    aim: str  # high | low
    hits: int
    white: tuple[int, int]
    red: int
    damage_roll: int
    damage: str | None  # "7R2H3C"; None: read the printed table
    fire_checks: int
    red_column: str  # "yes" | "no" | "?" (read the PAC's red print)
    morale_roll: int
    morale_rolls: int | None  # None: read the printed table
    parts: str  # the modifiers, for the account
    morale_source: str = ""  # where a Morale Effects value answered with a note comes from ("" for a plain cell)


@dataclass(frozen=True)
class CSGame:
    players: tuple[str, ...]
    referee: str
    ships: tuple[CSShip, ...]
    turn: int = 0
    phase: str = ""
    initiative: str = ""
    impulse: int = 0  # the last impulse activated this turn
    offsets: tuple[tuple[str, int], ...] = ()  # ("high", n), ("low", n): the base row rule 11 gives (not on the PAC)
    offset_sources: tuple[tuple[str, str], ...] = ()  # ("high", "setup" | "referee"): whose value it is
    orders: OrderBook = OrderBook()
    printed: tuple[PrintedEntry, ...] = ()
    result: str = ""
    seed: int = 0
    log_position: int = 0

    def ship(self, ship_id: str) -> CSShip:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def with_ship(self, ship: CSShip) -> CSGame:
        return evolve(self, ships=tuple(ship if s.id == ship.id else s for s in self.ships))

    def offset(self, aim: str) -> int | None:
        return next((v for k, v in self.offsets if k == aim), None)

    def offset_source(self, aim: str) -> str:
        """Whose base row it is: the setup's or the referee's, never the rulebook's (the PAC lacks rule 11)."""
        return next((v for k, v in self.offset_sources if k == aim), "referee")
