"""Team leagues through the service: a team registers and its partner joins it, teams are paired as
entrants, each pairing is one 2 vs 2 fleet battle with each team on one side, and every member's
rating moves by OpenSkill's team rating."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from game.errors import RulesError
from game.model import Phase
from game.scenario import builtin_scenarios
from game.service.game_service import Actor, GameService
from game.service.models import Rating
from tests.service.test_leagues import GM, MANUAL, play_round

ANN, BOB, CY, DEE, EVE = (Actor(u, "g1") for u in ("111", "222", "333", "444", "555"))
# the fleet battle cut to one turn: four computer captains play it out in moments
SHORT_FLEET = builtin_scenarios()["fleet_battle"].replace('defender = "Crown"', 'defender = "Crown"\nlast_turn = 1')


async def test_a_team_registers_its_partner_joins_and_both_sit_on_one_side(service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "chan", "Pairs", scenario="short", scenario_text=SHORT_FLEET, teams=True)
    made = await leagues.join(ANN, "Pairs", "Ann", team="Red", partner=BOB.user_id, partner_name="Bob")
    assert made.waiting and made.partner == BOB.user_id
    joined = await leagues.join(BOB, "Pairs", "Bob", team="red")  # the partner's own join completes it
    assert not joined.waiting and (joined.name, joined.partner_name) == ("Red", "Bob")
    await leagues.join(CY, "Pairs", "Cy", team="Blue", partner=DEE.user_id)  # Dee never joins
    await leagues.join(GM, "Pairs", ai=True)
    report = await leagues.start(GM, "Pairs")
    (p,) = report.started
    assert {p.a, p.b} == {ANN.user_id, "ai:1"} and report.league.rounds == 1  # Blue was never a team
    assert {p.a_partner, p.b_partner} == {BOB.user_id, "ai:2"}
    info = await service.lobby.info(p.game_id or 0)
    seats = {s.player: s.user_id or ("ai" if s.ai else None) for s in info.seats}
    red = ("A1", "A2") if p.a == ANN.user_id else ("B1", "B2")
    assert [seats[q] for q in red] == [ANN.user_id, BOB.user_id]
    assert {q: v for q, v in seats.items() if q not in red} == dict.fromkeys({"A1", "A2", "B1", "B2"} - set(red), "ai")

    await service.commands.concede(BOB, p.game_id or 0)  # one member concedes for the team's side
    state = await service.reading.state_for_audit(p.game_id or 0)
    assert state.phase is Phase.OVER
    (done,) = (await leagues.show("g1", "Pairs")).pairings
    assert done.status == "done" and done.winner == "ai:1"
    async with service.store.repo.session() as s:
        rated = {r.member: r for r in (await s.execute(select(Rating).where(Rating.guild_id == "g1"))).scalars()}
    assert set(rated) == {ANN.user_id, BOB.user_id, "ai:1", "ai:2"} and all(r.games == 1 for r in rated.values())
    assert rated[ANN.user_id].mu == rated[BOB.user_id].mu < rated["ai:1"].mu == rated["ai:2"].mu
    table = await leagues.standings("g1", "Pairs")
    assert [r.name for r in table.rows] == ["Computer captains 1 & 2", "Red"]  # Blue is in no standings


async def test_teams_of_computer_captains_play_a_swiss_league_of_fleet_battles(service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "chan", "Fleets", scenario="short", scenario_text=SHORT_FLEET, teams=True, top_cut=2, settings=MANUAL)
    for _ in range(4):
        await leagues.join(GM, "Fleets", ai=True)
    await leagues.start(GM, "Fleets")
    for _ in range(3):  # two Swiss rounds and the final
        await play_round(service, leagues, "Fleets")
        report = await leagues.next_round(GM, "Fleets")
    for p in report.closed:
        state = await service.reading.state_for_audit(p.game_id or 0)
        assert state.phase is Phase.OVER and state.fleet_battle
        assert p.winner == {state.teams[0]: p.a, state.teams[1]: p.b}.get(state.winner or "")
    table = await leagues.standings("g1", "Fleets")
    assert table.final and table.champion in {r.member for r in table.rows[:2]}
    assert sum(r.played for r in table.rows) == 8


async def test_who_may_join_which_team(service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "chan", "Pairs", teams=True)  # the quick start is one against one: a fleet battle
    assert (await leagues.show("g1", "Pairs")).scenario == "fleet_battle"
    # Eve names Bob first, against his will: being named binds nobody
    await leagues.join(EVE, "Pairs", "Eve", team="Squatters", partner=BOB.user_id)
    await leagues.join(ANN, "Pairs", "Ann", team="Red", partner=BOB.user_id)
    with pytest.raises(RulesError, match="already has a team called 'Red'"):
        await leagues.join(EVE, "Pairs", "Eve", team="Red")  # not the partner named: no way in
    await leagues.join(BOB, "Pairs", "Bob", team="Red")
    with pytest.raises(RulesError, match="already in team Red"):
        await leagues.join(BOB, "Pairs", "Bob", team="Squatters")
    with pytest.raises(RulesError, match="partner is already in a team"):
        await leagues.join(EVE, "Pairs", "Eve", team="Squatters", partner=ANN.user_id)
    again = await leagues.join(EVE, "Pairs", "Eve", team="Eve's", partner=DEE.user_id)  # registered again
    assert (again.name, again.partner, again.waiting) == ("Eve's", DEE.user_id, True)
    assert [e.name for e in (await leagues.show("g1", "Pairs")).entrants] == ["Eve's", "Red"]
    with pytest.raises(RulesError, match="already in team Red"):
        await leagues.join(ANN, "Pairs", "Ann", team="Again", partner=CY.user_id)
    with pytest.raises(RulesError, match="name your partner"):
        await leagues.join(CY, "Pairs", "Cy", team="Solo", partner=CY.user_id)
    with pytest.raises(RulesError, match="partner is already in a team"):
        await leagues.join(CY, "Pairs", "Cy", team="Poach", partner=BOB.user_id)
    # Cy registers a team of his own, then is named by Dee's: joining it withdraws his own
    await leagues.join(CY, "Pairs", "Cy", team="Cy's", partner="666")
    await leagues.join(DEE, "Pairs", "Dee", team="Blue", partner=CY.user_id)
    await leagues.join(CY, "Pairs", "Cy", team="Blue")
    assert [e.name for e in (await leagues.show("g1", "Pairs")).entrants] == ["Eve's", "Red", "Blue"]
    with pytest.raises(RulesError, match="register a team"):
        await leagues.join(CY, "Pairs", "Cy")
    with pytest.raises(RulesError, match="Only a GM"):
        await leagues.join(CY, "Pairs", ai=True)
    await leagues.create(GM, "chan", "Solo")
    with pytest.raises(RulesError, match="not a team league"):
        await leagues.join(CY, "Solo", "Cy", team="Blue", partner=DEE.user_id)
    with pytest.raises(RulesError, match="two teams of two squadrons"):
        await leagues.create(GM, "chan", "Wrong", scenario="quickstart", scenario_text=builtin_scenarios()["quickstart"],
                             teams=True)


async def test_a_dropped_team_forfeits_and_neither_member_may_join_again(service: GameService) -> None:
    leagues = service.leagues
    await leagues.create(GM, "chan", "Pairs", scenario="short", scenario_text=SHORT_FLEET, teams=True)
    await leagues.join(ANN, "Pairs", "Ann", team="Red", partner=BOB.user_id)
    await leagues.join(BOB, "Pairs", "Bob", team="Red")
    await leagues.join(GM, "Pairs", ai=True)
    await leagues.start(GM, "Pairs")
    dropped = await leagues.drop(GM, "Pairs", BOB.user_id, "moved away")  # either member names the team
    assert dropped.name == "Red" and dropped.partner == BOB.user_id
    (p,) = (await leagues.show("g1", "Pairs")).pairings
    assert p.status == "done" and p.winner == "ai:1" and p.forfeited in ("A", "B")
    state = await service.reading.state_for_audit(p.game_id or 0)
    assert state.phase is Phase.OVER and state.winner == state.team_of("A1" if p.a == "ai:1" else "B1")
    # dropped while registering: neither member registers again, in that team or another
    await leagues.create(GM, "chan", "Later", teams=True)
    await leagues.join(ANN, "Later", "Ann", team="Red", partner=BOB.user_id)
    await leagues.join(BOB, "Later", "Bob", team="Red")
    await leagues.drop(GM, "Later", "red", "a GM's call")
    for who in (ANN, BOB):
        with pytest.raises(RulesError, match="A GM has dropped you"):
            await leagues.join(who, "Later", "x", team="Red", partner=CY.user_id)


async def test_a_gm_hands_a_member_who_left_to_their_partner_never_to_the_other_team(service: GameService) -> None:
    """A team does not sink with a member who must leave mid-game: a GM gives their squadron to the
    partner, who then commands both of the side's squadrons; the other team's members are refused."""
    leagues = service.leagues
    await leagues.create(GM, "chan", "Pairs", scenario="short", scenario_text=SHORT_FLEET, teams=True)
    await leagues.join(ANN, "Pairs", "Ann", team="Red", partner=BOB.user_id)
    await leagues.join(BOB, "Pairs", "Bob", team="Red")
    await leagues.join(CY, "Pairs", "Cy", team="Blue", partner=DEE.user_id)
    await leagues.join(DEE, "Pairs", "Dee", team="Blue")
    (p,) = (await leagues.start(GM, "Pairs")).started
    game = p.game_id or 0
    seats = {s.user_id: s.player for s in (await service.lobby.info(game)).seats}
    with pytest.raises(RulesError, match="only a GM may hand over"):
        await service.seats.hand_over(BOB, game, ANN.user_id, "Ann")  # a ranked game: not the players' call
    with pytest.raises(RulesError, match="already plays another side"):
        await service.seats.hand_over(GM, game, CY.user_id, "Cy", player=seats[BOB.user_id])
    await service.seats.hand_over(GM, game, ANN.user_id, "Ann", player=seats[BOB.user_id])
    held = [s.player for s in (await service.lobby.info(game)).seats if s.user_id == ANN.user_id]
    assert sorted(held) == sorted([seats[ANN.user_id], seats[BOB.user_id]])


async def test_a_team_brings_no_squadron_of_its_own(service: GameService) -> None:
    await service.leagues.create(GM, "chan", "Pairs", teams=True)
    with pytest.raises(RulesError, match="squadrons come from the scenario"):
        await service.leagues.join(ANN, "Pairs", "Ann", squadron="Dutch", team="Red", partner=BOB.user_id)
