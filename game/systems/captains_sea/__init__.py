"""Captain's Sea (Legion Wargames, 2021) from its Player Aid Card, as a look-up and turn
assistant: the Damage Effects and Morale Effects tables read together from one three-dice roll,
movement rates, secret maneuver blocks over 12 impulses, the crew's morale and status
(docs/systems/captains_sea.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.dice import DiceSource
from game.systems.captains_sea import account as _account
from game.systems.captains_sea import engine, notation, setup, views
from game.systems.captains_sea.apply import apply as _apply
from game.systems.captains_sea.commands import COMMANDS
from game.systems.captains_sea.events import EVENTS
from game.systems.captains_sea.model import CSGame
from game.systems.common import Assistant
from game.systems.tables import TableSet, load_tables


class CaptainsSea(Assistant):
    name = "captains_sea"
    title = "Captain's Sea"
    events = EVENTS
    commands = COMMANDS
    state_type = CSGame

    def initial_state(self, setup_doc: Mapping[str, Any]) -> CSGame:
        return setup.initial_state(setup_doc)

    def parse(self, line: str, state: CSGame | None = None) -> Any:
        return notation.parse(line, state)

    def format(self, command: Any) -> str:
        return notation.format_command(command)

    def decide(self, state: CSGame, command: Any, dice: DiceSource) -> list[Any]:
        return engine.decide(state, command, dice)

    def apply(self, state: CSGame, event: Any) -> CSGame:
        return _apply(state, event)

    def view(self, state: CSGame, viewer: str | None) -> CSGame:
        return views.view(state, viewer)

    def event_for(self, event: Any, viewer: str | None) -> Any:
        return views.event_for(event, viewer)

    def account(self, event: Any) -> str:
        return _account.account(event)

    def deciders(self, state: CSGame) -> set[str]:
        return engine.deciders(state)

    def tables(self) -> TableSet:
        return load_tables(self.name)


SYSTEM = CaptainsSea()
