"""The computer captain's set-up choices in a drafted game: role, draft, terrain and deployment.

Positions are tried in a fixed order (and with the captain's own random numbers for terrain), each
judged by the rules engine, so a choice is always legal and the same seed chooses the same way.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from shapely.geometry import Polygon

from game.commands import AddTerrain, ChooseRole, Command, Deploy, Draft, FinishStep, PlaceTerrain
from game.model import Game, Phase, Status
from game.phases.preparation import DEPLOY_HEADINGS, DRAFT_DECKS, allowed_kinds, deployment_area, first_spot
from game.rules_data import RulesData

DRAFT_ORDER = ("advantage", "deployment", "setting")  # what the captain values first
assert set(DRAFT_ORDER) == set(DRAFT_DECKS)
PLACE_TRIES = 60


def setup_candidates(state: Game, player: str, rules: RulesData, rng: random.Random | None = None) -> Iterator[Command]:
    """Set-up commands for the player, the captain's preferred first."""
    prep = state.prep
    if state.phase is not Phase.PREPARATION or prep is None or prep.to_act != player:
        return
    if prep.step == "role":
        yield ChooseRole(player, "attacker")  # the attacker drafts first
        yield ChooseRole(player, "defender")
    elif prep.step == "draft":
        have = {d for p, d, _ in prep.drafted if p == player}
        for deck in DRAFT_ORDER:
            for card in prep.offered:
                if deck not in have and card in rules.scenario_cards.get(deck, {}):
                    yield Draft(player, card)
    elif prep.step == "select":
        for kind in allowed_kinds(state, player, rules):
            yield AddTerrain(player, kind)
    elif prep.step == "place":
        yield from _placements(state, player, rules, rng or random.Random(state.log_position))
    elif prep.step == "adjust":
        yield FinishStep(player)
    elif prep.step == "deploy":
        yield from _deployments(state, player, rules)


def _placements(state: Game, player: str, rules: RulesData, rng: random.Random) -> Iterator[Command]:
    """Terrain somewhere in the middle band of the table, where it shapes the battle; failing that,
    the first spot the rules' own search finds (a piece in the pool always has one)."""
    prep = state.prep
    assert prep is not None
    w, h = state.table.width, state.table.height
    for piece in prep.pool:
        for _ in range(PLACE_TRIES):
            x = round(rng.uniform(0.15 * w, 0.85 * w), 1)
            y = round(rng.uniform(0.2 * h, 0.8 * h), 1)
            yield PlaceTerrain(player, piece.id, x, y, float(rng.choice((0, 30, 60, 90, 120, 150))))
        spot = first_spot(state, rules, piece)
        if spot is not None:
            yield PlaceTerrain(player, piece.id, *spot)


def _deployments(state: Game, player: str, rules: RulesData) -> Iterator[Command]:
    """The next undeployed ship, as far back in the zone as it goes, spread along it, bow toward
    the enemy's edge."""
    prep = state.prep
    assert prep is not None
    ship = next((s for s in state.ships if s.owner == player and Status.UNDEPLOYED in s.statuses), None)
    if ship is None:
        return
    area: Polygon = deployment_area(state, rules, ship.id)
    minx, miny, maxx, maxy = (float(v) for v in area.bounds)
    edge = prep.edge_of(player)
    heading = {"S": 0.0, "N": 180.0, "W": 90.0, "E": 270.0}[edge]
    half = ship.length / 2 + 0.2
    placed = sum(1 for s in state.ships if s.owner == player and s.on_table)
    if edge in ("S", "N"):
        depths = [miny + half + k for k in range(int(maxy - miny))] if edge == "S" else \
                 [maxy - half - k for k in range(int(maxy - miny))]
        centre = (minx + maxx) / 2
        offsets = sorted(range(-int((maxx - minx) / 2), int((maxx - minx) / 2) + 1),
                         key=lambda o: abs(o - (placed - 3) * 3))
        for d in depths:
            for o in offsets:
                yield Deploy(player, ship.id, centre + o, d, heading)
    else:
        depths = [minx + half + k for k in range(int(maxx - minx))] if edge == "W" else \
                 [maxx - half - k for k in range(int(maxx - minx))]
        for d in depths:
            for j in range(int(miny) + 1, int(maxy)):
                yield Deploy(player, ship.id, d, float(j), heading)
    # then every spot and heading the rules' own search tries, so a ship with room finds it
    for h in DEPLOY_HEADINGS:
        for i in range(int(maxx - minx) + 1):
            for j in range(int(maxy - miny) + 1):
                yield Deploy(player, ship.id, minx + i, miny + j, h)
