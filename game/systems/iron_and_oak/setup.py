"""An Iron & Oak setup description -> the state before the first turn (docs/systems/iron_and_oak.md).

    system = "iron_and_oak"
    players = ["Union", "Confederate"]
    referee = "Umpire"
    [grid]                    # optional: the map (without it the players say what lies where)
    columns = 5; rows = 5
    [[box]]
    id = "B2"; depth = 3; hulks = 1; obstruction = "heavy"; mines = 1
    [[ship]]
    id = "Monitor"; player = "Union"; maneuver = "d10d6"; ram = "d6"; wl = "d10d8"; draft = 2; hits = 8; box = "C3"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.errors import ParseError
from game.systems.dice import parse_spec
from game.systems.iron_and_oak.grid import OBSTRUCTIONS, Grid, GridBox
from game.systems.iron_and_oak.model import IOGame, IOShip
from game.systems.setup import SetupError, choice, entries, field, int_in, players_and_referee

MAX_SIDE = 26  # columns are letters


def _dice(e: Mapping[str, Any], key: str, where: str) -> str:
    text: str = field(e, key, str, where, "")
    if not text:
        return ""
    try:
        return parse_spec(text).text
    except ParseError as exc:
        raise SetupError(f"The setup's {where}: `{key}`: {exc.text}") from None


def _grid(doc: Mapping[str, Any]) -> Grid:
    """`[grid]` and its `[[box]]` entries; no `[grid]`: no map (and then no boxes)."""
    if "grid" not in doc:
        if "box" in doc:
            raise SetupError("The setup's `box` entries need a `[grid]` with its `columns` and `rows`.")
        return Grid()
    g = field(doc, "grid", dict, "game")
    grid = Grid(int_in(g, "columns", 1, MAX_SIDE, "grid"), int_in(g, "rows", 1, MAX_SIDE, "grid"))
    boxes: dict[str, GridBox] = {}
    raw = field(doc, "box", list, "game", [])
    for i, e in enumerate(raw, start=1):
        if not isinstance(e, dict):
            raise SetupError(f"The setup's box {i} must be a table.")
        text = field(e, "id", str, f"box {i}")
        name = grid.name(text)
        if name is None:
            raise SetupError(f"The setup's box {i}: `id` {text[:20]!r} is not a Grid Box of this map ({grid.extent}).")
        if name in boxes:
            raise SetupError(f"The setup's box {name}: `id` is given twice.")
        where = f"box {name}"
        boxes[name] = GridBox(name, int_in(e, "depth", 0, 20, where) if "depth" in e else -1, int_in(e, "hulks", 0, 9, where, 0),
                              choice(e, "obstruction", OBSTRUCTIONS, where, ""), int_in(e, "mines", 0, 9, where, 0))
    for b in boxes.values():
        grid = grid.with_box(b)
    return grid


def _box(e: Mapping[str, Any], grid: Grid, where: str) -> str:
    text: str = field(e, "box", str, where, "")
    if not text:
        return ""
    if not grid.on:
        raise SetupError(f"The setup's {where}: `box` needs a `[grid]` (the map) in the setup.")
    name = grid.name(text)
    if name is None:
        raise SetupError(f"The setup's {where}: `box` {text[:20]!r} is not a Grid Box of this map ({grid.extent}).")
    return name


def initial_state(doc: Mapping[str, Any]) -> IOGame:
    players, referee = players_and_referee(doc)
    grid = _grid(doc)
    ships = []
    for e in entries(doc, "ship", players, "ship"):
        where = f"ship {e['id']}"
        ships.append(IOShip(
            id=e["id"].strip(),
            player=e["player"],
            maneuver=_dice(e, "maneuver", where),
            ram=_dice(e, "ram", where),
            wl=_dice(e, "wl", where),
            bow_on=_dice(e, "bowon", where),
            draft=int_in(e, "draft", 0, 20, where, -1) if "draft" in e else -1,
            hits_value=int_in(e, "hits", 0, 99, where, -1) if "hits" in e else -1,
            powered=field(e, "powered", bool, where, True),
            box=_box(e, grid, where),
        ))
    return IOGame(players, referee, tuple(ships), seed=field(doc, "seed", int, "game", 0), grid=grid)
