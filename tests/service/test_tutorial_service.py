"""The tutorial in the service: who sits where when it is created, where it is refused, and when its
hints speak (issue 25, item 8; the bot plays it in tests/bot/test_tutorial.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.errors import RulesError
from game.events import PhaseBegan
from game.model import Phase
from game.options import Options
from game.rules_data import load_rules
from game.scenario import quickstart
from game.service.authority import LOCAL_GUILD
from game.service.game_service import Actor, GameService
from game.tutorial import ON_YOUR_OWN, hand_hint, hint

ANN = Actor("111", "g1")
GM = Actor("999", "g1", gm=True)


async def test_the_creator_learns_on_side_a_against_the_computer(service: GameService) -> None:
    info = await service.lobby.create_game(ANN, "c1", scenario="tutorial", display_name="Ann")
    a, b = info.seat("A"), info.seat("B")
    assert a is not None and (a.user_id, a.name, a.ai) == ("111", "Ann", False)
    assert b is not None and b.ai and b.user_id is None
    read = await service.reading.board(info.id)
    assert read.due == ("A", "B") and read.hint.startswith("💡 Tutorial, step 1")
    hand = await service.reading.hand(ANN, info.id)
    assert "Effective Fire (3: +1 Broadside value for each ship this turn)" in hand.hint


async def test_at_one_screen_the_sides_stay_free(service: GameService) -> None:
    info = await service.lobby.create_game(Actor("local", LOCAL_GUILD), "table-1", scenario="tutorial")
    assert all(s.free for s in info.seats)  # the offline table seats its sides itself


async def test_a_league_does_not_play_the_tutorial(service: GameService) -> None:
    with pytest.raises(RulesError, match="tutorial"):
        await service.leagues.create(GM, "c", "Learners", scenario="tutorial")


def test_hints_speak_only_in_a_tutorial_and_only_in_turn_1() -> None:
    rules = load_rules()
    game = quickstart()
    waiting = [Options("A", "Choose an initiative card face down.")]
    assert hint(game, waiting, [], rules) == "" and hand_hint(game, "A", rules) == ""
    taught = replace(game, tutorial=True)
    assert hint(taught, waiting, [], rules).startswith("💡")
    assert hand_hint(taught, "B", rules) == ""  # the computer's side is no learner's
    later = replace(taught, turn=2, phase=Phase.INITIATIVE)
    assert hint(later, waiting, [], rules) == "" and hand_hint(later, "A", rules) == ""
    assert hint(later, waiting, [PhaseBegan(Phase.INITIATIVE, 2)], rules) == ON_YOUR_OWN
