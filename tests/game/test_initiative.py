"""Initiative Phase: secret picks, reveal, ties, cards returning (the online rules' The Initiative Phase)."""

from __future__ import annotations

import pytest

from game import events as ev
from game.errors import IllegalAction, WrongPhase
from game.model import Phase
from tests.helpers import S, session


def ships() -> list[S]:
    return [S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")]


def test_higher_card_wins_and_picks_are_secret_until_reveal() -> None:
    t = session(ships())
    assert t.state.phase is Phase.SETUP
    events = t.submit_line("pick A Effective Fire")
    assert events == [ev.CardPicked("A", "Effective Fire")]
    assert t.state.squadron("A").face_down == "Effective Fire"
    assert "Effective Fire" not in t.state.squadron("A").hand
    with pytest.raises(IllegalAction):
        t.submit_line("pick A Down!")  # one pick per turn
    t.submit_line("pick B Favorable Wind")
    assert t.state.phase is Phase.INITIATIVE and t.state.turn == 1
    assert t.state.squadron("A").face_up == "Effective Fire"
    assert t.state.initiative == "B"
    assert any(isinstance(e, ev.InitiativeWon) and e.reason == "card" for e in t.events)


def test_tie_draws_event_then_admiral_then_challenge_test() -> None:
    t = session(ships())
    t.submit_line("pick A Down!")
    t.submit_line("dice sail sword skull skull skull")  # A: 2 successes
    t.submit_line("dice sail skull skull skull skull")  # B: 1 success
    t.submit_line("pick B Fire as She Bears")
    kinds = [type(e).__name__ for e in t.events]
    assert "EventCardDrawn" in kinds
    won = [e for e in t.events if isinstance(e, ev.InitiativeWon)][0]
    assert (won.player, won.reason) == ("A", "challenge")


def test_challenge_tie_is_rolled_again() -> None:
    t = session(ships())
    t.submit_line("pick A Down!")
    t.submit_line("dice sail skull skull skull skull sail skull skull skull skull")  # 1 - 1
    t.submit_line("dice skull skull skull skull skull sword skull skull skull skull")  # 0 - 1
    t.submit_line("pick B Fire as She Bears")
    won = [e for e in t.events if isinstance(e, ev.InitiativeWon)][0]
    assert won.player == "B"
    rolls = [e for e in t.events if isinstance(e, ev.DiceRolled) and e.purpose == "challenge_test"]
    assert len(rolls) == 4


def test_admiral_value_breaks_a_tie() -> None:
    from game.scenario import load_scenario_text
    from game.table_session import TableSession
    from tests.helpers import scenario_text

    text = scenario_text(ships()).replace('player = "B"\n', 'player = "B"\nadmiral_value = 1\n')
    t = TableSession(load_scenario_text(text))
    t.submit_line("pick A Down!")
    t.submit_line("pick B Fire as She Bears")
    won = [e for e in t.events if isinstance(e, ev.InitiativeWon)][0]
    assert (won.player, won.reason) == ("B", "admiral")


def test_cards_return_at_end_of_turn_and_discards_do_not() -> None:
    t = session(ships())
    t.submit_line("pick A Down!")
    t.submit_line("pick B Take Courage")
    t.submit_line("pick A Careful Aim")
    with pytest.raises(IllegalAction):
        t.submit_line("pick B Take Courage")  # face up, not in the hand
    t.submit_line("pick B Fire as She Bears")
    for line in ("move Otter", "move Kestrel", "pass Otter", "pass Kestrel"):
        t.submit_line(line)
    # End of turn 1: Down! and Take Courage return; turn 2 reveals Careful Aim and Fire as She Bears
    assert t.state.turn == 2 and t.state.phase is Phase.INITIATIVE
    a, b = t.state.squadron("A"), t.state.squadron("B")
    assert "Down!" in a.hand and "Take Courage" in b.hand
    assert b.face_up == "Fire as She Bears"
    t.submit_line("pick A Down!")
    t.submit_line("pick B Reload!")
    for line in ("move Kestrel", "move Otter", "pass Kestrel", "pass Otter"):
        t.submit_line(line)
    assert "Fire as She Bears" in t.state.squadron("B").discards
    assert "Fire as She Bears" not in t.state.squadron("B").hand


def test_wake_markers_placed_in_movement_and_removed_in_attack() -> None:
    t = session(ships())
    for line in ("pick A Down!", "pick B Take Courage", "pick A Careful Aim", "pick B Reload!", "move Otter"):
        t.submit_line(line)
    assert t.state.ship("Otter").wake and not t.state.ship("Kestrel").wake
    t.submit_line("move Kestrel")
    t.submit_line("pass Otter")
    assert not t.state.ship("Otter").wake and t.state.ship("Kestrel").wake


def test_game_ends_after_the_last_turn() -> None:
    t = session(ships())
    t.state = type(t.state)(**{**t.state.__dict__, "last_turn": 1})
    for line in ("pick A Down!", "pick B Take Courage", "pick A Careful Aim", "pick B Reload!",
                 "move Otter", "move Kestrel", "pass Otter", "pass Kestrel"):
        t.submit_line(line)
    assert t.state.phase is Phase.OVER
    with pytest.raises(Exception) as err:
        t.submit_line("pick A Down!")
    assert "over" in str(err.value)


def test_pick_in_movement_phase_is_refused() -> None:
    t = session(ships())
    for line in ("pick A Down!", "pick B Take Courage", "pick A Careful Aim", "pick B Reload!"):
        t.submit_line(line)
    with pytest.raises(WrongPhase):
        t.submit_line("pick A Effective Fire")
