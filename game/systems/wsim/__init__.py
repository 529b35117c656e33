"""Wooden Ships & Iron Men with the Casus Belli battle and fire rules (their play aid), as a referee
assistant: the map stays on the players' table (docs/systems/wsim.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.dice import DiceSource
from game.systems.common import Assistant
from game.systems.tables import TableSet, load_tables
from game.systems.wsim import account as _account
from game.systems.wsim import engine, notation, setup, views
from game.systems.wsim.apply import apply as _apply
from game.systems.wsim.commands import COMMANDS
from game.systems.wsim.events import EVENTS
from game.systems.wsim.model import WsimGame
from game.systems.wsim.skips import may_still_load


def deciders(state: WsimGame) -> set[str]:
    """Owners whose secret orders are awaited, or in the Load Phase the owners of ships that may still
    load (the last load ends it); otherwise the referee, who enters printed-table hits and moves the
    game to the next phase when the table is done."""
    if state.result:
        return set()
    if state.orders.open and not state.orders.complete:
        return state.orders.waiting_for()
    if state.phase == "J" and state.options.skip_empty:
        loading = {s.player for s in state.ships if may_still_load(s)}
        if loading:
            return loading
    return {state.referee}


class Wsim(Assistant):
    name = "wsim"
    title = "Wooden Ships & Iron Men (Casus Belli rules)"
    events = EVENTS
    commands = COMMANDS
    state_type = WsimGame

    def initial_state(self, setup_doc: Mapping[str, Any]) -> WsimGame:
        return setup.initial_state(setup_doc)

    def parse(self, line: str, state: WsimGame | None = None) -> Any:
        return notation.parse(line, state)

    def format(self, command: Any) -> str:
        return notation.format_command(command)

    def decide(self, state: WsimGame, command: Any, dice: DiceSource) -> list[Any]:
        return engine.decide(state, command, dice)

    def apply(self, state: WsimGame, event: Any) -> WsimGame:
        return _apply(state, event)

    def view(self, state: WsimGame, viewer: str | None) -> WsimGame:
        return views.view(state, viewer)

    def event_for(self, event: Any, viewer: str | None) -> Any:
        return views.event_for(event, viewer)

    def account(self, event: Any) -> str:
        return _account.account(event)

    def deciders(self, state: WsimGame) -> set[str]:
        return deciders(state)

    def tables(self) -> TableSet:
        return load_tables(self.name)


SYSTEM = Wsim()
