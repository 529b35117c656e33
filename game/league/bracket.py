"""A top cut: the single-elimination bracket a Swiss league plays after its Swiss rounds.

The top N of the Swiss standings (N = 2, 4 or 8) are seeded 1..N. The first bracket round pairs
seed 1 with N, 2 with N-1 and so on, laid out as a printed bracket is (for 8: 1-8, 4-5, 2-7, 3-6), so
that seeds 1 and 2 can only meet in the final when every higher seed wins. Each later round pairs
the winners of neighbouring tables. In every match the higher seed (the smaller number) takes side A.

A bracket match must send one entrant on, so a drawn game is decided by tie-break: fewer Strike Points
suffered, then the higher seed. A side that forfeited (a GM's forfeit, a drop) loses whatever the
game said; when both forfeited the higher seed goes on, so the bracket stays whole (a dropped entrant
then forfeits their next match in turn).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Pair = tuple[str, str]
CUTS = (0, 2, 4, 8)  # 0: no top cut


def cut_size(wanted: int, entrants: int) -> int:
    """The cut actually played: the largest power of two no bigger than both the cut asked for and the
    entrants there are (a cut of 8 in a league of 6 plays a cut of 4); 0 when there is none."""
    size = 0
    n = 2
    while n <= min(wanted, entrants):
        size, n = n, n * 2
    return size


def cut_rounds(size: int) -> int:
    """Bracket rounds of a cut of `size`: 1 for 2, 2 for 4, 3 for 8."""
    return max(0, size.bit_length() - 1)


def stage(matches: int) -> str:
    """A bracket round by the matches in it."""
    return {1: "final", 2: "semi-finals", 4: "quarter-finals"}.get(matches, f"round of {matches * 2}")


def seed_order(size: int) -> list[int]:
    """Seeds in the order a printed bracket lists them, top to bottom (1-based)."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for top in order for s in (top, n + 1 - top)]
    return order


def first_round(seeded: Sequence[str]) -> list[Pair]:
    """The first bracket round from the entrants in seed order (best first; its length a power of two)."""
    order = seed_order(len(seeded))
    return [(seeded[order[i] - 1], seeded[order[i + 1] - 1]) for i in range(0, len(order), 2)]


def next_round(winners: Sequence[str], seeds: Mapping[str, int]) -> list[Pair]:
    """The next round from the previous round's winners in table order: neighbours meet, the higher seed
    on side A."""
    pairs = []
    for i in range(0, len(winners) - 1, 2):
        a, b = winners[i], winners[i + 1]
        pairs.append((a, b) if seeds[a] < seeds[b] else (b, a))
    return pairs


def advances(a: str, b: str, winner: str | None, a_points: int, b_points: int, forfeited: str,
             seeds: Mapping[str, int]) -> str:
    """Who goes on from a finished match: `winner` is the game's (None: a draw); `forfeited` the sides
    that forfeited ("", "A", "B" or "AB"); points are Strike Points suffered."""
    higher = a if seeds[a] < seeds[b] else b
    if forfeited == "A":
        return b
    if forfeited == "B":
        return a
    if forfeited == "AB":
        return higher
    if winner in (a, b):
        return winner
    if a_points != b_points:
        return a if a_points < b_points else b
    return higher


@dataclass(frozen=True)
class Match:
    """A match of the bracket as shown: `winner` is who went on (None: not played yet)."""

    round: int  # 1 = the first bracket round
    a: str
    b: str
    winner: str | None = None


@dataclass(frozen=True)
class Played:
    """A finished bracket game, as the league stored it."""

    a: str
    b: str
    winner: str | None
    a_points: int = 0
    b_points: int = 0
    forfeited: str = ""


def bracket(seeded: Sequence[str], rounds: Sequence[Sequence[Played | None]]) -> list[list[Match]]:
    """The bracket so far: each round's matches (`rounds[i][t]` is table t+1 of bracket round i+1, None
    while it is being played). Rounds not reached yet are left out."""
    seeds = {e: i + 1 for i, e in enumerate(seeded)}
    shown: list[list[Match]] = []
    pairs = first_round(seeded)
    for number, played in enumerate(rounds, start=1):
        matches = []
        for (a, b), game in zip(pairs, [*played, *[None] * len(pairs)], strict=False):
            won = None if game is None else advances(a, b, game.winner, *_points(game, a), _sides(game, a), seeds)
            matches.append(Match(number, a, b, won))
        shown.append(matches)
        if any(m.winner is None for m in matches) or len(matches) == 1:
            break
        pairs = next_round([m.winner for m in matches if m.winner], seeds)
    return shown


def champion(shown: Sequence[Sequence[Match]]) -> str | None:
    """The winner of the final, once it is played."""
    if shown and len(shown[-1]) == 1:
        return shown[-1][0].winner
    return None


def _points(game: Played, a: str) -> tuple[int, int]:
    # stored with side A first; the bracket's pair is always (higher seed, lower), as is side A and B
    return (game.a_points, game.b_points) if game.a == a else (game.b_points, game.a_points)


def _sides(game: Played, a: str) -> str:
    if game.a == a or game.forfeited in ("", "AB"):
        return game.forfeited
    return "B" if game.forfeited == "A" else "A"


def reached(shown: Sequence[Sequence[Match]]) -> dict[str, str]:
    """How far each entrant of the bracket went: "champion", or the stage of the last match they played
    ("final", "semi-finals" …), for the standings' CSV."""
    found: dict[str, str] = {}
    for matches in shown:
        for m in matches:
            found[m.a] = found[m.b] = stage(len(matches))
    won = champion(shown)
    if won is not None:
        found[won] = "champion"
    return found
