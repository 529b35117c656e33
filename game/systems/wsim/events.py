"""What happened in a WS&IM game. Events carry resulting values, so `apply` needs no rules."""

from __future__ import annotations

from dataclasses import dataclass

from game.systems import common
from game.systems.common import registry
from game.systems.wsim.model import Fire, Melee, Party, Ship, Wind, WsimGame

EVENTS = registry()


@EVENTS.register
@dataclass(frozen=True)
class StateRestored(common.StateRestored[WsimGame]):
    """The referee took back the last command: the state before it."""

    state: WsimGame


@EVENTS.register
@dataclass(frozen=True)
class WindForecast:
    """The roll of phase A: the wind of next turn (None: no change)."""

    wind: Wind | None


@EVENTS.register
@dataclass(frozen=True)
class WindChanged:
    wind: Wind


@EVENTS.register
@dataclass(frozen=True)
class PlotExecuted:
    ship: str
    moves: str
    notes: tuple[str, ...]
    heading: int
    anchored: str
    weighing: int
    anchor_lost: bool
    hexes: int
    still: int
    remarks: tuple[str, ...] = ()


@EVENTS.register
@dataclass(frozen=True)
class HeadingSet:
    ship: str
    heading: int


@EVENTS.register
@dataclass(frozen=True)
class FoulingChanged:
    ship: str
    other: str
    fouled: bool


@EVENTS.register
@dataclass(frozen=True)
class GrapplingChanged:
    ship: str
    other: str
    grappled: bool


@EVENTS.register
@dataclass(frozen=True)
class PartiesSet:
    ship: str
    parties: tuple[Party, ...]


@EVENTS.register
@dataclass(frozen=True)
class LoadChanged:
    """Private to the ship's owner (and a referee who is not a player): `load` "?" in other copies."""

    ship: str
    side: str
    load: str
    ds_loading: bool
    player: str = ""  # the owner, who alone sees the load
    initial_used: bool = False  # a load made in play: its fire is not an initial broadside (older events: unchanged)


@EVENTS.register
@dataclass(frozen=True)
class RepairChanged:
    ship: str
    repair: str
    turns: int


@EVENTS.register
@dataclass(frozen=True)
class SailsSet:
    ship: str
    sails: str


@EVENTS.register
@dataclass(frozen=True)
class FireResolved:
    fire: Fire
    calculation: str


@EVENTS.register
@dataclass(frozen=True)
class HitsEntered:
    number: int
    hits: str


@EVENTS.register
@dataclass(frozen=True)
class DamageMarked:
    ship: str
    hull_lost: int
    crew_lost: tuple[int, ...]
    rigging_lost: tuple[int, ...]
    reason: str


@EVENTS.register
@dataclass(frozen=True)
class CriticalApplied:
    ship: str
    effect: str
    outcome: str


@EVENTS.register
@dataclass(frozen=True)
class ShipChanged:
    """A ship log entry after a critical, a melee, a destroyed hull or the end of a turn."""

    ship: Ship
    what: str


@EVENTS.register
@dataclass(frozen=True)
class FiresCleared:
    pass


@EVENTS.register
@dataclass(frozen=True)
class MeleeRound:
    attacker: str
    defender: str
    round: int
    attacker_strength: int
    defender_strength: int
    attacker_loses: int
    defender_loses: int


@EVENTS.register
@dataclass(frozen=True)
class MeleeChanged:
    attacker: str
    defender: str
    melee: Melee | None  # None: the melee is over
