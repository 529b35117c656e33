"""Set-up geometry: terrain pieces' footprints and each side's deployment zone (docs/setup.md)."""

from __future__ import annotations

import math

from shapely.geometry import Polygon, box

from game.model import Game
from game.rules_data import RulesData, TerrainShape

DEFAULT_DEPTH = 6.0  # a side without a deployment card deploys within 6" of its edge
ELLIPSE_POINTS = 24


def terrain_points(shape: TerrainShape, x: float, y: float, rotation: float) -> tuple[tuple[float, float], ...]:
    """The piece's outline centred on (x, y); rotation turns its width axis clockwise from east."""
    a, b = shape.width / 2, shape.depth / 2
    r = math.radians(-rotation)
    pts = []
    for i in range(ELLIPSE_POINTS):
        t = 2 * math.pi * i / ELLIPSE_POINTS
        px, py = a * math.cos(t), b * math.sin(t)
        pts.append((round(x + px * math.cos(r) - py * math.sin(r), 3), round(y + px * math.sin(r) + py * math.cos(r), 3)))
    return tuple(pts)


def zone_spec(state: Game, player: str, rules: RulesData) -> dict[str, object]:
    prep = state.prep
    card = prep.drafted_card(player, "deployment") if prep else None
    found = rules.scenario_cards.get("deployment", {}).get(card or "")
    return dict(found.details.get("zone", {})) if found else {"depth": DEFAULT_DEPTH}


def zone(state: Game, player: str, rules: RulesData) -> Polygon:
    """Where the player's squadron may deploy: its own deployment card read against its own edge."""
    assert state.prep is not None
    w, h = state.table.width, state.table.height
    edge = state.prep.edge_of(player)
    spec = zone_spec(state, player, rules)
    weather = state.table.weather_edge
    lo_x, hi_x = 0.0, w
    if "corner" in spec:
        size = float(spec["corner"])  # type: ignore[arg-type]
        depth = size
        lo_x, hi_x = (w - size, w) if weather == "E" else (0.0, size)
    else:
        attacker = state.prep.attacker == player
        if "attacker_half" in spec and not attacker:
            depth = DEFAULT_DEPTH
        else:
            depth = float(spec.get("depth", DEFAULT_DEPTH))  # type: ignore[arg-type]
            inset = float(spec.get("inset", 0.0))  # type: ignore[arg-type]
            lo_x, hi_x = inset, w - inset
            if "attacker_half" in spec and weather in ("E", "W"):
                lo_x, hi_x = (w / 2, w) if weather == "E" else (0.0, w / 2)
    if edge == "S":
        return box(lo_x, 0.0, hi_x, depth)
    if edge == "N":
        return box(lo_x, h - depth, hi_x, h)
    # a side on a short edge: the same zone turned through 90 degrees
    lo_y, hi_y = lo_x * h / w, hi_x * h / w
    return box(0.0, lo_y, depth, hi_y) if edge == "W" else box(w - depth, lo_y, w, hi_y)


def zone_spacing(state: Game, player: str, rules: RulesData) -> float | None:
    """The least distance between two of the player's ships that its deployment card asks for."""
    band = zone_spec(state, player, rules).get("spacing")
    return rules.range_of(str(band)) if band else None
