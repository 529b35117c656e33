"""A command sent with the decision it answers (`Expect`): a button of a roll since settled, or a menu
of an earlier turn, is refused under the game's lock and changes nothing (issue 13, item 1)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from game import events as ev
from game.ai.captain import Captain
from game.commands import KeepRoll, PickCard, UseFortune
from game.model import Game
from game.phases.flow import deciders
from game.service.game_service import Actor, AlreadyDecided, Expect, GameService
from tests.service.test_service import ANN, BOB, new_game

ACTORS = {"A": ANN, "B": BOB}


async def drive(service: GameService, gid: int, until: Callable[[Game], bool], seed: int = 3) -> Game:
    captains = {p: Captain(p, seed) for p in ACTORS}
    for _ in range(2000):
        state = await service.reading.state_for_audit(gid)
        if until(state):
            return state
        due = deciders(state)
        assert due, "the game ended first"
        player = sorted(due)[0]
        await service.commands.submit(ACTORS[player], gid, captains[player].act(state))
    raise AssertionError("never came")


def roller(state: Game) -> Actor:
    assert state.pending is not None
    return ACTORS[state.pending.player]


async def test_the_roll_decision_is_the_event_that_opened_the_roll(service: GameService) -> None:
    gid = await new_game(service)
    assert await service.reading.roll_decision(gid) is None
    await drive(service, gid, lambda s: s.pending is not None)
    opened = [seq for seq, _, e in await service.store.repo.events(gid) if isinstance(e, ev.RollAwaitsChoice)]
    assert await service.reading.roll_decision(gid) == opened[-1]


async def test_a_settled_rolls_fortune_is_refused_on_the_next_roll(service: GameService) -> None:
    gid = await new_game(service)
    first = await drive(service, gid, lambda s: s.pending is not None)
    old = await service.reading.roll_decision(gid)
    await service.commands.submit(roller(first), gid, KeepRoll(), expect=Expect(roll=old))
    state = await drive(service, gid, lambda s: s.pending is not None and s.squadron(s.pending.player).fortune > 0)
    new = await service.reading.roll_decision(gid)
    assert new is not None and old is not None and new > old
    version = (await service.store.repo.load(gid)).record.version  # type: ignore[union-attr]
    with pytest.raises(AlreadyDecided, match="That roll was already decided"):
        await service.commands.submit(roller(state), gid, UseFortune(), expect=Expect(roll=old))
    assert (await service.store.repo.load(gid)).record.version == version  # type: ignore[union-attr]
    assert (await service.reading.state_for_audit(gid)).pending == state.pending
    await service.commands.submit(roller(state), gid, UseFortune(), expect=Expect(roll=new))  # its own roll's button


async def test_a_pick_from_an_earlier_turns_menu_is_refused(service: GameService) -> None:
    gid = await new_game(service)
    await service.commands.submit(ANN, gid, "pick A Down!", expect=Expect(turn=0))
    await service.commands.submit(BOB, gid, "pick B Take Courage", expect=Expect(turn=0))
    state = await service.reading.state_for_audit(gid)
    assert state.turn == 1 and not state.squadron("B").picked
    with pytest.raises(AlreadyDecided, match="That pick was for turn 0; it is turn 1 now"):
        await service.commands.submit(BOB, gid, PickCard("B", state.squadron("B").hand[0]), expect=Expect(turn=0))
    assert not (await service.reading.state_for_audit(gid)).squadron("B").picked
