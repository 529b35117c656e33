"""Moving a ship, whatever phase moves it: the sweep of its base, collisions, shoals, the table's
edges (and the Scrolling Sea), and being pushed Directly Away. The Movement Phase moves ships with
it, and so do the cards and rules of other phases (a struck helm, a free turn, the End Phase's
pushes); none of them needs another phase for it."""

from __future__ import annotations

from game import effects
from game import events as ev
from game import geometry as geo
from game.context import Decision
from game.model import Game, Sail, Status, TerrainKind
from game.phases import common as c


def with_edges(ctx: Decision, obstacles: geo.Obstacles) -> geo.Obstacles:
    t = ctx.state.table
    return geo.Obstacles({**obstacles.shapes, **geo.table_edges(t.width, t.height)})


def pose_tuple(p: geo.Pose) -> tuple[float, float, float]:
    return (round(p.x, 6), round(p.y, 6), round(geo.norm_heading(p.heading), 6))


def make_move(ctx: Decision, ship_id: str, motions: list[geo.Motion], reason: str, speed: int) -> None:
    """Sweep the base through the motions, stop at first contact, then resolve the collision,
    any shoal crossed and leaving the table."""
    state = ctx.state
    ship = state.ship(ship_id)
    h0 = c.hull(ship)
    shoals = any(t.kind is TerrainKind.SHOAL for t in state.table.terrain)
    res = geo.sweep(h0, motions, c.obstacles(state, exclude=[ship_id]), need_swept=shoals)
    path = tuple(pose_tuple(p) for p in res.poses)
    ctx.emit(ev.ShipMoved(ship_id, path, reason, speed, res.hit or ""))
    if (path[-1][0], path[-1][1]) != (path[0][0], path[0][1]) or path[-1][2] != path[0][2]:
        drop_landing_parties(ctx, ship_id)
    if res.hit is not None:
        resolve_collision(ctx, ship_id, res.hit, speed)
    check_shoals(ctx, ship_id, res)
    moved = ctx.state.ship(ship_id)
    t = state.table
    if moved.on_table and geo.off_table(c.hull(moved).polygon, t.width, t.height) and ctx.state.scrolling_sea:
        scroll_table(ctx, ship_id)
        moved = ctx.state.ship(ship_id)
    if moved.on_table and geo.off_table(c.hull(moved).polygon, t.width, t.height):
        ctx.emit(ev.StatusGained(ship_id, Status.LEFT_TABLE))
        for other in sorted(moved.entangled_with):
            ctx.emit(ev.EntanglementChanged(ship_id, other, False))


def scroll_table(ctx: Decision, ship_id: str) -> None:
    """Scrolling Sea (an optional rule of the rulebook): instead of the ship sailing off, everything on the
    table moves away from that edge by at least Musket Shot, as far as brings the ship back on;
    terrain pushed off comes back just inside the opposite edge (docs/rulings.md)."""
    t = ctx.state.table
    minx, miny, maxx, maxy = c.hull(ctx.state.ship(ship_id)).polygon.bounds
    musket = ctx.rules.range_of("musket")
    dx = dy = 0.0
    if minx < 0:
        dx = max(musket, -minx + 0.01)
    elif maxx > t.width:
        dx = -max(musket, maxx - t.width + 0.01)
    if miny < 0:
        dy = max(musket, -miny + 0.01)
    elif maxy > t.height:
        dy = -max(musket, maxy - t.height + 0.01)
    outlines = []
    for piece in t.terrain:
        pts = [(x + dx, y + dy) for x, y in piece.points]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        # a piece pushed off one edge comes back just inside the opposite one
        sx = 0.5 - min(xs) if max(xs) > t.width else (t.width - 0.5) - max(xs) if min(xs) < 0 else 0.0
        sy = 0.5 - min(ys) if max(ys) > t.height else (t.height - 0.5) - max(ys) if min(ys) < 0 else 0.0
        outlines.append((piece.id, tuple((round(x + sx, 6), round(y + sy, 6)) for x, y in pts)))
    ctx.emit(ev.TableScrolled(dx, dy, tuple(outlines)))


def resolve_collision(ctx: Decision, mover: str, hit: str, speed: int) -> None:
    if hit.startswith(c.TERRAIN_PREFIX):
        ctx.emit(ev.Collided(mover, hit.removeprefix(c.TERRAIN_PREFIX), "land"))
        c.take_damage(ctx, mover, 1)
        if not ctx.state.ship(mover).aground:
            ctx.emit(ev.StatusGained(mover, Status.AGROUND))
        if ctx.state.ship(mover).sail is not Sail.ANCHORED:
            ctx.emit(ev.SailChanged(mover, Sail.ANCHORED))
        return
    ctx.emit(ev.Collided(mover, hit, "ship"))
    player = ctx.state.ship(mover).controller
    faces = ctx.roll(max(1, speed), "collision", "collision_damage", player, mover, target=hit)
    if ctx.successes("collision_damage", faces):
        c.take_damage(ctx, mover, 1)
    if ctx.successes("collision_entangle", faces):
        if hit not in ctx.state.ship(mover).entangled_with:
            c.entangle(ctx, mover, hit)
        return
    pushed, away_from = collision_push(ctx.state, mover, hit)
    push_directly_away(ctx, pushed, away_from, ctx.rules.range_of("yard_arm"))


def collision_push(state: Game, mover: str, hit: str) -> tuple[str, str]:
    """Which ship a collision that entangles neither pushes Directly Away, and from which: the ship
    struck, unless it is Aground or Entangled, when the mover is pushed back from it (the options
    read this too: game/options.py)."""
    struck = state.ship(hit)
    return (mover, hit) if (struck.aground or struck.entangled) else (hit, mover)


def push_directly_away(ctx: Decision, pushed: str, away_from: str, dist: float, full: bool = False) -> bool:
    """Move a ship Directly Away from another (as far as it can, up to dist). True if it moved."""
    state = ctx.state
    ship = state.ship(pushed)
    obstacles = with_edges(ctx, c.obstacles(state, exclude=[pushed]))
    pose = geo.directly_away(
        c.hull(ship), c.hull(state.ship(away_from)).polygon, dist, obstacles, require_full=full
    )
    if pose is None:
        return False
    ctx.emit(ev.ShipMoved(pushed, (pose_tuple(c.hull(ship).pose), pose_tuple(pose)), "pushed"))
    drop_landing_parties(ctx, pushed)
    return True


def check_shoals(ctx: Decision, ship_id: str, res: geo.SweepResult) -> None:
    ship = ctx.state.ship(ship_id)
    if not ship.on_table or ship.aground or effects.ignores_terrain(ctx.state, ship, "shoal", ctx.rules):
        return
    shoals = c.terrain_polygons(ctx.state, [TerrainKind.SHOAL])
    crossed = [k for k, poly in sorted(shoals.items()) if res.crosses(poly, 1e-9)]
    if not crossed:
        return
    faces = ctx.roll(ship.fortitude, "shoal", "shoal", ship.controller, ship_id)
    if ctx.successes("shoal", faces):
        ctx.emit(ev.StatusGained(ship_id, Status.AGROUND))


def drop_landing_parties(ctx: Decision, ship_id: str) -> None:
    c.drop_shore_parties(ctx, ship_id)
