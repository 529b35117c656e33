"""The card-effect vocabulary and its interpreter.

A card's `effects` (data, see docs/effects.md) are read here and nowhere else: the rules ask this
module "what modifies this roll / speed / terrain check for this ship now?" and never test a card's
name.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from game.model import Game, PointOfSail, Ship
from game.rules_data import RulesData

Effect = Mapping[str, Any]


def face_up_effects(state: Game, player: str, rules: RulesData) -> Iterator[Effect]:
    """Effects in force for a player: the face-up initiative card (and an event card, for both)."""
    q = state.squadron(player)
    if q.face_up and q.face_up in rules.cards:
        yield from rules.cards[q.face_up].effects
    if state.event_face_up and state.event_face_up in rules.cards:
        yield from rules.cards[state.event_face_up].effects


def _effects_of(state: Game, ship: Ship, kind: str, rules: RulesData) -> Iterator[Effect]:
    for e in face_up_effects(state, ship.controller, rules):
        if e.get("kind") == kind and e.get("scope", "own_ships") == "own_ships":
            yield e


def speed_bonus(state: Game, ship: Ship, pos: PointOfSail, rules: RulesData) -> int:
    total = 0
    for e in _effects_of(state, ship, "speed", rules):
        cond = e.get("condition", "")
        if cond == "sailing_large" and (pos is not PointOfSail.LARGE or ship.entangled or ship.aground):
            continue
        total += int(e.get("add", 0))
    return total


def ignores_terrain(state: Game, ship: Ship, terrain_kind: str, rules: RulesData) -> bool:
    return any(e.get("terrain") == terrain_kind for e in _effects_of(state, ship, "ignore_terrain", rules))
