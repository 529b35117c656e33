"""What a player asks for. Front ends (table, script, bot, AI) only ever build these.

`player` names who gives the order; empty means "whoever controls the ship" (hot-seat play).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.codec import TaggedRegistry
from game.squadron import SquadronList

COMMANDS = TaggedRegistry()

TURN_WHEN = ("start", "end")
SIDES = ("port", "starboard")
MOVE_DIRECTIONS = ("ahead", "back", "port", "starboard", "hold")
SEAMANSHIP_ACTIONS = ("heading", "adjust", "cutfree")
CREW_ACTIONS = (
    "reload", "rally", "repair", "repair_aground", "sail", "board", "row", "flag", "landing", "attack", "boat"
)


@dataclass(frozen=True)
class Turn:
    when: str  # start | end
    side: str  # port | starboard
    degrees: float


@COMMANDS.register
@dataclass(frozen=True)
class PickCard:
    player: str
    card: str


@COMMANDS.register
@dataclass(frozen=True)
class Seamanship:
    ship: str
    action: str  # heading | adjust | cutfree
    side: str = ""  # heading: the side to turn toward
    degrees: float = 0.0
    delta: int = 0  # adjust: +1 or -1
    point_of_sail: str = ""  # only when the ship lies exactly between Large and Windward
    player: str = ""


@dataclass(frozen=True)
class Shift:
    """A free sideways shift a card allows at the start or end of the move."""

    when: str  # start | end
    side: str  # port | starboard
    distance: float


@COMMANDS.register
@dataclass(frozen=True)
class Advance:
    """The move step: straight ahead along the speed tool with an optional turn; after a Cut Free
    the speed-1 move may go back or sideways, and any ship that cannot move holds."""

    ship: str
    direction: str = "ahead"
    turn: Turn | None = None
    point_of_sail: str = ""
    player: str = ""
    shift: Shift | None = None


@dataclass(frozen=True)
class Shot:
    """One attack roll: a Broadside side (port/starboard), or '' for Partial Fire and Close Combat,
    'landing' for Close Combat between Landing Parties."""

    side: str
    target: str
    aim: str = "hull"  # hull | rigging | crew


@COMMANDS.register
@dataclass(frozen=True)
class Attack:
    ship: str
    kind: str  # broadside | partial | close
    shots: tuple[Shot, ...]
    helm: str = ""  # if the target's helm is struck, the side the attacker turns it to
    free: bool = False  # a free attack a card grants out of turn
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Crew:
    ship: str
    action: str
    side: str = ""  # reload
    delta: int = 0  # sail: +1 up, -1 down
    target: str = ""  # board, flag
    edge: str = ""  # board: which edge of the target to lay against, when both are as near
    x: float = 0.0  # landing
    y: float = 0.0
    attack: Attack | None = None  # attack: a card lets the Crew Action be an attack
    point_of_sail: str = ""
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class EndActivation:
    ship: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Activate:
    """A whole Movement activation in one order: the steps run in sequence."""

    ship: str
    seamanship: Seamanship | None = None
    advance: Advance | None = None
    crew: Crew | None = None
    point_of_sail: str = ""
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Reroll:
    """Re-roll the chosen dice (1-based positions) of the pending Skill Test with the ship's Skill."""

    dice: tuple[int, ...]
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class UseFortune:
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class KeepRoll:
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Pass:
    """The ship's Attack Phase activation without an attack."""

    ship: str
    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Decline:
    """Do not take the free attack on offer."""

    player: str = ""


@COMMANDS.register
@dataclass(frozen=True)
class Decide:
    """Answer a Choice: a free turn on reveal, capture or destroy, a new Flagship."""

    ship: str
    answer: str  # free_turn: "port 20" / "skip"; capture: capture|destroy|spare; lost_admiral: transfer|assign
    target: str = ""  # lost_admiral: the ship that takes the flag
    degrees: float = 0.0
    cards: tuple[str, ...] = ()  # lost_admiral: cards removed to bring the hand down to 5
    player: str = ""
    x: float = 0.0  # place_terrain: where the piece goes (degrees: its rotation)
    y: float = 0.0


@COMMANDS.register
@dataclass(frozen=True)
class Concede:
    player: str


@COMMANDS.register
@dataclass(frozen=True)
class FixDice:
    """Test scenarios only: the next dice rolled show these faces."""

    faces: tuple[str, ...]


# ---------------------------------------------------------------- the chapter-7 set-up


@COMMANDS.register
@dataclass(frozen=True)
class Enlist:
    """Bring a squadron list to a drafted game (checked against every building rule)."""

    player: str
    squadron: SquadronList


@COMMANDS.register
@dataclass(frozen=True)
class ChooseRole:
    player: str
    role: str  # attacker | defender


@COMMANDS.register
@dataclass(frozen=True)
class Draft:
    """Take one of the drawn setting, deployment or advantage cards."""

    player: str
    card: str


@COMMANDS.register
@dataclass(frozen=True)
class AddTerrain:
    player: str
    kind: str


@COMMANDS.register
@dataclass(frozen=True)
class PlaceTerrain:
    """Place a pool piece (Place Terrain) or move a placed one (Adjust Terrain)."""

    player: str
    piece: str
    x: float
    y: float
    rotation: float = 0.0


@COMMANDS.register
@dataclass(frozen=True)
class Deploy:
    player: str
    ship: str
    x: float
    y: float
    heading: float


@COMMANDS.register
@dataclass(frozen=True)
class FinishStep:
    """Done with the Adjust Terrain step (no more pieces to move)."""

    player: str


SETUP_COMMANDS = (Enlist, ChooseRole, Draft, AddTerrain, PlaceTerrain, Deploy, FinishStep)

Command = (
    PickCard
    | Seamanship
    | Advance
    | Crew
    | EndActivation
    | Activate
    | Reroll
    | UseFortune
    | KeepRoll
    | Pass
    | Attack
    | Decline
    | Decide
    | Concede
    | FixDice
    | Enlist
    | ChooseRole
    | Draft
    | AddTerrain
    | PlaceTerrain
    | Deploy
    | FinishStep
)
