"""Drafted games through the service: a saved list enlists on joining (a refused one frees the seat
again), the computer captains run the set-up, and the hands stay out of the other side's view."""

from __future__ import annotations

from importlib import resources

import pytest

from game.errors import RulesError
from game.model import Phase
from game.service.game_service import Actor, GameService
from game.squadron import SquadronList
from game.squadron_builder import to_toml

ANN, BOB = Actor("111", "g1"), Actor("222", "g1")
DUTCH = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()


async def test_a_wrong_list_frees_the_seat_and_computer_captains_set_the_game_up(service: GameService) -> None:
    from game.squadron import parse_squadron

    await service.squadrons.save(ANN, DUTCH)
    patrol: SquadronList = parse_squadron(DUTCH)
    await service.squadrons.save(ANN, to_toml(SquadronList("Small", "patrol", "Dutch", "Untested", "Zeelandia",
                                                            patrol.ships[:2], patrol.hand[:5])))
    info = await service.lobby.create_game(ANN, "chan", scenario="drafted", size="skirmish")
    with pytest.raises(RulesError, match="This game is a skirmish"):
        await service.lobby.join(ANN, info.id, "A", squadron="Small")
    assert (await service.lobby.info(info.id)).seats[0].user_id is None  # the side is free again
    with pytest.raises(RulesError, match="join with one of your saved squadrons"):
        await service.lobby.join(ANN, info.id, "A")
    await service.lobby.join(ANN, info.id, "A", squadron="zeeland admiralty")
    await service.lobby.join(BOB, info.id, "B", ai=True)
    view = await service.reading.view(BOB, info.id)
    assert view.game.squadron("A").hand == () and view.game.squadron("A").name == "Zeeland Admiralty"
    state = await service.reading.state_for_audit(info.id)
    assert state.prep is not None and state.prep.step == "role" and state.objective

    # A's player leaves the set-up to the computer too; the captains play it through
    loaded = await service.store.load(info.id)
    for seat in loaded.seats:
        seat.is_ai, seat.user_id = True, None
        await service.store.repo.update_seat(seat, loaded.record)
    await service.commands.play_ai(info.id, limit=60)
    state = await service.reading.state_for_audit(info.id)
    assert state.phase is not Phase.PREPARATION and state.prep.step == "done"  # the set-up is over
    assert state.table.terrain or state.prep.removed
    assert (await service.audit.check(info.id)).ok


async def test_the_built_in_drafted_skirmish_is_a_drafted_game_picked_by_name(service: GameService) -> None:
    """`/game create scenario: drafted_skirmish` is the same game as `scenario: drafted size: skirmish`:
    it waits for saved lists, and a league made from it is a drafted skirmish league."""
    info = await service.lobby.create_game(ANN, "chan2", scenario="drafted_skirmish")
    assert info.name == "Drafted skirmish" and info.phase == Phase.PREPARATION.value
    with pytest.raises(RulesError, match="This is a drafted skirmish: join with one of your saved squadrons"):
        await service.lobby.join(ANN, info.id, "A")
    await service.squadrons.save(ANN, DUTCH)
    await service.lobby.join(ANN, info.id, "A", squadron="Zeeland Admiralty")
    state = await service.reading.state_for_audit(info.id)
    assert state.prep is not None and state.prep.size == "skirmish" and state.squadron("A").name
    from tests.service.test_leagues import GM

    league = await service.leagues.create(GM, "c", "Drafted cup", scenario="drafted_skirmish")
    assert (league.scenario, league.size) == ("drafted", "skirmish")
