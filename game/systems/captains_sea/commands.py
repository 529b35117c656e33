"""What a player or the referee asks for in a Captain's Sea game (docs/systems/captains_sea.md)."""

from __future__ import annotations

from dataclasses import dataclass

from game.codec import TaggedRegistry
from game.systems.common import SHARED_COMMANDS

COMMANDS = TaggedRegistry()
for _t in SHARED_COMMANDS:
    COMMANDS.register(_t)


@COMMANDS.register
@dataclass(frozen=True)
class SetInitiative:
    winner: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class SetBearing:
    ship: str
    bearing: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class HullBonus:
    ship: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class MarkImpulses:
    ship: str
    impulses: tuple[int, ...]
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class ChooseManeuver:
    """Secret: the maneuver block turned face down."""

    ship: str
    maneuver: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class FireAt:
    ship: str
    target: str
    hits: int  # hits achieved: the attacker's hits less the defender's successes
    aim: str  # high | low
    wind: str = ""  # "", leeward, windward
    mod: int = 0
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class SetOffset:
    """The base row for Firing High or Low, added to the two dice: rule 11's, which the PAC lacks, so the referee's."""

    aim: str
    value: int
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class MoraleOutcome:
    ship: str
    failed: bool
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class SetCrew:
    """The referee sets a crew's morale (handy, normal, unfit) or its Crew Status space."""

    ship: str
    morale: str = ""
    status: int = -1
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class LookupMP:
    initiative_bearing: str
    other_bearing: str
    player: str = ""
