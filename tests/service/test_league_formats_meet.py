"""Where the organisers' tools (auto-close, the league's clock, late entry, side balancing, the action
log) meet the top cut and team leagues, through the service (docs/leagues.md, "The organisers' tools
in a top cut and a team league")."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from game.errors import RulesError
from game.league.sides import allocate, records
from game.service.game_service import Actor, GameService
from game.service.league_log import AUTOMATIC
from game.service.league_settings import LeagueSettings
from game.service.models import GameClock, LeagueAction, LeagueGame
from tests.service.test_league_teams import SHORT_FLEET
from tests.service.test_leagues import ANN, BOB, GM, MANUAL, SHORT, play_round

CY, DEE = Actor("333", "g1"), Actor("444", "g1")


async def _log(service: GameService) -> list[tuple[str, str, str, str]]:
    async with service.store.repo.session() as s:
        return [(a.actor, a.action, a.subject, a.note)
                for a in (await s.execute(select(LeagueAction).order_by(LeagueAction.id))).scalars()]


async def _rows(service: GameService) -> list[LeagueGame]:
    async with service.store.repo.session() as s:
        return list((await s.execute(select(LeagueGame).order_by(LeagueGame.round, LeagueGame.table_no))).scalars())


async def test_a_top_cut_closes_its_rounds_by_itself_to_its_champion(service: GameService) -> None:
    service.front.outbox = True
    leagues = service.leagues
    info = await leagues.create(GM, "chan", "Cup", scenario="short", scenario_text=SHORT, top_cut=2)
    assert info.settings.auto_close and info.top_cut == 2
    for _ in range(4):
        await leagues.join(GM, "Cup", ai=True)
    await leagues.start(GM, "Cup")
    for closing in (1, 2):  # two Swiss rounds: each closes as its last game ends; the courier makes the next
        await play_round(service, leagues, "Cup")
        shown = await leagues.show("g1", "Cup")
        assert shown.current_round == closing + 1 and {p.status for p in shown.pairings} == {"pending"}
        report = await leagues.continue_round(shown.id, closing)
        assert report is not None and len(report.made) == len(report.started)
    final = await leagues.show("g1", "Cup")
    assert final.stage == "final" and final.current_round == final.rounds == 3
    seeds = {e.member: e.seed for e in final.entrants if e.seed}
    (match,) = final.pairings
    assert (seeds[match.a], seeds[match.b or ""]) == (1, 2)  # the higher seed on side A
    log = await _log(service)
    seeding = [a for a in log if a[1] == "seeding"]
    assert seeding == [(AUTOMATIC, "seeding", "", "the top cut of 2 seeded from the standings: "
                        + ", ".join(f"{seeds[m]}. Computer captain {m[3:]}" for m in sorted(seeds, key=seeds.get)))]
    await play_round(service, leagues, "Cup")  # the final's end ends the league
    table = await leagues.standings("g1", "Cup")
    assert table.final and table.champion in seeds and table.league.status == "over"
    assert (await _log(service))[-1] == (AUTOMATIC, "round", "", "round 3 closed; the league is over")
    ended = await leagues.continue_round(final.id, 3)  # the final post: the league over, its last round's result
    assert ended is not None and ended.league.status == "over" and ended.league.stage == "final"
    assert [p.winner for p in ended.closed] == [table.champion]


async def test_a_bracket_round_puts_the_higher_seed_on_side_a_where_balancing_would_not(service: GameService) -> None:
    """Side A wins every Swiss game: the 2-0 seed 1 has played side A twice, so side balancing would give
    them side B in the final; the bracket gives it to them."""
    leagues = service.leagues
    await leagues.create(GM, "chan", "Cup", scenario="short", scenario_text=SHORT, top_cut=2, settings=MANUAL)
    for actor in (ANN, BOB, CY, DEE):
        await leagues.join(actor, "Cup", f"P{actor.user_id}")
    await leagues.start(GM, "Cup")
    for _ in range(2):
        for p in (await leagues.show("g1", "Cup")).pairings:
            await leagues.record_result(GM, "Cup", p.table, "A")
        place = {r.member: r.rank for r in (await leagues.standings("g1", "Cup")).rows}
        report = await leagues.next_round(GM, "Cup")
        if report.league.current_round == 2:  # a Swiss round of a league with a top cut is balanced
            first = [(r.a_member, r.b_member or "") for r in await _rows(service) if r.round == 1]
            second = [(p.a, p.b or "") for p in report.league.pairings]
            flipped = [(b, a) for a, b in second]
            assert allocate(flipped, records(first), place) == second
            assert {a for a, _ in second} != {a for a, _ in first}  # someone changed sides
    info = report.league
    seeds = {e.seed: e.member for e in info.entrants if e.seed}
    (match,) = info.pairings
    assert (match.a, match.b) == (seeds[1], seeds[2])
    swiss = [r for r in await _rows(service) if r.round <= 2]
    assert [r.a_member for r in swiss].count(seeds[1]) == 2  # seed 1 played side A in both Swiss rounds
    balanced = allocate([(seeds[1], seeds[2])], records((r.a_member, r.b_member) for r in swiss), {seeds[1]: 1})
    assert balanced == [(seeds[2], seeds[1])]  # what balancing alone would have made of the final


async def test_late_entry_is_refused_in_a_team_league_and_once_the_swiss_rounds_are_over(
        service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "chan", "Pairs", scenario="short", scenario_text=SHORT_FLEET, teams=True)
    for _ in range(2):
        await leagues.join(GM, "Pairs", ai=True)
    await leagues.start(GM, "Pairs")
    with pytest.raises(RulesError, match="Pairs is a team league: a team is two members who register together"):
        await leagues.late_entry(GM, "Pairs", CY.user_id, "Cy")
    with pytest.raises(RulesError, match="team league"):
        await leagues.late_entry(GM, "Pairs", None, ai=True)

    await leagues.create(GM, "chan", "Cup", scenario="short", scenario_text=SHORT, top_cut=2, settings=MANUAL)
    for _ in range(4):
        await leagues.join(GM, "Cup", ai=True)
    await leagues.start(GM, "Cup")
    entered = await leagues.late_entry(GM, "Cup", None, ai=True)  # round 1 of 2 Swiss: paired from round 2
    assert (entered.entry.member, entered.first_round) == ("ai:5", 2)
    await play_round(service, leagues, "Cup")
    await leagues.next_round(GM, "Cup")
    for who in (DEE.user_id, None):  # the last Swiss round, and then the bracket
        with pytest.raises(RulesError, match="Cup has played its Swiss rounds: its top cut is seeded from them"):
            await leagues.late_entry(GM, "Cup", who, "Dee", ai=who is None)
        await play_round(service, leagues, "Cup")
        await leagues.next_round(GM, "Cup")
    assert [a for a in await _log(service) if a[1] == "late-entry"] == [
        (GM.user_id, "late-entry", "ai:5", "paired from round 2; round 1 counts nothing")]


async def test_team_registration_its_partner_and_the_create_note_are_logged(service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "chan", "Pairs", scenario="short", scenario_text=SHORT_FLEET, teams=True, top_cut=2)
    await leagues.join(ANN, "Pairs", "Ann", team="Red", partner=BOB.user_id, partner_name="Bob")
    await leagues.join(ANN, "Pairs", "Ann", team="Reds", partner=BOB.user_id, partner_name="Bob")
    with pytest.raises(RulesError):  # refused: nothing logged
        await leagues.join(CY, "Pairs", "Cy", team="Reds", partner=DEE.user_id)
    await leagues.join(BOB, "Pairs", "Bob", team="Reds")
    await leagues.join(GM, "Pairs", ai=True)
    log = await _log(service)
    assert log[0][:2] == (GM.user_id, "create")
    assert "a top cut of 2; teams of two;" in log[0][3]
    assert log[1:] == [
        (ANN.user_id, "team", ANN.user_id, "registered the team; its partner is named and has not joined yet"),
        (ANN.user_id, "team", ANN.user_id, "registered the team again under a new name, with the same partner"),
        (BOB.user_id, "team-complete", ANN.user_id, "the partner joined the team: it is complete"),
        (GM.user_id, "team", "ai:1", "a team of two computer captains entered"),
    ]
    assert not any("Red" in note or "Bob" in note or "Ann" in note for *_, note in log)  # names stay out
    page = await leagues.action_log("g1", "Pairs")
    assert [line.subject_name for line in page.lines][:2] == ["Computer captains 1 & 2", "Reds"]


async def test_a_team_leagues_games_get_the_leagues_clock_and_close_the_round_by_themselves(
        service: GameService) -> None:
    service.front.outbox = True
    leagues = service.leagues
    await leagues.create(GM, "chan", "Pairs", scenario="short", scenario_text=SHORT_FLEET, teams=True,
                         settings=LeagueSettings(reminder_hours=6, deadline_hours=20, on_deadline="pass"))
    await leagues.join(ANN, "Pairs", "Ann", team="Red", partner=BOB.user_id, partner_name="Bob")
    await leagues.join(BOB, "Pairs", "Bob", team="Red")
    for _ in range(3):
        await leagues.join(GM, "Pairs", ai=True)
    report = await leagues.start(GM, "Pairs")
    assert report.league.rounds == 2 and len(report.made) == 2
    async with service.store.repo.session() as s:
        clocks = {c.game_id: (c.reminder_hours, c.deadline_hours, c.on_deadline)
                  for c in (await s.execute(select(GameClock))).scalars()}
    assert [clocks[p.game_id or 0] for p in report.made] == [(6, 20, "pass")] * 2
    (ours,) = [p for p in report.started if ANN.user_id in (p.a, p.b)]
    await service.commands.concede(BOB, ours.game_id or 0)  # a member concedes for the team's side
    await play_round(service, leagues, "Pairs")  # the computer captains' table ends the round
    info = await leagues.show("g1", "Pairs")
    assert info.current_round == 2 and (await _log(service))[-1][:2] == (AUTOMATIC, "round")


async def test_a_forgotten_partner_leaves_no_id_in_the_team_the_log_or_the_ratings(service: GameService) -> None:
    """/privacy forget of a team's partner: their id and name leave the team and the log; the team they
    played for in a running league is dropped (it cannot play on without them); their export lists it."""
    leagues = service.leagues
    await leagues.create(GM, "chan", "Pairs", scenario="short", scenario_text=SHORT_FLEET, teams=True)
    await leagues.join(ANN, "Pairs", "Ann", team="Red", partner=BOB.user_id, partner_name="Bob")
    await leagues.join(BOB, "Pairs", "Bob", team="Red")
    await leagues.join(CY, "Pairs", "Cy", team="Blue", partner=DEE.user_id, partner_name="Dee")  # Dee never joins
    await leagues.join(GM, "Pairs", ai=True)
    exported = await service.privacy.export(BOB.user_id)
    assert exported["league_entries"] == [{"server": "g1", "league": "Pairs", "name": "Red", "squadron": "",
                                           "dropped": False, "team_partner": True, "partner_name": "Bob"}]
    for who in (BOB, DEE):
        await service.privacy.forget(who.user_id)
    info = await leagues.show("g1", "Pairs")
    red, blue, _ = info.entrants
    assert red.dropped and red.partner.startswith("former:") and red.partner_name == "former member"
    assert not blue.dropped and blue.partner.startswith("former:")  # only named: the team still waits
    assert all(BOB.user_id not in (a[0], a[2]) and DEE.user_id not in (a[0], a[2]) for a in await _log(service))
    assert [e.member for e in info.entrants if not e.dropped and not e.waiting] == ["ai:1"]
