"""What is drawn over the sea besides the ships: the broadside paths of the ships to act cut into
range bands, the last move, the attack arrows, a proposed move, deployment zones."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrow, PathPatch, Polygon
from matplotlib.path import Path as MplPath
from shapely import union_all
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from game import geometry as geo
from game.model import Game
from game.rules_data import RulesData
from render import labels as lab
from render import style
from render.guide import Guide
from render.layout import font
from render.options import AttackLine, Pose, Preview
from render.scene import Block, Scene, hull_at, path_of, side_style


@lru_cache(maxsize=512)
def _within(hull: geo.Hull, side: str, reaches: tuple[float, ...]) -> tuple[BaseGeometry, ...]:
    """Piece i: the side's path within band i (a ship that has not moved keeps its pieces)."""
    bands = geo.broadside_bands(hull, side, reaches)
    return tuple(union_all(bands[:i + 1]) for i in range(len(bands)))


@lru_cache(maxsize=128)
def _paths(hulls: tuple[geo.Hull, ...], reaches: tuple[float, ...]) -> tuple[tuple[MplPath | None, ...],
                                                                               tuple[MplPath | None, ...]]:
    """The outline of each ship's side's whole path, and the nested layers, widest first: a point
    is the darker the closer the band in which some ship reaches it, and paths that overlap do not
    darken each other. Kept: the same ships to act are drawn on every board until they move."""
    within: list[list[BaseGeometry]] = [[] for _ in reaches]
    outlines = []
    for h in hulls:
        for side in ("port", "starboard"):
            pieces = _within(h, side, reaches)
            for i, piece in enumerate(pieces):
                within[i].append(piece)
            outlines.append(path_of(pieces[-1]))
    return tuple(outlines), tuple(path_of(union_all(group)) for group in reversed(within))


def draw_paths(sc: Scene, game: Game, g: Guide, rules: RulesData) -> None:
    """Each ship to act: both broadside paths cut into the rules' range bands, and for a single
    ship its range rings."""
    if not g.ships:
        return
    k = sc.k
    reaches = tuple(b.max for b in rules.ranges)
    hulls = []
    for ship_id in g.ships:
        s = game.ship(ship_id)
        h = hull_at(s.x, s.y, s.heading, s)
        hulls.append(h)
        if g.rings:
            for b in reversed(rules.ranges):
                ring = h.polygon.buffer(b.max, quad_segs=16)
                sc.data.append(Polygon(np.asarray(ring.exterior.coords), closed=True, fill=False, zorder=7,
                                       edgecolor=style.ARC, lw=1.0 * k, linestyle=(0, (4, 3))))
    outlines, layers = _paths(tuple(hulls), reaches)
    # the outlines go first, then the layers (all at zorder 6, drawn in this order)
    sc.data += [PathPatch(p, fill=False, edgecolor=style.ARC, lw=1.0 * k, zorder=6) for p in outlines if p is not None]
    sc.data += [PathPatch(p, facecolor=style.ARC, alpha=style.BAND_ALPHA, edgecolor="none", zorder=6)
                for p in layers if p is not None]


def draw_last_move(sc: Scene, game: Game, move: tuple[str, tuple[Pose, ...]]) -> None:
    """Where the ship started (dotted) and the trail it followed."""
    ship_id, path = move
    try:
        ship = game.ship(ship_id)
    except KeyError:
        return
    if len(path) < 2:
        return
    k = sc.k
    start = path[0]
    ghost = hull_at(start.x, start.y, start.heading, ship)
    sc.data.append(Polygon(np.asarray(ghost.corners), closed=True, fill=False, zorder=8,
                           edgecolor=style.MOVE_TRAIL, lw=1.4 * k, linestyle=":"))
    sc.data.append(Line2D([p.x for p in path], [p.y for p in path], color=style.MOVE_TRAIL, lw=2 * k, zorder=8,
                          marker="o", markersize=3 * k))
    pts = sc.px([(p.x, p.y) for p in path])
    sc.soft += [lab.segment_quad(a, b, 3 * k) for a, b in zip(pts[:-1], pts[1:], strict=True)]


def draw_attack(sc: Scene, game: Game, a: AttackLine) -> None:
    """An arrow from the firing side (each side of a double broadside its own) to the target."""
    try:
        src, dst = game.ship(a.ship), game.ship(a.target)
    except KeyError:
        return
    k = sc.k
    h = hull_at(src.x, src.y, src.heading, src)
    target = hull_at(dst.x, dst.y, dst.heading, dst).polygon
    if a.side in ("port", "starboard"):
        start = h.edge_midpoint(a.side)
    else:
        p, _ = nearest_points(h.polygon, target)
        start = (p.x, p.y)
    _, q = nearest_points(Point(start), target)
    end = (q.x, q.y)
    gid = f"attack:{a.ship}:{a.side}:{a.target}"
    sc.data.append(FancyArrow(start[0], start[1], end[0] - start[0], end[1] - start[1], width=0.08,
                              head_width=0.55, head_length=0.55, length_includes_head=True,
                              facecolor=style.ATTACK_LINE, edgecolor="white", lw=0.8 * k, zorder=30, gid=gid))
    p0, p1 = sc.px([start, end])
    sc.soft.append(lab.segment_quad(p0, p1, 4 * k))
    text = a.label or f"{a.hits} hit{'s' if a.hits != 1 else ''}"
    if a.side:
        text = f"{'stbd' if a.side == 'starboard' else 'port'}: {text}"
    size = font(sc.frame.width)
    sc.blocks.append(Block(gid, [(text, size, "bold", style.ATTACK_LINE, "white")], "along",
                           ((float(p0[0]), float(p0[1])), (float(p1[0]), float(p1[1])))))


def draw_preview(sc: Scene, game: Game, p: Preview) -> None:
    """A proposed move: the ship where it would end, its trail, a ring where it would first touch
    something, and what it would then bear on."""
    ship = game.ship(p.ship)
    k, size = sc.k, font(sc.frame.width)
    lines = [f"{side}: {enemy} at {band.replace('_', ' ')}" for side, enemy, band in p.in_arc] or \
        ["no enemy in either path"]
    if p.note:
        lines.append(p.note)
    if p.path:
        end = p.path[-1]
        ghost = hull_at(end.x, end.y, end.heading, ship)
        sc.data.append(Polygon(np.asarray(ghost.corners), closed=True, facecolor=style.PREVIEW, alpha=0.35,
                               edgecolor=style.PREVIEW, lw=2 * k, linestyle="--", zorder=25))
        sc.data.append(Line2D([q.x for q in p.path], [q.y for q in p.path], color=style.PREVIEW, lw=2 * k, zorder=25,
                              marker="o", markersize=3 * k))
        anchor = sc.px(ghost.corners)
        sc.hard.append(anchor)
        sc.blocks.append(Block("preview", [(line, size, "bold", style.PREVIEW, "white") for line in lines], "around",
                               anchor))
    if p.collision is not None:
        sc.data.append(Circle(p.collision, 0.35, facecolor="none", edgecolor="red", lw=2.5 * k, zorder=26))
        c = sc.px([p.collision])[0]
        r = 0.35 * sc.frame.ppi
        sc.blocks.append(Block("preview:collision", [("collision", size, "bold", "#b00000", "white")], "around",
                               lab.box_quad(c[0] - r, c[1] - r, c[0] + r, c[1] + r)))


def draw_zones(sc: Scene, game: Game, zones: tuple[tuple[str, tuple[tuple[float, float], ...]], ...]) -> None:
    for player, points in zones:
        st = side_style(game, player)
        sc.data.append(Polygon(np.asarray(points), closed=True, facecolor=st.fill, alpha=0.15, edgecolor=st.edge,
                               lw=2 * sc.k, linestyle=st.linestyle, zorder=5))
        c = sc.px(points).mean(axis=0)
        sc.blocks.append(Block(f"zone:{player}", [(f"{player}'s deployment zone", font(sc.frame.width), "bold",
                                                   st.edge, "white")], "inside", (float(c[0]), float(c[1]))))


def name_terrain(sc: Scene, game: Game) -> None:
    for t in game.table.terrain:
        c = sc.px(t.points).mean(axis=0)
        sc.blocks.append(Block(f"terrain:{t.id}", [(t.kind.value.replace("_", " "), font(sc.frame.width), "normal",
                                                    style.TEXT, "white")], "terrain", (float(c[0]), float(c[1]))))
