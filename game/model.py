"""The frozen state of a game. Nothing here checks a rule; `engine.apply` builds new states."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(cls))


def evolve(obj: T, **changes: Any) -> T:
    """`dataclasses.replace` for these frozen, unvalidated states, without calling `__init__`: it is
    the engine's hottest call (every event builds new states), and the states have no
    `__post_init__` to run. Unknown field names are still refused."""
    cls = type(obj)
    unknown = changes.keys() - _field_names(cls)  # type: ignore[arg-type]
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    new: T = object.__new__(cls)
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


class Phase(StrEnum):
    PREPARATION = "preparation"  # chapter-7 set-up: squadrons, drafting, terrain, deployment
    SETUP = "setup"  # choosing the first initiative card
    INITIATIVE = "initiative"
    MOVEMENT = "movement"
    ATTACK = "attack"
    END = "end"
    OVER = "over"


class Sail(StrEnum):
    FULL = "full"
    BATTLE = "battle"
    MINIMAL = "minimal"
    ANCHORED = "anchored"

    @property
    def speed_modifier(self) -> int:
        return {Sail.FULL: 1, Sail.BATTLE: 0, Sail.MINIMAL: -1, Sail.ANCHORED: 0}[self]

    def step(self, delta: int) -> Sail | None:
        """One level up (+1) or down (-1), or None past either end."""
        i = SAIL_ORDER.index(self) - delta
        return SAIL_ORDER[i] if 0 <= i < len(SAIL_ORDER) else None


SAIL_ORDER = (Sail.FULL, Sail.BATTLE, Sail.MINIMAL, Sail.ANCHORED)


class PointOfSail(StrEnum):
    LARGE = "large"
    WINDWARD = "windward"
    WINDS_EYE = "winds_eye"


class Status(StrEnum):
    """Stored statuses. Shaken and Entangled are derived (fatigue 7, entangled_with)."""

    CRIPPLED = "crippled"
    OUT_OF_ACTION = "out_of_action"
    AGROUND = "aground"
    CAPTURED = "captured"
    SUNK = "sunk"
    LEFT_TABLE = "left_table"  # sailed off the table: out of the game
    REMOVED = "removed"  # destroyed with no room to cut free: taken off the table
    UNDEPLOYED = "undeployed"  # set-up: not yet placed on the table


class ShipSide(StrEnum):
    PORT = "port"
    STARBOARD = "starboard"


class TerrainKind(StrEnum):
    ISLAND = "island"
    ROCK = "rock"
    LANDMASS = "landmass"
    SHOAL = "shoal"
    FOG_BANK = "fog_bank"

    @property
    def is_obstacle(self) -> bool:
        """Terrain that rises above the sea: a ship may not move through it."""
        return self in (TerrainKind.ISLAND, TerrainKind.ROCK, TerrainKind.LANDMASS)

    @property
    def blocks_sight(self) -> bool:
        return self in (TerrainKind.ISLAND, TerrainKind.LANDMASS)


MAX_TRACK = 7  # Fatigue and Damage tracks both end at 7


@dataclass(frozen=True)
class Terrain:
    id: str
    kind: TerrainKind
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Table:
    width: float
    height: float
    weather_edge: str  # "N", "E", "S" or "W": the edge the wind blows from
    terrain: tuple[Terrain, ...] = ()


@dataclass(frozen=True)
class LandingParty:
    x: float
    y: float
    on_ship: str = ""  # set when a card puts the token on an enemy ship


_OFF_TABLE = frozenset({Status.SUNK, Status.LEFT_TABLE, Status.REMOVED, Status.UNDEPLOYED})  # built once: asked very often


@dataclass(frozen=True)
class Ship:
    id: str  # unique display name, the ship's handle in commands
    cls: str
    owner: str  # the player whose squadron it started in
    x: float  # centre of the base, inches
    y: float
    heading: float  # compass degrees, 0 = north, clockwise
    base: str
    beam: float
    length: float
    skill: int
    fortitude: int
    broadside: int
    crew: int
    windward: int  # speed card values at Battle Sail
    large: int
    traits: tuple[str, ...] = ()
    upgrades: tuple[str, ...] = ()
    sail: Sail = Sail.BATTLE
    damage: int = 0
    fatigue: int = 0
    statuses: frozenset[Status] = frozenset()
    reload: frozenset[ShipSide] = frozenset()
    wake: bool = False
    entangled_with: frozenset[str] = frozenset()
    landing_parties: tuple[LandingParty, ...] = ()
    controller: str = ""  # who commands it now (differs from owner once Captured)
    captain: str = ""
    cards: tuple[str, ...] = ()  # upgrade cards
    used: tuple[str, ...] = ()  # once-per-turn effects spent, as "EFFECT@TURN"

    @property
    def shaken(self) -> bool:
        return self.fatigue >= MAX_TRACK

    @property
    def crippled(self) -> bool:
        return Status.CRIPPLED in self.statuses

    @property
    def out_of_action(self) -> bool:
        return Status.OUT_OF_ACTION in self.statuses

    @property
    def entangled(self) -> bool:
        return bool(self.entangled_with)

    @property
    def aground(self) -> bool:
        return Status.AGROUND in self.statuses

    @property
    def anchored(self) -> bool:
        return self.sail is Sail.ANCHORED

    @property
    def on_table(self) -> bool:
        return self.statuses.isdisjoint(_OFF_TABLE)

    @property
    def can_act(self) -> bool:
        """Able to take an activation at all (Out of Action and Captured ships cannot)."""
        return self.on_table and not self.out_of_action and Status.CAPTURED not in self.statuses

    def status_names(self) -> list[str]:
        names = sorted(s.value for s in self.statuses)
        if self.shaken:
            names.append("shaken")
        if self.entangled:
            names.append("entangled")
        if self.anchored:
            names.append("anchored")
        return sorted(names)


@dataclass(frozen=True)
class Squadron:
    player: str
    name: str
    faction: str = ""
    flagship: str = ""
    admiral: str = "Untested"
    admiral_value: int = 0
    fortune: int = 3
    hand: tuple[str, ...] = ()
    face_down: str | None = None  # secret until the reveal
    face_up: str | None = None
    discards: tuple[str, ...] = ()
    picked: bool = False  # has chosen this phase's face-down card (or has none to choose)
    borrowed: str | None = None  # a card whose effect a face-up card lends its value to
    team: str = ""  # fleet battles: the side this squadron fights on ("" = its own side)
    admiral_lost: bool = False  # the Admiral card was removed (helm struck): a new Flagship is due
    advantage: str | None = None  # the Advantage & Condition card drafted at set-up


@dataclass(frozen=True)
class PendingRoll:
    """A roll that may still be re-rolled (a failed Skill Test, an attack with misses): the roller
    decides before play goes on."""

    player: str
    ship: str
    purpose: str  # seamanship, repair_aground, boarding, broadside, partial, close
    kind: str  # the roll's kind in the dice data, for the record
    faces: tuple[str, ...]
    success: tuple[str, ...] = ()  # faces that count for this roll
    skill_rerolled: tuple[int, ...] = ()  # indices already re-rolled with Skill
    fortune_used: bool = False
    remaining: tuple[str, ...] = ()  # the rest of the order, as notation lines
    skill: int = 0  # Skill re-rolls this roll allows
    needed: int = 0  # successes a test needs to pass (0: an attack, which counts its hits)
    target: str = ""  # the ship an attack roll is made against


@dataclass(frozen=True)
class Offer:
    """A free attack a card grants out of turn: the player may take it or decline."""

    player: str
    card: str
    attack: str  # broadside | partial
    target: str
    ships: tuple[str, ...]  # ships that may take it
    harmless: bool = False  # cannot damage or cause critical damage
    resume_player: str = ""  # whose alternation resumes afterwards


@dataclass(frozen=True)
class Choice:
    """A decision the rules leave to a player at a fixed point (reveal effects, End Phase)."""

    player: str
    kind: str  # free_turn | capture | lost_admiral
    ship: str  # the ship the choice is about
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class PoolPiece:
    """A terrain piece chosen for the pool at set-up, not yet on the table."""

    id: str
    kind: TerrainKind
    owner: str


DEFAULT_EDGES = ("S", "N")  # drafted games: the first player deploys from the south edge, the second the north


@dataclass(frozen=True)
class Preparation:
    """Where the chapter-7 set-up stands. Public: nothing in it is secret."""

    size: str
    step: str = "enlist"  # enlist | role | draft | select | place | adjust | deploy | done
    to_act: str = ""  # whose turn it is within the step ("" while squadrons are awaited)
    edges: tuple[tuple[str, str], ...] = ()  # (player, table edge it deploys from)
    attacker: str = ""
    offered: tuple[str, ...] = ()  # setting, deployment and advantage cards still to draft
    drafted: tuple[tuple[str, str, str], ...] = ()  # (player, deck, card)
    pool: tuple[PoolPiece, ...] = ()
    adjusted: tuple[str, ...] = ()  # terrain already adjusted (each moves once)
    passed: tuple[str, ...] = ()  # players finished with the adjust step
    removed: tuple[str, ...] = ()  # pool pieces that found no legal place

    def drafted_card(self, player: str, deck: str) -> str | None:
        return next((c for p, d, c in self.drafted if p == player and d == deck), None)

    def edge_of(self, player: str) -> str:
        return next(e for p, e in self.edges if p == player)


@dataclass(frozen=True)
class Activation:
    """The Movement activation under way: which step comes next and what the steps decided."""

    ship: str
    player: str
    point_of_sail: PointOfSail
    speed: int  # speed rating fixed at the start, before Adjust Speed
    step: str = "seamanship"  # seamanship -> move -> crew -> done
    speed_adjust: int = 0
    cut_free: bool = False
    speed_limit: int | None = None
    start: tuple[float, float, float] = (0.0, 0.0, 0.0)  # where the ship began: free-attack triggers


@dataclass(frozen=True)
class Game:
    system: str
    edition: str
    name: str
    table: Table
    squadrons: tuple[Squadron, ...]
    ships: tuple[Ship, ...]
    seed: int = 0
    turn: int = 0
    phase: Phase = Phase.SETUP
    initiative: str | None = None  # the player with the initiative this turn
    active_player: str | None = None
    activated: frozenset[str] = frozenset()  # ships done in the current phase
    activation: Activation | None = None
    pending: PendingRoll | None = None
    offer: Offer | None = None
    choices: tuple[Choice, ...] = ()
    defender: str | None = None
    winner: str | None = None
    result: str = ""
    strike_points: tuple[tuple[str, int], ...] = ()
    event_deck: tuple[str, ...] = ()
    event_face_up: str | None = None
    objective: str | None = None  # an objective card feeding Strike Points
    scrolling_sea: bool = False  # optional rule: the table scrolls instead of ships sailing off it
    tutorial: bool = False  # a guided first game: its first side is the learner (game/tutorial.py)
    test_dice: bool = False
    last_turn: int = 10
    log_position: int = 0  # events applied so far; seeds the dice of the next decision
    undo_request: tuple[str, int] | None = None  # (player, log length when asked)
    prep: Preparation | None = None  # the drafted set-up, while (and after) it runs
    extra: tuple[tuple[str, str], ...] = field(default=())

    # -- look-ups ------------------------------------------------------------------

    def ship(self, ship_id: str) -> Ship:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def squadron(self, player: str) -> Squadron:
        for q in self.squadrons:
            if q.player == player:
                return q
        raise KeyError(player)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(q.player for q in self.squadrons)

    def opponent(self, player: str) -> str:
        """The other side (a player, or in a fleet battle the other team)."""
        mine = self.team_of(player)
        return next(t for t in self.teams if t != mine)

    def team_of(self, player: str) -> str:
        """The side a squadron fights on: its team in a fleet battle, else the player."""
        for q in self.squadrons:
            if q.player == player:
                return q.team or q.player
        return player

    @property
    def teams(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(q.team or q.player for q in self.squadrons))

    @property
    def fleet_battle(self) -> bool:
        return len(self.teams) != len(self.squadrons)

    def players_of(self, side: str) -> tuple[str, ...]:
        """The squadrons (players) of a side; a player is its own side outside fleet battles."""
        return tuple(q.player for q in self.squadrons if (q.team or q.player) == side)

    def allied(self, a: str, b: str) -> bool:
        """Two players (squadron ids) on the same side."""
        return self.team_of(a) == self.team_of(b)

    def ships_of(self, player: str) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if s.controller == player)

    def with_ship(self, ship: Ship) -> Game:
        return evolve(self, ships=tuple(ship if s.id == ship.id else s for s in self.ships))

    def with_squadron(self, squadron: Squadron) -> Game:
        return evolve(
            self, squadrons=tuple(squadron if q.player == squadron.player else q for q in self.squadrons)
        )

    def flagship_of(self, player: str) -> Ship | None:
        fs = self.squadron(player).flagship
        return self.ship(fs) if fs else None
