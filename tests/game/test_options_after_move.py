"""Options name what a ship would bear on after the move they offer, not where it stands (issue 25:
"port path: Hoorn 7.4 → `move Amazone`" offered a move after which no enemy was in either path), and
offer `crew reload SIDE` where a side carries a reload marker, or say why it cannot be cleared."""

from __future__ import annotations

import pytest

from game import geometry as geo
from game.errors import IllegalAction
from game.options import options_for
from game.phases.common import hull
from game.views import view_of
from tests.helpers import S, session, to_movement


def _table():  # type: ignore[no-untyped-def]
    # Amazone heads south (stern to the north wind): Otter lies now at the rear end of its port
    # (east) path, and the plain move carries Amazone out of line with it
    t = session([S("Amazone", "Petite Frégate", 11, 26.55, 180, "A", {"reload": ["starboard"]}),
                 S("Kestrel", "Sloop", 11, 33, 180, "A", {"fatigue": 7, "reload": ["port"]}),
                 S("Otter", "Sloop", 18, 29.0, 180, "B"),
                 S("Hoorn", "Sloop", 30, 5, 0, "B", {"sail": "full", "reload": ["port"]})], weather="N")
    to_movement(t, a_card="Adjust Position", b_card="Take Courage", b_next="Favorable Wind")
    assert t.state.active_player == "A"
    return t


def test_the_plain_move_names_what_bears_after_it_and_the_closing_move_too() -> None:
    t = _table()
    items = [o for o in options_for(view_of(t.state, "A"), t.rules).items if o.ship == "Amazone"]
    # before: "Large, speed 4; port path: Otter 5.7" (Musket Shot)" — true of where Amazone stands
    assert items[0].text == "Large, speed 4" and items[0].order == "move Amazone"
    assert items[1].order == "move Amazone ahead turn start port 30"
    assert items[1].text.endswith("(after it, port path: Otter 5.6\" (Musket Shot))")
    # the words are what the move does: made, the ship bears on Otter to port
    t.submit_line(items[1].order)
    amazone, otter_ship = hull(t.state.ship("Amazone")), hull(t.state.ship("Otter"))
    assert geo.in_broadside_path(amazone, "port", otter_ship)
    b = options_for(view_of(t.state, "B"), t.rules).items
    otter = next(o for o in b if o.ship == "Otter")
    assert otter.text == "Large, speed 4; after the move, starboard path: Amazone 4.1\" (Musket Shot)"


def test_a_side_with_a_reload_marker_is_offered_its_reload_or_told_why_not() -> None:
    t = _table()
    a = options_for(view_of(t.state, "A"), t.rules)
    by_order = {o.order: o.text for o in a.items}
    assert by_order["move Amazone crew reload starboard"] == "reload the starboard guns (Crew Action)"
    # Shaken: its only Crew Action is Rally, and the unloaded side is said in the bearing too
    assert by_order["move Kestrel crew rally"] == "port guns unloaded, but a Shaken ship's only Crew Action is Rally"
    assert "port path: Otter 5.8\" (Musket Shot, not loaded)" in by_order["move Kestrel"]
    before = t.state
    with pytest.raises(IllegalAction, match="only Crew Action it may take is Rally"):
        t.submit_line("move Kestrel crew reload port")
    assert t.state == before
    t.submit_line("move Amazone crew reload starboard")
    assert not t.state.ship("Amazone").reload
    hoorn = [o for o in options_for(view_of(t.state, "B"), t.rules).items if o.ship == "Hoorn"]
    assert hoorn[-1].text == ("port guns unloaded: Hoorn is at Full Sail and may not Reload. "
                              "Change Sail Setting down first.") and hoorn[-1].order == ""


def test_after_the_move_the_crew_step_offers_the_reload() -> None:
    t = _table()
    t.submit_line("advance Amazone")
    a = options_for(view_of(t.state, "A"), t.rules)
    assert [o.order for o in a.items] == ["crew Amazone reload starboard", "done Amazone"]
    t.submit_line("crew Amazone reload starboard")
    assert not t.state.ship("Amazone").reload


@pytest.mark.parametrize(("card", "order", "typed"), [
    ("Rolling Broadsides", "`move SHIP crew fire port TARGET`", "move Amazone crew fire port Otter"),
    ("Adjust Position", "`move SHIP shift start port 0.5`", "move Kestrel shift start port 0.5"),
])
def test_a_face_up_card_used_while_moving_is_recalled_with_its_line(card: str, order: str, typed: str) -> None:
    t = session([S("Amazone", "Petite Frégate", 11, 26.55, 180, "A"), S("Kestrel", "Sloop", 11, 33, 180, "A"),
                 S("Otter", "Sloop", 18, 24.0, 180, "B"), S("Hoorn", "Sloop", 30, 5, 0, "B")], weather="N")
    to_movement(t, a_card=card, b_card="Take Courage", b_next="Favorable Wind")
    lines = options_for(view_of(t.state, "A"), t.rules).lines()
    assert lines[-1].startswith(f"{card} (face up): ") and order in lines[-1]
    t.submit_line("dice " + " ".join(["musket"] * 12))  # every die hits: no re-roll to wait for
    t.submit_line(typed)  # the line it recalls, with the ship's and the target's names, is an order the engine takes
    assert "Amazone" in t.state.activated or "Kestrel" in t.state.activated
    without = session([S("Amazone", "Petite Frégate", 11, 26.55, 180, "A"), S("Otter", "Sloop", 18, 24.0, 180, "B")],
                      weather="N")
    to_movement(without, a_card="Effective Fire", b_card="Take Courage", b_next="Favorable Wind")
    assert "(face up)" not in options_for(view_of(without.state, "A"), without.rules).text()
