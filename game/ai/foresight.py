"""Foresight: where an order would take a ship, worked out from the movement rules' own figures
(point of sail, speed, tool, turn) without playing it through the engine.

The computer captain ranks its candidate orders with this and plays only the best few through the
engine, which stays the judge of legality and of what really happens (collisions, shoals, cards).
A prediction is only offered for a plain move from the start of an activation; anything else
(Entangled, Aground, In the Wind's Eye, an activation under way) gets None and is played in full.
"""

from __future__ import annotations

from dataclasses import replace

from game import geometry as geo
from game import option_geometry
from game.commands import Turn
from game.model import Activation, Game, PointOfSail, Ship
from game.phases.common import hull
from game.phases.movement import activation_speed, speed_rating, why_no_forward_move
from game.rules_data import RulesData


def move_speed(state: Game, ship: Ship, rules: RulesData) -> tuple[PointOfSail, int] | None:
    """The point of sail and speed rating a fresh activation of the ship would have, or None when
    the ship could not make a plain move ahead (or the player would choose the point of sail)."""
    if state.activation is not None or not ship.on_table:
        return None
    t = state.table
    pos = geo.point_of_sail(hull(ship), t.weather_edge, t.width, t.height)
    if pos is None:
        return None
    act = Activation(ship.id, ship.controller, pos, activation_speed(state, ship, pos, rules))
    if why_no_forward_move(ship, act) is not None:
        return None
    return pos, speed_rating(ship, act)


def end_pose(ship: Ship, speed: int, turn: Turn | None, rules: RulesData) -> geo.Pose | None:
    """Where a move ahead with this turn ends if nothing is in the way; None if the turn is too sharp.
    The paths are the options' own (game/option_geometry.py), kept per ship as it stands: a board
    read and the captain's turn ask for the same ones."""
    return option_geometry.path_end(ship, speed, turn, rules)


def moved(state: Game, ship: Ship, pose: geo.Pose) -> Game:
    """The state with the ship put at the pose (nothing else changes): a sketch to score, not a move."""
    return state.with_ship(replace(ship, x=pose.x, y=pose.y, heading=geo.norm_heading(pose.heading)))
