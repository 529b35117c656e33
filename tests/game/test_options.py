"""What a player can do now, in words and as orders, from their own view: the ships still to move
with their point of sail and speed, every legal attack with its range band and dice, "no target"
where there is none; and a bare move that would waste an activation is refused with what to say."""

from __future__ import annotations

import pytest

from game import events as ev
from game.errors import IllegalAction
from game.options import options_for, public_options
from game.views import view_of
from tests.helpers import S, default_orders, session, to_movement


def test_the_movement_options_name_each_ship_its_point_of_sail_and_speed() -> None:
    t = session([S("Kestrel", "Sloop", 8, 20, 120, "A"), S("Hoorn", "Sloop", 8, 28, 0, "A"),
                 S("Otter", "Corvette", 28, 20, 300, "B")], weather="N")
    to_movement(t)  # B has the initiative
    b = options_for(view_of(t.state, "B"), t.rules)
    otter, kestrel = t.state.ship("Otter"), t.state.ship("Kestrel")
    # bow nearer the weather edge: Windward; stern nearer: Large (speed as printed at Battle Sail)
    assert b.lines() == ["Movement Phase, turn 1: activate one of your ships.", f"Otter: Windward, speed {otter.windward}"]
    assert [o.order for o in b.items] == ["move Otter"]
    assert options_for(view_of(t.state, "A"), t.rules).items == ()  # not A's turn
    t.submit_line("move Otter")
    a = options_for(view_of(t.state, "A"), t.rules)
    assert a.lines()[1:] == [f"Kestrel: Large, speed {kestrel.large}",
                             "Hoorn: In the Wind's Eye: hold, or turn up to 30° in place"]
    assert a.items[1].order == "move Hoorn hold turn start port 30"


def test_the_attack_options_list_each_legal_attack_with_band_and_dice_and_no_target() -> None:
    t = session([S("Amazone", "Sixth Rate", 18, 18, 0, "A"), S("Kestrel", "Sloop", 30, 30, 0, "A"),
                 S("Otter", "Corvette", 21, 18, 0, "B"), S("Hoorn", "Sloop", 13, 18, 0, "B")])
    to_movement(t)
    default_orders(t)  # every ship heads into the wind: they all hold where they are
    assert t.state.phase.value == "attack" and t.state.active_player == "B"
    t.submit_line("pass Otter")
    a = options_for(view_of(t.state, "A"), t.rules)
    lines = a.lines()
    assert lines[0].startswith("Attack Phase, turn 1")
    amazone = next(line for line in lines if line.startswith("Amazone:"))
    assert "starboard Broadside at Otter, Pistol Shot" in amazone and "port Broadside at Hoorn" in amazone
    assert "Partial Fire at Otter" in amazone and "dice" in amazone
    assert "Kestrel: no target" in lines
    orders = [o.order for o in a.items]
    assert "fire Amazone starboard Otter" in orders and "pass Kestrel" in orders
    before = t.state
    for o in a.items:  # every order offered is one the engine accepts now
        t.submit_line("dice " + " ".join(["sail"] * 12))
        t.submit_line(o.order)
        t.state, t.fixed_dice = before, type(t.fixed_dice)()
    only = options_for(view_of(t.state, "A"), t.rules, ship="Kestrel")
    assert [o.ship for o in only.items] == ["Kestrel"]


def test_a_pick_is_listed_privately_but_never_posted() -> None:
    t = session([S("Kestrel", "Sloop", 8, 20, 90, "A"), S("Otter", "Corvette", 28, 20, 270, "B")])
    own = options_for(view_of(t.state, "A"), t.rules).text()
    assert "Careful Aim (" in own
    public = public_options(view_of(t.state, "A"), t.rules).text()
    assert "Careful Aim" not in public and "Choose initiative card" in public


@pytest.mark.parametrize(("extra", "heading", "hint"), [
    ({}, 0, "turn start port 30"), ({"sail": "anchored"}, 90, "crew sail up"), ({"aground": True}, 90, "repair aground"),
])
def test_a_bare_move_that_would_not_move_the_ship_says_so_and_what_to_say(extra: dict[str, object], heading: float,
                                                                         hint: str) -> None:
    t = session([S("Kestrel", "Sloop", 8, 20, heading, "A", extra), S("Otter", "Corvette", 28, 20, 270, "B")])
    to_movement(t)
    t.submit_line("move Otter")
    before = t.state
    with pytest.raises(IllegalAction) as err:
        t.submit_line("move Kestrel")
    assert "a plain move would spend its activation without moving" in err.value.text
    assert hint in err.value.text and "`move Kestrel hold`" in err.value.text
    assert t.state == before
    t.submit_line("move Kestrel hold")  # said outright, it is accepted
    assert any(isinstance(e, ev.ActivationEnded) and e.ship == "Kestrel" for e in t.events)
