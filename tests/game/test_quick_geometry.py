"""Issue 15: the quicker sweep, directly-away search and decide_and_apply give exactly what the
plain algorithms give. The reference sweep below is the start-of-issue one: every step built and
tested against every obstacle within reach, the swept area always united."""

from __future__ import annotations

import math
import random

import pytest
from shapely.geometry import Polygon, box
from shapely.ops import unary_union

from game import geometry as geo
from game.geometry import Hull, Obstacles, Pose


def reference_sweep(hull: Hull, motions: list[geo.Motion], obstacles: Obstacles) -> tuple:
    near = obstacles.near(hull.polygon, geo._reach(hull, motions))

    def first(area: object, eps: float) -> str | None:
        hits = [k for k, v in near.shapes.items() if v.intersects(area) and area.intersection(v).area > eps]
        return min(hits) if hits else None

    pose, poses, parts = hull.pose, [hull.pose], [hull.polygon]
    for motion in motions:
        n = motion.steps()
        prev = pose
        for i in range(1, n + 1):
            nxt = motion.at(pose, i / n)
            hit = first(geo._swept(hull.at(prev), hull.at(nxt)), geo.OVERLAP)
            if hit is not None:
                lo, hi = (i - 1) / n, i / n
                for _ in range(30):
                    mid = (lo + hi) / 2
                    if first(geo._swept(hull.at(prev), hull.at(motion.at(pose, mid))), geo.CONTACT):
                        hi = mid
                    else:
                        lo = mid
                final = motion.at(pose, lo)
                parts.append(geo._swept(hull.at(prev), hull.at(final)))
                return (*poses, final), hit, unary_union(parts)
            parts.append(geo._swept(hull.at(prev), hull.at(nxt)))
            prev = nxt
        pose = motion.at(pose, 1.0)
        poses.append(pose)
    return tuple(poses), None, unary_union(parts)


def crowded(rng: random.Random) -> tuple[Hull, list[geo.Motion], Obstacles]:
    """A base among other bases and rocks, given a turn-and-run or run-and-turn like a tool's."""
    shapes: dict[str, Polygon] = {}
    for k in range(rng.randint(0, 8)):
        other = Hull(Pose(rng.uniform(0, 24), rng.uniform(0, 24), rng.uniform(0, 360)), 1.2, 3.0)
        if not other.polygon.intersects(Hull(Pose(12, 12, 0), 1.2, 3.0).polygon.buffer(0.05)):
            shapes[f"s{k}"] = other.polygon
    for k in range(rng.randint(0, 3)):
        x, y = rng.uniform(0, 24), rng.uniform(0, 24)
        rock = box(x, y, x + rng.uniform(0.2, 3), y + rng.uniform(0.2, 3))
        if not rock.intersects(Hull(Pose(12, 12, 0), 1.2, 3.0).polygon.buffer(0.05)):
            shapes[f"terrain:r{k}"] = rock
    h = Hull(Pose(12, 12, rng.choice([0.0, 37.0, 90.0, 200.0])), 1.2, 3.0)
    length, side, deg = rng.uniform(2, 9), rng.choice(["port", "starboard"]), rng.choice([0.0, 20.0, 45.0, 90.0])
    run = geo.advance_motion(h, length)
    if deg == 0:
        motions: list[geo.Motion] = [run]
    elif rng.random() < 0.5:
        pivot = geo.pivot_motion(h, side, deg)
        motions = [pivot, geo.advance_motion(h.at(geo.end_pose(h.pose, pivot)), length)]
    else:
        motions = [run, geo.pivot_motion(h.at(geo.end_pose(h.pose, run)), side, deg)]
    return h, motions, Obstacles(shapes)


@pytest.mark.parametrize("seed", range(150))
def test_sweep_gives_exactly_what_the_plain_sweep_gives(seed: int) -> None:
    h, motions, obstacles = crowded(random.Random(seed))
    poses, hit, swept = reference_sweep(h, motions, obstacles)
    res = geo.sweep(h, motions, obstacles, need_swept=True)
    assert (res.poses, res.final, res.hit, res.completed) == (poses, poses[-1], hit, hit is None)
    assert res.swept.equals_exact(swept, 0.0)
    quick = geo.sweep(h, motions, obstacles, need_swept=False)
    assert (quick.poses, quick.hit) == (poses, hit)
    whole_only = geo.sweep(h, motions, obstacles, need_swept=False, find_contact=False)
    assert whole_only.completed == (hit is None)
    if hit is None:
        assert whole_only.poses == poses


def test_sweep_crosses_only_shapes_the_path_meets() -> None:
    h = Hull(Pose(5, 5, 0), 1.2, 3.0)
    res = geo.sweep(h, [geo.advance_motion(h, 6)], Obstacles({}), need_swept=True)
    assert res.crosses(box(4.5, 9, 5.5, 10), 1e-9)  # a shoal straight ahead
    assert not res.crosses(box(8, 9, 9, 10), 1e-9)  # one off to the side
    assert not res.crosses(box(40, 40, 41, 41), 1e-9)  # one far away: told by its box alone


@pytest.mark.parametrize("seed", range(30))
def test_obstacle_tests_agree_with_plain_shapely(seed: int) -> None:
    rng = random.Random(seed)
    _, _, obstacles = crowded(rng)
    area = Hull(Pose(rng.uniform(0, 24), rng.uniform(0, 24), rng.uniform(0, 360)), 1.2, 6.0).polygon
    plain = sorted(k for k, v in obstacles.shapes.items() if area.intersection(v).area > geo.OVERLAP)
    assert obstacles.first_overlap(area) == (plain[0] if plain else None)
    assert sorted(obstacles.without(*plain).shapes) == sorted(set(obstacles.shapes) - set(plain))


@pytest.mark.parametrize("seed", range(10))
def test_broadside_path_quick_refusal_agrees_with_the_polygons(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        firer = Hull(Pose(rng.uniform(0, 20), rng.uniform(0, 20), rng.choice([0.0, 90.0, rng.uniform(0, 360)])), 1.2, 3.0)
        # targets placed at random, and targets set exactly against a bounding line of the path
        target = Hull(Pose(rng.uniform(0, 20), rng.uniform(0, 20), rng.choice([0.0, 90.0, rng.uniform(0, 360)])),
                      rng.uniform(0.5, 2), rng.uniform(1, 5))
        for t in (target, Hull(Pose(firer.pose.x + 1.2 / 2 + 1.0, firer.pose.y + 1.5 + 0.25, firer.pose.heading),
                               1.0, 0.5)):
            for side in ("port", "starboard"):
                exact = geo.broadside_path(firer, side).intersection(t.polygon).area > 1e-9
                assert geo.in_broadside_path.__wrapped__(firer, side, t) == exact


def reference_directly_away(hull: Hull, away_from: Polygon, dist: float, obstacles: Obstacles,
                            require_full: bool) -> Pose | None:
    """The start-of-issue search: every direction not toward the other swept in full, the point of
    contact of every blocked one searched, the greatest gap then the straightest direction."""
    obstacles = Obstacles({**obstacles.shapes, "__away_from__": away_from})
    ref = away_from.centroid
    base_dir = geo.sub(hull.pose.point, (ref.x, ref.y))
    best = None
    for angle in range(0, 360, 10):
        u = geo.forward(angle)
        if geo.dot(u, base_dir) < -geo.EPS:
            continue
        poses, hit, _ = reference_sweep(hull, [geo.Translate(u[0] * dist, u[1] * dist)], obstacles)
        if require_full and hit is not None:
            continue
        final = poses[-1]
        if math.hypot(final.x - hull.pose.x, final.y - hull.pose.y) < geo.EPS:
            continue
        key = (round(geo.distance(hull.at(final).polygon, away_from), 6), geo.dot(u, base_dir))
        if best is None or key > best[0]:
            best = (key, final)
    return best[1] if best else None


def in_contact(rng: random.Random) -> tuple[Hull, Hull, Obstacles]:
    """A base and another run into it (just touching, or sharing a sliver of area around CONTACT,
    as a collision leaves them), among other bases: the set-up of a push Directly Away."""
    h = Hull(Pose(12, 12, rng.choice([0.0, 90.0, rng.uniform(0, 360)])), 1.2, 3.0)
    angle, heading = math.radians(rng.uniform(0, 360)), rng.uniform(0, 360)

    def other(d: float) -> Hull:
        return Hull(Pose(12 + d * math.sin(angle), 12 + d * math.cos(angle), heading), 1.5, 3.5)

    lo, hi = 0.0, 8.0
    for _ in range(45):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if other(mid).polygon.intersects(h.polygon) else (lo, mid)
    mover = other(rng.choice([hi, lo, lo - 1e-9, lo - 1e-8, lo - 3e-8, lo - 1e-7]))
    shapes: dict[str, Polygon] = {"mover": mover.polygon}
    for k in range(rng.randint(0, 8)):
        o = Hull(Pose(rng.uniform(6, 18), rng.uniform(6, 18), rng.uniform(0, 360)), 1.0, 2.5).polygon
        if not any(o.intersects(s) for s in [h.polygon, *shapes.values()]):
            shapes[f"s{k}"] = o
    return h, mover, Obstacles(shapes)


@pytest.mark.parametrize("seed", range(60))
def test_directly_away_gives_exactly_what_the_plain_search_gives(seed: int) -> None:
    rng = random.Random(seed)
    h, mover, obstacles = in_contact(rng)
    for full in (False, True):
        want = reference_directly_away(h, mover.polygon, 1.0, obstacles, full)
        assert geo.directly_away(h, mover.polygon, 1.0, obstacles, require_full=full) == want


@pytest.mark.parametrize("seed", range(60))
def test_sweep_from_contact_gives_exactly_what_the_plain_sweep_gives(seed: int) -> None:
    """Runs and turns that start touching another base, or overlapping it by about CONTACT."""
    rng = random.Random(1000 + seed)
    h, _, obstacles = in_contact(rng)
    run = geo.advance_motion(h, rng.uniform(0.5, 6), rng.choice(["bow", "stern", "port", "starboard"]))
    turn = geo.pivot_motion(h, rng.choice(["port", "starboard"]), rng.choice([10.0, 45.0, 90.0]))
    for motions in ([run], [turn], [turn, geo.advance_motion(h.at(geo.end_pose(h.pose, turn)), 3.0)]):
        poses, hit, swept = reference_sweep(h, motions, obstacles)
        res = geo.sweep(h, motions, obstacles, need_swept=True)
        assert (res.poses, res.hit) == (poses, hit)
        assert res.swept.equals_exact(swept, 0.0)


@pytest.mark.parametrize("seed", range(60))
def test_a_bow_run_square_onto_a_stern_stops_where_the_plain_sweep_does(seed: int) -> None:
    """The fleets' back rows (benchmarks/fleets.py): a straight run onto the stern of a base ahead,
    edge to edge, where the search for the point of contact is bracketed closest."""
    rng = random.Random(seed)
    heading = rng.choice([0.0, 90.0, 180.0, rng.uniform(0, 360)])
    h = Hull(Pose(12, 12, heading), 1.2, 3.1)
    ahead = geo.add((12, 12), geo.scale(geo.forward(heading), 3.1 + rng.uniform(0.05, 2.0)))
    aside = geo.scale(geo.right(heading), rng.uniform(-0.3, 0.3))
    other = Hull(Pose(ahead[0] + aside[0], ahead[1] + aside[1], heading + rng.choice([0.0, 0.0, 3.0])), 1.4, 3.1)
    obstacles = Obstacles({"ahead": other.polygon})
    motions: list[geo.Motion] = [geo.advance_motion(h, rng.uniform(2.5, 6.0))]
    poses, hit, _ = reference_sweep(h, motions, obstacles)
    res = geo.sweep(h, motions, obstacles, need_swept=False)
    assert (res.poses, res.hit) == (poses, hit)
    assert hit == "ahead"
