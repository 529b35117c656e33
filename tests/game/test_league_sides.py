"""Side (A/B) balancing across a league's rounds (game/league/sides.py): chess's Swiss colour allocation
with sides for colours, checked rule by rule and over whole leagues (Swiss and round robin)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.league.pairing import round_robin, round_robin_rounds, swiss, swiss_rounds
from game.league.sides import SideRecord, allocate, records
from game.league.standings import Result, standings


def test_the_one_more_often_side_a_takes_side_b() -> None:
    sides = {"x": SideRecord(2, 1, "A"), "y": SideRecord(1, 1, "B")}
    assert allocate([("x", "y")], sides, {"x": 1, "y": 2}) == [("y", "x")]
    assert allocate([("y", "x")], sides, {"x": 1, "y": 2}) == [("y", "x")]  # whichever way it came


def test_equal_so_far_each_alternates() -> None:
    sides = {"x": SideRecord(1, 1, "B"), "y": SideRecord(1, 1, "A")}
    assert allocate([("y", "x")], sides, {"y": 1, "x": 2}) == [("x", "y")]  # x was B last: now A


def test_then_the_better_placed_gets_the_side_they_are_due() -> None:
    both_a_last = {"x": SideRecord(1, 1, "A"), "y": SideRecord(1, 1, "A")}
    assert allocate([("x", "y")], both_a_last, {"x": 2, "y": 1}) == [("x", "y")]  # y (1st) is due B
    assert allocate([("x", "y")], {}, {"x": 2, "y": 1}) == [("y", "x")]  # first games: the better placed A


def test_sides_are_counted_from_the_games_in_order() -> None:
    assert records([("x", "y"), ("y", "z"), ("x", "z")]) == {
        "x": SideRecord(2, 0, "A"), "y": SideRecord(1, 1, "A"), "z": SideRecord(0, 2, "B")}


def _unavoidable(before: dict[str, SideRecord], a: str, b: str) -> bool:
    """Whether either way round the pairing leaves someone at |A-B| above 1."""
    ra, rb = before.get(a, SideRecord()), before.get(b, SideRecord())
    return max(abs(ra.lean + 1), abs(rb.lean - 1)) > 1 and max(abs(ra.lean - 1), abs(rb.lean + 1)) > 1


def _check_round(before: dict[str, SideRecord], pairs: list[tuple[str, str]], given: list[tuple[str, str]]) -> None:
    assert sorted(map(frozenset, pairs)) == sorted(map(frozenset, given))  # the same pairings, only turned
    after = records([(a, b) for a, b in pairs])
    for a, b in pairs:
        ra, rb = before.get(a, SideRecord()), before.get(b, SideRecord())
        grew = max(abs(ra.lean + 1), abs(rb.lean - 1))
        # never worse than the other way round, and above 1 only when both ways are
        assert grew <= max(abs(ra.lean - 1), abs(rb.lean + 1))
        assert grew <= 1 or _unavoidable(before, a, b)
    assert all(r.a + r.b == 1 for r in after.values())


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=2, max_value=24), st.randoms(use_true_random=False))
def test_over_a_whole_swiss_league_no_side_count_strays_beyond_one_where_the_pairings_allow(
        n: int, rnd: random.Random) -> None:
    entrants = [f"e{i}" for i in range(n)]
    results: list[Result] = []
    history: list[tuple[str, str]] = []
    played: set[frozenset[str]] = set()
    byes: set[str] = set()
    forced = 0
    for _ in range(swiss_rounds(n) + 2):  # a few rounds past the usual number, rematches and all
        order = [s.entrant for s in standings(entrants, results)]
        given, bye = swiss(order, played, byes)
        before = records(history)
        pairs = allocate(given, before, {e: i + 1 for i, e in enumerate(order)})
        _check_round(before, pairs, given)
        forced += sum(_unavoidable(before, a, b) for a, b in pairs)
        history += pairs
        played |= {frozenset(p) for p in pairs}
        if bye is not None:
            byes.add(bye)
            results.append(Result(bye, None, bye))
        results += [Result(a, b, rnd.choice([a, b, None])) for a, b in pairs]
    worst = max((abs(r.lean) for r in records(history).values()), default=0)
    assert worst <= 1 or forced, (n, worst)


@settings(deadline=None)
@given(st.integers(min_value=2, max_value=60))
def test_a_round_robins_sides_alternate_and_end_at_most_one_apart(n: int) -> None:
    """The round robin's fixed side table (game/league/pairing.py, as chess's Berger tables): over the
    whole schedule everyone ends one apart at most (none apart with an odd number), at no round two
    apart, and never on one side three games running."""
    entrants = [f"e{i}" for i in range(n)]
    history: list[tuple[str, str]] = []
    run: dict[str, tuple[str, int]] = {}
    for number in range(1, round_robin_rounds(n) + 1):
        pairs, _ = round_robin(entrants, number)
        for a, b in pairs:
            for who, side in ((a, "A"), (b, "B")):
                last, count = run.get(who, ("", 0))
                run[who] = (side, count + 1 if last == side else 1)
                assert run[who][1] <= 2, (n, number, who)
        history += pairs
        assert max(abs(r.lean) for r in records(history).values()) <= 2
    counts = records(history)
    assert all(r.a + r.b == n - 1 for r in counts.values())  # everyone met everyone once
    assert max(abs(r.lean) for r in counts.values()) <= (1 if n % 2 == 0 else 0)
