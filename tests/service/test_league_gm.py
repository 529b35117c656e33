"""A GM's tools so that no single member stalls a league (issue 22, finding 9, property 6): dropping an
entrant and forfeiting a pairing, both logged in the results and shown in the standings."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from game.errors import RulesError
from game.model import Phase
from game.service.game_service import Actor, GameService
from game.service.leagues import Leagues
from game.service.models import Rating
from tests.service.test_leagues import ANN, BOB, GM, SHORT

CY, DEE = Actor("333", "g1"), Actor("444", "g1")


async def _league(service: GameService, name: str, format: str = "swiss") -> Leagues:
    leagues = service.leagues
    await leagues.create(GM, "c", name, scenario="short", scenario_text=SHORT, format=format)
    for who, called in ((ANN, "Ann"), (BOB, "Bob"), (CY, "Cy"), (DEE, "Dee")):
        await leagues.join(who, name, called)
    return leagues


async def test_a_dropped_entrant_forfeits_their_game_and_is_never_paired_again(service: GameService) -> None:
    leagues = await _league(service, "Cup")
    started = (await leagues.start(GM, "Cup")).started
    bobs = next(p for p in started if "222" in (p.a, p.b))
    with pytest.raises(RulesError, match="Only a GM may drop a league entrant"):
        await leagues.drop(ANN, "Cup", "Bob")
    with pytest.raises(RulesError, match="There is no entrant 'Zed'"):
        await leagues.drop(GM, "Cup", "Zed")
    entry = await leagues.drop(GM, "Cup", "222", "left the club")  # the bot reads a mention as the id
    assert entry.dropped and entry.name == "Bob"
    with pytest.raises(RulesError, match="Bob has already been dropped from Cup"):
        await leagues.drop(GM, "Cup", "bob")
    (p,) = [q for q in (await leagues.show("g1", "Cup")).pairings if q.table == bobs.table]
    side = "A" if p.a == "222" else "B"
    assert (p.status, p.forfeited, p.reason) == ("done", side, "forfeit: Bob was dropped by a GM (999)")
    assert p.winner == (p.b if side == "A" else p.a)
    assert (await service.reading.state_for_audit(p.game_id or 0)).phase is Phase.OVER  # the game does not go on
    for q in (await leagues.show("g1", "Cup")).pairings:
        if q.status != "done":
            await service.commands.concede(Actor(q.a, "g1"), q.game_id or 0)
    report = await leagues.next_round(GM, "Cup")
    assert all("222" not in (q.a, q.b) for q in report.started)  # three left: two play, one has the bye
    assert len(report.started) == 2 and any(q.b is None and q.reason == "a bye" for q in report.started)
    rows = {r.name: r for r in (await leagues.standings("g1", "Cup")).rows}
    assert rows["Bob"].dropped and (rows["Bob"].losses, rows["Bob"].forfeits) == (1, 1)
    async with service.store.repo.session() as s:
        rated = {r.member for r in (await s.execute(select(Rating))).scalars()}
    assert "222" not in rated  # a forfeit moves no rating


async def test_a_member_dropped_before_the_start_is_not_paired_and_cannot_register_again(service: GameService) -> None:
    leagues = await _league(service, "Early")
    await leagues.drop(GM, "Early", "333")
    with pytest.raises(RulesError, match="A GM has dropped you from Early"):
        await leagues.join(CY, "Early", "Cy")
    report = await leagues.start(GM, "Early")
    assert report.league.rounds == 2  # three entrants
    assert all("333" not in (p.a, p.b) for p in report.started)


async def test_a_round_robin_keeps_a_dropped_entrants_place_and_forfeits_their_games(service: GameService) -> None:
    leagues = await _league(service, "Ring", format="round_robin")
    await leagues.start(GM, "Ring")
    await leagues.drop(GM, "Ring", "Dee")
    for q in (await leagues.show("g1", "Ring")).pairings:
        if q.status != "done":
            await service.commands.concede(Actor(q.a, "g1"), q.game_id or 0)
    report = await leagues.next_round(GM, "Ring")
    (gone,) = [q for q in report.started if "444" in (q.a, q.b)]
    assert gone.status == "done" and gone.game_id is None and gone.reason == "forfeit: Dee was dropped by a GM"
    assert gone.winner == (gone.b if gone.a == "444" else gone.a)
    assert report.notices == ()  # a dropped entrant is told once, when dropped, not every round


async def test_a_gm_forfeits_a_pairing_for_one_side_or_both(service: GameService) -> None:
    leagues = await _league(service, "Spite")
    first, second = (await leagues.start(GM, "Spite")).started
    with pytest.raises(RulesError, match="Only a GM may forfeit a league pairing"):
        await leagues.forfeit(ANN, "Spite", first.table, "B")
    with pytest.raises(RulesError, match="The side that forfeits is A, B, or both"):
        await leagues.forfeit(GM, "Spite", first.table, "C")
    with pytest.raises(RulesError, match="has no table 9"):
        await leagues.forfeit(GM, "Spite", 9, "A")
    p = await leagues.forfeit(GM, "Spite", first.table, "B", "never turned up")
    assert (p.status, p.winner, p.forfeited) == ("done", first.a, "B")
    assert p.reason == "forfeit by a GM: never turned up (999)"
    assert (await service.reading.state_for_audit(first.game_id or 0)).phase is Phase.OVER
    with pytest.raises(RulesError, match="already has its result"):
        await leagues.forfeit(GM, "Spite", first.table, "A")
    both = await leagues.forfeit(GM, "Spite", second.table, "AB")
    assert (both.winner, both.forfeited) == (None, "AB")
    rows = {r.member: r for r in (await leagues.standings("g1", "Spite")).rows}
    assert (rows[first.a].wins, rows[first.b].losses, rows[first.b].forfeits) == (1, 1, 1)
    assert all((rows[m].wins, rows[m].losses, rows[m].forfeits) == (0, 1, 1) for m in (second.a, second.b))
    async with service.store.repo.session() as s:
        assert list((await s.execute(select(Rating))).scalars()) == []


async def test_a_gm_who_plays_does_not_forfeit_their_own_opponent(service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "c", "Own", scenario="short", scenario_text=SHORT)
    await leagues.join(GM, "Own", "Gail")
    await leagues.join(ANN, "Own", "Ann")
    (p,) = (await leagues.start(GM, "Own")).started
    with pytest.raises(RulesError, match="You play at that table"):
        await leagues.forfeit(GM, "Own", p.table, "A" if p.a == "111" else "B")
