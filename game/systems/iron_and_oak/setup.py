"""An Iron & Oak setup description -> the state before the first turn (docs/systems/iron_and_oak.md).

    system = "iron_and_oak"
    players = ["Union", "Confederate"]
    referee = "Umpire"
    [[ship]]
    id = "Monitor"; player = "Union"; maneuver = "d10d6"; ram = "d6"; wl = "d10d8"; draft = 2; hits = 8
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.errors import ParseError
from game.systems.dice import parse_spec
from game.systems.iron_and_oak.model import IOGame, IOShip
from game.systems.setup import SetupError, entries, field, int_in, players_and_referee


def _dice(e: Mapping[str, Any], key: str, where: str) -> str:
    text: str = field(e, key, str, where, "")
    if not text:
        return ""
    try:
        return parse_spec(text).text
    except ParseError as exc:
        raise SetupError(f"The setup's {where}: `{key}`: {exc.text}") from None


def initial_state(doc: Mapping[str, Any]) -> IOGame:
    players, referee = players_and_referee(doc)
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
        ))
    return IOGame(players, referee, tuple(ships), seed=field(doc, "seed", int, "game", 0))
