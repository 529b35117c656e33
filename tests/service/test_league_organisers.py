"""Organisers' tools (issue 27, item 4, part 1) in the service: rounds that close by themselves as their
last game ends, a league's clock for its games, late entries, side balancing and the action log."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from sqlalchemy import select

from game.errors import RulesError
from game.service.game_service import Actor, GameService
from game.service.league_log import AUTOMATIC
from game.service.league_settings import DEFAULTS, LeagueSettings
from game.service.leagues import Leagues
from game.service.models import GameClock, LeagueAction, OutboxRow, utcnow
from tests.service.test_leagues import ANN, BOB, GM, MANUAL, SHORT

CY, DEE, EVE = Actor("333", "g1"), Actor("444", "g1"), Actor("555", "g1")


async def _league(service: GameService, name: str, settings: LeagueSettings = DEFAULTS,
                  format: str = "swiss", who: tuple[Actor, ...] = (ANN, BOB, CY, DEE)) -> Leagues:
    leagues = service.leagues
    await leagues.create(GM, "c", name, scenario="short", scenario_text=SHORT, format=format, settings=settings)
    for actor in who:
        await leagues.join(actor, name, f"P{actor.user_id}")
    return leagues


async def _log(service: GameService) -> list[tuple[str, str, str]]:
    async with service.store.repo.session() as s:
        return [(a.actor, a.action, a.note) for a in (await s.execute(select(LeagueAction)
                                                                     .order_by(LeagueAction.id))).scalars()]


async def _concede_all(service: GameService, leagues: Leagues, name: str) -> None:
    for p in (await leagues.show("g1", name)).pairings:
        if p.status != "done" and p.game_id is not None:
            await service.commands.concede(Actor(p.a, "g1"), p.game_id)


async def test_a_round_closes_by_itself_when_its_last_game_ends_and_posts_through_the_outbox(
        service: GameService) -> None:
    service.front.outbox = True
    leagues = await _league(service, "Auto")
    await leagues.start(GM, "Auto")
    first, last = (await leagues.show("g1", "Auto")).pairings
    await service.commands.concede(Actor(first.a, "g1"), first.game_id or 0)
    assert (await leagues.show("g1", "Auto")).current_round == 1  # one game still being played
    await service.commands.concede(Actor(last.b or "", "g1"), last.game_id or 0)
    info = await leagues.show("g1", "Auto")
    assert info.current_round == 2 and [p.status for p in info.pairings] == ["pending", "pending"]
    async with service.store.repo.session() as s:
        posted = [(r.game_id, json.loads(r.payload)) for r in (await s.execute(
            select(OutboxRow).where(OutboxRow.kind == "league_round"))).scalars()]
    assert posted == [(last.game_id, {"league": info.id, "round": 1, "told": [], "texts": []})]
    assert (await _log(service))[-1] == (AUTOMATIC, "round", "round 1 closed; round 2 of 2 paired")
    # the courier's delivery makes the round's games, as /league round would
    report = await leagues.continue_round(info.id, 1)
    assert report is not None and len(report.closed) == 2 and len(report.made) == 2
    assert {p.status for p in (await leagues.show("g1", "Auto")).pairings} == {"playing"}
    await _concede_all(service, leagues, "Auto")
    assert (await leagues.show("g1", "Auto")).status == "over"
    assert (await _log(service))[-1] == (AUTOMATIC, "round", "round 2 closed; the league is over")


async def test_two_games_ending_at_once_pair_the_next_round_once(service: GameService) -> None:
    leagues = await _league(service, "Once")
    await leagues.start(GM, "Once")
    pairings = (await leagues.show("g1", "Once")).pairings
    await asyncio.gather(*(service.commands.concede(Actor(p.a, "g1"), p.game_id or 0) for p in pairings))
    info = await leagues.show("g1", "Once")
    assert info.current_round == 2 and len(info.pairings) == 2
    assert [a for a in await _log(service) if a[1] == "round"] == [
        (AUTOMATIC, "round", "round 1 closed; round 2 of 2 paired")]


async def test_a_gms_round_after_the_deadline_closes_it_once_even_with_auto_close_on(service: GameService) -> None:
    leagues = await _league(service, "Late", LeagueSettings(auto_close=True))
    await leagues.start(GM, "Late")
    later = leagues.at(lambda: utcnow() + timedelta(hours=80))
    report = await later.next_round(GM, "Late")  # the games time out: their ends close nothing by themselves
    assert len(report.closed) == 2 and all(p.status == "done" for p in report.closed)
    assert report.league.current_round == 2 and len(report.made) == 2
    assert [a[:2] for a in await _log(service) if a[1] == "round"] == [(GM.user_id, "round")]


async def test_auto_close_off_leaves_the_round_to_a_gm_and_turning_it_on_closes_a_finished_round(
        service: GameService) -> None:
    leagues = await _league(service, "Hand", MANUAL)
    await leagues.start(GM, "Hand")
    await _concede_all(service, leagues, "Hand")
    assert (await leagues.show("g1", "Hand")).current_round == 1
    with pytest.raises(RulesError, match="Only a GM may change a league's settings"):
        await leagues.settings(ANN, "Hand", auto_close=True)
    info = await leagues.settings(GM, "Hand", auto_close=True)
    assert info.settings.auto_close and (await leagues.show("g1", "Hand")).current_round == 2
    with pytest.raises(RulesError, match="That changes nothing"):
        await leagues.settings(GM, "Hand", auto_close=True)


async def test_the_leagues_clock_is_given_to_the_games_made_after_it_is_set(service: GameService) -> None:
    leagues = await _league(service, "Clocked", LeagueSettings(reminder_hours=6, deadline_hours=20,
                                                               on_deadline="captain"))
    await leagues.start(GM, "Clocked")
    first = (await leagues.show("g1", "Clocked")).pairings
    with pytest.raises(RulesError, match="run from 1 to 720"):
        await leagues.settings(GM, "Clocked", deadline_hours=721)
    with pytest.raises(RulesError, match="A deadline cannot do 'nap'"):
        await leagues.settings(GM, "Clocked", on_deadline="nap")
    await leagues.settings(GM, "Clocked", deadline_hours=48, skip_quiet=False)
    await _concede_all(service, leagues, "Clocked")  # the round closes by itself; its games are made here
    info = await leagues.show("g1", "Clocked")
    await leagues.continue_round(info.id, 1)
    second = (await leagues.show("g1", "Clocked")).pairings
    async with service.store.repo.session() as s:
        clocks = {c.game_id: (c.reminder_hours, c.deadline_hours, c.on_deadline, c.skip_quiet)
                  for c in (await s.execute(select(GameClock))).scalars()}
    assert [clocks[p.game_id or 0] for p in first] == [(6, 20, "captain", True)] * 2  # kept as they were made
    assert [clocks[p.game_id or 0] for p in second] == [(6, 48, "captain", False)] * 2
    await leagues.settings(GM, "Clocked", server_clock=True)
    assert not (await leagues.show("g1", "Clocked")).settings.has_clock


async def test_a_late_entrant_is_paired_from_the_next_round_and_the_missed_round_counts_nothing(
        service: GameService) -> None:
    leagues = await _league(service, "Open", MANUAL)
    with pytest.raises(RulesError, match="registration is open"):
        await leagues.late_entry(GM, "Open", EVE.user_id, "Eve")
    await leagues.start(GM, "Open")
    with pytest.raises(RulesError, match="Only a GM may enter a member late"):
        await leagues.late_entry(EVE, "Open", EVE.user_id, "Eve")
    with pytest.raises(RulesError, match="P111 is already in Open"):
        await leagues.late_entry(GM, "Open", ANN.user_id, "Ann")
    late = await leagues.late_entry(GM, "Open", EVE.user_id, "Eve")
    assert (late.first_round, late.entry.name) == (2, "Eve")
    robot = await leagues.late_entry(GM, "Open", None, ai=True)
    assert robot.entry.name == "Computer captain 1"
    await _concede_all(service, leagues, "Open")
    report = await leagues.next_round(GM, "Open")
    assert {EVE.user_id, "ai:1"} <= {m for p in report.started for m in (p.a, p.b)}
    rows = {r.name: r for r in (await leagues.standings("g1", "Open")).rows}
    assert (rows["Eve"].played, rows["Eve"].wins, rows["Eve"].losses) == (0, 0, 0)
    with pytest.raises(RulesError, match="in its last round"):
        await leagues.late_entry(GM, "Open", "666", "Fay")
    await leagues.drop(GM, "Open", "P444")
    with pytest.raises(RulesError, match="a dropped entrant does not come back"):
        await leagues.late_entry(GM, "Open", DEE.user_id, "Dee")
    assert [a[1] for a in await _log(service) if a[1] == "late-entry"] == ["late-entry"] * 2


async def test_a_round_robin_refuses_a_late_entrant_with_its_reason(service: GameService) -> None:
    leagues = await _league(service, "Ring", format="round_robin")
    await leagues.start(GM, "Ring")
    with pytest.raises(RulesError, match="is a round robin: its schedule was fixed"):
        await leagues.late_entry(GM, "Ring", EVE.user_id, "Eve")


async def test_a_late_entry_racing_the_round_close_is_paired_in_the_round_it_is_told(service: GameService) -> None:
    leagues = await _league(service, "Race", who=(ANN, BOB, CY, DEE, Actor("666", "g1"), Actor("777", "g1"),
                                                  Actor("888", "g1"), Actor("1000", "g1")))
    await leagues.start(GM, "Race")  # 8 entrants: 3 rounds
    pairings = (await leagues.show("g1", "Race")).pairings
    *early, last = pairings
    for p in early:
        await service.commands.concede(Actor(p.a, "g1"), p.game_id or 0)
    late, _ = await asyncio.gather(leagues.late_entry(GM, "Race", EVE.user_id, "Eve"),
                                   service.commands.concede(Actor(last.a, "g1"), last.game_id or 0))
    info = await leagues.show("g1", "Race")
    assert info.current_round == 2
    paired = any(EVE.user_id in (p.a, p.b) for p in info.pairings)
    assert paired == (late.first_round == 2)  # in round 2 if told so; otherwise from round 3, never lost


async def test_every_organiser_action_is_logged_and_a_refused_one_is_not(service: GameService) -> None:
    leagues = await _league(service, "Logged", MANUAL)
    await leagues.start(GM, "Logged")
    one, two = (await leagues.show("g1", "Logged")).pairings
    await leagues.record_result(GM, "Logged", one.table, "A", "played at the club")
    with pytest.raises(RulesError):
        await leagues.record_result(GM, "Logged", one.table, "B")  # decided already: nothing logged
    await leagues.forfeit(GM, "Logged", two.table, "B", "no show")
    await leagues.late_entry(GM, "Logged", EVE.user_id, "Eve")
    await leagues.next_round(GM, "Logged")
    await leagues.drop(GM, "Logged", "P111", "moved away")
    await leagues.settings(GM, "Logged", reminder_hours=12)
    assert [(who, what) for who, what, _ in await _log(service)] == [
        (GM.user_id, a) for a in ("create", "start", "result", "forfeit", "late-entry", "round", "drop", "settings")]
    page = await leagues.action_log("g1", "Logged", 1, per_page=3)
    assert page.total == 8 and [line.action.action for line in page.lines] == ["settings", "drop", "round"]
    assert page.lines[1].subject_name == "P111" and page.lines[2].subject_name == ""
    assert page.lines[0].action.note == "reminder hours: the server's → 12"
    assert "moved away" in page.lines[1].action.note
    older = await leagues.action_log("g1", "Logged", 2, per_page=3)
    assert [line.action.action for line in older.lines] == ["late-entry", "forfeit", "result"]
    assert older.lines[0].subject_name == "Eve" and "no show" in older.lines[1].action.note
    with pytest.raises(RulesError, match="no league called"):
        await leagues.action_log("other-guild", "Logged")


async def test_sides_are_balanced_in_the_second_round(service: GameService) -> None:
    leagues = await _league(service, "Sides", MANUAL)
    await leagues.start(GM, "Sides")
    first = (await leagues.show("g1", "Sides")).pairings
    was_a = {p.a for p in first}
    await _concede_all(service, leagues, "Sides")
    report = await leagues.next_round(GM, "Sides")
    for p in report.started:  # each pairs one who played A with one who played B: the B player now has A
        if (p.a in was_a) != (p.b in was_a):
            assert p.a not in was_a


async def test_a_servers_purge_takes_its_leagues_log_and_a_forgotten_member_leaves_no_id_in_it(
        service: GameService) -> None:
    leagues = await _league(service, "Gone", MANUAL)
    await leagues.start(GM, "Gone")
    await leagues.drop(GM, "Gone", "P111", "left")
    exported = (await service.privacy.export(ANN.user_id))["league_actions"]
    assert [(a["action"], a["by_them"], a["note"]) for a in exported] == [("drop", False, "left")]
    await service.privacy.forget(ANN.user_id)
    assert all(ANN.user_id not in (who, about) for who, _, _, about in [
        (a.actor, a.action, a.note, a.subject) for a in await _actions(service)])
    counts = await service.retention.purge("g1")
    assert counts["league_actions"] == 3 and await _actions(service) == []


async def _actions(service: GameService) -> list[LeagueAction]:
    async with service.store.repo.session() as s:
        return list((await s.execute(select(LeagueAction))).scalars())


async def test_a_gms_result_or_forfeit_of_the_last_open_table_closes_the_round_too(service: GameService) -> None:
    leagues = await _league(service, "Desk")
    await leagues.start(GM, "Desk")
    first, last = (await leagues.show("g1", "Desk")).pairings
    await leagues.forfeit(GM, "Desk", first.table, "A", "no show")  # its game is conceded: one table left
    assert (await leagues.show("g1", "Desk")).current_round == 1
    await leagues.record_result(GM, "Desk", last.table, None, "a draw agreed at the club")  # its game goes on
    info = await leagues.show("g1", "Desk")
    assert info.current_round == 2 and len(info.pairings) == 2
    assert [a[:2] for a in await _log(service)][-3:] == [(GM.user_id, "forfeit"), (GM.user_id, "result"),
                                                         (AUTOMATIC, "round")]
