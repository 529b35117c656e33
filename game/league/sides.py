"""Which entrant of a pairing takes side A, so that over a league everyone plays side A and side B as
evenly as the pairings allow. The rule is chess's Swiss colour allocation, with sides for colours:

1. the entrant who has played side A more often (counted against their side B games) takes side B;
2. equal so far: each takes the side they did not play last time, when that gives them different
   sides;
3. still undecided (both played the same side last, or neither has played yet): the better placed
   takes the side they are due (the other of their last; side A in their first game), the other the
   rest.

Byes have no sides. Nothing here moves who plays whom: the pairing comes first (game/league/pairing.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Pair = tuple[str, str]


@dataclass(frozen=True)
class SideRecord:
    """An entrant's sides so far: games as side A, as side B, and the side of the last one ("" if none)."""

    a: int = 0
    b: int = 0
    last: str = ""

    @property
    def lean(self) -> int:
        """How many more side A games than side B."""
        return self.a - self.b

    @property
    def due(self) -> str:
        return "B" if self.last == "A" else "A"

    def played(self, side: str) -> SideRecord:
        return SideRecord(self.a + (side == "A"), self.b + (side == "B"), side)


def records(history: Iterable[Pair]) -> dict[str, SideRecord]:
    """Every entrant's sides from the pairings played so far, in the order they were played (A first)."""
    found: dict[str, SideRecord] = {}
    for a, b in history:
        found[a] = found.get(a, SideRecord()).played("A")
        found[b] = found.get(b, SideRecord()).played("B")
    return found


def allocate(pairs: Sequence[Pair], sides: Mapping[str, SideRecord], place: Mapping[str, int]) -> list[Pair]:
    """The same pairs, each as (side A, side B). `place` is each entrant's standing (1 is the best; an
    entrant missing from it counts as placed last)."""
    return [_one(x, y, sides, place) for x, y in pairs]


def _one(x: str, y: str, sides: Mapping[str, SideRecord], place: Mapping[str, int]) -> Pair:
    rx, ry = sides.get(x, SideRecord()), sides.get(y, SideRecord())
    if rx.lean != ry.lean:  # rule 1: the one more on side A takes B
        return (y, x) if rx.lean > ry.lean else (x, y)
    if rx.last and ry.last and rx.last != ry.last:  # rule 2: both alternate
        return (x, y) if rx.due == "A" else (y, x)
    better, other = (x, y) if place.get(x, 1 << 30) <= place.get(y, 1 << 30) else (y, x)
    due = sides.get(better, SideRecord()).due  # rule 3
    return (better, other) if due == "A" else (other, better)
