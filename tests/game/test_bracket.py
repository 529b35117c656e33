"""The top cut's bracket, without a database: its pairings, its tie-breaks and its champion."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from game.league.bracket import (
    Played,
    advances,
    bracket,
    champion,
    cut_rounds,
    cut_size,
    first_round,
    next_round,
    seed_order,
    stage,
)
from game.league.rating import Skill, rate, rate_teams

SIZES = st.sampled_from([2, 4, 8])


def seeded(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def play(entrants: list[str], pick: random.Random, draws: bool = True) -> list[list[Played | None]]:
    """Every round of a bracket played out with random results (draws and forfeits too)."""
    seeds = {e: i + 1 for i, e in enumerate(entrants)}
    rounds: list[list[Played | None]] = []
    pairs = first_round(entrants)
    while True:
        played: list[Played | None] = []
        winners = []
        for a, b in pairs:
            forfeited = pick.choice(["", "", "", "A", "B", "AB"])
            winner = pick.choice([a, b, None] if draws else [a, b])
            game = Played(a, b, winner, pick.randint(0, 6), pick.randint(0, 6), forfeited)
            played.append(game)
            winners.append(advances(a, b, winner, game.a_points, game.b_points, forfeited, seeds))
        rounds.append(played)
        if len(pairs) == 1:
            return rounds
        pairs = next_round(winners, seeds)


@given(SIZES, st.randoms(use_true_random=False))
def test_every_bracket_has_one_champion_who_won_every_match(n: int, pick: random.Random) -> None:
    entrants = seeded(n)
    shown = bracket(entrants, play(entrants, pick))
    assert len(shown) == cut_rounds(n) and [len(r) for r in shown] == [n // 2 ** (i + 1) for i in range(len(shown))]
    winner = champion(shown)
    assert winner in entrants
    # the champion won each match they played, one a round; everyone else lost exactly once
    assert all(any(winner in (m.a, m.b) and m.winner == winner for m in r) for r in shown)
    losses = [m.b if m.winner == m.a else m.a for r in shown for m in r]
    assert sorted(losses) == sorted(e for e in entrants if e != winner)


@given(SIZES)
def test_a_seed_meets_a_lower_seed_only_when_the_higher_seeds_win(n: int) -> None:
    """With every higher seed winning, round r pairs seed i with seed 2^k + 1 - i (k the seeds left):
    seed 1 meets the lowest left each round, and 1 and 2 meet only in the final."""
    entrants = seeded(n)
    seeds = {e: i + 1 for i, e in enumerate(entrants)}
    rounds: list[list[Played | None]] = []
    pairs = first_round(entrants)
    left = n
    while True:
        assert sorted(seeds[a] + seeds[b] for a, b in pairs) == [left + 1] * (left // 2)
        assert all(seeds[a] < seeds[b] for a, b in pairs)  # the higher seed on side A
        rounds.append([Played(a, b, a) for a, b in pairs])
        if len(pairs) == 1:
            break
        pairs = next_round([a for a, _ in pairs], seeds)
        left //= 2
    assert champion(bracket(entrants, rounds)) == "s1"
    assert {bracket(entrants, rounds)[-1][0].a, bracket(entrants, rounds)[-1][0].b} == {"s1", "s2"}


def test_the_printed_bracket_order() -> None:
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert first_round(seeded(4)) == [("s1", "s4"), ("s2", "s3")]
    assert [stage(m) for m in (1, 2, 4)] == ["final", "semi-finals", "quarter-finals"]


def test_a_drawn_match_goes_to_fewer_strike_points_then_the_higher_seed() -> None:
    seeds = {"hi": 1, "lo": 2}
    assert advances("hi", "lo", None, 5, 3, "", seeds) == "lo"  # lo suffered fewer
    assert advances("hi", "lo", None, 3, 3, "", seeds) == "hi"  # level: the higher seed
    assert advances("lo", "hi", None, 3, 3, "", seeds) == "hi"
    assert advances("hi", "lo", "lo", 9, 0, "", seeds) == "lo"  # a game won is won, whatever its points


def test_a_forfeit_loses_the_match_whatever_the_game_said() -> None:
    seeds = {"hi": 1, "lo": 2}
    assert advances("hi", "lo", "hi", 0, 5, "A", seeds) == "lo"
    assert advances("hi", "lo", "lo", 5, 0, "B", seeds) == "hi"
    assert advances("hi", "lo", None, 0, 0, "AB", seeds) == "hi"  # both: the bracket stays whole


def test_the_cut_fits_the_league() -> None:
    assert [cut_size(8, n) for n in (1, 2, 3, 4, 7, 8, 20)] == [0, 2, 2, 4, 4, 8, 8]
    assert cut_size(0, 20) == 0 and cut_size(4, 20) == 4
    assert [cut_rounds(n) for n in (0, 2, 4, 8)] == [0, 1, 2, 3]


def test_a_bracket_half_played_shows_what_is_decided() -> None:
    entrants = seeded(4)
    shown = bracket(entrants, [[Played("s1", "s4", "s4"), None]])
    assert [(m.a, m.b, m.winner) for m in shown[0]] == [("s1", "s4", "s4"), ("s2", "s3", None)]
    assert len(shown) == 1 and champion(shown) is None


@given(st.floats(10, 40), st.floats(1, 9), st.floats(10, 40), st.floats(1, 9), st.sampled_from(["a", "b", None]))
def test_a_team_of_one_is_rated_as_a_player(mu_a: float, sg_a: float, mu_b: float, sg_b: float,
                                            winner: str | None) -> None:
    a, b = Skill(mu_a, sg_a), Skill(mu_b, sg_b)
    ([ta], [tb]) = rate_teams([a], [b], winner)
    assert (ta, tb) == rate(a, b, winner)


def test_a_winning_team_both_rise_and_the_losers_both_fall() -> None:
    new_a, new_b = rate_teams([Skill(), Skill(30, 5)], [Skill(), Skill()], "a")
    assert new_a[0].mu > Skill().mu and new_a[1].mu > 30
    assert all(s.mu < Skill().mu for s in new_b)
