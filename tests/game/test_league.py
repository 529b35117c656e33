"""Pairings, standings and ratings of a league, without a database."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.league.pairing import round_robin, round_robin_rounds, swiss, swiss_rounds
from game.league.rating import Skill, rate
from game.league.standings import Result, standings


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


@given(st.integers(min_value=2, max_value=17))
def test_round_robin_meets_every_pair_exactly_once(n: int) -> None:
    people = names(n)
    met: list[frozenset[str]] = []
    byes: list[str] = []
    for r in range(1, round_robin_rounds(n) + 1):
        pairs, bye = round_robin(people, r)
        seen = [p for pair in pairs for p in pair] + ([bye] if bye else [])
        assert sorted(seen) == sorted(people)  # everyone plays (or sits out) once a round
        met += [frozenset(p) for p in pairs]
        byes += [bye] if bye else []
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    assert sorted(byes) == (sorted(people) if n % 2 else [])


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=24), st.randoms(use_true_random=False))
def test_swiss_never_rematches_in_its_rounds_and_gives_each_bye_once(n: int, rnd: random.Random) -> None:
    people = names(n)
    played: set[frozenset[str]] = set()
    byes: list[str] = []
    results: list[Result] = []
    for _ in range(swiss_rounds(n)):
        order = [s.entrant for s in standings(people, results)]
        pairs, bye = swiss(order, played, byes)
        seen = [p for pair in pairs for p in pair] + ([bye] if bye else [])
        assert sorted(seen) == sorted(people)
        assert not {frozenset(p) for p in pairs} & played
        played |= {frozenset(p) for p in pairs}
        if bye:
            assert bye not in byes
            byes.append(bye)
            results.append(Result(bye, None, bye))
        for a, b in pairs:
            results.append(Result(a, b, rnd.choice([a, b, None]), rnd.randint(0, 9), rnd.randint(0, 9)))


def test_swiss_pairs_by_standing_and_gives_the_bye_to_the_lowest_without_one() -> None:
    pairs, bye = swiss(["a", "b", "c", "d", "e"], {frozenset("ab")}, {"e"})
    assert bye == "d"  # e already sat out a round
    assert pairs == [("a", "c"), ("b", "e")]


def test_swiss_allows_a_rematch_only_when_nothing_else_is_left() -> None:
    every = {frozenset(p) for p in [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]}
    pairs, bye = swiss(["a", "b", "c", "d"], every, set())
    assert pairs == [("a", "b"), ("c", "d")] and bye is None


def test_tie_breaks_wins_then_margin_then_opponents_wins() -> None:
    results = [Result("a", "b", "a", 0, 1), Result("c", "d", "c", 0, 1), Result("e", "f", "e", 0, 5),
               Result("a", "c", "a", 0, 1), Result("b", "f", "b", 0, 1), Result("d", "f", "d", 0, 1)]
    table = standings(list("abcdef"), results)
    # a has more wins than e's wider margin; c, b and d are level on wins and margin, and c met the
    # opponents who won most (a and d: 3), b then (a and f: 2), d last (c and f: 1)
    assert [s.entrant for s in table] == ["a", "e", "c", "b", "d", "f"]
    by = {s.entrant: s for s in table}
    assert (by["a"].wins, by["a"].margin, by["e"].margin) == (2, 2, 5)
    assert [by[x].margin for x in "cbd"] == [0, 0, 0]
    assert [by[x].opponents_wins for x in "cbd"] == [3, 2, 1]
    assert (by["f"].losses, by["f"].margin, by["f"].rank) == (3, -7, 6)


def test_margin_decides_between_equal_wins_and_registration_order_last() -> None:
    table = standings(["x", "y", "z", "w"], [Result("x", "y", None, 3, 3), Result("z", "w", None, 0, 0)])
    assert [s.entrant for s in table] == ["x", "y", "z", "w"]  # all level: as they registered
    assert all(s.wins == 0.5 and s.draws == 1 for s in table)


def test_a_bye_is_a_win_with_no_margin_and_no_opponent() -> None:
    (first, second) = standings(["x", "y"], [Result("y", None, "y")])
    assert (first.entrant, first.wins, first.margin, first.opponents_wins) == ("y", 1, 0, 0)
    assert second.played == 0


def test_ratings_move_towards_the_winner_and_grow_surer() -> None:
    a, b = rate(Skill(), Skill(), "a")
    assert a.mu > Skill().mu > b.mu and a.sigma < Skill().sigma
    c, d = rate(Skill(), Skill(), None)
    assert c.mu == d.mu == Skill().mu
    weak, strong = rate(Skill(20, 3), Skill(30, 3), "a")  # an upset moves both towards each other
    assert weak.mu > 20 and strong.mu < 30
