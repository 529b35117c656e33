"""The options judge where a colliding move ends without playing it (issue 29): at the point of contact,
when the collision can move neither the ship nor any enemy (it runs onto land, or the ship of its own
side it strikes is the one pushed). A player who packs a squadron hull to hull, runs ships aground
beside their friends, entangles them, captures one, parks them on the table's edge or plays with the
Scrolling Sea must still be offered exactly what the engine finds when every move, the plain one
included, is played through it.

The reference is the engine itself: `_closing_move_played` (every turning move tried) and the plain
move tried as an order."""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from benchmarks.engine import engagement, to_movement
from game import option_geometry, options
from game.commands import Activate
from game.model import Game, Ship, ShipSide, Status
from game.options import options_for
from game.rules_data import load_rules
from game.views import view_of

RULES = load_rules()


def _packed(seed: int) -> Game:
    """The Engagement's squadrons packed hull to hull in a clump each, 5-9" apart, at odd headings;
    some ships Aground, some pairs Entangled, a side unloaded here and there, now and then one a
    prize (Captured) or the table under the Scrolling Sea, and a clump against the table's edge."""
    rng = random.Random(seed)
    state = to_movement(replace(engagement(), seed=seed))
    t = state.table
    centres = {}
    for player in state.players:
        x = rng.uniform(4, t.width - 4) if rng.random() < 0.7 else rng.choice([1.2, t.width - 1.2])
        centres[player] = (x, rng.uniform(4, t.height - 4))
    a, b = state.players[:2]
    # apart enough for guns, near enough to bear
    centres[b] = (min(max(centres[a][0] + rng.uniform(-4, 4), 1.2), t.width - 1.2),
                  centres[a][1] + rng.choice([-1, 1]) * rng.uniform(3, 12))
    if not 2 < centres[b][1] < t.height - 2:
        centres[b] = (centres[b][0], 2 * centres[a][1] - centres[b][1])
    ships: list[Ship] = []
    for s in state.ships:
        cx, cy = centres[s.controller]
        heading = float(rng.choice([0, 90, 180, 270, rng.uniform(0, 360)]))
        placed = replace(s, x=min(max(cx + rng.uniform(-3, 3), 0.8), t.width - 0.8),
                         y=min(max(cy + rng.uniform(-3, 3), 0.8), t.height - 0.8), heading=heading,
                         reload=frozenset(side for side in ShipSide if rng.random() < 0.25))
        if rng.random() < 0.15:
            placed = replace(placed, statuses=placed.statuses | {Status.AGROUND})
        ships.append(placed)
    if rng.random() < 0.4:  # two friends Entangled
        i, j = rng.sample(range(len(ships)), 2)
        ships[i] = replace(ships[i], entangled_with=ships[i].entangled_with | {ships[j].id})
        ships[j] = replace(ships[j], entangled_with=ships[j].entangled_with | {ships[i].id})
    if seed % 7 == 0:  # a prize: a collision with its own side's ship would recapture it
        k = rng.randrange(len(ships))
        other = next(p for p in state.players if p != ships[k].controller)
        ships[k] = replace(ships[k], statuses=ships[k].statuses | {Status.CAPTURED}, controller=other)
    found = replace(state, ships=tuple(ships))
    if seed % 5 == 0:
        found = replace(found, scrolling_sea=True)
    return found


def _played(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(options, "_closing_move", options._closing_move_played)
    monkeypatch.setattr(options, "_plain_move", lambda g, ship, rules: options._trial(
        g, Activate(ship.id, player=ship.controller), rules))


@pytest.mark.parametrize("seed", range(1, 17))
def test_judged_collisions_are_the_engines(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _packed(seed)
    for player in state.players:
        seen = view_of(replace(state, active_player=player), player)
        judged = options_for(seen, RULES)
        with monkeypatch.context() as m:
            _played(m)
            played = options_for(seen, RULES)
        assert judged == played, (seed, player)


def test_the_packs_collide(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a vacuous comparison: plain and turning moves alike are judged at a contact."""
    contacts: Counter[str] = Counter()
    contact = option_geometry.contact

    def counted(*args: Any) -> tuple[Ship, str] | None:
        found = contact(*args)
        if found is not None:
            contacts[sys._getframe(1).f_code.co_name] += 1  # _plain_move, or _where for a turning move
        return found

    monkeypatch.setattr(option_geometry, "contact", counted)
    for seed in range(1, 17):
        state = _packed(seed)
        for player in state.players:
            options_for(view_of(replace(state, active_player=player), player), RULES)
    assert contacts["_plain_move"] >= 30 and contacts["_where"] >= 100, contacts
