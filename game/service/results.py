"""What the service's parts answer with: plain frozen values a front end reads, never SQL rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from game.fairness import Verification
from game.options import Options
from game.rules_data import RulesData
from game.service.decision import Decision
from game.views import View


@dataclass(frozen=True)
class SeatInfo:
    """One side of a game and who holds it: a member, the computer captain, or nobody yet."""

    player: str
    user_id: str | None
    name: str
    ai: bool

    @property
    def free(self) -> bool:
        return self.user_id is None and not self.ai


@dataclass(frozen=True)
class SquadronInfo:
    name: str
    size: str
    faction: str
    points: int
    ships: int
    complete: bool = True  # legal: not a list still being built


@dataclass(frozen=True)
class Expect:
    """The decision a button or menu was made for. A command sent with it is refused, under the game's
    lock and before anything else is looked at, once the game has moved past that decision: a button
    from yesterday's roll never acts on today's."""

    roll: int | None = None  # the number of the RollAwaitsChoice event that opened the waiting roll
    turn: int | None = None  # the turn whose initiative pick a hand menu offers
    position: int | None = None  # the log length an options menu was read at
    decision: Decision | None = None  # what a scheduled action was planned for (game/service/decision.py)


@dataclass(frozen=True)
class Outcome:
    game_id: int
    first_seq: int
    last_seq: int
    events: tuple[Any, ...]  # as the actor may see them
    view: View
    replayed: bool = False  # the request id had been seen: this is the first answer again
    posts: tuple[int, ...] = ()  # the outbox rows written with the events (what the bot will post)


@dataclass(frozen=True)
class ScenarioCheck:
    """What a scenario would make, checked before anything is made for it (Lobby.check_scenario)."""

    name: str
    tutorial: bool = False  # a guided first game: its creator against the computer captain, in a thread


@dataclass(frozen=True)
class GameInfo:
    id: int
    name: str
    guild_id: str
    channel_id: str
    status: str
    seats: tuple[SeatInfo, ...]
    turn: int
    phase: str
    dice_commitment: str = ""  # SHA-256 of the secret dice seed, published when the game begins
    system: str = "oak_and_iron"  # a referee system's games are listed with the rest, played with /ref

    def seat(self, player: str) -> SeatInfo | None:
        return next((s for s in self.seats if s.player == player), None)


@dataclass(frozen=True)
class MyGame:
    """One of a user's unfinished games, wherever it is played."""

    id: int
    name: str
    guild_id: str
    channel_id: str
    turn: int
    phase: str
    waiting_on_me: tuple[str, ...]  # the user's sides the game waits for
    deadline: datetime | None


@dataclass(frozen=True)
class GameChannel:
    """Where one game of a Discord server is played, for `python -m bot --check`. `channel_id` is the
    place the game posts in: its thread for a game in a thread (the thread's parent channel is not
    stored; Discord tells it)."""

    game_id: int
    guild_id: str
    channel_id: str
    thread_id: str | None
    over: bool


@dataclass(frozen=True)
class PlanRefused:
    """A planned order that could not be carried out: said privately to whoever planned it."""

    user_id: str
    player: str
    line: str
    reason: str


@dataclass(frozen=True)
class DiceCheck:
    """A finished game's dice recomputed from its log and its revealed seed."""

    verification: Verification
    seed: str
    commitment: str
    test_dice: bool


@dataclass(frozen=True)
class RebuildReport:
    loaded: int
    damaged: tuple[tuple[int, str], ...]  # games that could not be rebuilt, and why


@dataclass(frozen=True)
class AuditReport:
    game_id: int
    events: int
    mismatches: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.mismatches


@dataclass(frozen=True)
class BoardRead:
    """Everything a board post and the status message need, read from one load of the game: what a
    spectator sees (never more), the account of the events posted, the options of whoever acts, the
    roll waiting, and once the game is over its seed and its GM overrides."""

    info: GameInfo
    spectator: View
    events: tuple[Any, ...]  # the events of the post, as a spectator sees them
    waiting: tuple[Options, ...]  # the options of each player the game waits for
    position: int  # the log length: the moment a menu belongs to
    roll: int | None  # the decision the roll buttons answer (Reading.roll_decision)
    rules: RulesData
    deadline: datetime | None
    status_message: str | None
    due: tuple[str, ...]  # the players the game waits for
    owed: tuple[str, ...]  # the players who owe an initiative pick (phases.common.owes_pick)
    seed: str | None = None  # revealed once the game is over
    overrides: str = ""  # the game's GM overrides in one line, once it has ended with these events
    hint: str = ""  # a tutorial's hint for the step the post asks of its learner (game/tutorial.py)
    paused: bool = False  # the game's clock is paused (game/service/pauses.py): no deadline runs
    paused_until: datetime | None = None  # when the pause ends by itself (None: when someone resumes it)


@dataclass(frozen=True)
class HandRead:
    """What the pick button opens, from one load: the sides the member gives orders for, those that owe
    a pick now, and the view of the first of them (its own hand), with the game's cards."""

    players: tuple[str, ...]
    owed: tuple[str, ...]
    view: View
    rules: RulesData
    hint: str = ""  # a tutorial's learner: what each card of the hand does (game/tutorial.py)
