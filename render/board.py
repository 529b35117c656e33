"""render_board(view, options) -> PNG bytes.

The static layer (render.static) is restored from a kept pixel buffer; each call draws only the
dynamic artists on top (render.marks, render.ships), places every label where it covers no other
label and no ship (render.labels), blends the texts from kept images (render.text), then encodes
the pixels with Pillow. The renderer only ever receives a player's View, so it cannot show a secret.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from matplotlib.figure import Figure

from game.model import Phase
from game.rules_data import load_rules
from game.views import View
from render import png, style
from render import text as tx
from render.guide import guide
from render.labels import place_all
from render.layout import DPI, MAX_PIXELS, BoardTooLarge, Frame, area_of_play, font, frame, row_height, scale
from render.marks import draw_attack, draw_last_move, draw_paths, draw_preview, draw_zones, name_terrain
from render.options import AttackLine, Pose, Preview, RenderOptions
from render.scene import Scene, side_style
from render.ships import draw_ships
from render.static import _STATIC, Static, static_layer

T = TypeVar("T")

__all__ = ["DPI", "MAX_PIXELS", "_STATIC", "AttackLine", "BoardTooLarge", "Pose", "Preview", "RenderOptions", "Scene",
           "layout", "render_board", "render_pixels", "scene", "scene_texts", "side_style",
           "to_pixel"]


def _frame(view: View, options: RenderOptions) -> Frame:
    return frame(view.game, area_of_play(view.game, options), options.width_px)


def to_pixel(view: View, options: RenderOptions, x: float, y: float) -> tuple[int, int]:
    """The image pixel (column, row from the top) where a table point is drawn."""
    f = _frame(view, options)
    col, up = f.to_px(x, y)
    return int(round(col)), int(round(f.height - up))


def scene(view: View, options: RenderOptions, static: Static) -> Scene:
    """Every dynamic artist of the board with its labels placed (call with the static layer's lock held)."""
    game = view.game
    rules = options.rules or load_rules(game.system)
    g = guide(game, rules, options.active_ship, options.guide)
    sc = Scene(static)
    draw_paths(sc, game, g, rules)
    draw_zones(sc, game, options.zones)
    if options.last_move is not None:
        draw_last_move(sc, game, options.last_move)
    draw_ships(sc, game, g)
    for a in options.last_attacks:
        draw_attack(sc, game, a)
    if options.preview is not None:
        draw_preview(sc, game, options.preview)
    name_terrain(sc, game)
    place_all(sc)
    sc.texts += _header(view, options, static.frame)
    return sc


def _fit(text: str, size: float, weight: str, width: float) -> str:
    """The text cut with an ellipsis to fit the width."""
    if tx.size_of(text, size, weight)[0] <= width:
        return text
    lo, hi = 0, len(text)  # the longest prefix that fits, by halving (a name may be very long)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if tx.size_of(text[:mid] + "…", size, weight)[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…"


def _header(view: View, options: RenderOptions, f: Frame) -> list[tx.TextItem]:
    """Title, turn and phase; who is to act (and how many of their ships are still to go) and the
    wind; the face-up cards. The legend under them belongs to the static layer."""
    g = view.game
    k = scale(f.width)
    size, title_size = font(f.width), font(f.width, style.FONT_TITLE)
    left, usable = 20 * k, f.width - 30 * k
    line1 = f"{options.title or g.name} — turn {g.turn} · {g.phase.value.title()}"
    arrow = {"N": "↓", "S": "↑", "E": "←", "W": "→"}[g.table.weather_edge]
    if g.winner:
        who = f"player {g.winner} wins" + (f": {g.result}" if g.result else "")
    elif g.active_player:
        who = f"player {g.active_player} to act"
        if g.phase in (Phase.MOVEMENT, Phase.ATTACK):
            sides = g.players_of(g.active_player) or (g.active_player,)
            to_go = sum(1 for s in g.ships if s.controller in sides and s.can_act and s.id not in g.activated)
            if to_go:
                who += f" ({to_go} ship{'s' if to_go != 1 else ''} to go)"
    else:
        who = "waiting for the players"
    line2 = f"{who} · wind from {g.table.weather_edge} {arrow}"
    line3 = "face-up cards: " + " · ".join(f"{q.player} {q.face_up or '—'}" for q in g.squadrons)
    top = f.height - 8 * k
    rt, r = row_height(f.width, style.FONT_TITLE), row_height(f.width)
    rows = [(line1, title_size, "bold", top), (line2, size, "normal", top - rt), (line3, size, "normal", top - rt - r)]
    return [tx.label(left, y, _fit(t, s, w, usable), s, style.TEXT, weight=w, halo=None, ha="left", va="top",
                     gid="header") for t, s, w, y in rows]


# ---------------------------------------------------------------- the entry points


def _static_for(view: View, options: RenderOptions) -> Static:
    return static_layer(view.game.table, _frame(view, options))


def _attach(sc: Scene) -> None:
    """Give every artist its figure, axes and transform, as drawing them needs."""
    fig = sc.static.fig
    for a in sc.data:
        a.set_figure(fig)
        if not a.is_transform_set():
            a.set_transform(sc.static.transform)
        a.set_clip_box(sc.static.clip)
    for a in sc.pixels:
        a.set_figure(fig)


def scene_texts(view: View, options: RenderOptions | None = None) -> list[str]:
    """Every string the board would draw (the static layer's texts included)."""
    options = options or RenderOptions()
    static = _static_for(view, options)
    with static.lock:
        sc = scene(view, options, static)
    return [t.get_text() for t in static.texts] + [t.text for t in sc.texts]


def layout(view: View, options: RenderOptions | None = None) -> tuple[Figure, Any, Scene]:
    """The figure, its renderer and the scene with every artist in place, for tests that measure
    what is drawn (`scene.text_artists()` and `scene.static.text_artists()`)."""
    options = options or RenderOptions()
    static = _static_for(view, options)
    with static.lock:
        sc = scene(view, options, static)
        _attach(sc)
    return static.fig, static.canvas.get_renderer(), sc  # type: ignore[no-untyped-call]


def _drawn(view: View, options: RenderOptions, finish: Callable[[np.ndarray], T]) -> T:
    """The board drawn on its table layer's canvas, texts and all, handed to `finish` while the
    layer is held: the canvas is the board's pixels until the next board restores the layer, so
    encoding them needs no copy of a few megabytes."""
    static = _static_for(view, options)
    with static.lock:
        static.canvas.restore_region(static.background)  # type: ignore[no-untyped-call]
        sc = scene(view, options, static)
        _attach(sc)
        for a in [*sorted(sc.data, key=lambda a: a.get_zorder()), *sc.pixels]:
            static.fig.draw_artist(a)
        pixels = np.asarray(static.canvas.buffer_rgba())  # type: ignore[no-untyped-call]
        tx.blend(pixels, sc.texts)
        return finish(pixels)


def render_pixels(view: View, options: RenderOptions | None = None) -> np.ndarray:
    """The board's pixels (H x W x 4, top row first), the caller's own."""
    return _drawn(view, options or RenderOptions(), np.array)


def render_board(view: View, options: RenderOptions | None = None) -> bytes:
    """The board as PNG bytes: a pure function of the view and the options."""
    options = options or RenderOptions()
    return _drawn(view, options, lambda pixels: png.encode(pixels, options.palette, options.compress_level))
