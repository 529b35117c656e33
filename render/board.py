"""render_board(view, options) -> PNG bytes.

The static layer (sea, inch grid, table edge, weather edge, terrain, scale bar) is drawn once per
table, crop and size and kept as a pixel buffer; each call restores it and draws only the dynamic
artists (ships, markers, overlays, header) on top, then encodes the pixels with Pillow. The
renderer only ever receives a player's View, so it cannot show a secret.
"""

from __future__ import annotations

import asyncio
import io
import math
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrow, Polygon, Rectangle
from matplotlib.patheffects import withStroke
from matplotlib.text import Text
from PIL import Image

from game import geometry as geo
from game.model import Game, Ship, Table
from game.views import View
from render import style

DPI = 100
HEADER_PX = 120
MARGIN_PX = 20


@dataclass(frozen=True)
class Pose:
    x: float
    y: float
    heading: float


@dataclass(frozen=True)
class AttackLine:
    ship: str
    target: str
    hits: int
    label: str = ""


@dataclass(frozen=True)
class Preview:
    """A proposed move: where it goes, where it would stop, and what it would then bear on."""

    ship: str
    path: tuple[Pose, ...]
    collision: tuple[float, float] | None = None
    in_arc: tuple[tuple[str, str, str], ...] = ()  # (side, enemy, band)
    note: str = ""


@dataclass(frozen=True)
class RenderOptions:
    width_px: int = 1080
    zoom_ship: str | None = None  # crop around this ship
    zoom_box: tuple[float, float, float, float] | None = None  # or around this area (x0, y0, x1, y1)
    zoom_radius: float = 8.0
    last_move: tuple[str, tuple[Pose, ...]] | None = None  # (ship, path)
    last_attacks: tuple[AttackLine, ...] = ()
    active_ship: str | None = None  # draws its range bands and broadside paths
    preview: Preview | None = None
    zones: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()  # set-up: (player, deployment zone)
    title: str = ""
    compress_level: int = 1


@dataclass
class _Static:
    fig: Figure
    canvas: FigureCanvasAgg
    ax: Any
    background: Any
    lock: threading.Lock = field(default_factory=threading.Lock)


_STATIC: dict[tuple[Any, ...], _Static] = {}
_STATIC_LOCK = threading.Lock()
_CACHE_LIMIT = 64


# ---------------------------------------------------------------- geometry helpers


def _crop(table: Table, game: Game, options: RenderOptions) -> tuple[float, float, float, float]:
    if options.zoom_box is not None:
        x0, y0, x1, y1 = options.zoom_box
    elif options.zoom_ship is not None:
        s = game.ship(options.zoom_ship)
        r = options.zoom_radius
        x0, y0, x1, y1 = s.x - r, s.y - r, s.x + r, s.y + r
    else:
        return (0.0, 0.0, table.width, table.height)
    return (max(0.0, x0), max(0.0, y0), min(table.width, x1), min(table.height, y1))


def figure_size(crop: tuple[float, float, float, float], width_px: int) -> tuple[int, int, float]:
    """(width px, height px, pixels per inch of table)."""
    x0, y0, x1, y1 = crop
    ppi = (width_px - 2 * MARGIN_PX) / (x1 - x0)
    height = int(round((y1 - y0) * ppi)) + 2 * MARGIN_PX + HEADER_PX
    return width_px, height, ppi


def to_pixel(view: View, options: RenderOptions, x: float, y: float) -> tuple[int, int]:
    """The image pixel (column, row from the top) where a table point is drawn."""
    crop = _crop(view.game.table, view.game, options)
    w, h, ppi = figure_size(crop, options.width_px)
    col = MARGIN_PX + (x - crop[0]) * ppi
    row = h - MARGIN_PX - (y - crop[1]) * ppi
    return int(round(col)), int(round(row))


# ---------------------------------------------------------------- static layer


def _static(table: Table, crop: tuple[float, float, float, float], width_px: int) -> _Static:
    key = (table, crop, width_px)
    with _STATIC_LOCK:
        found = _STATIC.get(key)
        if found is not None:
            return found
        if len(_STATIC) >= _CACHE_LIMIT:
            _STATIC.pop(next(iter(_STATIC)))
        made = _draw_static(table, crop, width_px)
        _STATIC[key] = made
        return made


def _draw_static(table: Table, crop: tuple[float, float, float, float], width_px: int) -> _Static:
    w, h, ppi = figure_size(crop, width_px)
    fig = Figure(figsize=(w / DPI, h / DPI), dpi=DPI, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    x0, y0, x1, y1 = crop
    ax = fig.add_axes((MARGIN_PX / w, MARGIN_PX / h, (w - 2 * MARGIN_PX) / w, (h - 2 * MARGIN_PX - HEADER_PX) / h))
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.add_patch(Rectangle((0, 0), table.width, table.height, facecolor=style.SEA, edgecolor="none", zorder=0))
    for gx in range(int(math.floor(x0)), int(math.ceil(x1)) + 1):
        ax.add_line(Line2D([gx, gx], [y0, y1], color=style.GRID, lw=1.2 if gx % 6 == 0 else 0.4, zorder=1))
    for gy in range(int(math.floor(y0)), int(math.ceil(y1)) + 1):
        ax.add_line(Line2D([x0, x1], [gy, gy], color=style.GRID, lw=1.2 if gy % 6 == 0 else 0.4, zorder=1))
    for t in table.terrain:
        st = style.TERRAIN[t.kind.value]
        ax.add_patch(Polygon(list(t.points), closed=True, zorder=2, linewidth=1.5, **st))
        cx = sum(p[0] for p in t.points) / len(t.points)
        cy = sum(p[1] for p in t.points) / len(t.points)
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            ax.text(cx, cy, t.kind.value.replace("_", " "), ha="center", va="center", fontsize=style.FONT_SMALL,
                    color=style.TEXT, zorder=3, path_effects=[withStroke(linewidth=3, foreground=style.HALO)])
    ax.add_patch(Rectangle((0, 0), table.width, table.height, fill=False, edgecolor=style.TABLE_EDGE, lw=2.5, zorder=4))
    _weather(ax, table)
    _scale_bar(ax, crop)
    canvas.draw()  # type: ignore[no-untyped-call]
    background = canvas.copy_from_bbox(fig.bbox)  # type: ignore[no-untyped-call]
    return _Static(fig, canvas, ax, background)


def _weather(ax: Any, table: Table) -> None:
    w, h = table.width, table.height
    edges: dict[str, tuple[list[float], list[float]]] = {
        "N": ([0, w], [h, h]), "S": ([0, w], [0, 0]), "E": ([w, w], [0, h]), "W": ([0, 0], [0, h]),
    }
    xs, ys = edges[table.weather_edge]
    ax.add_line(Line2D(xs, ys, color=style.WEATHER_EDGE, lw=7, zorder=5, solid_capstyle="butt"))
    d = geo.forward(geo.wind_heading(table.weather_edge))
    mid = {"N": (w / 2, h - 0.6), "S": (w / 2, 0.6), "E": (w - 0.6, h / 2), "W": (0.6, h / 2)}[table.weather_edge]
    ax.add_patch(FancyArrow(mid[0], mid[1], d[0] * 2.2, d[1] * 2.2, width=0.25, head_width=0.8, head_length=0.7,
                            color=style.WEATHER_EDGE, zorder=6, length_includes_head=True))
    ax.text(mid[0] + 0.6, mid[1] + d[1] * 1.2 - 0.6 * abs(d[0]), f"wind from {table.weather_edge}",
            fontsize=style.FONT, color=style.WEATHER_EDGE, zorder=6, fontweight="bold",
            path_effects=[withStroke(linewidth=3, foreground=style.HALO)])


def _scale_bar(ax: Any, crop: tuple[float, float, float, float]) -> None:
    x0, y0, x1, _ = crop
    sx, sy = x0 + 0.5, y0 + 0.5
    length = 4.0 if (x1 - x0) > 12 else 2.0
    ax.add_patch(Rectangle((sx, sy), length, 0.18, facecolor="black", zorder=6))
    ax.add_patch(Rectangle((sx, sy), length / 2, 0.18, facecolor="white", edgecolor="black", lw=0.8, zorder=6))
    ax.text(sx + length + 0.3, sy, f'{length:g}"  (grid 1")', fontsize=style.FONT_SMALL, va="bottom", zorder=6,
            path_effects=[withStroke(linewidth=3, foreground=style.HALO)])


# ---------------------------------------------------------------- dynamic layer


def side_style(game: Game, player: str) -> style.SideStyle:
    return style.SIDES[game.players.index(player) % len(style.SIDES)]


def _hull(x: float, y: float, heading: float, ship: Ship) -> geo.Hull:
    return geo.Hull(geo.Pose(x, y, heading), ship.beam, ship.length)


def build_scene(view: View, options: RenderOptions, ax: Any, fig: Figure) -> list[Artist]:
    """Every dynamic artist of the board, in drawing order."""
    game = view.game
    artists: list[Artist] = []
    halo = [withStroke(linewidth=3, foreground=style.HALO)]
    rules_ranges = (("pistol", 4.0), ("musket", 8.0), ("cannon", 12.0))
    if options.active_ship:
        ship = game.ship(options.active_ship)
        h = geo.Hull(geo.Pose(ship.x, ship.y, ship.heading), ship.beam, ship.length)
        base = h.polygon
        for name, reach in reversed(rules_ranges):
            ring = base.buffer(reach, quad_segs=16)
            artists.append(Polygon(np.asarray(ring.exterior.coords), closed=True, fill=False, zorder=7,
                                   edgecolor=style.BANDS[name], lw=1.3, linestyle="--"))
        cannon = base.buffer(12.0, quad_segs=16)
        for side in ("port", "starboard"):
            path = geo.broadside_path(h, side).intersection(cannon)
            if not path.is_empty and path.geom_type == "Polygon":
                artists.append(Polygon(np.asarray(path.exterior.coords), closed=True, facecolor=style.ARC,
                                       alpha=0.10, edgecolor=style.ARC, lw=0.8, zorder=7))
    if options.last_move is not None:
        ship_id, path = options.last_move
        ship = game.ship(ship_id)
        if len(path) >= 2:
            start = path[0]
            ghost = _hull(start.x, start.y, start.heading, ship).polygon
            artists.append(Polygon(np.asarray(ghost.exterior.coords), closed=True, fill=False, zorder=8,
                                   edgecolor=style.MOVE_TRAIL, lw=1.2, linestyle=":"))
            artists.append(Line2D([p.x for p in path], [p.y for p in path], color=style.MOVE_TRAIL, lw=2, zorder=8,
                                  marker="o", markersize=3))
    for player, points in options.zones:
        st = side_style(game, player)
        artists.append(Polygon(np.asarray(points), closed=True, facecolor=st.fill, alpha=0.15, edgecolor=st.edge,
                               lw=2, linestyle=st.linestyle, zorder=5))
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        artists.append(Text(cx, cy, f"{player}'s deployment zone", color=st.edge, fontsize=style.FONT,
                            fontweight="bold", ha="center", va="center", zorder=6, path_effects=halo))
    pip_boxes: list[Any] = []
    pip_colours: list[str] = []
    for s in game.ships:
        if not s.on_table:
            continue
        artists += _ship_artists(game, s, halo)
        right_edge = max(c[0] for c in _hull(s.x, s.y, s.heading, s).corners)
        _pips(pip_boxes, pip_colours, right_edge + 0.7, s.y + 0.05, s.damage, style.DAMAGE)
        _pips(pip_boxes, pip_colours, right_edge + 0.7, s.y - 0.3, s.fatigue, style.FATIGUE)
    if pip_boxes:
        # every track box of every ship in one collection: one draw call instead of hundreds
        artists.append(PolyCollection(pip_boxes, facecolors=pip_colours, edgecolors="black", linewidths=0.6,
                                      zorder=19))
    for a in options.last_attacks:
        try:
            src, dst = game.ship(a.ship), game.ship(a.target)
        except KeyError:
            continue
        artists.append(FancyArrow(src.x, src.y, dst.x - src.x, dst.y - src.y, width=0.06, head_width=0.5,
                                  head_length=0.5, length_includes_head=True, color=style.ATTACK_LINE, zorder=30))
        label = a.label or f"{a.hits} hit{'s' if a.hits != 1 else ''}"
        artists.append(Text((src.x + dst.x) / 2, (src.y + dst.y) / 2 + 0.9, label, color=style.ATTACK_LINE,
                            fontsize=style.FONT, fontweight="bold", ha="center", va="bottom", zorder=31,
                            path_effects=halo))
    if options.preview is not None:
        artists += _preview_artists(game, options.preview, halo)
    artists += _header(view, options, fig)
    return artists


def _ship_artists(game: Game, s: Ship, halo: list[Any]) -> list[Artist]:
    st = side_style(game, s.controller)
    h = _hull(s.x, s.y, s.heading, s)
    out: list[Artist] = []
    if s.wake:
        stern = h.edge_midpoint("stern")
        back = geo.scale(h.outward("stern"), 1.2)
        out.append(Line2D([stern[0], stern[0] + back[0]], [stern[1], stern[1] + back[1]], color=style.WAKE, lw=3,
                          linestyle=(0, (1, 1)), zorder=9))
    faded = s.out_of_action or "captured" in s.status_names()
    out.append(Polygon(np.asarray(h.corners), closed=True, facecolor=st.fill, edgecolor=st.edge, lw=2.2,
                       linestyle=st.linestyle, alpha=0.45 if faded else 1.0, zorder=10))
    # the bow: a white wedge from the bow edge's mid-point back into the hull
    bow = h.edge_midpoint("bow")
    f = geo.forward(s.heading)
    r = geo.right(s.heading)
    back_c = (bow[0] - f[0] * s.length * 0.4, bow[1] - f[1] * s.length * 0.4)
    wing = s.beam * 0.32
    out.append(Polygon(np.asarray([bow, (back_c[0] + r[0] * wing, back_c[1] + r[1] * wing),
                                   (back_c[0] - r[0] * wing, back_c[1] - r[1] * wing)]),
                       closed=True, facecolor="white", edgecolor=st.edge, lw=0.8, zorder=11))
    for side in s.reload:
        m = h.edge_midpoint(side.value)
        o = geo.scale(h.outward(side.value), 0.35)
        out.append(Circle((m[0] + o[0], m[1] + o[1]), 0.22, facecolor=style.RELOAD, edgecolor="white", lw=1, zorder=21))
    for p in s.landing_parties:
        out.append(Polygon(np.asarray([(p.x, p.y + 0.35), (p.x - 0.3, p.y - 0.2), (p.x + 0.3, p.y - 0.2)]), closed=True,
                           facecolor=st.fill, edgecolor="black", lw=1, zorder=12))
    flag = game.squadron(s.owner).flagship == s.id if s.owner in game.players else False
    name = ("★ " if flag else "") + s.id
    top = max(c[1] for c in h.corners)
    out.append(Text(s.x, top + 0.35, name, fontsize=style.FONT, fontweight="bold", ha="center", va="bottom",
                    color=style.TEXT, zorder=20, path_effects=halo))
    bottom = min(c[1] for c in h.corners)
    flags = [_status_label(n) for n in s.status_names() if n != "anchored"]
    flags.append(s.sail.value.capitalize() if s.sail.value != "battle" else "")
    text = " ".join(x for x in flags if x)
    if text:
        out.append(Text(s.x, bottom - 0.25, text, fontsize=style.FONT_SMALL, ha="center", va="top", color=style.TEXT,
                        zorder=20, path_effects=halo))
    return out


def _status_label(name: str) -> str:
    return {
        "shaken": "SHAKEN", "crippled": "CRIPPLED", "out_of_action": "OUT OF ACTION", "aground": "AGROUND",
        "entangled": "ENTANGLED", "captured": "CAPTURED", "sunk": "SUNK", "left_table": "", "removed": "",
    }.get(name, name.upper())


def _pips(boxes: list[Any], colours: list[str], start: float, y: float, value: int, colour: str) -> None:
    """A track of 7 boxes beginning at x = start, `value` of them filled."""
    size, gap = 0.24, 0.05
    for i in range(7):
        x = start + i * (size + gap)
        boxes.append([(x, y), (x + size, y), (x + size, y + size), (x, y + size)])
        colours.append(colour if i < value else style.PIP_EMPTY)


def _preview_artists(game: Game, p: Preview, halo: list[Any]) -> list[Artist]:
    ship = game.ship(p.ship)
    out: list[Artist] = []
    if p.path:
        end = p.path[-1]
        ghost = _hull(end.x, end.y, end.heading, ship)
        out.append(Polygon(np.asarray(ghost.corners), closed=True, facecolor=style.PREVIEW, alpha=0.35,
                           edgecolor=style.PREVIEW, lw=2, linestyle="--", zorder=25))
        out.append(Line2D([q.x for q in p.path], [q.y for q in p.path], color=style.PREVIEW, lw=2, zorder=25,
                          marker="o", markersize=3))
    if p.collision is not None:
        out.append(Circle(p.collision, 0.35, facecolor="none", edgecolor="red", lw=2.5, zorder=26))
        out.append(Text(p.collision[0], p.collision[1] + 0.5, "collision", color="red", fontsize=style.FONT,
                        fontweight="bold", ha="center", zorder=26, path_effects=halo))
    lines = [f"{side}: {enemy} at {band.replace('_', ' ')}" for side, enemy, band in p.in_arc] or ["no enemy in either arc"]
    if p.note:
        lines.append(p.note)
    if p.path:
        end = p.path[-1]
        out.append(Text(end.x, end.y - ship.length / 2 - 1.6, "\n".join(lines), color=style.PREVIEW,
                        fontsize=style.FONT, fontweight="bold", ha="center", va="top", zorder=27, path_effects=halo))
    return out


def _header(view: View, options: RenderOptions, fig: Figure) -> list[Artist]:
    g = view.game
    w, h = fig.get_size_inches() * DPI
    top = 1 - 14 / h
    phase = g.phase.value.title()
    who = f" · player {g.active_player} to act" if g.active_player else ""
    if g.winner:
        who = f" · player {g.winner} wins"
    title = options.title or g.name
    line1 = f"{title} — turn {g.turn} · {phase}{who}"
    cards = "   ".join(f"{q.player}: {q.face_up or '—'}" for q in g.squadrons)
    out: list[Artist] = [
        Text(MARGIN_PX / w, top, line1, fontsize=style.FONT_HEADER, fontweight="bold", va="top",
             transform=fig.transFigure),
        Text(MARGIN_PX / w, top - 34 / h, f"face-up cards  {cards}", fontsize=style.FONT, va="top",
             transform=fig.transFigure),
    ]
    legend = "   ".join(f"■ {q.player}: {side_style(g, q.player).label}" for q in g.squadrons)
    out.append(Text(MARGIN_PX / w, top - 60 / h,
                    legend + "   ★ flagship   ● reload marker   tracks: damage (red) over fatigue (gold)",
                    fontsize=style.FONT_SMALL, va="top", transform=fig.transFigure))
    return out


# ---------------------------------------------------------------- the entry points


def scene_texts(view: View, options: RenderOptions | None = None) -> list[str]:
    """Every string the board would draw (the static layer's labels included)."""
    options = options or RenderOptions()
    static = _static(view.game.table, _crop(view.game.table, view.game, options), options.width_px)
    texts = [t.get_text() for t in static.ax.texts]
    with static.lock:
        artists = build_scene(view, options, static.ax, static.fig)
    return texts + [a.get_text() for a in artists if isinstance(a, Text)]


def render_pixels(view: View, options: RenderOptions | None = None) -> np.ndarray:
    options = options or RenderOptions()
    game = view.game
    static = _static(game.table, _crop(game.table, game, options), options.width_px)
    with static.lock:
        static.canvas.restore_region(static.background)  # type: ignore[no-untyped-call]
        artists = build_scene(view, options, static.ax, static.fig)
        for a in artists:
            a.set_figure(static.fig)
            if a.is_transform_set() and a.get_transform() is static.fig.transFigure:
                static.fig.draw_artist(a)
                continue
            a.axes = static.ax
            if not a.is_transform_set():
                a.set_transform(static.ax.transData)
            a.set_clip_path(static.ax.patch)
            static.ax.draw_artist(a)
        pixels = np.array(static.canvas.buffer_rgba())  # type: ignore[no-untyped-call]  # a copy: the canvas is reused by the next call
    return pixels


def render_board(view: View, options: RenderOptions | None = None) -> bytes:
    """The board as PNG bytes: a pure function of the view and the options."""
    options = options or RenderOptions()
    pixels = render_pixels(view, options)
    h, w = pixels.shape[:2]
    image = Image.frombuffer("RGBA", (w, h), pixels, "raw", "RGBA", 0, 1).convert("RGB")
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=options.compress_level)
    return out.getvalue()


async def render_board_async(view: View, options: RenderOptions | None = None) -> bytes:
    """render_board in a worker thread, off the event loop."""
    return await asyncio.to_thread(render_board, view, options)

