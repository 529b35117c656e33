"""A league's top cut, stored: which rounds are the bracket's, who is seeded, each bracket round's
pairings and the bracket as shown. The rules of the bracket are game/league/bracket.py; this reads
the league's rows for them."""

from __future__ import annotations

from collections.abc import Sequence

from game.league.bracket import Match, Played, advances, bracket, cut_rounds, first_round, next_round
from game.league.pairing import Pair
from game.service.models import League, LeagueEntry, LeagueGame


def swiss_rounds_of(lg: League) -> int:
    """The Swiss rounds of a league (all of its rounds without a top cut)."""
    return lg.rounds - cut_rounds(lg.top_cut)


def in_bracket(lg: League, number: int) -> bool:
    return lg.top_cut > 0 and number > swiss_rounds_of(lg)


def swiss_rows(lg: League, rows: Sequence[LeagueGame]) -> list[LeagueGame]:
    """The rows the standings rank by: the bracket decides the places at the top, not the tie-breaks."""
    return [r for r in rows if not in_bracket(lg, r.round)]


def seeding(lg: League, ranked: Sequence[str], dropped: set[str]) -> list[str]:
    """The top cut's entrants in seed order, from the Swiss standings: those still in the league first
    (a dropped entrant is passed over); only when too few are left is a dropped one seeded, and then
    forfeits."""
    still = [m for m in ranked if m not in dropped]
    return (still + [m for m in ranked if m in dropped])[:lg.top_cut]


def seeds_of(entries: Sequence[LeagueEntry]) -> dict[str, int]:
    return {e.member: e.seed for e in entries if e.seed}


def pairs_after(lg: League, number: int, rows: Sequence[LeagueGame], seeds: dict[str, int]) -> list[Pair]:
    """A later bracket round: the winners of the round before, neighbouring tables meeting."""
    before = sorted((r for r in rows if r.round == number - 1), key=lambda r: r.table_no)
    winners = [advances(r.a_member, r.b_member or "", r.winner, r.a_points, r.b_points, r.forfeited, seeds)
               for r in before]
    return next_round(winners, seeds)


def first_pairs(seeded: Sequence[str]) -> list[Pair]:
    return first_round(seeded)


def shown(lg: League, entries: Sequence[LeagueEntry], rows: Sequence[LeagueGame]) -> list[list[Match]]:
    """The bracket as far as it has been paired (empty before the Swiss rounds end)."""
    seeds = seeds_of(entries)
    if not seeds:
        return []
    seeded = sorted(seeds, key=seeds.__getitem__)
    first = swiss_rounds_of(lg) + 1
    played: list[list[Played | None]] = []
    for number in range(first, lg.current_round + 1):
        this = sorted((r for r in rows if r.round == number), key=lambda r: r.table_no)
        played.append([Played(r.a_member, r.b_member or "", r.winner, r.a_points, r.b_points, r.forfeited)
                       if r.status == "done" else None for r in this])
    return bracket(seeded, played) if played else []
