"""Issue 26, item 8: every board image says in words what it shows (its alt text, Discord's
attachment description of at most 1,024 characters): whose turn, the last action drawn, and each ship
with its state — from the same view the picture is drawn from."""

from __future__ import annotations

from render.alt_text import LIMIT, board_alt
from tests.render.scenes import double_broadside, engagement_attack, quickstart_moments


def test_a_moment_of_play_in_words() -> None:
    view, options = quickstart_moments()["after_broadside"]
    said = board_alt(view, options.last_move, options.last_attacks)
    g = view.game
    assert said.startswith(f"{g.name}, turn {g.turn}, attack phase")
    for a in options.last_attacks:
        assert f"{a.ship} fired{' ' + a.side if a.side else ''} at {a.target}: {a.label}." in said
    for ship in g.ships:
        if ship.on_table:
            assert f"{ship.id} ({ship.cls}): " in said
    damaged = next(s for s in g.ships if s.damage)
    assert f"{damaged.id} ({damaged.cls}): {damaged.damage} damage" in said


def test_both_broadsides_of_a_double_broadside_are_said() -> None:
    (view, options), _ = double_broadside()
    said = board_alt(view, options.last_move, options.last_attacks)
    assert "Galleon fired starboard at Frigate" in said and "Galleon fired port at Brig" in said


def test_the_end_says_the_result() -> None:
    view, options = quickstart_moments()["end"]
    said = board_alt(view, options.last_move, options.last_attacks)
    assert said.startswith(f"{view.game.name}, the end: {view.game.result}")


def test_a_crowded_table_fits_and_says_what_it_left_out() -> None:
    view, _ = engagement_attack()
    shown = [s for s in view.game.ships if s.on_table or s.out_of_action]
    said = board_alt(view)
    assert len(said) <= LIMIT and all(f"{s.id} ({s.cls}):" in said for s in shown)  # 20 ships fit
    short = board_alt(view, limit=400)  # as a longer game's names would crowd them out
    listed = sum(short.count(f"{s.id} ({s.cls}):") for s in shown)
    assert len(short) <= 400 and 0 < listed < len(shown)
    assert short.endswith(f" {len(shown) - listed} more ship(s) not listed.")
