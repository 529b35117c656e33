"""The dynamic part of one board while it is being built: its artists, its texts and what labels
must keep clear of."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from matplotlib.artist import Artist
from matplotlib.patches import PathPatch
from matplotlib.path import Path as MplPath
from matplotlib.text import Text
from shapely.geometry.base import BaseGeometry

from benchmarks.baseline_render import style
from benchmarks.baseline_render.layout import Frame, scale
from benchmarks.baseline_render.static import Static
from benchmarks.baseline_render.text import TextItem
from game import geometry as geo
from game.model import Game, Ship


@dataclass
class Block:
    """A label to place: lines stacked and centred, named by gid (`ship:NAME`, `attack:…`,
    `terrain:…`) so tests know what it belongs to; `mode` says how to look for room (around a
    ship, along an arrow, inside a zone, or at a terrain piece, which may go unlabelled)."""

    gid: str
    lines: list[tuple[str, float, str, str, str | None]]  # text, size, weight, colour, halo colour
    mode: str
    where: Any  # corners (around), two points (along), a point (inside, terrain)


@dataclass
class Scene:
    static: Static
    data: list[Artist] = field(default_factory=list)  # in table inches, clipped to the table area
    pixels: list[Artist] = field(default_factory=list)  # in image pixels
    texts: list[TextItem] = field(default_factory=list)
    hull_ids: list[str] = field(default_factory=list)  # the ships, in the order of the hull collection
    reload_ids: list[str] = field(default_factory=list)  # "ship:side", in the order of the reload collection
    blocks: list[Block] = field(default_factory=list)
    hard: list[np.ndarray] = field(default_factory=list)  # quads (pixels) no label may cover
    soft: list[np.ndarray] = field(default_factory=list)  # quads labels avoid when they can
    unplaced: list[str] = field(default_factory=list)  # labels that found no free place (should stay empty)

    @property
    def frame(self) -> Frame:
        return self.static.frame

    @property
    def k(self) -> float:
        """Line widths and gaps scale with the image width."""
        return scale(self.frame.width)

    def px(self, points: Any) -> np.ndarray:
        """Table points (inches) as image pixels, origin at the bottom left."""
        f = self.frame
        a = np.asarray(points, dtype=float).reshape(-1, 2)
        return np.column_stack([f.left + (a[:, 0] - f.crop[0]) * f.ppi, f.bottom + (a[:, 1] - f.crop[1]) * f.ppi])

    def text_artists(self) -> list[Text]:
        """The texts as matplotlib artists in the board's figure (for measuring; drawing blends kept images)."""
        out = []
        for item in self.texts:
            t = item.artist()
            t.set_figure(self.static.fig)
            out.append(t)
        return out


def side_style(game: Game, player: str) -> style.SideStyle:
    return style.SIDES[game.players.index(player) % len(style.SIDES)]


def hull_at(x: float, y: float, heading: float, ship: Ship) -> geo.Hull:
    return geo.Hull(geo.Pose(x, y, heading), ship.beam, ship.length)


def patch(geom: BaseGeometry, **kw: Any) -> PathPatch | None:
    """A shapely (multi)polygon, holes and all, as one patch."""
    polys = [g for g in getattr(geom, "geoms", [geom]) if g.geom_type == "Polygon" and not g.is_empty]
    if not polys:
        return None
    verts: list[Any] = []
    codes: list[int] = []
    for p in polys:
        for ring in (p.exterior, *p.interiors):
            xy = np.asarray(ring.coords)
            verts += list(xy)
            codes += [int(MplPath.MOVETO)] + [int(MplPath.LINETO)] * (len(xy) - 2) + [int(MplPath.CLOSEPOLY)]
    return PathPatch(MplPath(np.asarray(verts), codes), **kw)
