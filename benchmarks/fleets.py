"""Tables for the options' speed and their words: the 20-ship Engagement (benchmarks/engine.py) and
big fleet battles, N ships a side in rows facing each other, with terrain between them.

A scenario file holds at most 16 ships a squadron and 64 in a game (game/schema/scenario.py); the
issue measured 16 to 128 a side, so the rows beyond a file's 16 ships a side are clones of its ships
(new names, new places): the rules treat them as any other ship."""

from __future__ import annotations

import random
from dataclasses import replace

from benchmarks.engine import CLASSES, to_movement
from game.ai.legal import candidates, is_legal
from game.apply import apply_all
from game.commands import Activate, Advance, Attack, Command, Crew, Pass, Shot, Turn
from game.dice import FairDice, seed_from_number
from game.engine import decide
from game.errors import RulesError
from game.model import Game, Phase
from game.scenario import load_scenario_text

ROW = 16  # ships a row
GAP = 3.6  # inches between ships of a row
ROWS_APART = 4.5  # row to row: more than the longest base (3.1") and the rows' 0.5" stagger, so no bases overlap
SIDES_APART = 14.0


def fleet(per_side: int, seed: int = 3) -> Game:
    """`per_side` ships a side (two players), rows of 16, sides 14" apart, four terrain pieces."""
    rows = -(-per_side // ROW)
    width = 8 + min(per_side, ROW) * GAP
    depth = rows * ROWS_APART
    height = 2 * (6 + depth) + SIDES_APART
    lines = [f'name = "Fleet battle, {per_side} a side"', f"seed = {seed}", "", "[table]", f"width = {width:g}",
             f"height = {height:g}", 'weather_edge = "W"', ""]
    mid = height / 2
    terrain = [("shoal", [(width * 0.3, mid - 2), (width * 0.3 + 4, mid - 2), (width * 0.3 + 4, mid + 1),
                          (width * 0.3, mid + 1)]),
               ("rock", [(width * 0.6, mid), (width * 0.6 + 1, mid), (width * 0.6 + 1, mid + 1), (width * 0.6, mid + 1)]),
               ("island", [(1, mid - 2), (4, mid - 2), (4, mid + 2), (1, mid + 2)]),
               ("fog_bank", [(width - 9, mid - 3), (width - 4, mid - 3), (width - 4, mid + 3), (width - 9, mid + 3)])]
    for i, (kind, pts) in enumerate(terrain):
        lines += ["[[table.terrain]]", f'id = "t{i}"', f'kind = "{kind}"',
                  "points = [" + ", ".join(f"[{x:g}, {y:g}]" for x, y in pts) + "]", ""]
    hands = {"A": '["Down!", "Careful Aim", "Rolling Broadsides", "Effective Fire", "Adjust Position"]',
             "B": '["Fire as She Bears", "Take Courage", "Fleet Maneuver", "Reload!", "Favorable Wind"]'}
    first = min(per_side, ROW)
    for player, front, heading in (("A", 6 + depth - ROWS_APART / 2, 0.0), ("B", mid + SIDES_APART / 2 + 1.5, 180.0)):
        lines += ["[[squadron]]", f'player = "{player}"', f'flagship = "{player}0"', f"hand = {hands[player]}", ""]
        for i in range(first):
            lines += ["[[squadron.ship]]", f'name = "{player}{i}"', f'class = "{CLASSES[i % len(CLASSES)]}"',
                      f"x = {4 + i * GAP + GAP / 2:g}", f"y = {front + (i % 2) * 0.5:g}", f"heading = {heading}", ""]
    game = load_scenario_text("\n".join(lines), f"fleet-{per_side}.toml")
    ships = list(game.ships)
    for player, back in (("A", -1), ("B", 1)):
        template = [s for s in game.ships if s.controller == player]
        for i in range(first, per_side):
            t = template[i % ROW]
            ships.append(replace(t, id=f"{player}{i}", y=t.y + back * ROWS_APART * (i // ROW)))
    return replace(game, ships=tuple(ships))


TURNS = [None] + [Turn(when, side, deg) for when in ("start", "end") for side in ("port", "starboard")
                  for deg in (15.0, 30.0, 45.0)]


def random_play(game: Game, rng: random.Random, steps: int, turns: int = 10, start: bool = False) -> Game:
    """The game after up to `steps` more decisions (with `start`, first the initiative picks that
    begin the Movement Phase). A Movement activation is a random move ahead (straight or turning,
    sometimes with a reload) or else a hold; an Attack Phase activation fires a random loaded side at
    one of the three nearest enemies when the engine takes it, else passes; every other decision is
    the first legal one. Cheap enough for 64 ships a side (the legal-move generator is not)."""
    state = to_movement(game) if start else game
    for _ in range(steps):
        if state.phase is Phase.OVER or state.turn > turns:
            break
        cmds: list[Command] = []
        if state.phase is Phase.MOVEMENT and state.activation is None and state.pending is None \
                and state.offer is None and not state.choices:
            ship = next(s for s in state.ships_of(state.active_player or "") if s.can_act and s.id not in state.activated)
            crew = (Crew(ship.id, "reload", side=sorted(s.value for s in ship.reload)[0]) if ship.reload
                    and rng.random() < 0.5 else None)
            moves = rng.sample(TURNS, len(TURNS))
            cmds = [Activate(ship.id, advance=Advance(ship.id, "ahead", t), crew=crew) for t in moves]
            cmds += [Activate(ship.id, advance=Advance(ship.id, "hold")), Activate(ship.id)]
        elif state.phase is Phase.ATTACK and state.activation is None and state.pending is None \
                and state.offer is None and not state.choices and state.active_player:
            ship = next(s for s in state.ships_of(state.active_player) if s.can_act and s.id not in state.activated)
            enemies = sorted((s for s in state.ships if s.on_table and not state.allied(s.controller, ship.controller)),
                             key=lambda s: (s.x - ship.x) ** 2 + (s.y - ship.y) ** 2)[:3]
            sides = rng.sample(["port", "starboard"], 2)
            cmds = [Attack(ship.id, "broadside", (Shot(side, e.id),)) for e in enemies for side in sides]
            cmds.append(Pass(ship.id))
        else:
            cmds = [next(c for c in candidates(state) if is_legal(state, c))]
        for cmd in cmds:
            try:
                events = decide(state, cmd, FairDice(seed_from_number(state.seed), state.log_position))
            except RulesError:
                continue
            state = apply_all(state, events)
            break
    return state
