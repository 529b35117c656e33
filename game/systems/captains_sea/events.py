"""What happened in a Captain's Sea game. Events carry resulting values, so `apply` needs no rules."""

from __future__ import annotations

from dataclasses import dataclass

from game.systems import common
from game.systems.captains_sea.model import CSGame, CSShip, Volley
from game.systems.common import registry

EVENTS = registry()


@EVENTS.register
@dataclass(frozen=True)
class StateRestored(common.StateRestored[CSGame]):
    """The referee took back the last command: the state before it."""

    state: CSGame


@EVENTS.register
@dataclass(frozen=True)
class ShipChanged:
    ship: CSShip
    what: str


@EVENTS.register
@dataclass(frozen=True)
class InitiativeSet:
    player: str


@EVENTS.register
@dataclass(frozen=True)
class ImpulseReached:
    impulse: int
    ships: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class OffsetSet:
    aim: str
    value: int


@EVENTS.register
@dataclass(frozen=True)
class VolleyResolved:
    volley: Volley
