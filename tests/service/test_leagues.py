"""Leagues through the service: pairings become games with seats, results are recorded as games end
(conceded and timed-out ones too), standings and ratings follow, and all of it outlives a restart."""

from __future__ import annotations

from datetime import timedelta
from importlib import resources

import pytest
from sqlalchemy import select

from game.errors import RulesError
from game.model import Phase
from game.scenario import builtin_scenarios
from game.service.db import make_engine
from game.service.game_service import Actor, GameService
from game.service.league_settings import LeagueSettings
from game.service.leagues import Leagues
from game.service.models import Rating, utcnow
from tests.seeds import counting_seeds

GM = Actor("999", "g1", gm=True)
ANN, BOB = Actor("111", "g1"), Actor("222", "g1")
# the quick start cut to one turn: a league's games then take a fraction of a second
SHORT = builtin_scenarios()["quickstart"].replace('defender = "B"', 'defender = "B"\nlast_turn = 1')
DUTCH = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()
MANUAL = LeagueSettings(auto_close=False)  # rounds closed by a GM's /league round, as before auto-close


async def play_round(service: GameService, leagues: Leagues, name: str) -> None:
    for p in (await leagues.show("g1", name)).pairings:
        if p.game_id is not None:
            await service.commands.play_ai(p.game_id, limit=2000)


async def test_an_eight_player_swiss_league_of_computer_captains_runs_to_final_standings(service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "league-chan", "Autumn Cup", scenario="short", scenario_text=SHORT, settings=MANUAL)
    for _ in range(8):
        await leagues.join(GM, "Autumn Cup", ai=True)
    report = await leagues.start(GM, "autumn cup")  # names are matched without regard to case
    assert report.league.rounds == 3 and len(report.started) == 4
    met: set[frozenset[str]] = set()
    for round_no in (1, 2, 3):
        info = await leagues.show("g1", "Autumn Cup")
        assert info.current_round == round_no and {p.status for p in info.pairings} == {"playing"}
        for p in info.pairings:
            assert p.b is not None and frozenset((p.a, p.b)) not in met  # no rematch in a Swiss league
            met.add(frozenset((p.a, p.b)))
        await play_round(service, leagues, "Autumn Cup")
        info = await leagues.show("g1", "Autumn Cup")
        # each result was recorded as its game ended, with the Strike Points the game counted
        for p in info.pairings:
            assert p.status == "done" and p.winner in (p.a, p.b)
            state = await service.reading.state_for_audit(p.game_id or 0)
            assert state.phase is Phase.OVER and p.reason == state.result
            assert (p.a_points, p.b_points) == (dict(state.strike_points).get("A", 0), dict(state.strike_points).get("B", 0))
        report = await leagues.next_round(GM, "Autumn Cup")
        assert len(report.closed) == 4
    assert report.league.status == "over" and report.started == ()
    table = await leagues.standings("g1", "Autumn Cup")
    assert table.final and len(table.rows) == 8
    assert [r.wins for r in table.rows] == sorted((r.wins for r in table.rows), reverse=True)
    assert sum(r.wins for r in table.rows) == 12 and all(r.played == 3 for r in table.rows)
    assert table.rows[0].wins == 3  # three rounds of eight leave one unbeaten entrant
    async with service.store.repo.session() as s:
        ratings = list((await s.execute(select(Rating).where(Rating.guild_id == "g1"))).scalars())
    assert len(ratings) == 8 and all(r.games == 3 for r in ratings)
    champion = next(r for r in ratings if r.member == table.rows[0].member)
    assert champion.mu == max(r.mu for r in ratings)
    with pytest.raises(RulesError, match="not running"):
        await leagues.next_round(GM, "Autumn Cup")


async def test_registration_is_once_per_member_and_only_with_ones_own_complete_list(service: GameService) -> None:
    leagues = service.leagues
    with pytest.raises(RulesError, match="Only a GM may create a league"):
        await leagues.create(ANN, "c", "Mine")
    await leagues.create(GM, "c", "Open", scenario="quickstart")
    await leagues.join(ANN, "Open", "Ann")
    with pytest.raises(RulesError, match="already registered"):
        await leagues.join(ANN, "Open", "Ann again")
    with pytest.raises(RulesError, match="come from the scenario"):
        await leagues.join(BOB, "Open", "Bob", squadron="Anything")
    with pytest.raises(RulesError, match="Only a GM may enter a computer captain"):
        await leagues.join(BOB, "Open", ai=True)

    await leagues.create(GM, "c", "Drafted", scenario="drafted", size="skirmish")
    await service.squadrons.save(ANN, DUTCH)
    with pytest.raises(RulesError, match="register with one of your saved squadrons"):
        await leagues.join(BOB, "Drafted", "Bob")
    with pytest.raises(RulesError, match="no saved squadron called"):
        await leagues.join(BOB, "Drafted", "Bob", squadron="Zeeland Admiralty")  # Ann's, not Bob's
    entry = await leagues.join(ANN, "Drafted", "Ann", squadron="zeeland admiralty")
    assert entry.squadron == "Zeeland Admiralty"
    with pytest.raises(RulesError, match="already has a league called"):
        await leagues.create(GM, "c", "drafted")
    with pytest.raises(RulesError, match="two players"):
        await leagues.create(GM, "c", "Fleets", scenario="fleet_battle")


async def test_only_a_gm_starts_closes_and_records_and_a_drafted_round_seats_the_registered_lists(
        service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "c", "Drafted", scenario="drafted", size="skirmish", round_hours=24, settings=MANUAL)
    await service.squadrons.save(ANN, DUTCH)
    await leagues.join(ANN, "Drafted", "Ann", squadron="Zeeland Admiralty")
    await leagues.join(GM, "Drafted", ai=True)
    await leagues.join(GM, "Drafted", ai=True)
    with pytest.raises(RulesError, match="Only a GM may start a league"):
        await leagues.start(ANN, "Drafted")
    report = await leagues.start(GM, "Drafted")
    (game,) = [p for p in report.started if p.b is not None]
    (bye,) = [p for p in report.started if p.b is None]
    assert bye.status == "done" and bye.winner == bye.a and bye.reason == "a bye"
    info = await service.lobby.info(game.game_id or 0)
    if "111" in (game.a, game.b):
        state = await service.reading.state_for_audit(info.id)
        side = "A" if game.a == "111" else "B"
        assert state.squadron(side).name == "Zeeland Admiralty"  # the registered list was enlisted
    with pytest.raises(RulesError, match="Only a GM may close a league round"):
        await leagues.next_round(ANN, "Drafted")
    with pytest.raises(RulesError, match="Only a GM may record a league result"):
        await leagues.record_result(ANN, "Drafted", game.table, "A")
    with pytest.raises(RulesError, match="still being played"):
        await leagues.next_round(GM, "Drafted")
    done = await leagues.record_result(GM, "Drafted", game.table, None, "played at the club")
    assert done.status == "done" and done.winner is None and done.reason.startswith("played at the club")
    with pytest.raises(RulesError, match="already has its result"):
        await leagues.record_result(GM, "Drafted", game.table, "A")
    report = await leagues.next_round(GM, "Drafted")
    assert report.league.current_round == 2


async def test_a_conceded_game_counts_and_a_ranked_seat_changes_hands_only_through_a_gm(service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "c", "Duel", scenario="short", scenario_text=SHORT, format="round_robin", settings=MANUAL)
    await leagues.join(ANN, "Duel", "Ann")
    await leagues.join(BOB, "Duel", "Bob")
    (p,) = (await leagues.start(GM, "Duel")).started
    gid = p.game_id or 0
    assert {s.user_id for s in (await service.lobby.info(gid)).seats} == {"111", "222"}
    with pytest.raises(RulesError, match="ranked league game"):
        await service.seats.hand_over(ANN, gid)  # to the computer captain, without a GM
    await service.commands.concede(ANN, gid)
    (p,) = (await leagues.show("g1", "Duel")).pairings
    assert p.status == "done" and p.winner == "222" and "concedes" in p.reason
    table = await leagues.standings("g1", "Duel")
    assert [r.name for r in table.rows] == ["Bob", "Ann"] and table.rows[0].rating > table.rows[1].rating
    report = await leagues.next_round(GM, "Duel")  # round robin of two: one round
    assert report.league.status == "over"


async def test_a_timed_out_game_is_conceded_by_the_side_it_waits_for(service: GameService) -> None:
    later = utcnow() + timedelta(hours=25)
    leagues = service.leagues
    await leagues.create(GM, "c", "Slow", scenario="short", scenario_text=SHORT, round_hours=24)
    await leagues.join(ANN, "Slow", "Ann")
    await leagues.join(BOB, "Slow", "Bob")
    (p,) = (await leagues.start(GM, "Slow")).started
    gid = p.game_id or 0
    from game.ai.captain import Captain
    from game.phases.flow import deciders

    users = {s.player: Actor(s.user_id or "", "g1") for s in (await service.lobby.info(gid)).seats}
    state = await service.reading.state_for_audit(gid)
    while len(deciders(state)) != 1:  # both pick their cards; then one side is to act, and never does
        player = sorted(deciders(state))[0]
        await service.commands.submit(users[player], gid, Captain(player, 1).act(state))
        state = await service.reading.state_for_audit(gid)
    (waiting,) = deciders(state)
    with pytest.raises(RulesError, match="still being played"):
        await leagues.next_round(GM, "Slow")
    report = await service.leagues.at(lambda: later).next_round(GM, "Slow")
    (closed,) = report.closed
    loser = {"A": p.a, "B": p.b}[waiting]
    assert closed.winner not in (loser, None) and closed.reason == f"timed out: player {waiting} had not played"
    assert (await service.reading.state_for_audit(gid)).phase is Phase.OVER


async def test_a_league_survives_a_restart_and_a_result_missed_is_picked_up(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        service = GameService(engine, seeds=counting_seeds())
        leagues = service.leagues
        await leagues.create(GM, "c", "Long", scenario="short", scenario_text=SHORT)
        for _ in range(4):
            await leagues.join(GM, "Long", ai=True)
        first = (await leagues.start(GM, "Long")).started
    finally:
        await engine.dispose()
    engine = make_engine(db_url)
    try:
        service = GameService(engine, seeds=counting_seeds(100))  # a new process on the same database
        await service.audit.rebuild_all()
        leagues = service.leagues
        info = await leagues.show("g1", "Long")
        assert info.current_round == 1 and [p.game_id for p in info.pairings] == [p.game_id for p in first]
        # one game ends while its result cannot be written (the league's tables are out of reach)
        broken = first[0].game_id or 0
        original = Leagues._record

        async def unreachable(self: Leagues, game_id: int, state: object) -> None:
            raise ConnectionError("the database went away")

        Leagues._record = unreachable  # type: ignore[method-assign,assignment]
        try:
            await service.commands.play_ai(broken, limit=2000)
        finally:
            Leagues._record = original  # type: ignore[method-assign]
        assert (await service.reading.state_for_audit(broken)).phase is Phase.OVER
        assert (await leagues.show("g1", "Long")).pairings[0].status == "playing"
        await service.commands.play_ai(first[1].game_id or 0, limit=2000)
        report = await leagues.next_round(GM, "Long")
        assert [p.status for p in report.closed] == ["done", "done"]  # the missed result was recorded
        assert report.league.current_round == 2
    finally:
        await engine.dispose()


async def test_a_round_whose_games_were_not_all_made_is_completed_by_the_next_command(service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "c", "Threads", scenario="short", scenario_text=SHORT)
    for _ in range(4):
        await leagues.join(GM, "Threads", ai=True)
    made: list[str] = []

    async def one_thread_then_refused(title: str) -> str | None:
        if made:
            raise RulesError("I may not create threads here.")
        made.append(title)
        return "thread-1"

    with pytest.raises(RulesError, match="may not create threads"):
        await leagues.start(GM, "Threads", one_thread_then_refused)
    info = await leagues.show("g1", "Threads")
    assert [p.status for p in info.pairings] == ["playing", "pending"]  # paired, and stored as paired
    assert info.pairings[0].thread_id == "thread-1" and made == [f"Threads · round 1 · {info.pairings[0].a_name} v "
                                                                 f"{info.pairings[0].b_name}"]
    report = await leagues.next_round(GM, "Threads")  # no results yet: the missing game is made, nothing closed
    assert report.closed == () and [p.status for p in report.started] == ["playing", "playing"]
    assert report.league.current_round == 1 and len({p.game_id for p in report.started}) == 2


async def test_a_league_is_full_at_its_limit(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    from game.service import leagues as module

    monkeypatch.setattr(module, "MAX_ENTRANTS", 3)
    leagues = service.leagues
    await leagues.create(GM, "c", "Small")
    for _ in range(3):
        await leagues.join(GM, "Small", ai=True)
    with pytest.raises(RulesError, match="Small is full: a league takes 3 entrants"):
        await leagues.join(ANN, "Small", "Ann")


async def test_a_drafted_round_goes_on_without_a_registered_list_that_was_deleted(service: GameService) -> None:
    """Issue 22, finding 9: a member whose list is gone no longer holds the round up; they forfeit
    the pairing (no game is made, no rating moves), and are told."""
    leagues = service.leagues
    await leagues.create(GM, "c", "Lists", scenario="drafted", size="skirmish")
    await service.squadrons.save(ANN, DUTCH)
    await leagues.join(ANN, "Lists", "Ann", squadron="Zeeland Admiralty")
    await leagues.join(GM, "Lists", ai=True)
    from game.service.models import SavedSquadron

    async with service.store.repo.session() as s, s.begin():
        for row in (await s.execute(select(SavedSquadron))).scalars():
            await s.delete(row)
    report = await leagues.start(GM, "Lists")
    (p,) = report.started
    assert report.league.status == "running" and report.made == ()
    assert (p.status, p.winner, p.game_id, p.forfeited) == ("done", "ai:1", None, "A" if p.a == "111" else "B")
    assert p.reason == "forfeit: Ann has no valid list"
    (notice,) = report.notices
    assert notice.member == "111" and notice.text == (
        "You forfeit table 1 of round 1 of Lists: your registered list 'Zeeland Admiralty' is no longer a complete "
        "skirmish list. Save a complete list under that name (/squadron) before the next round is paired.")
    table = await leagues.standings("g1", "Lists")
    assert [(r.name, r.wins, r.losses, r.forfeits) for r in table.rows] == [
        ("Computer captain 1", 1, 0, 0), ("Ann", 0, 1, 1)]
    async with service.store.repo.session() as s:
        assert list((await s.execute(select(Rating))).scalars()) == []  # nothing was played: no rating moved


async def test_a_member_who_cannot_be_seated_forfeits_the_pairing(service: GameService,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    leagues = service.leagues
    await leagues.create(GM, "c", "Forfeit", scenario="short", scenario_text=SHORT)
    await leagues.join(ANN, "Forfeit", "Ann")
    await leagues.join(BOB, "Forfeit", "Bob")
    join = service.lobby.join

    async def refuse_bob(actor: Actor, game_id: int, *args: object, **kwargs: object) -> object:
        if actor.user_id == BOB.user_id:
            from game.service.errors import SquadronRefused

            raise SquadronRefused("The saved squadron cannot be read.")
        return await join(actor, game_id, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service.lobby, "join", refuse_bob)
    (p,) = (await leagues.start(GM, "Forfeit")).started
    assert p.status == "done" and p.winner == "111"
    assert p.reason == "forfeit: Bob could not be seated (The saved squadron cannot be read.)"
