"""A GM pauses a whole league (game/service/league_pause.py): its round's games stop their clocks, the
round cannot be closed while paused, and on resume the round's deadline moves on by the pause's
length while a game its players paused by consent keeps its own pause."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from game.errors import RulesError
from game.service.game_service import Actor, GameService
from game.service.models import League
from tests.service.test_clock import pending
from tests.service.test_league_gm import _league
from tests.service.test_leagues import ANN, GM


async def test_a_league_pause_stops_its_round_and_moves_its_deadline(service: GameService) -> None:
    leagues = await _league(service, "Cup")
    started = (await leagues.start(GM, "Cup")).started
    games = sorted(p.game_id or 0 for p in started)
    deadline = (await leagues.show("g1", "Cup")).deadline
    assert deadline is not None
    with pytest.raises(RulesError, match="Only a GM may pause a league"):
        await service.league_pauses.pause(ANN, "Cup")
    with pytest.raises(RulesError, match="no league called"):
        await service.league_pauses.pause(GM, "Nope")
    # one table's players paused their own game first: the league's pause leaves theirs to them
    theirs = next(p for p in started if p.game_id == games[0])
    asked = await service.pauses.ask(Actor(theirs.a, "g1"), games[0])
    assert asked.proposal is not None
    await service.pauses.answer(Actor(theirs.b or "", "g1"), games[0], asked.proposal, True)
    done = await service.league_pauses.pause(GM, "Cup", "the server's summer break")
    assert done.games == tuple(games[1:])
    for gid in games:
        assert (await service.clock.paused(gid)).paused
        assert [k for k, _, _ in await pending(service, gid)] == []
    with pytest.raises(RulesError, match="already paused"):
        await service.league_pauses.pause(GM, "Cup")
    with pytest.raises(RulesError, match="Cup is paused"):
        await service.leagues.next_round(GM, "Cup")
    # a GM's league pause is not a player's to lift
    other = next(p for p in started if p.game_id == games[1])
    with pytest.raises(RulesError, match="with its league"):
        await service.pauses.resume(Actor(other.a, "g1"), games[1])
    # the pause lasted two days
    async with service.store.repo.session() as s, s.begin():
        await s.execute(update(League).where(League.name == "Cup")  # type: ignore[arg-type]
                        .values(paused_at=datetime.now(UTC) - timedelta(days=2)))
    resumed = await service.league_pauses.resume(GM, "Cup")
    assert resumed.games == tuple(games[1:])
    assert resumed.deadline is not None and abs(resumed.deadline - (deadline + timedelta(days=2))) < timedelta(minutes=1)
    assert (await leagues.show("g1", "Cup")).deadline == resumed.deadline
    assert (await service.clock.paused(games[0])).paused  # the players' own pause goes on
    assert not (await service.clock.paused(games[1])).paused
    with pytest.raises(RulesError, match="not paused"):
        await service.league_pauses.resume(GM, "Cup")


async def test_only_a_running_league_pauses(service: GameService) -> None:
    await _league(service, "Later")
    with pytest.raises(RulesError, match="not running"):
        await service.league_pauses.pause(GM, "Later")


async def test_a_pause_by_the_players_does_not_move_the_rounds_deadline(service: GameService) -> None:
    leagues = await _league(service, "Shield")
    started = (await leagues.start(GM, "Shield")).started
    deadline = (await leagues.show("g1", "Shield")).deadline
    table = started[0]
    asked = await service.pauses.ask(Actor(table.a, "g1"), table.game_id or 0, 48)
    assert asked.proposal is not None
    await service.pauses.answer(Actor(table.b or "", "g1"), table.game_id or 0, asked.proposal, True)
    await service.pauses.resume(Actor(table.b or "", "g1"), table.game_id or 0)  # a player lifts the players' pause
    assert (await leagues.show("g1", "Shield")).deadline == deadline  # the organiser decides
