"""The interface every game system offers the service, the bot and the tests (docs/systems/README.md).

A system is pure: frozen states and events, `decide` holds every rule and raises a typed
`RulesError` (game/errors.py) saying what was wrong and what is allowed, `apply` never checks and
never rolls, and replaying the events from the initial state rebuilds the state exactly. States,
commands and events round-trip through `game.codec` (the `events` and `commands` registries and
`state_type`).

Oak & Iron's modules fit it as they are: `initial_state` = `scenario.scenario_from_doc`,
`parse` = `notation.parse`, `format` = `notation.format_command`, `decide` = `engine.decide`
(its rules argument is optional), `apply` = `apply.apply`, `view` = `views.view_of`,
`event_for` = `views.event_for`, `account` = `account.account`, `deciders` = `phases.flow.deciders`,
and an empty `tables()`.

Commands carry the `player` who gives them ("" = hot-seat play). A front end must set it from the
authenticated user, never from what the user typed.

The service serves every system through this interface alone (game/service/: one store, one writer,
one undo). What only some systems have is a capability the system declares in `capabilities`, and
the service offers it only to them:
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from game.codec import TaggedRegistry
from game.dice import DiceSource
from game.systems.tables import TableSet

GM_AUTHORITY = "gm authority"  # GMs may act for a seat; a player asks for an undo and the opponent consents
OPTIONS = "options"  # the options in words of whoever acts, and a computer captain that plays them
DEADLINE_ACTIONS = "deadline actions"  # a passed deadline may play or pass for the late side
PICKS = "picks"  # secret picks kept apart (the pending-secrets table) until they are revealed
# a system without GM_AUTHORITY has a referee's seat instead: its referee alone takes a command back,
# and nobody acts for an absent seat (its clock reminds, and no deadline acts)

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")

SPECTATOR = None


@runtime_checkable
class GameSystem(Protocol[S, C, E]):
    name: str  # the registry key: "wsim", "iron_and_oak", "captains_sea"
    title: str
    events: TaggedRegistry  # every event type, for the codec
    commands: TaggedRegistry  # every command type, for the codec
    state_type: type[S]
    capabilities: frozenset[str]

    def initial_state(self, setup: Mapping[str, Any]) -> S:
        """The state before the first command, from a setup description (a parsed TOML document)."""
        ...

    def parse(self, line: str, state: S | None = None) -> C:
        """One line of the system's notation -> a command (ParseError if it is not one)."""
        ...

    def format(self, command: C) -> str:
        """A command back to the line that parses to it."""
        ...

    def decide(self, state: S, command: C, dice: DiceSource) -> list[E]:
        """Every rule: the events the command causes, or a RulesError and no change."""
        ...

    def apply(self, state: S, event: E) -> S:
        """Fold one event into the state: never checks, never rolls."""
        ...

    def view(self, state: S, viewer: str | None) -> Any:
        """What a player (or the referee, or a spectator: None) may see, secrets removed."""
        ...

    def event_for(self, event: E, viewer: str | None) -> E:
        """An event as the viewer may see it (another player's sealed order shows no text)."""
        ...

    def account(self, event: E) -> str:
        """One line a player reads ("" for an event that needs none)."""
        ...

    def deciders(self, state: S) -> set[str]:
        """The players (or the referee) the game is waiting for."""
        ...

    def tables(self) -> TableSet:
        """The system's play-aid tables, by name (for a `/rules` look-up)."""
        ...

    def over(self, state: S) -> bool:
        """Whether the game has ended."""
        ...

    def restored(self, state: S, reason: str, by: str, undid: int = 0) -> E:
        """The event an undo writes: `apply` turns any state into exactly `state`. `undid` names the
        command taken back where the system keeps it (a later undo then reaches the command before);
        a system that ignores it lets no undo reach past an earlier one."""
        ...

    def undo_refused(self, taken: Sequence[E], state: S) -> str | None:
        """Why one command's events may not be taken back ("" if they may): what every player has
        seen (dice, a revealed card or order), and whatever else the system's rules seal. None: not a
        command an undo takes back (a card picked, a clock changed); an undo looks at the one before."""
        ...


def replay(system: GameSystem[S, C, E], initial: S, events: Iterable[E]) -> S:
    state = initial
    for e in events:
        state = system.apply(state, e)
    return state


def run(system: GameSystem[S, C, E], state: S, line: str, dice: DiceSource) -> tuple[S, list[E]]:
    """Parse, decide and apply one line (tests and offline play)."""
    events = system.decide(state, system.parse(line, state), dice)
    return replay(system, state, events), events
