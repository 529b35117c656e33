"""Shared geometry for the options in words (issue 29): what a table moment's closing moves need,
worked out once and reused across the ships still to act, so that few of a ship's twelve turning
moves are ever played through the engine.

Two things spare the trials. A bound (`most_borne`) on what a move could bring to bear wherever it
ends drops the moves that cannot beat the plain move; most do, on a big table. And where a move
ends is told from the engine's own sweep (`where_it_ends`, `contact`): a move the sweep does not
stop ends where its path does, and one it stops ends at the contact when the collision can move
no other piece that matters (options.py `_where`). Any other move is played through the engine,
and so is the move finally offered (options.py)."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from game import geometry as geo
from game.commands import Turn
from game.errors import RulesError
from game.model import Game, Ship, ShipSide
from game.phases.common import hull, obstacles
from game.phases.motion import pose_tuple
from game.phases.movement import _tool_motions
from game.rules_data import RulesData, Tool

CLOSING_TURNS = tuple(Turn(when, side, degrees) for when in ("start", "end") for side in ("port", "starboard")
                      for degrees in (15.0, 30.0, 45.0))  # the turning moves a closing move is sought among
KEPT = 32  # table moments kept (a board read, its options and the captain's trials share one)
REFUSED = "refused"  # the tool refuses the turn: the engine's own check, so no trial is needed
OFF = "off"  # the move ends off the table
BLOCKED = "blocked"  # the engine must play it (the Scrolling Sea would move the table)


@dataclass(frozen=True)
class Moment:
    """The ships of one table moment as arrays: centres and the radius of each base's circle."""

    ships: tuple[Ship, ...]
    centres: np.ndarray
    radii: np.ndarray
    enemies: dict[tuple[object, ...], list[Ship]] = field(default_factory=dict)  # `enemies_of`, by side


_MOMENTS: OrderedDict[int, Moment] = OrderedDict()


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


def enemies_of(g: Game, ship: Ship) -> list[Ship]:
    """The ship's enemies on the table and able to act, in the table's order: asked for every ship
    still to act, worked out once per moment and side."""
    key = (ship.controller, *((q.player, q.team) for q in g.squadrons))
    kept = moment(g).enemies
    got = kept.get(key)
    if got is None:
        got = kept[key] = [s for s in g.ships
                           if not g.allied(s.controller, ship.controller) and s.on_table and s.can_act]
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


def reach_of(ship: Ship, speed: int, rules: RulesData) -> float:
    """How far any point of the base can travel in a move ahead at `speed` with any turn."""
    tool = rules.tool(speed)
    radius = math.hypot(ship.beam, ship.length)
    return tool.length + math.radians(tool.max_turn) * (radius + tool.length + 1.0) + 1e-6


# ---------------------------------------------------------------- where a move ends


@dataclass(frozen=True)
class Path:
    """A move ahead of one ship: the areas it passes over (each motion's, holding every step the
    engine's sweep makes of it), a box holding them, the ship where it ends (placed as `apply`
    places it), the motions and the pose it ends at."""

    areas: tuple[BaseGeometry, ...]
    box: tuple[float, float, float, float]
    moved: Ship
    motions: tuple[geo.Motion, ...]
    end: geo.Pose  # where it ends, before `apply`'s rounding


@dataclass(frozen=True)
class Stop:
    """Where the engine's sweep stops a move: within motion `motion` between the fractions `lo` and
    `hi` (the step it found blocked), against `hit` (a ship's id, or land with its prefix)."""

    motion: int
    lo: float
    hi: float
    hit: str


@lru_cache(maxsize=8192)
def _path(ship: Ship, tool: Tool, turn: Turn | None) -> Path | str:
    """The path of a move ahead, or REFUSED when the tool refuses the turn. A ship that has not moved
    is the same object from one table moment to the next, so its paths are worked out once; the
    areas are those of a base of its size where it stands (`_areas`), turned and moved there."""
    h0 = hull(ship)
    try:
        motions = _tool_motions(h0, tool.length, turn, tool.max_turn, "")
    except RulesError:
        return REFUSED
    pose = h0.pose
    for motion in motions:
        pose = motion.at(pose, 1.0)
    local = _areas(tool, ship.beam, ship.length, turn)
    theta = math.radians(ship.heading)
    c, s = math.cos(theta), math.sin(theta)
    areas = shapely.transform(np.array(local, dtype=object),
                              lambda xy: np.column_stack((ship.x + xy[:, 0] * c + xy[:, 1] * s,
                                                          ship.y - xy[:, 0] * s + xy[:, 1] * c)))
    shapely.prepare(areas)
    x0, y0, x1, y1 = (float(v) for v in shapely.total_bounds(areas))
    # the turn to world coordinates rounds differently from the engine's own steps: a hair more room
    box = (x0 - 1e-9, y0 - 1e-9, x1 + 1e-9, y1 + 1e-9)
    moved = replace(ship, x=round(pose.x, 6), y=round(pose.y, 6), heading=round(geo.norm_heading(pose.heading), 6))
    return Path(tuple(areas), box, moved, tuple(motions), pose)


@lru_cache(maxsize=1024)
def _areas(tool: Tool, beam: float, length: float, turn: Turn | None) -> tuple[BaseGeometry, ...]:
    """Each motion's area of a move ahead of a base of this size at the origin, heading 0: the convex
    hull of the base's corners at every step the engine's sweep makes of it (its areas lie inside),
    a little enlarged so that turning it to where a ship stands keeps them inside."""
    h0 = geo.Hull(geo.Pose(0.0, 0.0, 0.0), beam, length)
    motions = _tool_motions(h0, tool.length, turn, tool.max_turn, "")
    pose = h0.pose
    areas = []
    for motion in motions:
        n = motion.steps()
        poses = [pose] + [motion.at(pose, i / n) for i in range(1, n + 1)]
        areas.append(_hull_of(poses, length / 2, beam / 2).buffer(1e-9, quad_segs=1))
        pose = motion.at(pose, 1.0)
    return tuple(areas)


def _hull_of(poses: list[geo.Pose], half_length: float, half_beam: float) -> BaseGeometry:
    """The convex hull of a base's corners at each of the poses."""
    xy = np.array([(p.x, p.y) for p in poses])
    rad = np.radians([p.heading for p in poses])
    f = np.stack([np.sin(rad), np.cos(rad)], axis=1)
    r = np.stack([np.cos(rad), -np.sin(rad)], axis=1)
    corners = np.concatenate([xy + f * a + r * b for a in (half_length, -half_length) for b in (half_beam, -half_beam)])
    return shapely.convex_hull(shapely.multipoints(corners))


def path_end(ship: Ship, speed: int, turn: Turn | None, rules: RulesData) -> geo.Pose | None:
    """Where a move ahead ends if nothing is in the way, or None when the tool refuses the turn: the
    computer captain's foresight (game/ai/foresight.py) reads the options' own paths."""
    drawn = _path(ship, rules.tool(speed), turn)
    return None if isinstance(drawn, str) else drawn.end


def _may_meet(g: Game, ship: Ship, drawn: Path) -> geo.Obstacles | None:
    """The bases and land that meet the path's box when one of them meets its areas, else None: the
    areas hold every step the engine's sweep makes, so nothing can stop the move."""
    near = obstacles(g, exclude=[ship.id]).meeting(drawn.box)
    if not near.shapes:
        return None
    found = np.array(list(near.shapes.values()), dtype=object)
    if not any(shapely.intersects(found, area).any() for area in drawn.areas):
        return None
    return near


def stopped_within(g: Game, ship: Ship, speed: int, turn: Turn | None, rules: RulesData) -> Stop | None:
    """Where the engine's own sweep (game/phases/motion.py make_move: the same call, against the
    same bases and land) finds a move ahead blocked, or None when nothing stops it. The point of
    contact lies within the step it names, and the collision is with what it names."""
    drawn = _path(ship, rules.tool(speed), turn)
    if isinstance(drawn, str):
        return None
    near = _may_meet(g, ship, drawn)
    if near is None:
        return None
    # only what meets the box can meet a step: the same step is found blocked, by the same base
    res = geo.sweep(hull(ship), drawn.motions, near, need_swept=False, find_contact=False)
    if res.completed or res.hit is None:
        return None
    j = len(res.poses) - 2  # the start, the start of each motion after the first, where the blocked step began
    start, motion, stop = res.poses[-2], drawn.motions[j], res.poses[-1]
    n = motion.steps()
    for i in range(1, n + 1):
        if motion.at(start, (i - 1) / n) == stop:
            return Stop(j, (i - 1) / n, i / n, res.hit)
    return Stop(j, 0.0, 1.0, res.hit)


def where_it_ends(g: Game, ship: Ship, speed: int, turn: Turn | None, rules: RulesData) -> Ship | str | Stop:
    """A move ahead at `speed` with `turn`, as far as can be told without the engine: the ship where it
    ends, REFUSED (the tool refuses the turn), OFF (it would end off the table), BLOCKED (it would
    scroll the table) or where the engine's sweep stops it (a `Stop`: a collision).

    A move the engine's own sweep does not stop ends where its path does: what the engine does
    after the sweep (game/phases/motion.py make_move) moves nothing but the table (the Scrolling
    Sea) and a ship that leaves it. A shoal crossed may leave the ship Aground where it ends, which
    changes nothing the options read of it."""
    drawn = _path(ship, rules.tool(speed), turn)
    if isinstance(drawn, str):
        return drawn
    stop = stopped_within(g, ship, speed, turn, rules)
    if stop is not None:
        return stop
    if geo.off_table(hull(drawn.moved).polygon, g.table.width, g.table.height):
        return BLOCKED if g.scrolling_sea else OFF
    return drawn.moved


def contact(g: Game, ship: Ship, speed: int, turn: Turn | None, rules: RulesData) -> tuple[Ship, str] | None:
    """Where the engine's own sweep stops a move ahead on contact, the ship placed as `apply` places
    it (the same call as game/phases/motion.py make_move's), and what it met; None when nothing
    stops it (or the tool refuses the turn)."""
    drawn = _path(ship, rules.tool(speed), turn)
    if isinstance(drawn, str) or not _may_meet(g, ship, drawn):
        return None
    res = geo.sweep(hull(ship), drawn.motions, obstacles(g, exclude=[ship.id]), need_swept=False)
    if res.hit is None:
        return None
    x, y, heading = pose_tuple(res.poses[-1])
    return replace(ship, x=x, y=y, heading=heading), res.hit


def path_moved(ship: Ship, speed: int, turn: Turn | None, rules: RulesData) -> Ship | None:
    """The ship where a move ahead ends if nothing is in the way (placed as `apply` places it), or
    None when the tool refuses the turn."""
    drawn = _path(ship, rules.tool(speed), turn)
    return None if isinstance(drawn, str) else drawn.moved


# ---------------------------------------------------------------- what a move could bring to bear

SAMPLE_RUN = 0.25  # inches between the poses sampled along a straight run
SAMPLE_TURN = math.radians(1.0)  # between the poses sampled along a pivot


@dataclass(frozen=True)
class Samples:
    """Poses along a move ahead (both ends included) and, for each, how far a point at distance ρ
    from the pivot moves in the ship's frame between it and its neighbours: `run` + `turn`·ρ, with ρ
    measured from (`px`, `py`) (a straight run has `turn` 0)."""

    x: np.ndarray
    y: np.ndarray
    heading: np.ndarray  # radians
    run: np.ndarray
    turn: np.ndarray
    px: np.ndarray
    py: np.ndarray


Within = tuple[int, float, float] | None  # (motion, from, to): only that part of a move is sampled


@lru_cache(maxsize=4096)
def _samples(tool: Tool, beam: float, length: float, turns: tuple[Turn | None, ...],
             within: tuple[Within, ...]) -> tuple[Samples, tuple[int, ...], tuple[bool, ...]]:
    """The poses of a base of this size along moves ahead with each of `turns` (only within
    `within[i]` of the move, when given), in the frame of the base where it starts (at the origin,
    heading 0), one after another: the samples, where each move's begin, and whether the tool
    refuses each turn (no samples). The same for every ship of the size, wherever it stands:
    `most_borne` turns and moves them there."""
    h0 = geo.Hull(geo.Pose(0.0, 0.0, 0.0), beam, length)
    parts: list[tuple[np.ndarray, ...]] = []
    starts: list[int] = []
    refused: list[bool] = []
    count = 0
    for turn, only in zip(turns, within, strict=True):
        starts.append(count)
        try:
            motions = _tool_motions(h0, tool.length, turn, tool.max_turn, "")
        except RulesError:
            refused.append(True)
            continue
        refused.append(False)
        pose = h0.pose
        for j, motion in enumerate(motions):
            lo, hi = (0.0, 1.0) if only is None else only[1:]
            if only is None or j == only[0]:
                part = _sampled(motion, pose, lo, hi)
                parts.append(part)
                count += len(part[0])
            pose = motion.at(pose, 1.0)
    if not parts:
        empty = np.zeros(0)
        return Samples(*(empty,) * 7), tuple(starts), tuple(refused)
    return Samples(*(np.concatenate([p[i] for p in parts]) for i in range(7))), tuple(starts), tuple(refused)


def _sampled(motion: geo.Motion, pose: geo.Pose, lo: float, hi: float) -> tuple[np.ndarray, ...]:
    """Poses of one motion from `pose`, between the fractions lo and hi (Samples' fields)."""
    if isinstance(motion, geo.Translate):
        span = math.hypot(motion.dx, motion.dy) * (hi - lo)
        n = max(1, math.ceil(span / SAMPLE_RUN))
        t = np.linspace(lo, hi, n + 1)
        h = np.full_like(t, math.radians(pose.heading))
        return (pose.x + motion.dx * t, pose.y + motion.dy * t, h, np.full_like(t, span / n), np.zeros_like(t),
                np.zeros_like(t), np.zeros_like(t))
    span = abs(math.radians(motion.degrees)) * (hi - lo)
    n = max(1, math.ceil(span / SAMPLE_TURN))
    t = np.linspace(lo, hi, n + 1)
    a = -np.radians(motion.degrees * t)  # as geo.rotate_about turns a point
    dx, dy = pose.x - motion.px, pose.y - motion.py
    return (motion.px + dx * np.cos(a) - dy * np.sin(a), motion.py + dx * np.sin(a) + dy * np.cos(a),
            np.radians(pose.heading + motion.degrees * t), np.zeros_like(t), np.full_like(t, span / n),
            np.full_like(t, motion.px), np.full_like(t, motion.py))


def most_borne(ship: Ship, speed: int, turns: Sequence[Turn | None], rules: RulesData, enemies: Sequence[Ship],
               slack: float, within: Sequence[Within] | None = None) -> list[int]:
    """For each move ahead with one of `turns`, the most (loaded side, enemy) pairs that could bear
    within range wherever the move ends on its path (only within `within[i]`, when given: see
    `_samples`), the ends moved by up to `slack` more (a push after a collision): a bound, never
    less than the engine's count (options._in_reach), from circles round the enemies' bases. A turn
    the tool refuses gets 0.

    An enemy base in a side's path within range R has its centre, in the ship's frame, no more than
    half the ship's length plus its radius along the side, and between half the beam less its radius
    and half the beam plus R plus its radius out from the centre line; a pose between two samples lies
    within the samples' spacing (`Samples`) of one of them (and 1e-3 inches covers the rounding of
    moving the samples from the base's own frame to where it stands)."""
    loaded = [side for side in ("port", "starboard") if ShipSide(side) not in ship.reload]
    out = [0] * len(turns)
    if not loaded or not enemies:
        return out
    local, starts, refused = _samples(rules.tool(speed), ship.beam, ship.length, tuple(turns),
                                      tuple(within) if within is not None else (None,) * len(turns))
    if not len(local.x):
        return out
    theta = math.radians(ship.heading)
    c, s = math.cos(theta), math.sin(theta)

    def placed(lx: np.ndarray, ly: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # turned clockwise, then moved
        return (ship.x + lx * c + ly * s)[:, None], (ship.y - lx * s + ly * c)[:, None]

    x, y = placed(local.x, local.y)
    px, py = placed(local.px, local.py)
    heading = (local.heading + theta)[:, None]
    cx = np.array([e.x for e in enemies])[None, :]
    cy = np.array([e.y for e in enemies])[None, :]
    re = np.array([math.hypot(e.beam, e.length) / 2 for e in enemies])[None, :]
    dx, dy = cx - x, cy - y
    sin, cos = np.sin(heading), np.cos(heading)
    along = dx * sin + dy * cos
    across = dx * cos - dy * sin  # to starboard
    margin = local.run[:, None] + local.turn[:, None] * np.hypot(cx - px, cy - py) + slack + 1e-3
    half_length, half_beam = ship.length / 2, ship.beam / 2
    reach = max(b.max for b in rules.ranges)
    in_length = np.abs(along) <= half_length + re + margin
    count = np.zeros(len(local.x), dtype=int)
    for side in loaded:
        away = across if side == "starboard" else -across
        count += (in_length & (away >= half_beam - re - margin) & (away <= half_beam + reach + re + margin)).sum(axis=1)
    kept = [i for i in range(len(turns)) if not refused[i]]
    for i, most in zip(kept, np.maximum.reduceat(count, [starts[i] for i in kept]), strict=True):
        out[i] = int(most)
    return out


def may_bear(ship: Ship, enemies: Sequence[Ship], rules: RulesData, loaded_only: bool = True) -> list[Ship]:
    """The enemies that could lie in a loaded side's path within range of the ship where it stands
    (`most_borne`'s test at one pose, with a margin far above rounding): the others need no shape.
    Without `loaded_only`, in either side's path at any range."""
    loaded = [side for side in ("port", "starboard") if not loaded_only or ShipSide(side) not in ship.reload]
    if not loaded or not enemies:
        return []
    theta = math.radians(ship.heading)
    sin, cos = math.sin(theta), math.cos(theta)
    cx = np.array([e.x for e in enemies]) - ship.x
    cy = np.array([e.y for e in enemies]) - ship.y
    re = np.array([math.hypot(e.beam, e.length) / 2 for e in enemies]) + 1e-6
    along = cx * sin + cy * cos
    across = cx * cos - cy * sin
    half_length, half_beam = ship.length / 2, ship.beam / 2
    reach = max(b.max for b in rules.ranges) if loaded_only else math.inf
    ok = np.zeros(len(enemies), dtype=bool)
    for side in loaded:
        away = across if side == "starboard" else -across
        ok |= (np.abs(along) <= half_length + re) & (away >= half_beam - re) & (away <= half_beam + reach + re)
    return [e for e, keep in zip(enemies, ok, strict=True) if keep]


def warm(rules: RulesData) -> None:
    """Work out the paths' shapes and samples for every base size, tool and turning move the options
    try (`_areas`, `_samples`: the same whichever ship of the size asks): a worker's start, so that
    no player's moment pays for them (game/service/jobs.py warm_worker)."""
    for base in rules.bases.values():
        for tool in rules.tools.values():
            for turn in (None, *CLOSING_TURNS):
                try:
                    _areas(tool, base.beam, base.length, turn)
                except RulesError:
                    continue  # the tool refuses the turn
            _samples(tool, base.beam, base.length, CLOSING_TURNS, (None,) * len(CLOSING_TURNS))
