"""What a player or the referee asks for in an Iron & Oak game (docs/systems/iron_and_oak.md)."""

from __future__ import annotations

from dataclasses import dataclass

from game.codec import TaggedRegistry
from game.systems.common import SHARED_COMMANDS

COMMANDS = TaggedRegistry()
for _t in SHARED_COMMANDS:
    COMMANDS.register(_t)


@COMMANDS.register
@dataclass(frozen=True)
class GiveOrder:
    """Order Phase, secret: the order card for one ship (as its canonical text, e.g. `cross Monitor bow`)."""

    ship: str
    order: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Reveal:
    ship: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Answer:
    """The answer to the question the order procedure is waiting for."""

    text: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Card:
    """Ship-card data the players enter: maneuver, ram, wl, bowon dice; draft; hits; powered."""

    ship: str
    fields: tuple[tuple[str, str], ...]
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class SetMarker:
    """The referee places or removes a marker or critical hit (and says with which ship, for Fouled)."""

    ship: str
    name: str
    present: bool
    other: str = ""
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class TakeHits:
    """Hits from gunnery (resolved with the printed tables) recorded on a ship; WL Shield optional."""

    ship: str
    hits: int
    shield: int = 0
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Place:
    """The referee puts a ship in a Grid Box ("": off the map), to correct the map by the table."""

    ship: str
    box: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class SetBox:
    """The referee corrects a Grid Box on the map: depth (a number or `deep`), hulks, obstruction, mines."""

    box: str
    fields: tuple[tuple[str, str], ...]
    player: str = ""
