"""Geometry cases built by hand (docs/rulings.md, Geometry)."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Polygon, box

from game import geometry as geo
from game.geometry import Hull, Obstacles, Pose
from game.model import PointOfSail
from game.rules_data import load_rules

RULES = load_rules()
SMALL = (1.2, 2.4)
LARGE = (1.6, 3.9)


def hull(x: float, y: float, h: float, size: tuple[float, float] = SMALL) -> Hull:
    return Hull(Pose(x, y, h), *size)


def pos(h: Hull, edge: str = "N") -> PointOfSail | None:
    return geo.point_of_sail(h, edge, 36, 36)


# ---------------------------------------------------------------- points of sail


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        (180, PointOfSail.LARGE),  # stern to the wind
        (135, PointOfSail.LARGE),
        (100, PointOfSail.LARGE),
        (80, PointOfSail.WINDWARD),
        (60, PointOfSail.WINDWARD),
        (46, PointOfSail.WINDWARD),  # just outside the Wind's Eye for a 1.2 x 2.4 base (45°)
        (44, PointOfSail.WINDS_EYE),
        (0, PointOfSail.WINDS_EYE),
        (316, PointOfSail.WINDS_EYE),
        (314, PointOfSail.WINDWARD),
        (270, PointOfSail.WINDWARD if False else None),  # beam on: exactly between
    ],
)
def test_point_of_sail_wind_from_north(heading: float, expected: PointOfSail | None) -> None:
    assert pos(hull(18, 18, heading)) == expected


def test_beam_on_is_between_points_of_sail() -> None:
    assert pos(hull(18, 18, 90)) is None
    assert pos(hull(18, 18, 270)) is None


def test_winds_eye_boundary_is_tan_half_length_over_beam() -> None:
    # In the Wind's Eye while tan(angle off the wind) < length / (2 * beam).
    limit = math.degrees(math.atan(3.9 / (2 * 1.6)))  # ≈ 50.6° for a large base
    assert pos(hull(18, 18, limit - 0.2, LARGE)) is PointOfSail.WINDS_EYE
    assert pos(hull(18, 18, limit + 0.2, LARGE)) is PointOfSail.WINDWARD


def test_exact_boundary_is_not_in_the_winds_eye() -> None:
    # "If the mid-point measures equal to or closer than the farthest point of the Bow, then the
    # ship is not In the Wind's Eye": at exactly 45° a 1.2 x 2.4 base is Windward.
    assert pos(hull(18, 18, 45)) is PointOfSail.WINDWARD


@pytest.mark.parametrize(("edge", "large_heading"), [("N", 180), ("S", 0), ("E", 270), ("W", 90)])
def test_every_weather_edge(edge: str, large_heading: float) -> None:
    assert pos(hull(18, 18, large_heading), edge) is PointOfSail.LARGE
    assert pos(hull(18, 18, large_heading + 180), edge) is PointOfSail.WINDS_EYE
    assert pos(hull(18, 18, large_heading + 120), edge) is PointOfSail.WINDWARD


# ---------------------------------------------------------------- tools and turns


@pytest.mark.parametrize("speed", [1, 2, 3, 4, 5])
def test_each_tool_moves_its_length_straight_ahead(speed: int) -> None:
    tool = RULES.tool(speed)
    h = hull(10, 10, 90)
    res = geo.sweep(h, [geo.advance_motion(h, tool.length)], Obstacles({}))
    assert res.completed
    assert res.final.x == pytest.approx(10 + tool.length)
    assert res.final.y == pytest.approx(10)
    assert res.final.heading == pytest.approx(90)


def test_tool_table_matches_the_rules() -> None:
    assert [(t.speed, t.length, t.max_turn) for t in RULES.tools.values()] == [
        (1, 0.86, 30),
        (2, 1.61, 45),
        (3, 2.40, 45),
        (4, 2.91, 30),
        (5, 3.70, 30),
    ]
    assert RULES.tool(7).speed == 5  # speed above 5 uses the speed-5 tool


def test_turn_pivots_about_the_side_midpoint() -> None:
    h = hull(10, 10, 0)  # heading north, starboard side faces east
    mid = h.edge_midpoint("starboard")
    assert mid == pytest.approx((10.6, 10))
    after = geo.end_pose(h.pose, geo.pivot_motion(h, "starboard", 30))
    assert after.heading == pytest.approx(30)
    # the pivot point stays put: the new starboard mid-point is the old one
    assert h.at(after).edge_midpoint("starboard") == pytest.approx(mid)


def test_port_turn_reduces_heading() -> None:
    h = hull(10, 10, 180)
    after = geo.end_pose(h.pose, geo.pivot_motion(h, "port", 45))
    assert after.heading == pytest.approx(135)


# ---------------------------------------------------------------- collisions


def test_collision_stops_at_first_contact() -> None:
    mover = hull(10, 10, 90)  # bow at x = 11.2
    wall = box(12.0, 5, 13, 15)
    res = geo.sweep(mover, [geo.advance_motion(mover, 3.7)], Obstacles({"rock": wall}))
    assert res.hit == "rock"
    assert not res.completed
    assert res.final.x == pytest.approx(10.8, abs=1e-4)  # bow touches x = 12
    assert mover.at(res.final).polygon.intersection(wall).area < 1e-9
    assert mover.at(res.final).polygon.distance(wall) < 1e-4


def test_collision_during_pivot() -> None:
    mover = hull(10, 10, 0)
    # a block just east of the bow: a starboard turn swings the bow into it
    block = box(11.0, 11.0, 12.0, 12.0)
    res = geo.sweep(mover, [geo.pivot_motion(mover, "starboard", 45)], Obstacles({"x": block}))
    assert res.hit == "x"
    assert 0 < res.final.heading < 45


def test_sweep_catches_a_thin_obstacle_between_samples() -> None:
    mover = hull(10, 10, 90)
    sliver = box(12.0, 9.9, 12.01, 10.1)
    res = geo.sweep(mover, [geo.advance_motion(mover, 3.7)], Obstacles({"s": sliver}))
    assert res.hit == "s"


def test_off_table() -> None:
    assert not geo.off_table(hull(18, 18, 0).polygon, 36, 36)
    assert geo.off_table(hull(0.5, 18, 0).polygon, 36, 36)  # beam half 0.6 pokes past x = 0
    assert geo.off_table(hull(18, 35, 0).polygon, 36, 36)


def test_directly_away_moves_along_the_line_of_centres() -> None:
    a = hull(10, 10, 0)
    b = hull(11.2, 10, 0)  # touching a's starboard side
    pose = geo.directly_away(b, a.polygon, 1.0, Obstacles({}))
    assert pose is not None
    assert pose.x == pytest.approx(12.2, abs=1e-6)
    assert pose.y == pytest.approx(10, abs=1e-6)
    assert pose.heading == 0


def test_directly_away_is_blocked_by_obstacles() -> None:
    a = hull(10, 10, 0)
    b = hull(11.2, 10, 0)
    walls = Obstacles({"w": box(11.81, 0, 20, 20), "n": box(0, 11.21, 20, 20), "s": box(0, 0, 20, 8.79)})
    assert geo.directly_away(b, a.polygon, 1.0, walls, require_full=True) is None
    partial = geo.directly_away(b, a.polygon, 1.0, walls)
    assert partial is not None  # it can still shuffle a little


# ---------------------------------------------------------------- distance and range


def test_closest_point_distance_and_bands() -> None:
    a = hull(10, 10, 0)
    b = hull(10 + 1.2 + 4.0, 10, 0)  # 4" between the long sides
    d = geo.distance(a.polygon, b.polygon)
    assert d == pytest.approx(4.0)
    assert RULES.band_for(d).name == "pistol"  # within 4 means <= 4
    assert RULES.band_for(4.01).name == "musket"
    assert RULES.band_for(12).name == "cannon"
    assert RULES.band_for(12.01) is None
    assert RULES.band_for(0.5).name == "yard_arm"


# ---------------------------------------------------------------- sight, broadside path, rake


ISLAND = Polygon([(14, 8), (16, 8), (16, 12), (14, 12)])


def test_line_of_sight_blocked_by_an_island() -> None:
    firer = hull(10, 10, 0)
    target = hull(20, 10, 0)
    assert not geo.line_of_sight(firer, target, [ISLAND])
    assert geo.line_of_sight(firer, target, [])


def test_line_of_sight_around_an_island_corner() -> None:
    firer = hull(10, 10, 0)
    target = hull(20, 14.5, 0)  # the target's lower half hides behind the island, its bow does not
    assert geo.line_of_sight(firer, target, [ISLAND])


def test_broadside_path_edge_cases() -> None:
    firer = hull(10, 10, 0)  # starboard faces east; the path spans y in [8.8, 11.2]
    inside = hull(16, 10, 0)
    grazing = hull(16, 12.39, 0)  # stern corner at y = 11.19 pokes into the path
    outside = hull(16, 12.41, 0)
    behind = hull(4, 10, 0)
    assert geo.in_broadside_path(firer, "starboard", inside)
    assert geo.in_broadside_path(firer, "starboard", grazing)
    assert not geo.in_broadside_path(firer, "starboard", outside)
    assert not geo.in_broadside_path(firer, "starboard", behind)
    assert geo.in_broadside_path(firer, "port", behind)


def test_broadside_path_cut_into_range_bands() -> None:
    firer = hull(10, 10, 0)  # small base: starboard side on x = 10.6, from y = 8.8 to 11.2
    pieces = geo.broadside_bands(firer, "starboard", (1.0, 4.0, 8.0, 12.0))
    # the path is a strip as wide as the side, so each band is a rectangle of it
    assert [p.bounds for p in pieces] == [pytest.approx(b) for b in ((10.6, 8.8, 11.6, 11.2), (11.6, 8.8, 14.6, 11.2),
                                                                     (14.6, 8.8, 18.6, 11.2), (18.6, 8.8, 22.6, 11.2))]
    assert sum(p.area for p in pieces) == pytest.approx(12.0 * 2.4)
    assert all(a.intersection(b).area < 1e-9 for i, a in enumerate(pieces) for b in pieces[i + 1:])


def test_raking_from_the_stern() -> None:
    firer = hull(10, 10, 0)  # fires east from its starboard side
    target = hull(16, 10, 90)  # sailing east, away from the firer: stern faces the firer
    assert geo.rake(firer, "starboard", target) == "stern"
    bow_on = hull(16, 10, 270)
    assert geo.rake(firer, "starboard", bow_on) == "bow"
    broadside_on = hull(16, 10, 0)
    assert geo.rake(firer, "starboard", broadside_on) is None


# ---------------------------------------------------------------- formation


def test_formation_chain_line_ahead() -> None:
    hulls = {
        "flag": hull(10, 10, 0),
        "ahead": hull(10, 16, 0),  # 3.6" between stern and bow
        "astern": hull(10, 4, 0),
        "far": hull(10, 30, 0),
    }
    chain = geo.formation_chain("flag", hulls, [], RULES.range_of("musket"))
    assert chain == ("astern", "flag", "ahead")


def test_formation_broken_by_land_and_by_heading() -> None:
    hulls = {"flag": hull(10, 10, 0), "ahead": hull(10, 16, 0)}
    rock = box(9, 12, 11, 14)
    assert geo.formation_chain("flag", hulls, [rock], 8) == ()
    abeam = {"flag": hull(10, 10, 0), "beside": hull(13, 10, 0)}
    assert geo.formation_chain("flag", abeam, [], 8) == ()


# ---------------------------------------------------------------- boarding


def test_boarding_lays_the_bow_flush_against_the_side() -> None:
    boarder = hull(10, 10, 90)  # heading east, bow at x = 11.2
    target = hull(12.6, 10, 0)  # its port side at x = 12.0, 0.8" away
    placed = geo.boarding_placement(boarder, target, Obstacles({}))
    assert placed is not None
    pose, lead, t_edge = placed
    assert (lead, t_edge) == ("bow", "port")
    placed_hull = boarder.at(pose)
    assert placed_hull.polygon.distance(target.polygon) < 1e-3
    assert placed_hull.polygon.intersection(target.polygon).area < 1e-6
    assert pose.heading == pytest.approx(90)


def test_boarding_fails_without_room() -> None:
    boarder = hull(10, 10, 90)
    target = hull(12.6, 10, 0)
    crowd = Obstacles({"a": box(11.3, 0, 11.95, 9.9), "b": box(11.3, 10.1, 11.95, 20)})
    assert geo.boarding_placement(boarder, target, crowd) is None
