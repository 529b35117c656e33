from __future__ import annotations

from typing import Any

import pytest

from game.model import evolve
from game.systems import orders as od
from game.systems.iron_and_oak import SYSTEM
from tests.systems.helpers import Table


def setup() -> dict[str, Any]:
    return {
        "players": ["Union", "Confederate"],
        "referee": "Umpire",
        "ship": [
            {"id": "Monitor", "player": "Union", "maneuver": "d10d6", "ram": "d6", "wl": "d10d8", "draft": 2, "hits": 8},
            {"id": "Minnesota", "player": "Union", "maneuver": "d8", "draft": 5, "hits": 14},
            {"id": "Virginia", "player": "Confederate", "maneuver": "d8", "ram": "d10d8", "wl": "d10d10", "draft": 4,
             "hits": 12},
        ],
    }


@pytest.fixture
def table() -> Table:
    return Table(SYSTEM, setup())


def acting(table: Table, orders: dict[str, str], turn: int = 1, **ships: dict[str, Any]) -> Table:
    """The Action Phase with these orders sealed (and ship changes), to test one procedure from there."""
    state = evolve(table.state, phase="action", turn=turn)
    for name, changes in ships.items():
        state = state.with_ship(evolve(state.ship(name), **changes))
    slots = tuple((state.ship(n).player, n) for n in orders)
    state = SYSTEM.apply(state, od.OrdersOpened("order", slots, od.ONE_BY_ONE))
    for name, text in orders.items():
        state = SYSTEM.apply(state, od.OrderSubmitted(state.ship(name).player, name, text))
    table.state = state
    return table
