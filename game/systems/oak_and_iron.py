"""Oak & Iron as a GameSystem (game/systems/base.py): the first implementation of the interface the
referee-assistant systems share. Its modules fit as they are, so this only names them; they are
imported when first called, which keeps `game.systems` light for the referee systems."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.dice import DiceSource
from game.systems.tables import TableSet


class OakAndIron:
    """Oak & Iron's own modules behind the interface, unchanged: the engine, the notation, the views and
    the account are called as they are; the game service serves Oak & Iron through them directly."""

    name = "oak_and_iron"
    title = "Oak & Iron"

    def __init__(self) -> None:
        from game.commands import COMMANDS
        from game.events import EVENTS
        from game.model import Game

        self.events, self.commands, self.state_type = EVENTS, COMMANDS, Game

    def initial_state(self, setup: Mapping[str, Any]) -> Any:
        from game.scenario import scenario_from_doc

        return scenario_from_doc(setup, "setup")

    def parse(self, line: str, state: Any = None) -> Any:
        from game.notation import parse

        return parse(line, state)

    def format(self, command: Any) -> str:
        from game.notation import format_command

        return format_command(command)

    def decide(self, state: Any, command: Any, dice: DiceSource) -> list[Any]:
        from game.engine import decide

        return decide(state, command, dice)

    def apply(self, state: Any, event: Any) -> Any:
        from game.apply import apply

        return apply(state, event)

    def view(self, state: Any, viewer: str | None) -> Any:
        from game.views import view_of

        return view_of(state, viewer)

    def event_for(self, event: Any, viewer: str | None) -> Any:
        from game.views import event_for

        return event_for(event, viewer)

    def account(self, event: Any) -> str:
        from game.account import account

        return account(event)

    def deciders(self, state: Any) -> set[str]:
        from game.phases.flow import deciders

        return deciders(state)

    def tables(self) -> TableSet:
        return TableSet("oak_and_iron")


SYSTEM = OakAndIron()
