"""A Swiss league's top cut through the service: seeded from the Swiss standings, paired 1 v N, played
by the same round machinery, decided by tie-break when drawn, and ended with one champion."""

from __future__ import annotations

import pytest

from game.errors import RulesError
from game.service.game_service import GameService
from tests.service.test_leagues import GM, MANUAL, SHORT, play_round


async def swiss_then(service: GameService, name: str, entrants: int, cut: int) -> None:
    leagues = service.leagues
    await leagues.create(GM, "chan", name, scenario="short", scenario_text=SHORT, top_cut=cut, settings=MANUAL)
    for _ in range(entrants):
        await leagues.join(GM, name, ai=True)
    await leagues.start(GM, name)


async def test_eight_play_three_swiss_rounds_then_a_top_four_bracket_to_one_champion(service: GameService) -> None:
    leagues = service.leagues
    await swiss_then(service, "Cup", 8, 4)
    info = await leagues.show("g1", "Cup")
    assert (info.rounds, info.swiss_rounds, info.top_cut, info.stage) == (5, 3, 4, "")
    for _ in range(3):
        await play_round(service, leagues, "Cup")
        report = await leagues.next_round(GM, "Cup")
    swiss = await leagues.standings("g1", "Cup")
    top = [r.member for r in swiss.rows[:4]]
    info = report.league
    assert info.current_round == 4 and info.stage == "semi-finals"
    assert [(p.a, p.b) for p in info.pairings] == [(top[0], top[3]), (top[1], top[2])]  # 1 v 4, 2 v 3
    assert {e.member: e.seed for e in info.entrants if e.seed} == {m: i + 1 for i, m in enumerate(top)}
    assert all(p.game_id is not None and p.status == "playing" for p in info.pairings)  # real games, made alike

    await play_round(service, leagues, "Cup")
    semis = (await leagues.show("g1", "Cup")).pairings
    report = await leagues.next_round(GM, "Cup")
    table = await leagues.standings("g1", "Cup")
    assert report.league.stage == "final" and len(table.bracket) == 2
    went_on = [m.winner for m in table.bracket[0]]
    assert None not in went_on and [(p.a, p.b) for p in report.league.pairings] == [tuple(sorted(
        went_on, key=top.index))]
    for p, m in zip(semis, table.bracket[0], strict=True):
        if p.winner is not None:  # a game won sends its winner on
            assert m.winner == p.winner

    await play_round(service, leagues, "Cup")
    report = await leagues.next_round(GM, "Cup")
    table = await leagues.standings("g1", "Cup")
    assert table.final and table.champion in went_on and table.champion == table.bracket[-1][0].winner
    # the standings stay the Swiss ones: the bracket ranks its own
    assert [r.member for r in table.rows] == [r.member for r in swiss.rows]
    assert all(r.played == 3 for r in table.rows)
    with pytest.raises(RulesError, match="not running"):
        await leagues.next_round(GM, "Cup")


async def test_a_drawn_bracket_match_goes_to_the_higher_seed_and_a_dropped_seed_forfeits(service: GameService) -> None:
    leagues = service.leagues
    await swiss_then(service, "Duel", 4, 4)  # two Swiss rounds, then semi-finals and a final
    for _ in range(2):
        await play_round(service, leagues, "Duel")
        report = await leagues.next_round(GM, "Duel")
    one_v_four, two_v_three = report.league.pairings
    seeds = {e.member: e.seed for e in report.league.entrants}
    assert seeds[one_v_four.a] == 1 and seeds[two_v_three.a] == 2
    await leagues.record_result(GM, "Duel", 1, None, "a draw at the club")  # no Strike Points either way
    # the fourth seed's opponent in the final is the winner of 2 v 3; drop seed 3 before it is played
    await leagues.drop(GM, "Duel", two_v_three.b or "", "left")
    report = await leagues.next_round(GM, "Duel")
    (final,) = report.league.pairings
    assert (final.a, final.b) == (one_v_four.a, two_v_three.a)  # seed 1 on the draw, seed 2 on the drop
    assert final.status == "playing"
    await leagues.drop(GM, "Duel", final.a, "gone too")  # a dropped finalist loses the final
    report = await leagues.next_round(GM, "Duel")
    table = await leagues.standings("g1", "Duel")
    assert table.final and table.champion == two_v_three.a
    assert [m.winner for m in table.bracket[0]] == [one_v_four.a, two_v_three.a]


async def test_a_cut_bigger_than_the_league_is_cut_to_fit_and_a_dropped_player_is_not_seeded(
        service: GameService) -> None:
    leagues = service.leagues
    await swiss_then(service, "Small", 5, 8)
    info = await leagues.show("g1", "Small")
    assert (info.top_cut, info.rounds) == (4, 3 + 2)
    first = info.entrants[0].member
    await leagues.drop(GM, "Small", first, "no-show")
    for _ in range(3):
        await play_round(service, leagues, "Small")
        report = await leagues.next_round(GM, "Small")
    assert first not in {m for p in report.league.pairings for m in (p.a, p.b)}
    assert sorted(e.seed for e in report.league.entrants) == [0, 1, 2, 3, 4]


async def test_a_top_cut_is_for_swiss_leagues_of_2_4_or_8(service: GameService) -> None:
    leagues = service.leagues
    with pytest.raises(RulesError, match="round robin already meets everyone"):
        await leagues.create(GM, "chan", "RR", format="round_robin", top_cut=4)
    with pytest.raises(RulesError, match="2, 4 or 8"):
        await leagues.create(GM, "chan", "Odd", top_cut=3)


async def test_a_final_timed_out_with_both_sides_to_play_goes_to_the_higher_seed(service: GameService) -> None:
    """Neither finalist picks a card by the deadline: the game is a draw for the standings and the
    ratings, and the bracket sends the higher seed on (no Strike Points either way)."""
    from datetime import timedelta

    from game.service.game_service import Actor
    from game.service.models import utcnow

    leagues = service.leagues
    ann, bob = Actor("111", "g1"), Actor("222", "g1")
    await leagues.create(GM, "c", "Slow", scenario="short", scenario_text=SHORT, round_hours=24, top_cut=2, settings=MANUAL)
    await leagues.join(ann, "Slow", "Ann")
    await leagues.join(bob, "Slow", "Bob")
    (p,) = (await leagues.start(GM, "Slow")).started
    await leagues.record_result(GM, "Slow", 1, "B", "played at the club")  # the Swiss round: side B won
    report = await leagues.next_round(GM, "Slow")
    (final,) = report.league.pairings
    assert report.league.stage == "final" and (final.a, final.b) == (p.b, p.a)  # the winner is seed 1, side A
    later = utcnow() + timedelta(hours=25)
    report = await leagues.at(lambda: later).next_round(GM, "Slow")
    (closed,) = report.closed
    assert closed.winner is None and "a draw" in closed.reason
    table = await leagues.standings("g1", "Slow")
    assert table.final and table.champion == p.b
