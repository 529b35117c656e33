from __future__ import annotations

from typing import Any

import pytest

from game.model import evolve
from game.systems.orders import OrderBook
from game.systems.wsim import SYSTEM
from tests.systems.helpers import Table


def setup(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "players": ["British", "French"],
        "referee": "Umpire",
        "wind": {"direction": 1, "velocity": 3},
        "wind_shift_number": 5,
        "ship": [
            {"id": "Victory", "player": "British", "class": 1, "battle_sail": 3, "full_sail": 5, "turning": 1,
             "quality": "Cr", "guns": 14, "carronades": 2, "hull": 30, "crew": [10, 10, 10], "rigging": [8, 8, 8],
             "heading": 3, "leaders": ["Nelson"], "nation": "British"},
            {"id": "Redoutable", "player": "French", "class": 3, "battle_sail": 4, "full_sail": 6, "turning": 2,
             "quality": "Av", "guns": 9, "hull": 20, "crew": [8, 8, 8], "rigging": [6, 6, 6, 6], "heading": 6,
             "leaders": ["Lucas"]},
        ],
    }
    doc.update(changes)
    return doc


@pytest.fixture
def table() -> Table:
    return Table(SYSTEM, setup())


def at(table: Table, phase: str, turn: int = 1, **ships: dict[str, Any]) -> Table:
    """Put the game in a phase, with ship log changes, to test one rule from there (no secret orders open: those of
    the phase a `next` reached are not this phase's)."""
    state = evolve(table.state, phase=phase, turn=turn, orders=OrderBook())
    for name, changes in ships.items():
        state = state.with_ship(evolve(state.ship(name), **changes))
    table.state = state
    return table


def keep_phases(table: Table) -> Table:
    """The setup option skip_empty = false: every phase waits for the referee's `next`, and the last load does
    not end the turn, for a test of one rule inside a phase."""
    table.state = evolve(table.state, options=evolve(table.state.options, skip_empty=False))
    return table
