"""The options' closing moves are sketched on shared geometry instead of each being played through the
engine (issue 29). A player who parks ships against shoals, fog, rocks, the table edge and each
other's bases, with guns unloaded on one side or both, must still be offered exactly what the engine
would find: the same moves, the same words. The reference plays every turning move through the engine
(`_closing_move_played`, what the options did before the sketches)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from benchmarks.engine import engagement, to_movement
from game import options
from game.model import Game, ShipSide
from game.options import options_for
from game.rules_data import load_rules
from game.views import view_of

RULES = load_rules()


def _scattered(seed: int) -> Game:
    """The crowded Engagement's ships thrown about the table: near its terrain and edges, touching or
    nearly touching one another, at any heading, some sides unloaded."""
    rng = random.Random(seed)
    state = to_movement(replace(engagement(), seed=seed))
    t = state.table
    ships = []
    anchors = [(x, y) for piece in t.terrain for x, y in piece.points] + [(1.5, 1.5), (t.width - 1.5, t.height / 2)]
    for s in state.ships:
        if rng.random() < 0.5:  # beside terrain or an edge
            x, y = rng.choice(anchors)
            x, y = x + rng.uniform(-2.5, 2.5), y + rng.uniform(-2.5, 2.5)
        elif ships and rng.random() < 0.5:  # beside another base
            o = rng.choice(ships)
            x, y = o.x + rng.uniform(-3, 3), o.y + rng.uniform(-3, 3)
        else:
            x, y = rng.uniform(2, t.width - 2), rng.uniform(2, t.height - 2)
        reload = frozenset(side for side in ShipSide if rng.random() < 0.3)
        ships.append(replace(s, x=min(max(x, 1.0), t.width - 1.0), y=min(max(y, 1.0), t.height - 1.0),
                             heading=float(rng.choice([0, 45, 90, 135, 180, 225, 270, 315, rng.uniform(0, 360)])),
                             reload=reload))
    return replace(state, ships=tuple(ships))


@pytest.mark.parametrize("seed", range(1, 19))
def test_sketched_closing_moves_are_the_engines(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _scattered(seed)
    player = state.active_player
    assert player is not None
    sketched = options_for(view_of(state, player), RULES)
    monkeypatch.setattr(options, "_closing_move", options._closing_move_played)
    played = options_for(view_of(state, player), RULES)
    assert sketched == played


def test_the_scatterings_offer_closing_moves() -> None:
    """Not a vacuous comparison: the positions above do offer closing moves, sketched ones among them."""
    offered = 0
    for seed in range(1, 19):
        state = _scattered(seed)
        found = options_for(view_of(state, state.active_player or ""), RULES)
        offered += sum(o.text.startswith("to bring guns to bear") for o in found.items)
    assert offered >= 10
