"""Read-outs of a state: the JSON summary (docs/json-schema.md) and the text board of the table."""

from __future__ import annotations

from typing import Any

from game import geometry as geo
from game.model import Activation, Game, PointOfSail, Ship
from game.phases.common import hull
from game.phases.movement import activation_speed, speed_rating
from game.roll_text import reroll_offer
from game.rules_data import RulesData, load_rules


def point_of_sail_now(state: Game, ship: Ship) -> PointOfSail | None:
    t = state.table
    return geo.point_of_sail(hull(ship), t.weather_edge, t.width, t.height)


def speed_rating_now(state: Game, ship: Ship, rules: RulesData) -> int:
    """The speed the ship has in its activation under way, else the speed it would move at if it
    began one where it stands (Crippled, Anchored and Aground considered, as the move does)."""
    if not ship.can_act:
        return 0
    act = state.activation
    if act is None or act.ship != ship.id:
        pos = point_of_sail_now(state, ship)
        pos = pos or (PointOfSail.LARGE if ship.large >= ship.windward else PointOfSail.WINDWARD)
        act = Activation(ship.id, ship.controller, pos, activation_speed(state, ship, pos, rules))
    return max(0, speed_rating(ship, act))


def summary(state: Game, rules: RulesData | None = None) -> dict[str, Any]:
    rules = rules or load_rules(state.system)
    points = dict(state.strike_points)
    return {
        "game": state.name,
        "turn": state.turn,
        "phase": state.phase.value,
        "active_player": state.active_player,
        "initiative": state.initiative,
        "weather_edge": state.table.weather_edge,
        "winner": state.winner,
        "result": state.result,
        "strike_points": {p: points.get(p, 0) for p in state.players},
        "pending_roll": None
        if state.pending is None
        else {"player": state.pending.player, "ship": state.pending.ship, "faces": list(state.pending.faces)},
        "ships": [_ship_summary(state, s, rules) for s in state.ships],
    }


def _ship_summary(state: Game, s: Ship, rules: RulesData) -> dict[str, Any]:
    pos = point_of_sail_now(state, s)
    return {
        "name": s.id,
        "owner": s.owner,
        "controller": s.controller,
        "class": s.cls,
        "x": round(s.x, 3),
        "y": round(s.y, 3),
        "heading": round(s.heading, 2),
        "point_of_sail": pos.value if pos else "between",
        "sail_setting": s.sail.value,
        "speed_rating": speed_rating_now(state, s, rules),
        "damage": s.damage,
        "fatigue": s.fatigue,
        "statuses": s.status_names(),
        "reload_markers": sorted(side.value for side in s.reload),
        "wake": s.wake,
        "flagship": state.squadron(s.owner).flagship == s.id,
        "entangled_with": sorted(s.entangled_with),
    }


def describe(state: Game, rules: RulesData | None = None) -> str:
    """The state as text for the offline table (secrets of both sides stay hidden)."""
    rules = rules or load_rules(state.system)
    t = state.table
    lines = [
        f"{state.name} — turn {state.turn}, {state.phase.value} phase"
        + (f", player {state.active_player} to act" if state.active_player else ""),
        f"Table {t.width:g}x{t.height:g}, wind from the {t.weather_edge}"
        + (f", initiative: {state.initiative}" if state.initiative else ""),
    ]
    for q in state.squadrons:
        card = q.face_up or "-"
        chosen = "chosen" if q.picked else "not chosen"
        lines.append(
            f"  Player {q.player} ({q.name}): flagship {q.flagship}, fortune {q.fortune}, face-up {card}, "
            f"next card {chosen}, hand {len(q.hand)}"
        )
    for s in state.ships:
        d = _ship_summary(state, s, rules)
        flags = ", ".join(d["statuses"]) or "-"
        reload = ",".join(d["reload_markers"]) or "-"
        lines.append(
            f"  {s.controller} {s.id:<12} {s.cls:<15} ({d['x']:6.2f},{d['y']:6.2f}) hdg {d['heading']:6.1f} "
            f"{d['point_of_sail']:<9} {s.sail.value:<8} spd {d['speed_rating']} dmg {s.damage} fat {s.fatigue} "
            f"reload {reload} {'wake ' if s.wake else ''}[{flags}]"
        )
    if state.pending:
        p = state.pending
        lines.append(f"  Roll waiting for player {p.player}: {' '.join(p.faces)} — {reroll_offer(state)}, or keep "
                     "(reroll N…, fortune, keep)")
    if state.winner or state.phase.value == "over":
        lines.append(f"  Game over: winner {state.winner or 'none'} ({state.result})")
    return "\n".join(lines)
