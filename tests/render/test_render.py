"""The board renderer: pixels where ships are, the bow, secrets never drawn, determinism, golden
images for each overlay, and views from both sides of a game mid-turn."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.notation import parse
from game.scenario import quickstart
from game.table_session import TableSession
from game.views import view_of
from render import RenderOptions, render_board, render_board_async
from render.board import _STATIC, scene_texts, to_pixel
from render.overlays import last_attacks, last_move, preview_move
from tests.helpers import S, make_game

GOLDEN = Path(__file__).parent / "golden"
BLUE = (0x00, 0x72, 0xB2)
ORANGE = (0xE6, 0x9F, 0x00)


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def colour_at(png: bytes, view, options: RenderOptions, x: float, y: float) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    col, row = to_pixel(view, options, x, y)
    r, g, b = pixels(png)[row, col]
    return int(r), int(g), int(b)


def close(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def mid_turn() -> tuple[TableSession, list]:  # type: ignore[type-arg]
    t = TableSession(quickstart(seed=2))
    events: list = []  # type: ignore[type-arg]
    for line in ("pick A Effective Fire", "pick B Take Courage", "pick A Careful Aim", "pick B Reload!",
                 "move Kestrel turn end port 30", "move Otter turn start starboard 30"):
        events = t.submit_line(line)
    return t, events


def test_each_ship_shows_its_sides_colour_where_it_stands() -> None:
    view = view_of(quickstart(), "A")
    options = RenderOptions()
    png = render_board(view, options)
    # the stern half of each base (the bow carries the white wedge)
    assert close(colour_at(png, view, options, 11.05, 33.3 + 0.8), BLUE)  # Kestrel, player A
    assert close(colour_at(png, view, options, 24.95, 33.3 + 0.8), ORANGE)  # Otter, player B
    assert close(colour_at(png, view, options, 18.5, 30.5), (0xDB, 0xE9, 0xF4), 6)  # open sea between grid lines


def test_bow_marker_on_the_right_end_of_an_east_bound_ship() -> None:
    game = make_game([S("Kestrel", "Sloop", 18, 18, 90, "A"), S("Otter", "Corvette", 28, 10, 180, "B")])
    view = view_of(game, "A")
    options = RenderOptions()
    png = render_board(view, options)
    assert close(colour_at(png, view, options, 18 + 1.2 - 0.2, 18), (255, 255, 255), 25)  # bow wedge
    assert close(colour_at(png, view, options, 18 - 1.2 + 0.3, 18), BLUE)  # stern end


def test_sides_differ_in_greyscale() -> None:
    def grey(c: tuple[int, int, int]) -> float:
        return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]

    assert abs(grey(BLUE) - grey(ORANGE)) > 40


def test_a_hidden_card_is_never_drawn() -> None:
    t = TableSession(quickstart())
    t.submit_line("pick A Adjust Position")
    t.submit_line("pick B Favorable Wind")
    t.submit_line("pick A Rolling Broadsides")  # A's face-down card for turn 2
    for viewer in ("B", None):
        texts = " ".join(scene_texts(view_of(t.state, viewer)))
        assert "Rolling Broadsides" not in texts
        assert "Adjust Position" in texts  # face up: public
    assert "Rolling Broadsides" not in " ".join(scene_texts(view_of(t.state, "A")))  # never drawn at all


def test_same_view_same_bytes() -> None:
    t, events = mid_turn()
    view = view_of(t.state, "A")
    options = RenderOptions(last_move=last_move(events), active_ship="Amazone")
    assert render_board(view, options) == render_board(view, options)


def test_views_from_each_side_mid_turn() -> None:
    t, events = mid_turn()
    for viewer in ("A", "B"):
        view = view_of(t.state, viewer)
        png = render_board(view, RenderOptions(last_move=last_move(events)))
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 1_000_000
        texts = " ".join(scene_texts(view))
        assert "Movement" in texts and "player A to act" in texts
        other = "B" if viewer == "A" else "A"
        secret = t.state.squadron(other).face_down
        assert secret is not None and secret not in texts


def test_static_layer_is_reused() -> None:
    view = view_of(quickstart(), "A")
    render_board(view)
    before = dict(_STATIC)
    render_board(view, RenderOptions(active_ship="Kestrel"))
    assert {k: v for k, v in _STATIC.items() if k in before} == before


def test_rendering_runs_off_the_event_loop() -> None:
    view = view_of(quickstart(), "A")

    async def main() -> bytes:
        return await render_board_async(view)

    assert asyncio.run(main()) == render_board(view)


def test_a_crowded_engagement_stays_under_a_megabyte() -> None:
    from benchmarks.engine import engagement

    png = render_board(view_of(engagement(), None), RenderOptions(active_ship="A3"))
    assert len(png) < 1_000_000


# ---------------------------------------------------------------- golden images


def _golden_cases() -> dict[str, tuple]:  # type: ignore[type-arg]
    t, events = mid_turn()
    view = view_of(t.state, "A")
    from tests.game.test_attack import duel

    d = duel()
    d.submit_line("dice musket musket cannon skull sail pistol")
    fire = d.submit_line("fire Galleon starboard Frigate") + d.submit_line("keep")
    duel_view = view_of(d.state, "B")
    preview = preview_move(view, parse("move Amazone turn end starboard 30", t.state))
    return {
        "board": (view, RenderOptions()),
        "last_move": (view, RenderOptions(last_move=last_move(events))),
        "active_ship": (view, RenderOptions(active_ship="Amazone")),
        "preview": (view, RenderOptions(preview=preview)),
        "last_attack": (duel_view, RenderOptions(last_attacks=last_attacks(fire))),
        "zoom": (duel_view, RenderOptions(zoom_ship="Galleon", last_attacks=last_attacks(fire))),
    }


CASES = ["board", "last_move", "active_ship", "preview", "last_attack", "zoom"]


def matches_golden(png: bytes, golden: bytes) -> bool:
    got, want = pixels(png).astype(int), pixels(golden).astype(int)
    if got.shape != want.shape:
        return False
    differing = (np.abs(got - want).max(axis=2) > 40).mean()
    # tight enough that a missing overlay line fails, loose enough for anti-aliasing noise
    return bool(np.abs(got - want).mean() < 0.3 and differing < 0.0001)


@pytest.mark.parametrize("name", CASES)
def test_golden_image(name: str) -> None:
    view, options = _golden_cases()[name]
    png = render_board(view, options)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        if not os.environ.get("UPDATE_GOLDEN"):
            pytest.fail(f"no golden image {path.name}: run with UPDATE_GOLDEN=1 and look at it")
        path.write_bytes(png)
    assert matches_golden(png, path.read_bytes()), name


def test_the_golden_check_notices_a_missing_overlay() -> None:
    """The board without the last move's ghost and trail (same crop) fails the last_move golden image."""
    from render.layout import area_of_play

    view, options = _golden_cases()["last_move"]
    golden = (GOLDEN / "last_move.png").read_bytes()
    assert matches_golden(render_board(view, options), golden)
    without = RenderOptions(zoom_box=area_of_play(view.game, options))
    assert area_of_play(view.game, without) == area_of_play(view.game, options)
    assert not matches_golden(render_board(view, without), golden)


def test_render_uses_the_figure_api_and_only_views() -> None:
    import inspect

    import render.board as board

    for path in Path(board.__file__).parent.glob("*.py"):
        assert "pyplot" not in path.read_text(encoding="utf-8"), path.name
    assert "View" in str(inspect.signature(board.render_board).parameters["view"].annotation)
