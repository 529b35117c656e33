"""Reproducible dice for service and bot tests: each game a test creates gets the next chosen seed
(1, 2, 3 …), so a failure comes back on the next run. Games in production draw secret seeds."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from game.dice import seed_from_number


def counting_seeds(start: int = 1) -> Callable[[], str]:
    numbers = itertools.count(start)
    return lambda: seed_from_number(next(numbers))
