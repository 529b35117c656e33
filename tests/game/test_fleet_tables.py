"""The benchmarks' fleet tables (benchmarks/fleets.py) must be tables a game could have: the options'
speed and words are measured and recorded on them (tests/game/test_option_words.py). At first their
back rows' bows lay inside the sterns of the row ahead, and every push in a crowd was blocked from the
start: a cost no real table has."""

from __future__ import annotations

import itertools

import pytest

from benchmarks.fleets import fleet
from game import geometry as geo
from game.phases.common import hull


@pytest.mark.parametrize("per_side", [16, 32, 64])
def test_no_two_bases_overlap_and_all_are_on_the_table(per_side: int) -> None:
    game = fleet(per_side)
    assert len(game.ships) == 2 * per_side
    shapes = [(s.id, hull(s).polygon) for s in game.ships]
    for (a, pa), (b, pb) in itertools.combinations(shapes, 2):
        assert pa.intersection(pb).area <= 1e-9, (a, b)
    for s in game.ships:
        assert not geo.off_table(hull(s).polygon, game.table.width, game.table.height), s.id
