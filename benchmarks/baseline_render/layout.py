"""Where things go on the image: the part of the table shown (by default the area of play), the
margins that carry the edge coordinates, the header's rows and the legend's flow."""

from __future__ import annotations

import math
from dataclasses import dataclass

from benchmarks.baseline_render import style
from benchmarks.baseline_render.options import RenderOptions
from benchmarks.baseline_render.text import size_of
from game import geometry as geo
from game.errors import RulesError
from game.model import Game, Table
from game.schema.common import MAX_TABLE_INCHES

DPI = 100
PLAY_MARGIN = 2.5  # inches of sea kept around the ships
TERRAIN_REACH = 6.0  # terrain this close to a ship is in the picture (clipped to this reach)
MIN_SIDE = 12.0  # the shortest side of a crop, inches
MAX_TALL = 1.25  # height / width: a taller crop is widened (phones show wide images larger)
OFF_EDGE = 0.6  # how far past the table edge a crop may go, so the edge itself shows

Box = tuple[float, float, float, float]
# What one board may cost, checked before anything is drawn: the image's width and its pixels
# (about 48 MB of RGBA at the most).
WIDTH_PX_RANGE = (320, 4096)
MAX_PIXELS = 12_000_000


class BoardTooLarge(RulesError):
    """The board cannot be drawn in bounded time and memory (a table or crop out of bounds)."""

    code = "board-too-large"


def scale(width_px: int) -> float:
    return width_px / style.WIDTH


def font(width_px: int, size: float = style.FONT) -> float:
    return size * scale(width_px)


def _table_box(table: Table) -> Box:
    return (0.0, 0.0, table.width, table.height)


def area_of_play(game: Game, options: RenderOptions) -> Box:
    """The table area the image shows (inches)."""
    table = game.table
    if not all(math.isfinite(v) and 0 < v <= MAX_TABLE_INCHES for v in (table.width, table.height)):
        raise BoardTooLarge(f"A {table.width:g} x {table.height:g} table cannot be drawn.",
                            f"Tables are at most {MAX_TABLE_INCHES:g} inches a side.")
    if options.zoom_box is not None or options.zoom_ship is not None:
        if options.zoom_box is not None:
            x0, y0, x1, y1 = options.zoom_box
        else:
            s = game.ship(options.zoom_ship or "")
            r = options.zoom_radius
            x0, y0, x1, y1 = s.x - r, s.y - r, s.x + r, s.y + r
        box = (max(-OFF_EDGE, x0), max(-OFF_EDGE, y0), min(table.width + OFF_EDGE, x1),
               min(table.height + OFF_EDGE, y1))
        if not all(math.isfinite(v) for v in box) or box[2] - box[0] < 1 or box[3] - box[1] < 1:
            raise BoardTooLarge("That part of the table is empty or off the table.", "Zoom on a ship on the table.")
        return box
    if options.whole_table:
        return _table_box(table)
    points = [c for s in game.ships if s.on_table for c in geo.Hull(geo.Pose(s.x, s.y, s.heading), s.beam,
                                                                      s.length).corners]
    if options.last_move is not None:
        points += [(p.x, p.y) for p in options.last_move[1]]
    if options.preview is not None:
        points += [(p.x, p.y) for p in options.preview.path]
    for _, zone in options.zones:
        points += list(zone)
    if not points:
        return _table_box(table)
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    reach = (x0 - TERRAIN_REACH, y0 - TERRAIN_REACH, x1 + TERRAIN_REACH, y1 + TERRAIN_REACH)
    for t in table.terrain:
        tx0, tx1 = min(p[0] for p in t.points), max(p[0] for p in t.points)
        ty0, ty1 = min(p[1] for p in t.points), max(p[1] for p in t.points)
        if tx1 < reach[0] or tx0 > reach[2] or ty1 < reach[1] or ty0 > reach[3]:
            continue
        x0, y0 = min(x0, max(tx0, reach[0])), min(y0, max(ty0, reach[1]))
        x1, y1 = max(x1, min(tx1, reach[2])), max(y1, min(ty1, reach[3]))
    x0, y0, x1, y1 = x0 - PLAY_MARGIN, y0 - PLAY_MARGIN, x1 + PLAY_MARGIN, y1 + PLAY_MARGIN
    w = max(x1 - x0, MIN_SIDE, (y1 - y0) / MAX_TALL)
    h = max(y1 - y0, MIN_SIDE)
    lo_x, hi_x = -OFF_EDGE, table.width + OFF_EDGE
    lo_y, hi_y = -OFF_EDGE, table.height + OFF_EDGE
    x0, x1 = _fit((x0 + x1) / 2, w, lo_x, hi_x)
    y0, y1 = _fit((y0 + y1) / 2, h, lo_y, hi_y)
    # whole half-inches, so that a ship moving a little keeps the same crop (and its cached layer)
    return (math.floor(x0 * 2) / 2, math.floor(y0 * 2) / 2, math.ceil(x1 * 2) / 2, math.ceil(y1 * 2) / 2)


def _fit(centre: float, size: float, lo: float, hi: float) -> tuple[float, float]:
    """An interval of this size around the centre, slid to stay within [lo, hi] (cut if longer)."""
    if size >= hi - lo:
        return lo, hi
    a = min(max(centre - size / 2, lo), hi - size)
    return a, a + size


@dataclass(frozen=True)
class LegendItem:
    swatch: str  # side:N | path | target | reload | none
    text: str


def legend_items(game: Game) -> tuple[LegendItem, ...]:
    """The key to the board; the same for a whole game, so it is part of the cached layer."""
    sides = tuple(LegendItem(f"side:{i % len(style.SIDES)}", f"{q.player} {style.SIDES[i % len(style.SIDES)].label}")
                  for i, q in enumerate(game.squadrons))
    return sides + (
        LegendItem("none", "★ flagship"),
        LegendItem("none", "✓ done this phase"),
        LegendItem("reload", "reload marker"),
        LegendItem("none", "D damage, F fatigue (of 7)"),
        LegendItem("path", "broadside path (darker: closer)"),
        LegendItem("target", "enemy in a path"),
        LegendItem("attack", "attack"),
        LegendItem("none", "edges: inches"),
    )


@dataclass(frozen=True)
class Frame:
    """The image: its size, the table box it shows, and where the table area sits in it."""

    crop: Box
    width: int
    height: int
    ppi: float
    left: float  # pixels from the image's left edge to the table area
    bottom: float  # pixels from the image's bottom edge to the table area
    header: float  # pixels of header above the table area
    legend_rows: tuple[tuple[tuple[LegendItem, float], ...], ...]  # items and their x, per row
    ticks: float  # inches between edge coordinates

    @property
    def plot(self) -> Box:
        """The table area in pixels (x0, y0, x1, y1), origin at the image's bottom left."""
        x0, y0, x1, y1 = self.crop
        return (self.left, self.bottom, self.left + (x1 - x0) * self.ppi, self.bottom + (y1 - y0) * self.ppi)

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        return (self.left + (x - self.crop[0]) * self.ppi, self.bottom + (y - self.crop[1]) * self.ppi)


def row_height(width_px: int, size: float = style.FONT) -> float:
    return size_of("Hg", font(width_px, size))[1] + 6 * scale(width_px)


HEADER_ROWS = 3  # title, who is to act, face-up cards


def header_height(width_px: int, legend_rows: int) -> float:
    k = scale(width_px)
    return 8 * k + row_height(width_px, style.FONT_TITLE) + (HEADER_ROWS - 1 + legend_rows) * row_height(width_px) + 4 * k


def swatch_size(width_px: int) -> float:
    return 18 * scale(width_px)


def _legend_flow(items: tuple[LegendItem, ...], width_px: int, left: float) -> tuple[tuple[tuple[LegendItem, float], ...], ...]:
    k = scale(width_px)
    rows: list[list[tuple[LegendItem, float]]] = [[]]
    x = left
    for item in items:
        w = size_of(item.text, font(width_px))[0] + (swatch_size(width_px) + 6 * k if item.swatch != "none" else 0)
        if rows[-1] and x + w > width_px - 10 * k:
            rows.append([])
            x = left
        rows[-1].append((item, x))
        x += w + 22 * k
    return tuple(tuple(r) for r in rows)


def tick_step(span_px_per_inch: float, label_px: float) -> float:
    for step in (1.0, 2.0, 3.0, 6.0, 12.0, 24.0):
        if step * span_px_per_inch >= label_px:
            return step
    return 48.0


def frame(game: Game, crop: Box, width_px: int) -> Frame:
    lo, hi = WIDTH_PX_RANGE
    if not lo <= width_px <= hi:
        raise BoardTooLarge(f"A board {width_px} pixels wide cannot be drawn.", f"Widths: {lo} to {hi} pixels.")
    k = scale(width_px)
    size = font(width_px)
    digits = max(len(f"{int(game.table.width)}"), len(f"{int(game.table.height)}"))
    label_w, label_h = size_of("8" * digits, size)
    left = label_w + 14 * k
    right = max(12 * k, label_w / 2 + 4 * k)
    bottom = label_h + 10 * k
    legend = _legend_flow(legend_items(game), width_px, 20 * k)
    header = header_height(width_px, len(legend))
    x0, y0, x1, y1 = crop
    ppi = (width_px - left - right) / (x1 - x0)
    tall = bottom + (y1 - y0) * ppi + 8 * k + header
    if width_px * tall > MAX_PIXELS:
        raise BoardTooLarge(f"A board of {width_px} x {tall:.0f} pixels is too large to draw.",
                            "A table much longer than it is wide cannot be drawn at this width.")
    height = int(math.ceil(tall))
    ticks = tick_step(ppi, max(label_w * 2, label_h * 1.6))
    return Frame(crop, width_px, height, ppi, left, bottom, header, legend, ticks)
