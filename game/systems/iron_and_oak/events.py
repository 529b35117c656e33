"""What happened in an Iron & Oak game. Events carry resulting values, so `apply` needs no rules."""

from __future__ import annotations

from dataclasses import dataclass

from game.systems import common
from game.systems.common import registry
from game.systems.iron_and_oak.grid import GridBox
from game.systems.iron_and_oak.model import IOGame, IOShip, Position, Procedure

EVENTS = registry()


@EVENTS.register
@dataclass(frozen=True)
class StateRestored(common.StateRestored[IOGame]):
    """The referee took back the last command: the state before it."""

    state: IOGame


@EVENTS.register
@dataclass(frozen=True)
class ShipChanged:
    ship: IOShip
    what: str


@EVENTS.register
@dataclass(frozen=True)
class ProcedureChanged:
    procedure: Procedure | None


@EVENTS.register
@dataclass(frozen=True)
class PositionsChanged:
    positions: tuple[Position, ...]
    what: str = ""


@EVENTS.register
@dataclass(frozen=True)
class DriftChecked:
    ships: tuple[str, ...]  # every ship whose fouled group has checked for drift this turn


@EVENTS.register
@dataclass(frozen=True)
class BoxChanged:
    """A Grid Box's markers changed (a Torpedo-Mine exploded and was removed, or the referee corrected it)."""

    box: GridBox
    what: str = ""
