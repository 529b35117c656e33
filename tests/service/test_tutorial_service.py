"""The tutorial in the service: who sits where when it is created, where it is refused, and when its
hints speak (issue 25, item 8; the bot plays it in tests/bot/test_tutorial.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.errors import RulesError
from game.events import PhaseBegan
from game.model import Phase
from game.options import Option, Options
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


def test_the_attack_hint_names_the_shot_with_most_dice_and_only_its_range() -> None:
    seen = replace(quickstart(), tutorial=True, turn=1, phase=Phase.ATTACK)
    shots = Options("A", "Attack Phase, turn 1.", (
        Option("Kestrel", "port Broadside at Otter, Cannon Shot, 3 dice", "fire Kestrel port Otter"),
        Option("Amazone", "port Broadside at Hoorn, Musket Shot, 5 dice", "fire Amazone port Hoorn")))
    said = hint(seen, [shots], [], load_rules())
    assert "`/order line: fire Amazone port Hoorn`" in said and "At Cannon Shot" not in said


def test_a_held_ship_is_not_told_to_sail_straight_on() -> None:
    seen = replace(quickstart(), tutorial=True, turn=1, phase=Phase.MOVEMENT)
    held = Options("A", "Movement Phase, turn 1.", (
        Option("Kestrel", "In the Wind's Eye: hold, or turn up to 30° in place", "move Kestrel hold turn start port 30"),))
    said = hint(seen, [held], [], load_rules())
    assert "In the Wind's Eye: hold" in said and "sails straight on" not in said
    assert "`/order line: move Kestrel hold turn start port 30`" in said
