"""Who plays whom in a round.

Round robin uses the circle method: one entrant stays put, the others turn one place a round, so
every pair meets exactly once in n-1 rounds (n rounds with a bye when n is odd). Its sides come from a
fixed table (`_side_a`); a Swiss round's sides are given by game/league/sides.py.

Swiss pairs entrants of like standing: the order given is the standings (best first), and each is
paired with the nearest entrant below it that it has not met yet, backtracking when a choice would
leave someone without a fresh opponent. Only when no pairing without a rematch exists at all are
rematches allowed (a small league late in its rounds). With an odd number, the lowest-placed entrant
who has not had a bye sits out and is given the win.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

Pair = tuple[str, str]
SEARCH_BUDGET = 20_000  # steps of the rematch-free search before rematches are allowed


def swiss_rounds(entrants: int) -> int:
    """Enough rounds to separate a single undefeated entrant."""
    return max(1, math.ceil(math.log2(max(2, entrants))))


def round_robin_rounds(entrants: int) -> int:
    return entrants - 1 if entrants % 2 == 0 else entrants


def round_robin(entrants: Sequence[str], round_no: int) -> tuple[list[Pair], str | None]:
    """Round `round_no` (1-based) of the circle method: the pairs, each as (side A, side B), and who
    has the bye. Sides come from a fixed table, as chess's Berger tables give colours (`_side_a`)."""
    players: list[str | None] = list(entrants)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if n < 2:
        return [], players[0] if players else None
    fixed, rest = players[0], players[1:]
    place = {p: i for i, p in enumerate(rest)}  # where each stands in the turning ring
    shift = (round_no - 1) % (n - 1)
    rest = rest[-shift:] + rest[:-shift] if shift else rest
    ring = [fixed, *rest]
    pairs: list[Pair] = []
    bye = None
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if a is None or b is None:
            bye = a if b is None else b
            continue
        pairs.append((a, b) if _side_a(a, b, i == 0, round_no, place) else (b, a))
    return pairs, bye


def _side_a(a: str, b: str, fixed: bool, round_no: int, place: dict[str | None, int]) -> bool:
    """Whether `a` takes side A against `b`, by a fixed table that gives every entrant sides A and B
    turn about (never three games running on one side) and, over the whole round robin, as many of
    each as can be (one apart at most; none apart with an odd number of entrants).

    Two entrants of the turning ring, m places round it (m odd), meet when the ring has turned so that
    they face each other; a takes side A when half the distance from a to b round the ring, counted
    mod m, is odd. Swapping a and b turns that half-distance k into m - k, of the other parity, so
    exactly one of them takes A; for one entrant, k runs over 1..m-1 (half odd, half even) as the
    rounds go, one step a round, so their sides alternate. The entrant who stays put alternates by
    round; with an odd number of entrants the one who stays put is real and the empty seat turns in
    the ring, so each entrant takes against them the side they would have had against the empty seat,
    which makes their count even."""
    m = len(place)
    half = (m + 1) // 2  # the inverse of 2 mod m
    if not fixed:
        return ((place[b] - place[a]) * half) % m % 2 == 1
    if None in place:  # a stays put: b takes the side the empty seat would have given them
        return ((place[None] - place[b]) * half) % m % 2 == 0
    return round_no % 2 == 1


def swiss(order: Sequence[str], played: Collection[frozenset[str]], byes: Collection[str]) -> tuple[list[Pair], str | None]:
    """Pairs for the next Swiss round. `order` is the current standings, best first; `played` the pairs
    that have met; `byes` the entrants who already sat out a round."""
    players = list(order)
    bye = None
    if len(players) % 2:
        # the lowest-placed without a bye yet; if everyone has had one, the lowest-placed again
        bye = next((p for p in reversed(players) if p not in byes), players[-1])
        players.remove(bye)
    met = {frozenset(p) for p in played}
    pairs = _pair(players, met, [SEARCH_BUDGET])
    if pairs is None:
        # no way without a rematch (or none found in the budget): allow them, still by standing
        pairs = _pair(players, set(), [SEARCH_BUDGET])
    assert pairs is not None
    return pairs, bye


def _pair(players: list[str], met: set[frozenset[str]], budget: list[int]) -> list[Pair] | None:
    """The first pairing, in standings order, with no pair from `met` (None if there is none, or the
    search ran out of `budget` steps: proving that none exists can take exponential time)."""
    if not players:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None
