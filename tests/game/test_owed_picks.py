"""Issue 23, item 6: who still owes an initiative pick, in one place (game/phases/common.owes_pick), and
every copy that used to work it out on its own asks it. A squadron with no card in hand owes no pick,
nor does a squadron wholly Captured or Out of Action ("may not play an initiative card this round",
the rulebook's Fleet Battles); the copies that asked only "not picked yet" (the service's owed-picks table and
nudges, the bot's buttons, the channel's prompt, the legal moves) or also "has cards" (the waiting
list the clock and captain read, the captain's pick) got one or both wrong. Scripted states of the
fleet battle: A2's ships all Out of Action (cards in hand), B2's hand empty (ships afloat)."""

from __future__ import annotations

import pytest

from game.ai.captain import Captain
from game.ai.legal import candidates
from game.commands import PickCard
from game.dice import ScriptedDice
from game.engine import decide_and_apply
from game.errors import IllegalAction
from game.model import Game, Phase, Status, evolve
from game.options import options_for, public_options
from game.phases.common import awaiting_pick, owes_pick
from game.phases.flow import deciders
from game.rules_data import load_rules
from game.scenario import builtin_scenarios, load_scenario_text
from game.service.frontend import nudges
from game.service.models import Seat
from game.service.repository import picks_owed
from game.views import view_of

RULES = load_rules()
USERS = {"A1": "101", "A2": "102", "B1": "201", "B2": "202"}
SEATS = [Seat(game_id=1, player=p, user_id=u, display_name=p) for p, u in USERS.items()]


def fleet() -> Game:
    return load_scenario_text(builtin_scenarios()["fleet_battle"], "fleet_battle.toml")


def scripted(state: Game | None = None) -> Game:
    """A2 beaten (every ship Out of Action, its hand still full), B2 without a card in hand."""
    state = state or fleet()
    for ship in state.ships_of("A2"):
        state = state.with_ship(evolve(ship, statuses=ship.statuses | {Status.OUT_OF_ACTION}))
    return state.with_squadron(evolve(state.squadron("B2"), hand=()))


def in_initiative(state: Game) -> Game:
    """The same squadrons at the pick of a later turn: nobody has chosen yet."""
    return evolve(state, phase=Phase.INITIATIVE, turn=3)


@pytest.mark.parametrize("make", [scripted, lambda: in_initiative(scripted())], ids=["set-up", "initiative"])
def test_only_squadrons_with_cards_and_a_ship_that_can_act_owe_a_pick(make) -> None:  # type: ignore[no-untyped-def]
    state = make()
    assert [p for p in state.players if owes_pick(state, p)] == ["A1", "B1"]
    assert awaiting_pick(state) == ["A1", "B1"]  # it asked only for cards: A2 was owed
    assert deciders(state) == {"A1", "B1"}  # whom the clock's waits and the captain's turns follow


def test_nobody_owes_a_pick_outside_the_picking_phases_or_after_choosing() -> None:
    state = fleet()
    assert awaiting_pick(state) == ["A1", "A2", "B1", "B2"]
    assert awaiting_pick(evolve(state, phase=Phase.MOVEMENT)) == []
    picked = state.with_squadron(evolve(state.squadron("A1"), picked=True))
    assert not owes_pick(picked, "A1") and awaiting_pick(picked) == ["A2", "B1", "B2"]


def test_the_service_keeps_and_nudges_only_the_picks_owed() -> None:
    state = scripted()
    assert picks_owed(SEATS, state).owed == {"A1", "B1"}  # the table of owed secrets asked only "not picked"
    assert sorted(p.payload["player"] for p in nudges(SEATS, state)) == ["A1", "B1"]  # and so did the DMs


def test_the_legal_orders_and_the_captain_pick_only_for_a_squadron_that_owes() -> None:
    state = scripted()
    players = {c.player for c in candidates(state, RULES) if isinstance(c, PickCard)}
    assert players == {"A1", "B1"}  # every card of A2's hand was offered
    chosen = Captain("A1", 1, RULES).act(state)
    assert isinstance(chosen, PickCard) and chosen.player == "A1"
    with pytest.raises(RuntimeError, match="no legal command for player A2"):
        Captain("A2", 1, RULES).act(state)  # it used to choose a card it may not play


def test_a_beaten_squadron_may_not_play_a_card_and_its_pick_is_made_for_it() -> None:
    state = scripted()
    with pytest.raises(IllegalAction, match="wholly Captured or Out of Action"):
        decide_and_apply(state, PickCard("A2", "Take Courage"), ScriptedDice([]), RULES)
    _, after = decide_and_apply(state, PickCard("A1", "Down!"), ScriptedDice([]), RULES)
    for player in ("A2", "B2"):
        q = after.squadron(player)
        assert q.picked and q.face_down is None  # no card, made for them at the first pick
    assert awaiting_pick(after) == ["B1"]


def test_what_a_player_is_asked_for_follows_the_rule() -> None:
    state = scripted()
    for player in ("A2", "B2"):
        seen = view_of(state, player)
        assert not owes_pick(seen.game, player)  # from their own view, as the bot's buttons and nudges ask
        assert options_for(seen, RULES).summary == ""
        assert public_options(seen, RULES).summary == ""  # the channel's prompt (and the table's) said "Choose"
    seen = view_of(state, "A1")
    assert owes_pick(seen.game, "A1")
    assert public_options(seen, RULES).summary.startswith("Choose an initiative card face down")
