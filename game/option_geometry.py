"""Shared geometry for the options in words (issue 29): what a table moment's closing moves need,
worked out once and reused across the ships still to act, so that a ship's twelve turning moves are
sketched on the table instead of each being played through the engine.

A sketch stands in for a trial only where the engine could do nothing but move the base: the ship's
plain move, played through the engine, ended exactly where the sketch of it ends, and the turning
move's path meets no base, no terrain (buffered) and no table edge. Any other move is still played
through the engine, and the move finally offered is played through it too (options.py)."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry.base import BaseGeometry

from game import geometry as geo
from game.commands import Turn
from game.errors import RulesError
from game.model import Game, Ship
from game.phases.common import hull, obstacles
from game.phases.movement import _tool_motions
from game.rules_data import RulesData, Tool

TERRAIN_MARGIN = 0.05  # inches: a path this close to terrain is played through the engine
EDGE_MARGIN = 0.05  # inches inside the table edge
KEPT = 32  # table moments kept (a board read, its options and the captain's trials share one)


@dataclass(frozen=True)
class Moment:
    """The ships of one table moment as arrays: centres and the radius of each base's circle."""

    ships: tuple[Ship, ...]
    centres: np.ndarray
    radii: np.ndarray


_MOMENTS: OrderedDict[int, Moment] = OrderedDict()
_BLOCKERS: OrderedDict[int, tuple[tuple[object, ...], geo.Obstacles]] = OrderedDict()


def moment(g: Game) -> Moment:
    """The arrays of this moment's ships, kept by the ships tuple (states share it until a ship
    changes), least recently used dropped first."""
    key = id(g.ships)
    got = _MOMENTS.get(key)
    if got is not None and got.ships is g.ships:
        _MOMENTS.move_to_end(key)
        return got
    centres = np.array([(s.x, s.y) for s in g.ships], dtype=float).reshape(-1, 2)
    radii = np.array([math.hypot(s.beam, s.length) / 2 for s in g.ships], dtype=float)
    got = Moment(g.ships, centres, radii)
    _MOMENTS[key] = got
    while len(_MOMENTS) > KEPT:
        _MOMENTS.popitem(last=False)
    return got


def near_enemies(g: Game, ship: Ship, reach: float, within: float) -> list[Ship]:
    """The enemies a base of `ship` moved by up to `reach` could come within `within` of (by their
    circles: a bound, never a miss), in the order of the table's ships."""
    m = moment(g)
    if not len(m.ships):
        return []
    gap = np.hypot(m.centres[:, 0] - ship.x, m.centres[:, 1] - ship.y) - m.radii - math.hypot(ship.beam, ship.length) / 2
    close = gap <= within + reach + 1e-6
    return [s for s, ok in zip(m.ships, close, strict=True)
            if ok and not g.allied(s.controller, ship.controller) and s.on_table and s.can_act]


def _blockers(g: Game) -> geo.Obstacles:
    """Every base on the table, every piece of terrain (any kind, a little enlarged) and the world
    beyond the table's edges: what a sketched path must keep clear of."""
    key = id(g.ships)
    got = _BLOCKERS.get(key)
    if got is not None and got[0][0] is g.ships and got[0][1] is g.table:
        _BLOCKERS.move_to_end(key)
        return got[1]
    shapes = dict(obstacles(g).shapes)
    for t in g.table.terrain:
        shapes[f"near-terrain:{t.id}"] = geo.terrain_polygon(t.points).buffer(TERRAIN_MARGIN)
    inner = geo.table_edges(g.table.width - 2 * EDGE_MARGIN, g.table.height - 2 * EDGE_MARGIN)
    for k, v in inner.items():
        shapes[k] = _shifted(v, EDGE_MARGIN)
    found = geo.Obstacles(shapes)
    _BLOCKERS[key] = ((g.ships, g.table), found)
    while len(_BLOCKERS) > KEPT:
        _BLOCKERS.popitem(last=False)
    return found


def _shifted(shape: BaseGeometry, by: float) -> BaseGeometry:
    return affinity.translate(shape, by, by)


REFUSED = "refused"  # the tool refuses the turn: the engine's own check, so no trial is needed
BLOCKED = "blocked"  # the path meets something: the engine must play it


def sketch(g: Game, ship: Ship, speed: int, turn: Turn | None, rules: RulesData) -> Ship | str:
    """The ship where a move ahead at `speed` with `turn` ends when its path is clear of everything
    (placed as `apply` places it: the engine's rounding), else REFUSED or BLOCKED.

    Clear is judged on more than the path: first each motion's area is taken as the convex hull of
    the base's corners at every step the engine's sweep makes of it (the sweep's own areas lie
    inside) and nothing may touch it; failing that, the engine's own sweep must meet nothing among
    the same bases, the terrain of every kind (enlarged) and edges drawn inside the table's. So a
    sketch is only offered where the engine's sweep would meet nothing, no shoal nor edge included. The path is the ship's own (kept for the ships still to act: `_path`); only what is in
    its way belongs to the table moment."""
    drawn = _path(ship, rules.tool(speed), turn)
    if isinstance(drawn, str):
        return drawn
    areas, box, moved, motions = drawn
    near = _blockers(g).meeting(box).without(ship.id)
    if near.shapes:
        found = np.array(list(near.shapes.values()), dtype=object)
        if any(shapely.intersects(found, area).any() for area in areas):
            # something lies in the hull of a pivot's steps (which bulges inside the arc): the
            # engine's own sweep, against the same bases and more than the terrain and edges
            res = geo.sweep(hull(ship), motions, near, need_swept=False, find_contact=False)
            if not res.completed or res.hit is not None:
                return BLOCKED
    return moved


@lru_cache(maxsize=8192)
def _path(ship: Ship, tool: Tool, turn: Turn | None) -> tuple[tuple[BaseGeometry, ...], tuple[float, ...], Ship,
                                                              tuple[geo.Motion, ...]] | str:
    """The areas a move ahead passes over (as `sketch` judges them first), a box holding them, the ship
    where it ends and the motions; REFUSED when the tool refuses the turn. A ship that has not moved is the same
    object from one table moment to the next, so its paths are worked out once."""
    h0 = hull(ship)
    try:
        motions = _tool_motions(h0, tool.length, turn, tool.max_turn, "")
    except RulesError:
        return REFUSED
    pose = h0.pose
    areas = []
    for motion in motions:
        n = motion.steps()
        poses = [pose] + [motion.at(pose, i / n) for i in range(1, n + 1)]
        areas.append(_hull_of(poses, ship.length / 2, ship.beam / 2))
        pose = motion.at(pose, 1.0)
    for area in areas:
        shapely.prepare(area)
    box = tuple(float(v) for v in shapely.total_bounds(np.array(areas, dtype=object)))
    moved = replace(ship, x=round(pose.x, 6), y=round(pose.y, 6), heading=round(geo.norm_heading(pose.heading), 6))
    return tuple(areas), box, moved, tuple(motions)


def _hull_of(poses: list[geo.Pose], half_length: float, half_beam: float) -> BaseGeometry:
    """The convex hull of a base's corners at each of the poses."""
    xy = np.array([(p.x, p.y) for p in poses])
    rad = np.radians([p.heading for p in poses])
    f = np.stack([np.sin(rad), np.cos(rad)], axis=1)
    r = np.stack([np.cos(rad), -np.sin(rad)], axis=1)
    corners = np.concatenate([xy + f * a + r * b for a in (half_length, -half_length) for b in (half_beam, -half_beam)])
    return shapely.convex_hull(shapely.multipoints(corners))


def reach_of(ship: Ship, speed: int, rules: RulesData) -> float:
    """How far any point of the base can travel in a move ahead at `speed` with any turn."""
    tool = rules.tool(speed)
    radius = math.hypot(ship.beam, ship.length)
    return tool.length + math.radians(tool.max_turn) * (radius + tool.length + 1.0) + 1e-6
