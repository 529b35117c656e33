"""What a player or the referee asks for in a WS&IM game (docs/systems/wsim.md has the notation)."""

from __future__ import annotations

from dataclasses import dataclass

from game.codec import TaggedRegistry
from game.systems.common import SHARED_COMMANDS
from game.systems.wsim.model import Party

COMMANDS = TaggedRegistry()
for _t in SHARED_COMMANDS:
    COMMANDS.register(_t)


@COMMANDS.register
@dataclass(frozen=True)
class Plot:
    """Phase D, secret: the moves column and the anchoring note of the ship's log."""

    ship: str
    moves: str
    notes: tuple[str, ...] = ()
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Board:
    """Phase G, secret: boarding parties (none: NBP)."""

    ship: str
    parties: tuple[Party, ...] = ()
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Load:
    """Phase J, private: the load column."""

    ship: str
    side: str
    ammo: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Repair:
    ship: str
    kind: str  # hull | rigging | stop
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Sails:
    ship: str
    setting: str  # full | battle
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class FireBroadside:
    ship: str
    side: str
    target: str
    range: int
    aim: str = ""  # "" = hull below range 6, rigging from 6 (and for chain shot)
    half: bool = False
    rake: str = ""  # "", bow, stern
    mod: int = 0  # any other modifier the referee allows
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class EnterHits:
    """The referee reads the printed Fire Results row for fire N and enters its hits."""

    number: int
    hits: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Mark:
    """A referee's correction to a ship log: these hits are marked now."""

    ship: str
    hits: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Collide:
    ship: str
    other: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Unfoul:
    ship: str
    other: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Grapple:
    ship: str
    other: str
    motionless: int = 0
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Ungrapple:
    ship: str
    other: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class MeleeAttack:
    """Phase I: an offensive boarding party attacks."""

    ship: str
    target: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class SetHeading:
    ship: str
    heading: int
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Blast:
    """Optional rule X: an exploding ship's blast on the ships adjacent to it (the referee names them)."""

    ship: str
    targets: tuple[str, ...]
    player: str = ""


Command = (
    Plot | Board | Load | Repair | Sails | FireBroadside | EnterHits | Mark | Collide | Unfoul | Grapple | Ungrapple
    | MeleeAttack | SetHeading | Blast
)
