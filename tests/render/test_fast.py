"""Issue 15, item 2: the fast board. The palette PNG stays within a measured bound of the same
pixels in full colour; the table layer (drawn without an Axes) puts the table where the ships'
inches say; the kept table layers and text images stay within their byte budgets."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from game.scenario import quickstart
from game.views import view_of
from render import RenderOptions, png, render_board, style
from render import static as static_mod
from render import text as tx
from render.board import render_pixels, to_pixel
from tests.render import scenes
from tests.render.test_render import _golden_cases


def _boards() -> dict[str, tuple]:  # type: ignore[type-arg]
    out = dict(_golden_cases())
    out.update({f"quickstart {k}": v for k, v in scenes.quickstart_moments().items()})
    return out


def _rgb(png_bytes: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png_bytes)).convert("RGB")).astype(int)


def test_the_palette_png_stays_within_the_bound_of_full_colour() -> None:
    worst_max, worst_mean = 0, 0.0
    for name, (view, options) in _boards().items():
        pixels = render_pixels(view, options)
        full = pixels[..., :3].astype(int)
        d = np.abs(_rgb(png.encode(pixels, 256)) - full)
        worst_max, worst_mean = max(worst_max, int(d.max())), max(worst_mean, float(d.mean()))
        assert d.max() <= png.MAX_CHANNEL_DIFFERENCE and d.mean() <= png.MEAN_DIFFERENCE, name
        # and full colour is exactly the pixels
        assert np.array_equal(_rgb(png.encode(pixels, 0)), full), name
    assert worst_max > 0  # a palette, not full colour under another name


def test_a_palette_png_has_at_most_256_opaque_colours() -> None:
    data = render_board(view_of(quickstart(), "A"))
    image = Image.open(io.BytesIO(data))
    assert image.mode == "P" and "transparency" not in image.info
    assert len(image.getcolors(256) or []) <= 256
    assert Image.open(io.BytesIO(render_board(view_of(quickstart(), "A"), RenderOptions(palette=0)))).mode == "RGB"


def test_a_tiny_image_is_encoded_too() -> None:
    pixels = np.full((20, 30, 4), 255, dtype=np.uint8)
    pixels[5:10, 5:10, :3] = (200, 10, 10)
    assert np.array_equal(_rgb(png.encode(pixels))[7, 7], [200, 10, 10])


def test_the_table_layer_puts_the_table_where_the_inches_say() -> None:
    view = view_of(quickstart(), "A")
    sea = tuple(int(style.SEA[i:i + 2], 16) for i in (1, 3, 5))
    off = tuple(int(style.OFF_TABLE[i:i + 2], 16) for i in (1, 3, 5))
    table = view.game.table

    def at(options: RenderOptions, x: float, y: float) -> tuple[int, ...]:
        col, row = to_pixel(view, options, x, y)
        return tuple(int(c) for c in render_pixels(view, options)[row, col, :3])

    whole = RenderOptions(palette=0, whole_table=True)
    assert at(whole, 0.5, 0.5) == sea and at(whole, table.width - 0.5, table.height - 0.5) == sea
    play = RenderOptions(palette=0)
    assert _frame(view, play).crop[3] > table.height  # the area of play reaches past the north edge
    assert at(play, 20.5, table.height - 0.5) == sea
    assert at(play, 20.5, table.height + 0.5) == off


def test_drawing_stays_inside_the_table_area() -> None:
    """Broadside paths reaching past the crop are cut at the table area, as an Axes would clip
    them: the margin right of the table area stays white (but for the odd label's halo edge)."""
    (view, options), _ = scenes.double_broadside()
    zoomed = RenderOptions(palette=0, zoom_ship="Galleon", zoom_radius=3, last_attacks=options.last_attacks)
    pixels = render_pixels(view, zoomed)
    x0, y0, x1, y1 = _frame(view, zoomed).plot
    h = pixels.shape[0]
    margin = pixels[int(h - y1) + 2:int(h - y0) - 2, int(x1) + 2:, :3]
    assert margin.size and (margin != 255).any(axis=2).mean() < 0.01


def _frame(view, options):  # type: ignore[no-untyped-def]
    from render.board import _frame as frame

    return frame(view, options)


def test_the_kept_table_layers_stay_within_their_byte_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    view = view_of(quickstart(), "A")
    monkeypatch.setattr(static_mod, "_STATIC", type(static_mod._STATIC)())
    crops = [RenderOptions(zoom_ship="Amazone", zoom_radius=r) for r in (5.0, 6.0, 7.0, 8.0)]  # four layers
    for options in crops:
        render_board(view, options)
    largest = max(map(static_mod._bytes, static_mod._STATIC.values()))
    assert len(static_mod._STATIC) == 4
    static_mod._STATIC.clear()
    monkeypatch.setattr(static_mod, "CACHE_BYTES", int(largest * 2.5))
    for options in crops:
        render_board(view, options)
        assert sum(map(static_mod._bytes, static_mod._STATIC.values())) <= static_mod.CACHE_BYTES
    assert len(static_mod._STATIC) == 2
    # the most recent is kept and reused
    last = static_mod._STATIC[next(reversed(static_mod._STATIC))]
    render_board(view, RenderOptions(zoom_ship="Amazone", zoom_radius=8.0))
    assert static_mod._STATIC[next(reversed(static_mod._STATIC))] is last


def test_the_kept_text_images_stay_within_their_byte_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tx, "_SPRITES", type(tx._SPRITES)())
    monkeypatch.setattr(tx, "_sprite_bytes", 0)
    items = [tx.label(50, 50, f"label {i}", 18, style.TEXT) for i in range(30)]
    one = sum(a.nbytes for a in tx.sprite(items[0]))
    monkeypatch.setattr(tx, "SPRITE_BYTES", one * 10)
    canvas = np.full((100, 200, 4), 255, dtype=np.uint8)
    for item in items:
        tx.blend(canvas, [item])
        assert tx.kept_bytes() <= tx.SPRITE_BYTES
        assert tx.kept_bytes() == sum(a.nbytes + b.nbytes for a, b in tx._SPRITES.values())
    assert 5 <= len(tx._SPRITES) <= 11 and items[-1].look in tx._SPRITES and items[0].look not in tx._SPRITES
    # a dropped image is drawn again, the same
    again = np.full((100, 200, 4), 255, dtype=np.uint8)
    tx.blend(again, [items[0]])
    first = np.full((100, 200, 4), 255, dtype=np.uint8)
    tx.blend(first, [items[0]])
    assert np.array_equal(again, first) and (again[..., :3] < 128).any()


def test_boards_drawn_at_once_from_threads_are_each_right() -> None:
    """The board is encoded from its layer's canvas while the layer is held: boards of the same
    layer drawn at once from threads must not see each other's pixels."""
    from concurrent.futures import ThreadPoolExecutor

    view = view_of(quickstart(), "A")
    asks = [RenderOptions(active_ship=s) for s in ("Amazone", "Kestrel", "Hoorn", "Otter")] * 3
    alone = {o: render_board(view, o) for o in asks}
    assert len(set(alone.values())) == 4  # four different boards on one layer
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda o: render_board(view, o), asks))
    assert together == [alone[o] for o in asks]
