"""Iron & Oak (GMT Games, 2013) from a player aid's order procedures, as a referee assistant: hidden
order cards, guided order procedures and the Challenge/Response roller; the map, the gunnery and
every table the player aid does not hold stay with the players (docs/systems/iron_and_oak.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.dice import DiceSource
from game.systems.common import Assistant
from game.systems.iron_and_oak import account as _account
from game.systems.iron_and_oak import engine, notation, setup, views
from game.systems.iron_and_oak.apply import apply as _apply
from game.systems.iron_and_oak.commands import COMMANDS
from game.systems.iron_and_oak.events import EVENTS
from game.systems.iron_and_oak.model import IOGame
from game.systems.tables import TableSet, load_tables


class IronAndOak(Assistant):
    name = "iron_and_oak"
    title = "Iron & Oak"
    events = EVENTS
    commands = COMMANDS
    state_type = IOGame

    def initial_state(self, setup_doc: Mapping[str, Any]) -> IOGame:
        return setup.initial_state(setup_doc)

    def parse(self, line: str, state: IOGame | None = None) -> Any:
        return notation.parse(line, state)

    def format(self, command: Any) -> str:
        return notation.format_command(command)

    def decide(self, state: IOGame, command: Any, dice: DiceSource) -> list[Any]:
        return engine.decide(state, command, dice)

    def apply(self, state: IOGame, event: Any) -> IOGame:
        return _apply(state, event)

    def view(self, state: IOGame, viewer: str | None) -> IOGame:
        return views.view(state, viewer)

    def event_for(self, event: Any, viewer: str | None) -> Any:
        return views.event_for(event, viewer)

    def account(self, event: Any) -> str:
        return _account.account(event)

    def deciders(self, state: IOGame) -> set[str]:
        return engine.deciders(state)

    def tables(self) -> TableSet:
        return load_tables(self.name)


SYSTEM = IronAndOak()
