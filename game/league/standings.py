"""Standings from results: wins first (a draw counts half, a bye a whole win, a forfeit a loss), then the Strike
Point margin (Strike Points are suffered, so a margin is the opponent's points less one's own),
then the opponents' wins (the strength of those one has met), then the order of registration."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One finished pairing. `b` is None for a bye; `winner` None for a draw."""

    a: str
    b: str | None
    winner: str | None
    a_points: int = 0  # Strike Points each side had suffered at the end
    b_points: int = 0
    forfeited: frozenset[str] = frozenset()  # who forfeited: a loss whoever else won (a forfeited bye too)


@dataclass(frozen=True)
class Standing:
    entrant: str
    rank: int
    played: int
    wins: float
    losses: int
    draws: int
    margin: int
    opponents_wins: float
    forfeits: int = 0


@dataclass(frozen=True)
class StandingRow:
    """A line of the standings as posted and drawn: the standing with the entrant's name and rating."""

    rank: int
    member: str
    name: str
    played: int
    wins: float
    losses: int
    draws: int
    margin: int
    opponents_wins: float
    rating: float
    forfeits: int = 0
    dropped: bool = False  # by a GM: still ranked by the results they had

    @classmethod
    def of(cls, standing: Standing, name: str, rating: float, dropped: bool = False) -> StandingRow:
        s = standing
        return cls(s.rank, s.entrant, name, s.played, s.wins, s.losses, s.draws, s.margin, s.opponents_wins, rating,
                   s.forfeits, dropped)


def standings(entrants: Sequence[str], results: Sequence[Result]) -> list[Standing]:
    """Every entrant (registration order breaks the last tie), best first."""
    wins = {e: 0.0 for e in entrants}
    losses = dict.fromkeys(entrants, 0)
    draws = dict.fromkeys(entrants, 0)
    played = dict.fromkeys(entrants, 0)
    margin = dict.fromkeys(entrants, 0)
    forfeits = dict.fromkeys(entrants, 0)
    opponents: dict[str, list[str]] = {e: [] for e in entrants}
    for r in results:
        for me in r.forfeited:
            forfeits[me] += 1
        if r.b is None:
            played[r.a] += 1
            if r.a in r.forfeited:
                losses[r.a] += 1
            else:
                wins[r.a] += 1
            continue
        for me, them, mine, theirs in ((r.a, r.b, r.a_points, r.b_points), (r.b, r.a, r.b_points, r.a_points)):
            played[me] += 1
            margin[me] += theirs - mine
            opponents[me].append(them)
            if me in r.forfeited:
                losses[me] += 1
            elif r.winner is None:
                wins[me] += 0.5
                draws[me] += 1
            elif r.winner == me:
                wins[me] += 1
            else:
                losses[me] += 1
    opp = {e: sum(wins[o] for o in opponents[e]) for e in entrants}
    place = {e: i for i, e in enumerate(entrants)}
    order = sorted(entrants, key=lambda e: (-wins[e], -margin[e], -opp[e], place[e]))
    return [Standing(e, i + 1, played[e], wins[e], losses[e], draws[e], margin[e], opp[e], forfeits[e])
            for i, e in enumerate(order)]
