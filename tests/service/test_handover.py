"""Issue 14, item 3: seats change hands. A player hands their side to another member or to the
computer captain (a GM may do it for any side); nobody else can; the log says who played each turn."""

from __future__ import annotations

import pytest

from game import events as ev
from game.errors import NotYourTurn, RulesError
from game.service.game_service import Actor, GameService, NotSeated, SeatTaken, ServiceError
from game.service.results import SeatInfo
from tests.service.test_replay import short_game as started

ANN, BOB, CAT, EVE = Actor("111", "g1"), Actor("222", "g1"), Actor("444", "g1"), Actor("333", "g1")
GM = Actor("999", "g1", gm=True)


async def test_a_side_changes_hands_and_the_log_keeps_who_played(service: GameService) -> None:
    gid = await started(service)
    await service.commands.submit(ANN, gid, "move Kestrel")
    for who, side in ((EVE, "B"), (ANN, "B")):  # a spectator, the opponent: not theirs
        with pytest.raises(NotSeated):
            await service.seats.hand_over(who, gid, EVE.user_id, "Eve", side)
    with pytest.raises(SeatTaken):  # the opponent cannot be given a second side
        await service.seats.hand_over(BOB, gid, ANN.user_id, "Ann")
    out = await service.seats.hand_over(BOB, gid, CAT.user_id, "Cat")
    assert [type(e) for e in out.events] == [ev.SeatHandedOver]
    with pytest.raises(NotSeated):
        await service.commands.submit(BOB, gid, "move Otter")  # Bob has given it away
    await service.commands.submit(CAT, gid, "move Otter")  # Cat plays B now
    info = await service.lobby.info(gid)
    assert SeatInfo("B", CAT.user_id, "Cat", False) in info.seats
    log = [e for e in await service.reading.log(EVE, gid, last=50)]
    assert any(isinstance(e, ev.SeatHandedOver) and e.before == "Bob" and e.to == "Cat" for e in log)
    history = await service.reading.seat_history(gid)
    assert ("B", 0, "Bob") in history and ("B", 1, "Cat") in history and ("A", 0, "Ann") in history


async def test_to_the_computer_captain_and_by_a_gm(service: GameService) -> None:
    gid = await started(service)
    await service.seats.hand_over(GM, gid, None, "", "A")  # a GM, for any side
    assert SeatInfo("A", None, "Computer captain (A)", True) in (await service.lobby.info(gid)).seats
    played = await service.commands.play_ai(gid, limit=3)
    assert played  # the captain takes A's activation at once
    history = await service.reading.seat_history(gid)
    assert ("A", 1, "Computer captain (A)") in history


async def test_an_undo_passes_over_a_hand_over(service: GameService) -> None:
    gid = await started(service)
    await service.commands.submit(ANN, gid, "move Kestrel")
    await service.seats.hand_over(ANN, gid, CAT.user_id, "Cat")
    await service.undo.request(CAT, gid)  # Cat, now A, asks to take back A's move
    undone = await service.undo.approve(BOB, gid)
    assert any(isinstance(e, ev.StateRestored) for e in undone.events)
    with pytest.raises(NotYourTurn):
        await service.commands.submit(BOB, gid, "move Otter")  # A moves again: the move was taken back
    assert SeatInfo("A", CAT.user_id, "Cat", False) in (await service.lobby.info(gid)).seats  # the hand-over stays


async def test_a_finished_game_keeps_its_seats(service: GameService) -> None:
    gid = await started(service)
    await service.commands.concede(BOB, gid)
    with pytest.raises(ServiceError) as refused:
        await service.seats.hand_over(ANN, gid, CAT.user_id, "Cat")
    assert isinstance(refused.value, RulesError) and "over" in refused.value.text
