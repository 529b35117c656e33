"""Table geometry for Oak & Iron (docs/rulings.md, Geometry), built on shapely.

Coordinates are inches with the origin at the table's bottom-left corner, x east, y north.
Headings are compass degrees (0 = north, clockwise). A pose is the centre of a base and its heading.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from game.model import PointOfSail

EPS = 1e-6
# Bases in contact may share a sliver of area from floating point. A move is stopped by an overlap
# larger than OVERLAP; it is stopped *at* a pose overlapping less than CONTACT, so that a base left
# touching an obstacle can always move away from it again.
OVERLAP = 1e-6
CONTACT = 1e-10
FAR = 500.0  # longer than any table: the reach of a broadside path or a raking line
ROTATION_STEP = 3.0  # degrees per swept step while pivoting (the arc's bulge between steps < 0.002 in)
EDGES = ("bow", "stern", "port", "starboard")

Vec = tuple[float, float]


@dataclass(frozen=True)
class Pose:
    x: float
    y: float
    heading: float

    @property
    def point(self) -> Vec:
        return (self.x, self.y)


@lru_cache(maxsize=16384)
def _hull_corners(h: Hull) -> tuple[Vec, Vec, Vec, Vec]:
    # the same bases at the same poses are asked for again and again (every rule, every AI trial):
    # hulls are immutable, so their corners and polygons are computed once
    f = forward(h.pose.heading)
    r = right(h.pose.heading)
    hl, hb = h.length / 2, h.beam / 2
    c = h.pose.point

    def at(a: float, b: float) -> Vec:
        return (c[0] + f[0] * a + r[0] * b, c[1] + f[1] * a + r[1] * b)

    return (at(hl, -hb), at(hl, hb), at(-hl, hb), at(-hl, -hb))


@lru_cache(maxsize=16384)
def _hull_polygon(h: Hull) -> Polygon:
    return shapely.polygons(np.array(_hull_corners(h)))


@dataclass(frozen=True)
class Hull:
    """A base at a pose: its size and where it stands."""

    pose: Pose
    beam: float
    length: float

    def __hash__(self) -> int:
        # hulls key every geometry cache: the hash is worked out once per hull, not at each lookup
        try:
            return self.__dict__["_hash"]  # type: ignore[no-any-return]
        except KeyError:
            h = hash((self.pose.x, self.pose.y, self.pose.heading, self.beam, self.length))
            object.__setattr__(self, "_hash", h)
            return h

    def at(self, pose: Pose) -> Hull:
        return Hull(pose, self.beam, self.length)

    @property
    def polygon(self) -> Polygon:
        return _hull_polygon(self)

    @property
    def corners(self) -> tuple[Vec, Vec, Vec, Vec]:
        """bow-port, bow-starboard, stern-starboard, stern-port."""
        return _hull_corners(self)

    def edge(self, name: str) -> tuple[Vec, Vec]:
        bp, bs, ss, sp = self.corners
        return {"bow": (bp, bs), "stern": (ss, sp), "port": (sp, bp), "starboard": (bs, ss)}[name]

    def edge_midpoint(self, name: str) -> Vec:
        a, b = self.edge(name)
        return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)

    def outward(self, name: str) -> Vec:
        """Unit normal pointing out of the base through the named edge."""
        h = self.pose.heading
        return {
            "bow": forward(h),
            "stern": scale(forward(h), -1),
            "starboard": right(h),
            "port": scale(right(h), -1),
        }[name]


# ---------------------------------------------------------------- vectors


def forward(heading: float) -> Vec:
    r = math.radians(heading)
    return (math.sin(r), math.cos(r))


def right(heading: float) -> Vec:
    r = math.radians(heading)
    return (math.cos(r), -math.sin(r))


def scale(v: Vec, k: float) -> Vec:
    return (v[0] * k, v[1] * k)


def add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1])


def dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1]


def norm_heading(h: float) -> float:
    h = h % 360.0
    return 0.0 if abs(h - 360.0) < 1e-9 else h


def rotate_about(p: Vec, pivot: Vec, degrees_clockwise: float) -> Vec:
    a = -math.radians(degrees_clockwise)
    dx, dy = p[0] - pivot[0], p[1] - pivot[1]
    return (pivot[0] + dx * math.cos(a) - dy * math.sin(a), pivot[1] + dx * math.sin(a) + dy * math.cos(a))


# ---------------------------------------------------------------- wind


def weather_distance(p: Vec, weather_edge: str, width: float, height: float) -> float:
    """How far a point lies from the edge the wind blows from."""
    return {"N": height - p[1], "S": p[1], "E": width - p[0], "W": p[0]}[weather_edge]


def wind_heading(weather_edge: str) -> float:
    """The compass heading the wind blows toward."""
    return {"N": 180.0, "E": 270.0, "S": 0.0, "W": 90.0}[weather_edge]


def point_of_sail(hull: Hull, weather_edge: str, width: float, height: float) -> PointOfSail | None:
    """Large, Windward or In the Wind's Eye; None when exactly between Large and Windward
    (the player chooses)."""

    def wd(p: Vec) -> float:
        return weather_distance(p, weather_edge, width, height)

    bow, stern = wd(hull.edge_midpoint("bow")), wd(hull.edge_midpoint("stern"))
    if abs(bow - stern) < 1e-9:
        return None
    if stern < bow:
        return PointOfSail.LARGE
    # Windward: the Wind's Eye test compares the windward side's mid-point with the bow point
    # farthest from the Weather Edge; strictly farther means In the Wind's Eye.
    windward_mid = min(wd(hull.edge_midpoint("port")), wd(hull.edge_midpoint("starboard")))
    bp, bs = hull.edge("bow")
    farthest_bow = max(wd(bp), wd(bs))
    if windward_mid > farthest_bow + 1e-9:
        return PointOfSail.WINDS_EYE
    return PointOfSail.WINDWARD


# ---------------------------------------------------------------- distance and range


def distance(a: BaseGeometry, b: BaseGeometry) -> float:
    """Closest-point distance between two shapes (bases, terrain)."""
    return float(a.distance(b))


# ---------------------------------------------------------------- motion


@dataclass(frozen=True)
class Translate:
    dx: float
    dy: float

    def at(self, start: Pose, t: float) -> Pose:
        return Pose(start.x + self.dx * t, start.y + self.dy * t, start.heading)

    def steps(self) -> int:
        return 1


@dataclass(frozen=True)
class Pivot:
    """Rotate the base about a point by a compass angle (positive = clockwise)."""

    px: float
    py: float
    degrees: float

    def at(self, start: Pose, t: float) -> Pose:
        c = rotate_about(start.point, (self.px, self.py), self.degrees * t)
        return Pose(c[0], c[1], norm_heading(start.heading + self.degrees * t))

    def steps(self) -> int:
        return max(1, math.ceil(abs(self.degrees) / ROTATION_STEP))


Motion = Translate | Pivot


def pivot_motion(hull: Hull, side: str, degrees: float) -> Pivot:
    """A turn toward `side` pivoting about the mid-point of that side (where the tool lies)."""
    mid = hull.edge_midpoint(side)
    signed = degrees if side == "starboard" else -degrees
    return Pivot(mid[0], mid[1], signed)


def advance_motion(hull: Hull, dist: float, direction: str = "bow") -> Translate:
    v = scale(hull.outward(direction), dist)
    return Translate(v[0], v[1])


def end_pose(start: Pose, motion: Motion) -> Pose:
    return motion.at(start, 1.0)


class SweepResult:
    """Where a motion ended: its last pose, whether it stopped on contact and with what. The area
    the base passed over is only united from its parts when asked for (shoals): that is costly."""

    def __init__(self, poses: tuple[Pose, ...], final: Pose, hit: str | None, completed: bool,
                 parts: Sequence[tuple[Hull, Hull]] | None, start: Hull, bounds: Bounds) -> None:
        self.poses = poses  # start and the end of each motion actually made
        self.final = final
        self.hit = hit
        self.completed = completed
        self._parts = parts  # None: the area is only the base at its final pose
        self._start = start
        self.bounds = bounds  # a box holding the area passed over

    @functools.cached_property
    def swept(self) -> BaseGeometry:
        if self._parts is None:
            return self._start.at(self.final).polygon
        return _union([self._start.polygon, *(_swept(a, b) for a, b in self._parts)])

    def crosses(self, shape: BaseGeometry, eps: float) -> bool:
        """Whether the area passed over shares more than eps of area with the shape; a shape
        outside the box around the path, or meeting none of the path's parts, is told without
        uniting the area."""
        if not _boxes_meet(self.bounds, shape.bounds):
            return False
        if self._parts is not None and "swept" not in self.__dict__:
            pieces = [self._start.polygon, *(_swept(a, b) for a, b in self._parts)]
            if not shapely.intersects(shape, np.array(pieces, dtype=object)).any():
                return False
        return bool(shape.intersection(self.swept).area > eps)


Bounds = tuple[float, float, float, float]


def _boxes_meet(a: Sequence[float], b: Sequence[float]) -> bool:
    return not (a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1])


def _corner_box(points: Iterable[Vec]) -> Bounds:
    xs, ys = zip(*points, strict=True)
    return (min(xs), min(ys), max(xs), max(ys))


_BOXES: dict[int, tuple[BaseGeometry, tuple[float, float, float, float]]] = {}


def _box(shape: BaseGeometry) -> tuple[float, float, float, float]:
    """The shape's bounds, found once per shape object (hulls and terrain are cached, so the same
    objects come back every activation); the shape is prepared for GEOS at the same time."""
    got = _BOXES.get(id(shape))
    if got is not None and got[0] is shape:
        return got[1]
    if len(_BOXES) > 20000:
        _BOXES.clear()
    shapely.prepare(shape)
    x0, y0, x1, y1 = (float(v) for v in shape.bounds)
    _BOXES[id(shape)] = (shape, (x0, y0, x1, y1))  # the entry holds the shape: its id cannot be reused
    return (x0, y0, x1, y1)


class Obstacles:
    """Shapes a moving base must not overlap, keyed by id (ship ids, terrain ids, table edges).
    Kept sorted by id, with their boxes, so a test asks GEOS only about shapes whose box meets."""

    def __init__(self, shapes: Mapping[str, BaseGeometry]) -> None:
        self.shapes = dict(shapes)
        self._ids = sorted(self.shapes)
        self._boxes = [_box(self.shapes[k]) for k in self._ids]

    def _keep(self, keep: Iterable[str]) -> Obstacles:
        wanted = set(keep)
        out = Obstacles.__new__(Obstacles)
        pairs = [(k, b) for k, b in zip(self._ids, self._boxes, strict=True) if k in wanted]
        out._ids = [k for k, _ in pairs]
        out._boxes = [b for _, b in pairs]
        out.shapes = {k: self.shapes[k] for k in out._ids}
        return out

    def near(self, shape: BaseGeometry, reach: float) -> Obstacles:
        """Only the obstacles a base at `shape` could touch within `reach`."""
        return self._keep(k for k, v in self.shapes.items() if v.distance(shape) <= reach + EPS)

    def meeting(self, box: Sequence[float]) -> Obstacles:
        """Only the obstacles whose box meets the given one (those any shape inside it could touch)."""
        return self._keep(k for k, b in zip(self._ids, self._boxes, strict=True) if _boxes_meet(b, box))

    def first_overlap(self, area: BaseGeometry, eps: float = OVERLAP, box: Sequence[float] | None = None) -> str | None:
        """The first obstacle (by id) sharing more than eps of area with `area`; `box` (a box
        holding `area`) spares the test of shapes it cannot touch."""
        box = box or area.bounds
        for k, b in zip(self._ids, self._boxes, strict=True):
            if not _boxes_meet(b, box):
                continue
            shape = self.shapes[k]
            if shapely.intersects(shape, area) and area.intersection(shape).area > eps:
                return k  # ids are in order: the first found is the least
        return None

    def without(self, *ids: str) -> Obstacles:
        return self._keep(k for k in self._ids if k not in ids)


def _swept(a: Hull, b: Hull) -> Polygon:
    """The convex hull of two poses of a base (exact for a straight run)."""
    return _swept_cached(a, b)


@lru_cache(maxsize=8192)
def _swept_cached(a: Hull, b: Hull) -> Polygon:
    return shapely.polygons(np.array(_convex_hull([*a.corners, *b.corners])))


def _convex_hull(points: list[Vec]) -> list[Vec]:
    """Andrew's monotone chain (the cross product written out: this runs for every swept step)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts * 2
    lower: list[Vec] = []
    for p in pts:
        while len(lower) >= 2:
            o, a = lower[-2], lower[-1]
            if (a[0] - o[0]) * (p[1] - o[1]) - (a[1] - o[1]) * (p[0] - o[0]) > 0:
                break
            lower.pop()
        lower.append(p)
    upper: list[Vec] = []
    for p in reversed(pts):
        while len(upper) >= 2:
            o, a = upper[-2], upper[-1]
            if (a[0] - o[0]) * (p[1] - o[1]) - (a[1] - o[1]) * (p[0] - o[0]) > 0:
                break
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _steps(hull: Hull, motions: Sequence[Motion]) -> list[tuple[int, int, Motion, Pose, Pose, Pose]]:
    """Every swept step of the motions: (motion number, step, motion, its start, step start, step end)."""
    out = []
    pose = hull.pose
    for j, motion in enumerate(motions):
        n = motion.steps()
        prev = pose
        for i in range(1, n + 1):
            nxt = motion.at(pose, i / n)
            out.append((j, i, motion, pose, prev, nxt))
            prev = nxt
        pose = motion.at(pose, 1.0)
    return out


def sweep(hull: Hull, motions: Sequence[Motion], obstacles: Obstacles, need_swept: bool = True,
          find_contact: bool = True) -> SweepResult:
    """Move the base through the motions, stopping at first contact with an obstacle. Without
    `need_swept` the area passed over is only the base where it stops. Without `find_contact` a
    blocked move only says so (not completed) and stops where the blocked step began: the search
    for the exact point of contact is spared when the caller only wants whole moves.

    No point of the base travels farther than `_reach`: obstacles beyond it are never tested, and
    with none within it the steps are not even built. Each step's swept area lies inside the box
    of its two poses' corners, so it is only tested against obstacles whose box meets that box."""
    reach = _reach(hull, motions)
    start_box = _corner_box(hull.corners)
    reach_box = (start_box[0] - reach - EPS, start_box[1] - reach - EPS,
                 start_box[2] + reach + EPS, start_box[3] + reach + EPS)
    candidates = obstacles.meeting(reach_box)
    if candidates.shapes:
        candidates = candidates.near(hull.polygon, reach)
    if not candidates.shapes:
        poses = [hull.pose]
        pose = hull.pose
        for motion in motions:
            pose = motion.at(pose, 1.0)
            poses.append(pose)
        parts = [(hull.at(prev), hull.at(nxt)) for *_, prev, nxt in _steps(hull, motions)] if need_swept else None
        return SweepResult(tuple(poses), pose, None, True, parts, hull, reach_box)
    steps = _steps(hull, motions)
    # the convex hull of every step's corners holds every step's swept area: an obstacle it does
    # not meet cannot stop the base, and one test spares a test per step
    corners = [c for *_, nxt in steps for c in hull.at(nxt).corners] + list(hull.corners)
    whole = shapely.polygons(np.array(_convex_hull(corners)))
    reachable = candidates  # the search for the point of contact tests these: a pivot's arc bulges
    candidates = candidates._keep(k for k, v in candidates.shapes.items() if shapely.intersects(v, whole))
    poses = [hull.pose]
    done: list[tuple[Hull, Hull]] = []
    last_motion = -1
    for j, i, motion, pose, prev, nxt in steps:
        if j != last_motion and j > 0:
            poses.append(pose)  # the previous motion was made in full
        last_motion = j
        hit = None
        if candidates.shapes:
            a, b = hull.at(prev), hull.at(nxt)
            step_box = _corner_box([*a.corners, *b.corners])
            # the step's area is only built when some obstacle's box meets the step's
            if any(_boxes_meet(box, step_box) for box in candidates._boxes):
                hit = candidates.first_overlap(_swept(a, b), box=step_box)
        if hit is not None and not find_contact:
            poses.append(prev)
            return SweepResult(tuple(poses), prev, hit, False, None, hull, reach_box)
        if hit is not None:
            n = motion.steps()
            lo, hi = (i - 1) / n, i / n
            if _overlapping(hull.at(prev), reachable):
                below, above = -1.0, lo  # every area of the search holds the step's start: all overlap
            elif isinstance(motion, Translate):
                below, above = _bracket(hull, motion, pose, reachable)
            else:
                below, above = -1.0, 2.0
            for _ in range(30):
                mid = (lo + hi) / 2
                if mid <= below:  # told without GEOS: see _bracket
                    lo = mid
                    continue
                if mid >= above:
                    hi = mid
                    continue
                swept = _swept(hull.at(prev), hull.at(motion.at(pose, mid)))
                if reachable.first_overlap(swept, CONTACT):
                    hi = mid
                else:
                    lo = mid
            final = motion.at(pose, lo)
            poses.append(final)
            done.append((hull.at(prev), hull.at(final)))
            return SweepResult(tuple(poses), final, hit, False, done if need_swept else None, hull, reach_box)
        done.append((hull.at(prev), hull.at(nxt)))
    pose = hull.pose
    for motion in motions:
        pose = motion.at(pose, 1.0)
    if motions:
        poses.append(pose)
    return SweepResult(tuple(poses), pose, None, True, done if need_swept else None, hull, reach_box)


# far above the rounding of an area of overlap (about 1e-13 here), far below CONTACT
MARGIN = 1e-12


def _overlapping(start: Hull, obstacles: Obstacles) -> bool:
    """The base already overlaps some obstacle by more than CONTACT (and a margin) where a step
    begins: every area the search for the point of contact builds holds the base there (its
    corners are among the area's), so every one overlaps and the search cannot leave the start."""
    poly = start.polygon
    return any(shapely.intersects(shape, poly) and poly.intersection(shape).area > CONTACT + MARGIN
               for shape in obstacles.shapes.values())


def _bracket(hull: Hull, motion: Translate, pose: Pose, reachable: Obstacles) -> tuple[float, float]:
    """Fractions of a straight run, `below` and `above`, with the search for the point of contact
    sure to find no overlap (more than CONTACT) at any fraction up to `below`, and overlap at any
    from `above` on: the search then asks GEOS only about the fractions in between.

    A straight run's swept areas are nested (the area to a fraction holds the area to any smaller
    one), so the area of overlap grows with the fraction. Both ends are found by GEOS itself, on
    the same areas the search builds, with margins far above rounding: the overlap at `below` is
    under CONTACT and at `above` over it. Where they lie is only guessed, from the first contact
    of the base's corners and edges with the outlines of the obstacles it does not already touch
    (no guess, or a guess GEOS does not bear out, leaves the search as it was: -1 and 2)."""
    start = hull.at(pose)
    length = math.hypot(motion.dx, motion.dy)
    first = _first_contact(start, motion, reachable)
    if first is None or length < EPS:
        return -1.0, 2.0

    def overlaps(t: float) -> list[float]:
        swept = _swept(start, hull.at(motion.at(pose, t)))
        return [float(swept.intersection(shape).area) for shape in reachable.shapes.values()
                if shapely.intersects(shape, swept)]

    below, above = -1.0, 2.0
    t = first - 1e-9 / length
    if 0.0 < t < 1.0 and max(overlaps(t), default=0.0) < CONTACT - MARGIN:
        below = t
    for reach in (1e-7, 1e-5, 1e-3, 1e-1):  # a bow square on a stern overlaps enough at the first
        t = first + reach / length
        if t >= 1.0:
            break
        if max(overlaps(t), default=0.0) > CONTACT + MARGIN:
            above = t
            break
    return below, above


def _first_contact(start: Hull, motion: Translate, obstacles: Obstacles) -> float | None:
    """The fraction of a straight run at which the base first meets the outline of an obstacle it
    does not touch at the start (a corner of either running into an edge of the other); None when
    it meets none. Only a guess for _bracket: GEOS has the last word."""
    v = np.array([motion.dx, motion.dy])
    corners = np.array(start.corners)
    edges = np.stack([corners, np.roll(corners, -1, axis=0)], axis=1)
    shapes = np.array(list(obstacles.shapes.values()), dtype=object)
    shapes = shapes[shapely.distance(shapes, start.polygon) > 1e-9]  # those already touching guess nothing
    rings = shapely.get_rings(shapely.get_parts(shapes))
    segs = []
    for ring in rings:
        pts = shapely.get_coordinates(ring)
        segs.append(np.stack([pts[:-1], pts[1:]], axis=1))
    if not segs:
        return None
    other = np.concatenate(segs)
    best = [_ray_hits(corners, v, other), _ray_hits(other[:, 0, :], -v, edges)]
    found = [b for b in best if b is not None]
    return min(found) if found else None


def _ray_hits(points: np.ndarray, v: np.ndarray, segs: np.ndarray) -> float | None:
    """The least s in (1e-7, 1] with some point + s·v on some segment."""
    p = points[:, None, :]
    a, b = segs[None, :, 0, :], segs[None, :, 1, :]
    e = b - a
    w = a - p
    denom = v[0] * e[..., 1] - v[1] * e[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (w[..., 0] * e[..., 1] - w[..., 1] * e[..., 0]) / denom
        u = (w[..., 0] * v[1] - w[..., 1] * v[0]) / denom
    ok = (denom != 0) & (u >= 0) & (u <= 1) & (s > 1e-7) & (s <= 1)
    return float(s[ok].min()) if ok.any() else None


def _reach(hull: Hull, motions: Sequence[Motion]) -> float:
    """An upper bound on how far any point of the base travels through the motions."""
    radius = math.hypot(hull.beam, hull.length)
    total = 0.0
    for m in motions:
        if isinstance(m, Translate):
            total += math.hypot(m.dx, m.dy)
        else:
            total += math.radians(abs(m.degrees)) * (radius + total + 1.0)
    return total


def _union(parts: Sequence[BaseGeometry]) -> BaseGeometry:
    from shapely.ops import unary_union

    return unary_union(list(parts))


def table_polygon(width: float, height: float) -> Polygon:
    return box(0, 0, width, height)


def table_edges(width: float, height: float) -> dict[str, Polygon]:
    """The world beyond each table edge, as obstacles for moves that must stay on the table."""
    return dict(_table_edges(width, height))


@lru_cache(maxsize=64)
def _table_edges(width: float, height: float) -> dict[str, Polygon]:
    # built once per table size: the same shapes (prepared, their boxes known) every activation
    m = FAR
    return {
        "edge:N": box(-m, height, width + m, height + m),
        "edge:S": box(-m, -m, width + m, 0),
        "edge:E": box(width, -m, width + m, height + m),
        "edge:W": box(-m, -m, 0, height + m),
    }


def off_table(poly: BaseGeometry, width: float, height: float) -> bool:
    """Any part of the base off the table (the table is a box: its bounds tell)."""
    x0, y0, x1, y1 = (float(v) for v in poly.bounds)
    return x0 < -1e-7 or y0 < -1e-7 or x1 > width + 1e-7 or y1 > height + 1e-7


def directly_away(
    hull: Hull,
    away_from: BaseGeometry,
    dist: float,
    obstacles: Obstacles,
    require_full: bool = False,
    directions: Iterable[Vec] | None = None,
) -> Pose | None:
    """The translation (no pivot) of up to `dist` that leaves the base farthest from `away_from`
    without touching anything. None when no move is possible (or, with require_full, when the
    whole distance cannot be made in any direction).

    Every direction's whole move is tested at once (`_whole_moves`: the same test `sweep` makes of
    it). Only a blocked direction needs the search for its point of contact, and that search is
    spared when it cannot win: against a convex shape the gap along a straight move is a convex
    function of the distance made, so a move stopped short leaves a gap no greater than the larger
    of the gaps before and after the whole move."""
    obstacles = Obstacles({**obstacles.shapes, "__away_from__": away_from})
    centre = Point(hull.pose.point)
    ref = away_from.centroid
    base_dir = sub(hull.pose.point, (ref.x, ref.y))
    if directions is None:
        directions = [forward(a) for a in range(0, 360, 10)]
    obstacles = obstacles.near(hull.polygon, dist)
    # toward the other object: never the farthest from it
    dirs = [u for u in directions if dot(u, base_dir) >= -EPS]
    motions = [Translate(u[0] * dist, u[1] * dist) for u in dirs]
    ends = [m.at(hull.pose, 1.0) for m in motions]
    blocked = _whole_moves(hull, motions, ends, obstacles)
    end_gaps = [float(g) for g in shapely.distance(shapely.polygons(
        np.array([hull.at(e).corners for e in ends]).reshape(-1, 4, 2)), away_from)] if ends else []
    keys: list[tuple[float, float, Pose] | None] = [None] * len(dirs)
    for n, (u, end) in enumerate(zip(dirs, ends, strict=True)):
        if blocked[n]:
            continue
        if Point(end.point).distance(centre) < EPS:
            continue
        gap = distance(hull.at(end).polygon, away_from)
        keys[n] = (round(gap, 6), dot(u, base_dir), end)
    if not require_full:
        convex = _is_convex(away_from)
        start_gap = distance(hull.polygon, away_from)
        top = max((k[0] for k in keys if k is not None), default=None)
        bound = [max(start_gap, g) for g in end_gaps]
        # the most promising first: the greatest gap found early spares the searches of the rest
        # (the order of the searches does not matter, the choice below keeps the directions' order)
        order = [n for n in range(len(dirs)) if blocked[n]]
        if convex:
            order.sort(key=lambda n: -bound[n])
        for n in order:
            if convex and top is not None and bound[n] < top - 2e-6:
                break  # stopped short, neither it nor any after it can reach the greatest gap found
            res = sweep(hull, [motions[n]], obstacles, need_swept=False, find_contact=True)
            if Point(res.final.point).distance(centre) < EPS:
                continue
            gap = round(distance(hull.at(res.final).polygon, away_from), 6)
            keys[n] = (gap, dot(dirs[n], base_dir), res.final)
            top = gap if top is None else max(top, gap)
    best: tuple[float, float, Pose] | None = None
    for key in keys:
        # prefer the greatest separation, then the direction straight along the line of centres
        if key is not None and (best is None or (key[0], key[1]) > (best[0], best[1])):
            best = key
    return best[2] if best else None


def _is_convex(shape: BaseGeometry) -> bool:
    """A polygon without holes whose outline turns one way only (a base is)."""
    if not isinstance(shape, Polygon) or shape.interiors:
        return False
    pts = list(shape.exterior.coords)[:-1]
    turns = set()
    for i in range(len(pts)):
        (ax, ay), (bx, by), (cx, cy) = pts[i - 2], pts[i - 1], pts[i]
        cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx)
        if cross != 0:
            turns.add(cross > 0)
    return len(turns) <= 1


def _whole_moves(hull: Hull, motions: Sequence[Translate], ends: Sequence[Pose], obstacles: Obstacles) -> list[bool]:
    """For each straight move, whether `sweep` would find it blocked: some obstacle (by `sweep`'s
    own filters: box of reach, distance within reach, then overlap of the swept area) shares more
    than OVERLAP of area with the area passed over. All moves are tested against all obstacles in
    one call to GEOS; the areas of overlap are only worked out for shapes that meet."""
    if not motions:
        return []
    if not obstacles.shapes:
        return [False] * len(motions)
    ids = obstacles._ids
    shapes = [obstacles.shapes[k] for k in ids]
    gaps = shapely.distance(np.array(shapes, dtype=object), hull.polygon)
    start_box = _corner_box(hull.corners)
    swept = [_swept(hull, hull.at(e)) for e in ends]
    meets = shapely.intersects(np.array(shapes, dtype=object)[None, :], np.array(swept, dtype=object)[:, None])
    out = []
    for n, motion in enumerate(motions):
        reach = _reach(hull, [motion])
        reach_box = (start_box[0] - reach - EPS, start_box[1] - reach - EPS,
                     start_box[2] + reach + EPS, start_box[3] + reach + EPS)
        hit = False
        for j, (b, gap) in enumerate(zip(obstacles._boxes, gaps, strict=True)):
            if not meets[n, j] or not _boxes_meet(b, reach_box) or not gap <= reach + EPS:
                continue
            if swept[n].intersection(shapes[j]).area > OVERLAP:
                hit = True
                break
        out.append(hit)
    return out


# ---------------------------------------------------------------- sight and fire


def blocked(segment: LineString, blockers: Sequence[BaseGeometry]) -> bool:
    return any(segment.intersects(b) and not segment.touches(b) for b in blockers)


def line_of_sight(
    firer: Hull, target: Hull, blockers: Sequence[BaseGeometry], from_edges: Sequence[str] = EDGES
) -> bool:
    """A line from a firing edge's mid-point to a mid-point of one of the target's edges, and one
    to at least one of its corners, neither crossing land."""
    mids = [target.edge_midpoint(e) for e in EDGES]
    corners = list(target.corners)
    for e in from_edges:
        m = firer.edge_midpoint(e)
        to_mid = any(not blocked(LineString([m, p]), blockers) for p in mids)
        if to_mid and any(not blocked(LineString([m, p]), blockers) for p in corners):
            return True
    return False


@lru_cache(maxsize=1024)
def terrain_polygon(points: tuple[Vec, ...]) -> Polygon:
    """A terrain piece's outline as a shape, built once per outline."""
    return Polygon(points)


@lru_cache(maxsize=8192)
def broadside_path(hull: Hull, side: str) -> Polygon:
    """The half-strip outward from a side, between the perpendiculars at the side's ends (built
    once per base and side: every rule and every trial of the computer captain asks again)."""
    a, b = hull.edge(side)
    n = scale(hull.outward(side), FAR)
    return Polygon([a, b, add(b, n), add(a, n)])


@lru_cache(maxsize=16384)
def in_broadside_path(firer: Hull, side: str, target: Hull) -> bool:
    if _clear_of_strip(firer, side, target):
        return False
    return bool(broadside_path(firer, side).intersection(target.polygon).area > 1e-9)


def _clear_of_strip(firer: Hull, side: str, target: Hull) -> bool:
    """Every corner of the target lies beyond one of the lines bounding the broadside path (behind
    the side, past either end's perpendicular, past its far end): the bases share no area, told
    without building the path. The margin is far above rounding and far below any real gap."""
    if side not in ("port", "starboard"):
        return False
    f, r = forward(firer.pose.heading), right(firer.pose.heading)
    bp, bs, ss, sp = firer.corners
    if side == "port":  # the side runs stern to bow, facing out to port
        ax, ay, nx, ny, tx, ty = sp[0], sp[1], -r[0], -r[1], f[0], f[1]
    else:  # bow to stern, facing out to starboard
        ax, ay, nx, ny, tx, ty = bs[0], bs[1], r[0], r[1], -f[0], -f[1]
    margin = 1e-9
    across = [(cx - ax) * nx + (cy - ay) * ny for cx, cy in target.corners]
    if max(across) < -margin or min(across) > FAR + margin:
        return True
    along = [(cx - ax) * tx + (cy - ay) * ty for cx, cy in target.corners]
    return max(along) < -margin or min(along) > firer.length + margin


def broadside_bands(hull: Hull, side: str, reaches: Sequence[float]) -> list[BaseGeometry]:
    """The broadside path cut into range bands: piece i holds the points whose distance from the
    base lies between reaches[i - 1] (0 for the first) and reaches[i], the reaches in increasing order."""
    path = broadside_path(hull, side)
    out: list[BaseGeometry] = []
    inner: BaseGeometry | None = None
    for reach in reaches:
        ring = hull.polygon.buffer(reach, quad_segs=16)
        piece = path.intersection(ring)
        out.append(piece if inner is None else piece.difference(inner))
        inner = ring
    return out


def rake(firer: Hull, side: str, target: Hull) -> str | None:
    """'stern' or 'bow' when the perpendicular from the firing side's mid-point crosses both the
    target's bow and stern edges (named by the edge it enters first); otherwise None."""
    m = firer.edge_midpoint(side)
    ray = LineString([m, add(m, scale(firer.outward(side), FAR))])
    hits = {}
    for e in ("bow", "stern"):
        x = ray.intersection(LineString(target.edge(e)))
        if x.is_empty:
            return None
        hits[e] = Point(m).distance(x)
    return "stern" if hits["stern"] < hits["bow"] else "bow"


# ---------------------------------------------------------------- formation


def _perpendicular_link(a: Hull, a_edge: str, b: Hull, b_edge: str, others: Sequence[BaseGeometry]) -> bool:
    """An unobstructed perpendicular from somewhere on a's edge enters b's edge."""
    strip = broadside_path(a, a_edge)
    target_edge = LineString(b.edge(b_edge))
    inside = strip.intersection(target_edge)
    if inside.is_empty or inside.length < EPS:
        return False
    n = a.outward(a_edge)
    p0 = a.edge_midpoint(a_edge)
    samples = 7
    for i in range(samples):
        q = inside.interpolate(i / (samples - 1), normalized=True)
        # walk back along the perpendicular to a's edge line
        back = dot(sub((q.x, q.y), p0), n)
        if back <= 0:
            continue
        start = sub((q.x, q.y), scale(n, back))
        seg = LineString([start, (q.x, q.y)])
        body = b.polygon
        if seg.intersection(body).length > EPS:
            continue  # the line passes through b before reaching the facing edge
        if not blocked(seg, others):
            return True
    return False


def formation_link(behind: Hull, ahead: Hull, others: Sequence[BaseGeometry], musket: float) -> bool:
    """The ship behind sees the ship ahead's stern from its bow, and back."""
    if distance(behind.polygon, ahead.polygon) > musket + 1e-9:
        return False
    return _perpendicular_link(behind, "bow", ahead, "stern", others) and _perpendicular_link(
        ahead, "stern", behind, "bow", others
    )


def formation_chain(
    flagship: str, hulls: Mapping[str, Hull], blockers: Sequence[BaseGeometry], musket: float
) -> tuple[str, ...]:
    """The ships in Formation with the Flagship, in line order (stern-most first), or () when the
    Flagship has no link. Each ship links to at most one ship ahead and one behind."""
    if flagship not in hulls:
        return ()

    def others(*ids: str) -> list[BaseGeometry]:
        return [h.polygon for k, h in hulls.items() if k not in ids] + list(blockers)

    def best(ship: str, ahead: bool, used: set[str]) -> str | None:
        cands = []
        for k, h in hulls.items():
            if k in used:
                continue
            linked = (
                formation_link(hulls[ship], h, others(ship, k), musket)
                if ahead
                else formation_link(h, hulls[ship], others(ship, k), musket)
            )
            if linked:
                cands.append((distance(hulls[ship].polygon, h.polygon), k))
        return min(cands)[1] if cands else None

    used = {flagship}
    chain = [flagship]
    cur = flagship
    while (nxt := best(cur, True, used)) is not None:
        chain.append(nxt)
        used.add(nxt)
        cur = nxt
    cur = flagship
    while (prv := best(cur, False, used)) is not None:
        chain.insert(0, prv)
        used.add(prv)
        cur = prv
    return tuple(chain) if len(chain) >= 2 else ()


# ---------------------------------------------------------------- boarding


def nearest_edge(hull: Hull, other: BaseGeometry) -> list[str]:
    """The edge(s) of hull nearest to other (more than one when equally near). Edges meeting at a
    touching corner are all at distance 0: of those, the nearer edge is the one whose mid-point
    lies nearer, so a side lying along the other base beats the bow that only touches it at a
    corner."""

    def key(e: str) -> tuple[float, float]:
        return (round(LineString(hull.edge(e)).distance(other), 6),
                round(Point(hull.edge_midpoint(e)).distance(other), 6))

    best = min(key(e) for e in EDGES)
    return [e for e in EDGES if key(e) == best]


def boarding_placement(
    boarder: Hull, target: Hull, obstacles: Obstacles, target_edge: str | None = None
) -> tuple[Pose, str, str] | None:
    """Move the boarder straight toward the target until the bases touch, then pivot it in place
    until its leading edge lies flush against the target's nearest edge. The leading edge is the
    one the smallest pivot lays flush (a ship alongside needs none); edges tied on that are told
    apart by how little the base moves, never by the order of a list. Returns (pose, boarder edge,
    target edge), or None when flush contact is impossible. `obstacles` holds everything but the
    two ships."""
    bp, tp = boarder.polygon, target.polygon
    gap = distance(bp, tp)
    from shapely.ops import nearest_points

    pa, pb = nearest_points(bp, tp)
    direction = sub((pb.x, pb.y), (pa.x, pa.y))
    length = math.hypot(*direction)
    if length > EPS:
        move = Translate(direction[0] * (gap / length), direction[1] * (gap / length))
        res = sweep(boarder, [move], obstacles)
        touching = boarder.at(res.final)
    else:
        touching = boarder
    candidates = [target_edge] if target_edge else nearest_edge(target, touching.polygon)
    tries: list[tuple[float, float, Pose, str, str]] = []
    for t_edge in candidates:
        turns = {lead: abs(_pivot_to_face(touching, lead, target, t_edge)) for lead in EDGES}
        least = min(turns.values())
        for lead in EDGES:
            if turns[lead] - least > 1e-6:
                continue
            for pose in _flush(touching, lead, target, t_edge):
                moved = math.hypot(pose.x - touching.pose.x, pose.y - touching.pose.y)
                tries.append((round(turns[lead], 6), round(moved, 6), pose, lead, t_edge))
    for _, _, pose, lead, t_edge in sorted(tries, key=lambda c: (c[0], c[1])):
        poly = boarder.at(pose).polygon
        if poly.intersection(tp).area > 1e-6:
            continue
        if obstacles.first_overlap(poly) is not None:
            continue
        return pose, lead, t_edge
    return None


def _pivot_to_face(boarder: Hull, lead: str, target: Hull, t_edge: str) -> float:
    """The turn (degrees clockwise, -180 to 180) that makes boarder's `lead` edge face target's
    `t_edge`."""
    want = scale(target.outward(t_edge), -1)
    cur = boarder.outward(lead)
    delta = math.degrees(math.atan2(want[0], want[1])) - math.degrees(math.atan2(cur[0], cur[1]))
    return (delta + 180.0) % 360.0 - 180.0


def _flush(boarder: Hull, lead: str, target: Hull, t_edge: str) -> list[Pose]:
    """Poses that put boarder's `lead` edge against target's `t_edge`, facing it, nearest first."""
    heading = norm_heading(boarder.pose.heading + _pivot_to_face(boarder, lead, target, t_edge))
    turned = boarder.at(Pose(boarder.pose.x, boarder.pose.y, heading))
    a, b = target.edge(t_edge)
    edge_line = LineString([a, b])
    offset = (boarder.length if lead in ("bow", "stern") else boarder.beam) / 2
    half_lead = (boarder.beam if lead in ("bow", "stern") else boarder.length) / 2
    out_n = target.outward(t_edge)
    proj = edge_line.project(Point(boarder.edge_midpoint(lead)))
    span = edge_line.length
    # slide along the edge: first as near the contact as possible, then other spots along it
    spots = [proj] + [span * k / 8 for k in range(9)]
    poses = []
    for s in sorted(set(round(x, 6) for x in spots), key=lambda x: abs(x - proj)):
        lo, hi = s - half_lead, s + half_lead
        if hi < -EPS or lo > span + EPS:
            continue
        p = edge_line.interpolate(max(0.0, min(span, s)))
        centre = add((p.x, p.y), scale(out_n, offset + 1e-4))
        poses.append(Pose(centre[0], centre[1], turned.pose.heading))
    return poses
