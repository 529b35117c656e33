"""What plays by itself after each commit: a computer captain's decision, a planned order, or
standing orders, whichever the game now waits on, read from one load of the game (the driver
calls `step` until nothing is left to play)."""

from __future__ import annotations

from dataclasses import dataclass

from game.service.commands import Commands
from game.service.orders_service import OrderNote, StandingOrders
from game.service.results import Outcome, PlanRefused
from game.service.store import GameStore


@dataclass(frozen=True)
class Played:
    outcomes: tuple[Outcome, ...] = ()
    refused: tuple[PlanRefused, ...] = ()  # planned orders that could not be carried out: told to their planners
    notes: tuple[OrderNote, ...] = ()  # what standing orders did or wait for: told to their players


class AutoPlay:
    def __init__(self, store: GameStore, commands: Commands, orders: StandingOrders) -> None:
        self.store = store
        self.commands = commands
        self.orders = orders

    async def step(self, game_id: int) -> Played:
        """Play the one thing now due, if any: a captain first, then a planned order, then standing orders."""
        loaded = await self.store.load(game_id)
        captain = await self.commands.captain_move(loaded)
        if captain is not None:
            return Played((captain,))
        planned = await self.commands.run_planned_of(loaded)
        if planned:
            return Played(tuple(x for x in planned if isinstance(x, Outcome)),
                          tuple(x for x in planned if isinstance(x, PlanRefused)))
        standing = await self.orders.run_of(loaded)
        return Played(tuple(x for x in standing if isinstance(x, Outcome)), (),
                      tuple(x for x in standing if isinstance(x, OrderNote)))
