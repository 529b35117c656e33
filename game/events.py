"""What happened. `decide` emits these; `apply` folds them into the state without checking.

Events carry resulting values (new totals, new poses) so that applying them needs no rules and
no dice: a replay rebuilds the state exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.codec import TaggedRegistry
from game.model import (
    Activation,
    Choice,
    Game,
    Offer,
    PendingRoll,
    Phase,
    PoolPiece,
    Sail,
    Ship,
    ShipSide,
    Squadron,
    Status,
    Terrain,
)

EVENTS = TaggedRegistry()



@EVENTS.register
@dataclass(frozen=True)
class PhaseBegan:
    phase: Phase
    turn: int


@EVENTS.register
@dataclass(frozen=True)
class ActivePlayer:
    player: str | None


@EVENTS.register
@dataclass(frozen=True)
class CardPicked:
    player: str
    card: str | None  # None: the hand was empty


@EVENTS.register
@dataclass(frozen=True)
class CardsRevealed:
    cards: tuple[tuple[str, str | None], ...]  # (player, card)


@EVENTS.register
@dataclass(frozen=True)
class EventCardDrawn:
    card: str | None  # None: no event deck in this game, the draw is ignored


@EVENTS.register
@dataclass(frozen=True)
class EventDiscarded:
    card: str


@EVENTS.register
@dataclass(frozen=True)
class TableScrolled:
    """Scrolling Sea: every ship and terrain piece shifts by (dx, dy); terrain pushed off the table
    comes back near the opposite edge."""

    dx: float
    dy: float
    terrain: tuple[tuple[str, tuple[tuple[float, float], ...]], ...]  # every piece's new outline


@EVENTS.register
@dataclass(frozen=True)
class WeatherEdgeChanged:
    edge: str


@EVENTS.register
@dataclass(frozen=True)
class InitiativeWon:
    player: str
    reason: str  # card | admiral | challenge


@EVENTS.register
@dataclass(frozen=True)
class DiceRolled:
    purpose: str
    kind: str
    faces: tuple[str, ...]
    successes: int
    player: str = ""
    ship: str = ""
    at: int = -1  # the dice the decision had drawn before these (-1: not recorded, before verifiable dice)
    needed: int = 0  # successes a test needs to pass (0: not a pass-or-fail test)
    target: str = ""  # the ship the roll is made against (attacks, criticals, collisions)
    kept: tuple[str, ...] = ()  # a re-roll of some dice of a check: the faces kept from before


@EVENTS.register
@dataclass(frozen=True)
class DiceRerolled:
    player: str
    ship: str
    positions: tuple[int, ...]  # 0-based positions re-rolled
    faces: tuple[str, ...]  # every die after the re-roll
    successes: int
    means: str  # skill | fortune
    at: int = -1  # as DiceRolled.at: the new dice are drawn in the order of `positions`
    purpose: str = ""  # the roll's purpose and kind, as in its DiceRolled
    kind: str = ""
    needed: int = 0  # successes a test needs to pass (0: not a pass-or-fail test)


@EVENTS.register
@dataclass(frozen=True)
class RollAwaitsChoice:
    pending: PendingRoll
    fortune_left: int = -1  # the roller's Fortune Points (-1 in logs written before it was kept)


@EVENTS.register
@dataclass(frozen=True)
class RollSettled:
    player: str
    ship: str
    purpose: str
    passed: bool


@EVENTS.register
@dataclass(frozen=True)
class FortuneSpent:
    player: str
    left: int


@EVENTS.register
@dataclass(frozen=True)
class ActivationBegan:
    activation: Activation
    speed_rating: int | None = None  # the speed the ship has (None in logs written before it was kept)
    speed_limited_by: str = ""  # Aground, Anchored, Crippled: what holds the speed rating down


@EVENTS.register
@dataclass(frozen=True)
class ActivationStep:
    """The activation moves on to its next step, carrying what the last step decided."""

    ship: str
    step: str
    speed_adjust: int = 0
    cut_free: bool = False
    speed_limit: int | None = None


@EVENTS.register
@dataclass(frozen=True)
class ActivationEnded:
    ship: str
    phase: Phase


@EVENTS.register
@dataclass(frozen=True)
class SeamanshipDone:
    ship: str
    action: str
    passed: bool
    note: str = ""


@EVENTS.register
@dataclass(frozen=True)
class ShipMoved:
    ship: str
    path: tuple[tuple[float, float, float], ...]  # poses from start to end (x, y, heading)
    reason: str  # move, turn, change_heading, cut_free, pushed, row, boarding, helm
    speed: int = 0
    stopped_by: str = ""


@EVENTS.register
@dataclass(frozen=True)
class Collided:
    ship: str
    other: str  # ship id or terrain id
    kind: str  # ship | land


@EVENTS.register
@dataclass(frozen=True)
class TrackChanged:
    ship: str
    track: str  # damage | fatigue
    amount: int  # as taken (may be clipped by the track's end)
    total: int


@EVENTS.register
@dataclass(frozen=True)
class StatusGained:
    ship: str
    status: Status


@EVENTS.register
@dataclass(frozen=True)
class StatusLost:
    ship: str
    status: Status


@EVENTS.register
@dataclass(frozen=True)
class SailChanged:
    ship: str
    sail: Sail


@EVENTS.register
@dataclass(frozen=True)
class ReloadMarker:
    ship: str
    side: ShipSide
    present: bool


@EVENTS.register
@dataclass(frozen=True)
class EntanglementChanged:
    ship: str
    other: str
    entangled: bool


@EVENTS.register
@dataclass(frozen=True)
class WakeMarker:
    ship: str
    present: bool


@EVENTS.register
@dataclass(frozen=True)
class FlagTransferred:
    player: str
    from_ship: str
    to_ship: str


@EVENTS.register
@dataclass(frozen=True)
class LandingPartyChanged:
    ship: str
    parties: tuple[tuple[float, float, str], ...]  # x, y, and the enemy ship it boards ('' ashore)


@EVENTS.register
@dataclass(frozen=True)
class OrderHalted:
    """An order given in one piece could not go on after a roll; the player gives the rest."""

    ship: str
    code: str
    message: str


@EVENTS.register
@dataclass(frozen=True)
class CardsReturned:
    player: str
    hand: tuple[str, ...]
    discards: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class StrikePointsCounted:
    points: tuple[tuple[str, int], ...]
    ships: tuple[tuple[str, int], ...]


@EVENTS.register
@dataclass(frozen=True)
class GameEnded:
    winner: str | None
    reason: str


@EVENTS.register
@dataclass(frozen=True)
class OfferMade:
    offer: Offer


@EVENTS.register
@dataclass(frozen=True)
class OfferClosed:
    player: str
    taken: bool


@EVENTS.register
@dataclass(frozen=True)
class ChoicesSet:
    """The decisions now awaited (replaces the previous list)."""

    choices: tuple[Choice, ...]


@EVENTS.register
@dataclass(frozen=True)
class ControlChanged:
    ship: str
    controller: str
    reason: str  # captured | recaptured


@EVENTS.register
@dataclass(frozen=True)
class OfficerLost:
    ship: str
    officer: str  # admiral | captain
    player: str


@EVENTS.register
@dataclass(frozen=True)
class AdmiralAssigned:
    player: str
    ship: str
    admiral: str
    value: int


@EVENTS.register
@dataclass(frozen=True)
class EffectBorrowed:
    player: str
    card: str


@EVENTS.register
@dataclass(frozen=True)
class UndoRequested:
    player: str
    before_seq: int  # the log length when asked: a later command makes the request stale
    by: str = ""  # the member who asked: they never consent to it, whichever other seat they hold


@EVENTS.register
@dataclass(frozen=True)
class ActedFor:
    """Someone other than the seated player gave the order that follows, or took the seat that
    follows (game/service/authority.py: acting_for): the log says who, and why."""

    player: str
    by: str  # the user who gave the order
    reason: str
    # gm: past the deadline or an empty seat (or ending the game); override: a GM's explicit override,
    # shown again when the game ends; stand-in: the member the player named for their time away
    kind: str = "gm"
    # the member a stand-in stands in for; the reason names them, and `by`, as `{away}` and `{by}` (the
    # account says them: game/account.py `said`). Empty in events logged before it, whose reason has a
    # mention written in
    away: str = ""


@EVENTS.register
@dataclass(frozen=True)
class StateRestored:
    """Undo: the game goes back to an earlier state (the log itself stays append-only)."""

    state: Game
    reason: str
    by: str = ""  # whose command took it back (a GM, or the consenting player): `{by}` in the reason


@EVENTS.register
@dataclass(frozen=True)
class HandTrimmed:
    player: str
    hand: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class AttackResolved:
    """The outcome of one attack roll, for accounts and the board's attack lines."""

    ship: str
    target: str
    kind: str
    side: str
    aim: str
    band: str
    hits: int
    damage: int
    fatigue: int
    rake: str = ""
    contact: str = ""  # close combat: the attacker's edge in contact (bow, stern, port, starboard), or boat


@EVENTS.register
@dataclass(frozen=True)
class EffectUsed:
    """A once-per-turn effect was spent (the tag names the effect and the turn)."""

    ship: str
    tag: str


# ---------------------------------------------------------------- the chapter-7 set-up


@EVENTS.register
@dataclass(frozen=True)
class SquadronEnlisted:
    """A squadron list joined a drafted game: its ships wait off the table until deployed."""

    squadron: Squadron
    ships: tuple[Ship, ...]


@EVENTS.register
@dataclass(frozen=True)
class SetupCardsDrawn:
    objective: str | None
    offered: tuple[str, ...]  # setting, deployment and advantage cards to draft from
    event_deck: tuple[str, ...]  # the shuffled event deck: secret, never in anyone's view of the event
    at: int = -1  # as DiceRolled.at: every card here was drawn by the dice source, objective first


@EVENTS.register
@dataclass(frozen=True)
class SetupStep:
    step: str
    to_act: str


@EVENTS.register
@dataclass(frozen=True)
class RoleChosen:
    attacker: str
    defender: str


@EVENTS.register
@dataclass(frozen=True)
class CardDrafted:
    player: str
    deck: str
    card: str


@EVENTS.register
@dataclass(frozen=True)
class DraftDiscarded:
    cards: tuple[str, ...]


@EVENTS.register
@dataclass(frozen=True)
class FortuneGained:
    player: str
    total: int
    card: str


@EVENTS.register
@dataclass(frozen=True)
class TerrainAdded:
    piece: PoolPiece


@EVENTS.register
@dataclass(frozen=True)
class TerrainPlaced:
    terrain: Terrain
    adjusted: bool  # moved in the Adjust Terrain step (else placed from the pool)


@EVENTS.register
@dataclass(frozen=True)
class TerrainRemoved:
    piece: str
    reason: str


@EVENTS.register
@dataclass(frozen=True)
class ClockChanged:
    """The game's clock changed: its settings, a GM's pause, resume or extension, a player's
    vacation, or a deadline acting. The clock is the service's; the log keeps every change."""

    change: str  # settings | paused | resumed | extended | deadline | away
    by: str  # the user who changed it ("" for the clock itself)
    detail: str  # says `{by}`, `{substitute}` and `{until}` where they belong (game/account.py `said`)
    # the time the change names (a vacation's end, an extended deadline), ISO 8601 UTC; the member asked to
    # stand in. Empty in events logged before they were, whose detail has the markup written in
    until: str = ""
    substitute: str = ""


@EVENTS.register
@dataclass(frozen=True)
class SeatHandedOver:
    """A side changes hands: from now on `to` plays it (a member's name, or the computer captain).
    The log keeps who played each turn."""

    player: str
    before: str  # who played it until now (display name)
    to: str
    by: str  # the user who handed it over (the side's player, or a GM)
    to_ai: bool = False


@EVENTS.register
@dataclass(frozen=True)
class AdjustPassed:
    player: str


@EVENTS.register
@dataclass(frozen=True)
class ShipDeployed:
    ship: str
    x: float
    y: float
    heading: float


Event = (
    PhaseBegan
    | ActivePlayer
    | CardPicked
    | CardsRevealed
    | EventCardDrawn
    | InitiativeWon
    | DiceRolled
    | DiceRerolled
    | RollAwaitsChoice
    | RollSettled
    | FortuneSpent
    | ActivationBegan
    | ActivationStep
    | ActivationEnded
    | SeamanshipDone
    | ShipMoved
    | Collided
    | TrackChanged
    | StatusGained
    | StatusLost
    | SailChanged
    | ReloadMarker
    | EntanglementChanged
    | WakeMarker
    | FlagTransferred
    | LandingPartyChanged
    | OrderHalted
    | CardsReturned
    | StrikePointsCounted
    | GameEnded
    | OfferMade
    | OfferClosed
    | ChoicesSet
    | ControlChanged
    | OfficerLost
    | AdmiralAssigned
    | EffectBorrowed
    | AttackResolved
    | HandTrimmed
    | UndoRequested
    | StateRestored
    | EventDiscarded
    | WeatherEdgeChanged
    | TableScrolled
    | EffectUsed
    | SquadronEnlisted
    | SetupCardsDrawn
    | SetupStep
    | RoleChosen
    | CardDrafted
    | DraftDiscarded
    | FortuneGained
    | TerrainAdded
    | TerrainPlaced
    | TerrainRemoved
    | AdjustPassed
    | SeatHandedOver
    | ClockChanged
    | ShipDeployed
)
