"""Text is the costliest thing on the board (glyph layout, the halo drawn as a path), and the same
labels come back on every board of a game. A label is a `TextItem`: each distinct look (string,
font, colours, dots per inch) is drawn once by matplotlib into a small transparent image and kept,
and a board blends the kept images where its items stand. `TextItem.artist()` gives the matplotlib
`Text` that draws the same thing at the same place, for tests that measure window extents."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patheffects import withStroke
from matplotlib.text import Text
from matplotlib.transforms import IdentityTransform

MARGIN = 4  # pixels around a text's extent kept in its image, for the halo

_SPRITES: OrderedDict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] = OrderedDict()
_SIZES: dict[tuple[Any, ...], tuple[float, float]] = {}
_LOCK = threading.Lock()
_LIMIT = 2000  # kept images of about 25 KB each
_MEASURE = FigureCanvasAgg(Figure(dpi=100))


@dataclass(frozen=True)
class TextItem:
    """A text in figure pixels (origin at the bottom left), anchored by its alignment."""

    x: float
    y: float
    text: str
    size: float
    colour: str
    weight: str = "normal"
    halo: str | None = "white"
    halo_width: float = 3.0
    ha: str = "center"  # left | center | right
    va: str = "center"  # top | center | bottom
    gid: str = ""
    dpi: float = 100.0

    def get_text(self) -> str:
        return self.text

    def get_gid(self) -> str:
        return self.gid

    @property
    def look(self) -> tuple[Any, ...]:
        return (self.text, self.size, self.weight, self.colour, self.halo, self.halo_width, self.dpi)

    @property
    def extent(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1): where matplotlib's window extent of the same text falls."""
        w, h = size_of(self.text, self.size, self.weight, self.dpi)
        x0 = {"left": self.x, "center": self.x - w / 2, "right": self.x - w}[self.ha]
        y0 = {"bottom": self.y, "center": self.y - h / 2, "top": self.y - h}[self.va]
        return (x0, y0, x0 + w, y0 + h)

    def artist(self) -> Text:
        t = Text(self.x, self.y, self.text, fontsize=self.size, fontweight=self.weight, color=self.colour,
                 ha=self.ha, va=self.va, multialignment="center", transform=IdentityTransform(), zorder=40)
        if self.halo:
            t.set_path_effects([withStroke(linewidth=self.halo_width, foreground=self.halo)])
        t.set_gid(self.gid)
        return t


def label(x: float, y: float, text: str, size: float, colour: str, **kw: Any) -> TextItem:
    return TextItem(x, y, text, size, colour, **kw)


def size_of(text: str, size: float, weight: str = "normal", dpi: float = 100) -> tuple[float, float]:
    """Width and height in pixels of a text's extent (what `get_window_extent` gives)."""
    key = (text, size, weight, dpi)
    found = _SIZES.get(key)
    if found is None:
        with _LOCK:
            fig = _MEASURE.figure
            fig.set_dpi(dpi)
            t = Text(0, 0, text, fontsize=size, fontweight=weight, multialignment="center",
                     transform=IdentityTransform())
            t.set_figure(fig)
            bb = t.get_window_extent(_MEASURE.get_renderer())  # type: ignore[no-untyped-call]
            found = (float(bb.width), float(bb.height))
            if len(_SIZES) > _LIMIT:
                _SIZES.clear()
            _SIZES[key] = found
    return found


def _sprite(item: TextItem) -> tuple[np.ndarray, np.ndarray]:
    """The text drawn alone, extent's lower-left corner at (MARGIN, MARGIN): its colour already
    multiplied by its opacity, and the opacity's complement (both 0..255, top row first)."""
    w, h = size_of(item.text, item.size, item.weight, item.dpi)
    width, height = int(np.ceil(w)) + 2 * MARGIN, int(np.ceil(h)) + 2 * MARGIN
    fig = Figure(figsize=(width / item.dpi, height / item.dpi), dpi=item.dpi, facecolor="none")
    canvas = FigureCanvasAgg(fig)
    placed = TextItem(MARGIN, MARGIN, item.text, item.size, item.colour, item.weight, item.halo, item.halo_width,
                      "left", "bottom", dpi=item.dpi)
    fig.add_artist(placed.artist())
    canvas.draw()  # type: ignore[no-untyped-call]
    rgba = np.asarray(canvas.buffer_rgba()).astype(np.uint16)  # type: ignore[no-untyped-call]
    alpha = rgba[..., 3:4]
    return ((rgba[..., :3] * alpha + 127) // 255).astype(np.uint8), (255 - alpha).astype(np.uint8)


def blend(pixels: np.ndarray, items: list[TextItem]) -> None:
    """Draw each item's kept image onto the pixels (H x W x 4, top row first) where it stands."""
    height, width = pixels.shape[:2]
    for item in items:
        key = item.look
        with _LOCK:
            found = _SPRITES.get(key)
            if found is not None:
                _SPRITES.move_to_end(key)
        if found is None:
            found = _sprite(item)
            with _LOCK:
                _SPRITES[key] = found
                if len(_SPRITES) > _LIMIT:
                    _SPRITES.popitem(last=False)
        colour, clear = found
        x0, y0, _, _ = item.extent
        left = int(round(x0)) - MARGIN
        h, w = colour.shape[:2]
        top = height - (int(round(y0)) - MARGIN + h)  # rows count from the top
        r0, r1 = max(0, top), min(height, top + h)
        c0, c1 = max(0, left), min(width, left + w)
        if r0 >= r1 or c0 >= c1:
            continue
        dst = pixels[r0:r1, c0:c1, :3]
        keep = clear[r0 - top:r1 - top, c0 - left:c1 - left].astype(np.uint16)
        mixed = dst.astype(np.uint16) * keep // 255 + colour[r0 - top:r1 - top, c0 - left:c1 - left]
        dst[...] = np.minimum(mixed, 255)
