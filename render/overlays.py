"""What the activation overlays show, read from the events of the last command, and the preview of
a proposed move, played out on a copy of the viewer's state."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from game import events as ev
from game import geometry as geo
from game.apply import apply, apply_all
from game.commands import Command
from game.deployment import zone
from game.dice import ScriptedDice
from game.engine import decide
from game.errors import RulesError
from game.model import Game
from game.phases.common import hull
from game.rules_data import RulesData, load_rules
from game.views import View
from render.guide import in_paths
from render.options import AttackLine, Pose, Preview


def last_move(events: Iterable[Any]) -> tuple[str, tuple[Pose, ...]] | None:
    """The path of the last ship that moved in these events (start to end)."""
    moves = [e for e in events if isinstance(e, ev.ShipMoved)]
    if not moves:
        return None
    ship = moves[-1].ship
    path: list[Pose] = []
    for m in moves:
        if m.ship != ship:
            continue
        pts = [Pose(x, y, h) for x, y, h in m.path]
        path += pts if not path else pts[1:]
    return ship, tuple(path)


def last_attacks(events: Iterable[Any]) -> tuple[AttackLine, ...]:
    out = []
    for e in events:
        if isinstance(e, ev.AttackResolved):
            extra = f", {e.rake} rake" if e.rake else ""
            label = f"{e.hits} hit{'s' if e.hits != 1 else ''}, {e.damage} dmg, {e.fatigue} fat{extra}"
            out.append(AttackLine(e.ship, e.target, e.hits, label, e.side if e.side in ("port", "starboard") else ""))
    return tuple(out)


def preview_move(view: View, command: Command, rules: RulesData | None = None) -> Preview:
    """Play the order out on the viewer's copy of the state (Skill Tests assumed passed) and say
    where the ship ends, where it would first touch something, and what it then bears on."""
    rules = rules or load_rules(view.game.system)
    game = view.game
    ship_id = getattr(command, "ship", "")
    try:
        events = decide(game, command, ScriptedDice(["sail"] * 64), rules)
    except RulesError as exc:
        return Preview(ship_id, (), None, (), f"not possible: {exc.text}")
    moved = last_move(events)
    path = moved[1] if moved and moved[0] == ship_id else ()
    collision = None
    for e in events:
        if isinstance(e, ev.Collided) and e.ship == ship_id and path:
            end = path[-1]
            collision = _contact_point(game, ship_id, end, e.other)
            break
    state = game
    for e in events:
        state = apply(state, e)
    return Preview(ship_id, path, collision, _in_arc(state, ship_id, rules))


def preview_deploy(view: View, command: Command, rules: RulesData | None = None) -> Preview:
    """Where a set-up Deploy order would put the ship, whether it may go there, and what it would
    then bear on."""
    rules = rules or load_rules(view.game.system)
    x, y, heading = (float(getattr(command, k, 0.0)) for k in ("x", "y", "heading"))
    ship_id = getattr(command, "ship", "")
    try:
        events = decide(view.game, command, ScriptedDice(), rules)
    except RulesError as exc:
        return Preview(ship_id, (Pose(x, y, heading),), None, (), f"not allowed: {exc.text}")
    state = apply_all(view.game, events)
    return Preview(ship_id, (Pose(x, y, heading),), None, _in_arc(state, ship_id, rules), "a legal deployment")


def deployment_zones(game: Game, rules: RulesData) -> tuple[tuple[str, tuple[tuple[float, float], ...]], ...]:
    """Each side's deployment zone while the set-up runs (from the end of the draft until deployed)."""
    prep = game.prep
    if prep is None or prep.step not in ("select", "place", "adjust", "deploy"):
        return ()
    out = []
    for q in game.squadrons:
        poly = zone(game, q.player, rules)
        out.append((q.player, tuple((round(x, 3), round(y, 3)) for x, y in poly.exterior.coords[:-1])))
    return tuple(out)


def _contact_point(game: Game, ship_id: str, end: Pose, other: str) -> tuple[float, float]:
    ship = game.ship(ship_id)
    mover = geo.Hull(geo.Pose(end.x, end.y, end.heading), ship.beam, ship.length).polygon
    try:
        obstacle = hull(game.ship(other)).polygon
    except KeyError:
        from shapely.geometry import Polygon

        terrain = next(t for t in game.table.terrain if t.id == other)
        obstacle = Polygon(terrain.points)
    from shapely.ops import nearest_points

    p, _ = nearest_points(mover, obstacle)
    return (p.x, p.y)


def _in_arc(state: Game, ship_id: str, rules: RulesData) -> tuple[tuple[str, str, str], ...]:
    return tuple((p.side, p.target, p.band) for p in in_paths(state, ship_id, rules))
