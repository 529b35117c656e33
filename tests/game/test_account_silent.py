"""Every silent event gets one line (issue 25): a pass, a hold, an on-reveal card that finds nothing
to do and why, and why a hit did nothing — words only, from the events (and, for the reveal, the
state after): no event is added."""

from __future__ import annotations

from game import events as ev
from game.account import account, account_lines
from tests.helpers import S, default_orders, session, to_movement


def _lines(t, line: str) -> list[str]:  # type: ignore[no-untyped-def]
    return account_lines(t.submit_line(line), t.state, t.rules)


def test_a_small_ship_hit_once_at_cannon_shot_under_down_is_told_why_nothing_happened() -> None:
    # Otter (B) lies 8.8" west of Kestrel (A): Cannon Shot; A's Down! is face up
    t = session([S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 18, 20, 180, "B")], weather="N")
    to_movement(t)
    default_orders(t)
    assert t.state.phase.value == "attack" and t.state.active_player == "B"
    t.submit_line("dice cannon sail sail")
    told = _lines(t, "fire Otter starboard Kestrel")
    if not any("'s starboard Broadside" in line for line in told):
        told = _lines(t, "keep")  # a miss may be re-rolled: the roll waits for the answer
    attack = next(line for line in told if "'s starboard Broadside at Kestrel" in line)
    assert attack == ("Otter's starboard Broadside at Kestrel (Cannon Shot, aimed at the hull): 1 hit — 0 damage, "
                      "0 Fatigue. No damage: each point of damage takes as many hits as the target's Fortitude "
                      "(a Small ship's counts as 2 at Cannon Shot); no Fatigue: a card such as Down! takes off "
                      "the first Fatigue of each attack, and a ship at 7 takes no more.")
    assert t.state.ship("Kestrel").damage == 0 and t.state.ship("Kestrel").fatigue == 0


def test_an_attack_that_did_harm_reads_as_before() -> None:
    e = ev.AttackResolved("Otter", "Kestrel", "broadside", "port", "hull", "musket", 2, 1, 1)
    assert account(e) == "Otter's port Broadside at Kestrel (Musket Shot, aimed at the hull): 2 hits — 1 damage, 1 Fatigue."
    missed = ev.AttackResolved("Otter", "Kestrel", "broadside", "port", "hull", "musket", 0, 0, 0)
    assert account(missed).endswith("0 hits — 0 damage, 0 Fatigue.")  # nothing hit: nothing to explain


def test_a_pass_and_a_hold_are_said() -> None:
    # Otter heads into the wind (In the Wind's Eye): it may only hold or turn in place
    t = session([S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 0, "B")], weather="N")
    to_movement(t)
    assert "Otter holds where it is." in _lines(t, "move Otter hold")
    assert not any("holds" in line for line in _lines(t, "move Kestrel"))
    assert t.state.phase.value == "attack"
    assert _lines(t, "pass Otter") == ["Otter passes: no attack this turn.", "Player A to act."]


def test_an_on_reveal_card_with_nothing_to_do_says_why() -> None:
    # B's two ships in Formation (Otter, the Flagship, and Hoorn ahead of it); none has Fatigue
    t = session([S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 24, 180, "B"),
                 S("Hoorn", "Fluyt", 28, 17, 180, "B")], weather="N")
    for line in ("pick A Down!", "pick B Take Courage", "pick A Careful Aim"):
        t.submit_line(line)
    told = _lines(t, "pick B Reload!")
    assert [line for line in told if "Take Courage" in line] == [
        "Take Courage (player B) does nothing: none of player B's ships in Formation has Fatigue to remove."]
    # A lone ship can never be in Formation: said so
    lone = session([S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")], weather="N")
    for line in ("pick A Down!", "pick B Take Courage", "pick A Careful Aim"):
        lone.submit_line(line)
    assert "Take Courage (player B) does nothing: no ship of player B is in Formation." in _lines(lone, "pick B Reload!")
    # the same events without the state say nothing of it: the account adds words, never guesses
    assert not any("does nothing" in line for line in account_lines(lone.events[-3:]))
