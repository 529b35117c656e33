"""The layer of the board that does not change while a game goes on: the sea and the table edge,
the inch grid, terrain, the Weather Edge, the edge coordinates and the legend. It is drawn once per
table, crop, width and legend and kept as a pixel buffer, which each board restores before drawing
the ships."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrow, Polygon, Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Affine2D, Bbox, IdentityTransform, Transform

from game.model import Table
from render import style
from render.layout import DPI, HEADER_ROWS, Frame, LegendItem, font, row_height, scale, swatch_size
from render.text import TextItem, blend, label, size_of


@dataclass
class Static:
    frame: Frame
    fig: Figure
    canvas: FigureCanvasAgg
    transform: Transform  # table inches to image pixels
    clip: Bbox  # the table area in pixels: what is drawn in inches stays inside it
    background: Any
    texts: tuple[TextItem, ...]  # edge coordinates and legend
    lock: threading.Lock = field(default_factory=threading.Lock)

    def text_artists(self) -> list[Text]:
        """The layer's texts as matplotlib artists in its figure (for measuring)."""
        out = []
        for item in self.texts:
            t = item.artist()
            t.set_figure(self.fig)
            out.append(t)
        return out


_STATIC: OrderedDict[tuple[Any, ...], Static] = OrderedDict()
_STATIC_LOCK = threading.Lock()
# a layer is two pixel buffers of the image (about 9 MB at 1080 px): the crop follows the ships, so
# keep only the few most recently used
_CACHE_LIMIT = 8
CACHE_BYTES = 200_000_000


def static_layer(table: Table, frame: Frame) -> Static:
    key = (table, frame)
    with _STATIC_LOCK:
        found = _STATIC.get(key)
        if found is not None:
            _STATIC.move_to_end(key)
            return found
        made = _draw(table, frame)
        # the least recently used go first, until the new one fits both the count and the memory budget
        while _STATIC and (len(_STATIC) >= _CACHE_LIMIT
                           or sum(map(_bytes, _STATIC.values())) + _bytes(made) > CACHE_BYTES):
            _STATIC.popitem(last=False)
        _STATIC[key] = made
        return made


def _bytes(layer: Static) -> int:
    w, h = layer.canvas.get_width_height()
    return 2 * 4 * w * h  # the canvas and the saved background, RGBA


def data_transform(frame: Frame) -> tuple[Transform, Bbox]:
    """Table inches to image pixels, and the table area's box in pixels. An Axes would give the
    same, but making one (its axes, ticks and spines, none of them drawn) cost more than drawing
    the whole layer."""
    x0, y0, _, _ = frame.crop
    px0, py0, px1, py1 = frame.plot
    return Affine2D().translate(-x0, -y0).scale(frame.ppi).translate(px0, py0), Bbox.from_extents(px0, py0, px1, py1)


def _draw(table: Table, frame: Frame) -> Static:
    w, h = frame.width, frame.height
    fig = Figure(figsize=(w / DPI, h / DPI), dpi=DPI, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    transform, clip = data_transform(frame)

    def add(artist: Any) -> None:
        artist.set_transform(transform)
        artist.set_clip_box(clip)
        fig.add_artist(artist)

    x0, y0, x1, y1 = frame.crop
    add(Rectangle((x0, y0), x1 - x0, y1 - y0, facecolor=style.OFF_TABLE, edgecolor="none", zorder=0))
    add(Rectangle((0, 0), table.width, table.height, facecolor=style.SEA, edgecolor="none", zorder=0))
    gx0, gx1 = max(0.0, x0), min(table.width, x1)
    gy0, gy1 = max(0.0, y0), min(table.height, y1)
    thin: list[list[tuple[float, float]]] = []
    thick: list[list[tuple[float, float]]] = []
    for gx in range(int(math.ceil(gx0)), int(math.floor(gx1)) + 1):
        (thick if gx % 6 == 0 else thin).append([(gx, gy0), (gx, gy1)])
    for gy in range(int(math.ceil(gy0)), int(math.floor(gy1)) + 1):
        (thick if gy % 6 == 0 else thin).append([(gx0, gy), (gx1, gy)])
    k = scale(w)
    add(LineCollection(thin, colors=style.GRID, linewidths=0.5 * k, zorder=1))
    add(LineCollection(thick, colors=style.GRID, linewidths=1.4 * k, zorder=1))
    for t in table.terrain:
        st = style.TERRAIN[t.kind.value]
        add(Polygon(list(t.points), closed=True, zorder=2, linewidth=1.5 * k, **st))
    add(Rectangle((0, 0), table.width, table.height, fill=False, edgecolor=style.TABLE_EDGE, lw=2.5 * k, zorder=4))
    add(_weather_edge(table, k))
    texts = _edge_coordinates(table, frame) + _legend(fig, frame)
    canvas.draw()  # type: ignore[no-untyped-call]
    # the texts from kept images, like the board's labels: the same numbers and legend come back
    # whenever the crop changes
    blend(np.asarray(canvas.buffer_rgba()), texts)  # type: ignore[no-untyped-call]
    background = canvas.copy_from_bbox(fig.bbox)  # type: ignore[no-untyped-call]
    return Static(frame, fig, canvas, transform, clip, background, tuple(texts))


def _weather_edge(table: Table, k: float) -> Line2D:
    w, h = table.width, table.height
    edges: dict[str, tuple[list[float], list[float]]] = {
        "N": ([0, w], [h, h]), "S": ([0, w], [0, 0]), "E": ([w, w], [0, h]), "W": ([0, 0], [0, h]),
    }
    xs, ys = edges[table.weather_edge]
    return Line2D(xs, ys, color=style.WEATHER_EDGE, lw=7 * k, zorder=5, solid_capstyle="butt")


def _edge_coordinates(table: Table, frame: Frame) -> list[TextItem]:
    """Inches from the table's south-west corner, as the text board gives them: x under the table
    area, y to its left, at every `frame.ticks` inches."""
    x0, y0, x1, y1 = frame.crop
    px0, py0, _, _ = frame.plot
    k = scale(frame.width)
    size = font(frame.width)
    out: list[TextItem] = []
    step = frame.ticks
    for i in range(int(math.ceil(max(0.0, x0) / step)), int(math.floor(min(table.width, x1) / step)) + 1):
        x, _ = frame.to_px(i * step, 0)
        out.append(label(x, py0 - 5 * k, f"{i * step:g}", size, style.TEXT, halo=None, va="top", gid="edge:x"))
    label_h = size_of("0", size)[1]
    for i in range(int(math.ceil(max(0.0, y0) / step)), int(math.floor(min(table.height, y1) / step)) + 1):
        _, y = frame.to_px(0, i * step)
        if y - label_h / 2 < py0 - 4 * k:
            continue  # it would sit on the corner's x coordinate
        out.append(label(px0 - 7 * k, y, f"{i * step:g}", size, style.TEXT, halo=None, ha="right", gid="edge:y"))
    return out


def legend_top(frame: Frame) -> float:
    """The pixel height (from the bottom) where the legend's first row begins."""
    k = scale(frame.width)
    return frame.height - 8 * k - row_height(frame.width, style.FONT_TITLE) - (HEADER_ROWS - 1) * row_height(frame.width)


def _legend(fig: Figure, frame: Frame) -> list[TextItem]:
    k = scale(frame.width)
    size = font(frame.width)
    sw = swatch_size(frame.width)
    rh = row_height(frame.width)
    top = legend_top(frame)
    out: list[TextItem] = []
    for r, row in enumerate(frame.legend_rows):
        mid = top - r * rh - rh / 2
        for item, x in row:
            if item.swatch != "none":
                for patch in _swatch(item, x, mid, sw, k):
                    patch.set_transform(IdentityTransform())
                    fig.add_artist(patch)
                x += sw + 6 * k
            out.append(label(x, mid, item.text, size, style.TEXT, halo=None, ha="left", gid="legend"))
    return out


def _swatch(item: LegendItem, x: float, mid: float, sw: float, k: float) -> list[Any]:
    y = mid - sw / 2
    if item.swatch.startswith("side:"):
        st = style.SIDES[int(item.swatch.split(":")[1])]
        return [Rectangle((x, y), sw, sw, facecolor=st.fill, edgecolor=st.edge, lw=2 * k, linestyle=st.linestyle)]
    if item.swatch == "path":
        return [Rectangle((x, y), sw, sw, facecolor=style.ARC, alpha=style.BAND_ALPHA * 3, edgecolor=style.ARC,
                          lw=1 * k)]
    if item.swatch == "target":
        return [Rectangle((x, y), sw, sw, facecolor=style.TARGET, edgecolor="black", lw=1 * k)]
    if item.swatch == "reload":
        return [Circle((x + sw / 2, mid), sw * 0.32, facecolor=style.RELOAD, edgecolor="white", lw=1 * k)]
    if item.swatch == "attack":
        return [FancyArrow(x, mid, sw, 0, width=3 * k, head_width=10 * k, head_length=8 * k,
                           length_includes_head=True, color=style.ATTACK_LINE)]
    return []
