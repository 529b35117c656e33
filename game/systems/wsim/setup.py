"""A WS&IM setup description -> the state before the first turn (docs/systems/wsim.md, "Setup").

    system = "wsim"
    players = ["British", "French"]
    referee = "Umpire"                 # may be one of the players; default: the first player
    wind = { direction = 1, velocity = 3 }
    wind_shift_number = 5
    options = { fatigue = false, rigging_loss = true, exploding = true, hidden_sails = false, skip_empty = true }

    [[ship]]
    id = "Victory"; player = "British"; class = 1; battle_sail = 3; full_sail = 5; turning = 1
    quality = "Cr"; guns = 14; carronades = 2; hull = 30; crew = [10, 10, 10]; rigging = [8, 8, 8]
    heading = 4; leaders = ["Nelson", "Hardy"]; load = { left = "R", right = "R" }
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.systems.setup import (
    SetupError,
    choice,
    entries,
    field,
    int_in,
    int_list,
    players_and_referee,
    str_list,
)
from game.systems.wsim.model import AMMO, QUALITIES, Broadside, Options, Ship, Wind, WsimGame


def initial_state(doc: Mapping[str, Any]) -> WsimGame:
    players, referee = players_and_referee(doc)
    wind_doc = field(doc, "wind", dict, "game")
    direction = int_in(wind_doc, "direction", 1, 6, "wind")
    wind = Wind(direction, int_in(wind_doc, "velocity", 0, 6, "wind"))
    wsn = int_in(doc, "wind_shift_number", 4, 6, "game")
    opt = field(doc, "options", dict, "game", {})
    known = ("fatigue", "rigging_loss", "exploding", "hidden_sails", "skip_empty")
    unknown = set(opt) - set(known)
    if unknown:
        raise SetupError(f"Unknown option(s): {', '.join(sorted(unknown))}.", f"Options: {', '.join(known)}.")
    options = Options(
        fatigue=field(opt, "fatigue", bool, "options", False),
        rigging_loss=field(opt, "rigging_loss", bool, "options", True),
        exploding=field(opt, "exploding", bool, "options", True),
        hidden_sails=field(opt, "hidden_sails", bool, "options", False),
        skip_empty=field(opt, "skip_empty", bool, "options", True),
    )
    ships = tuple(_ship(e) for e in entries(doc, "ship", players, "ship"))
    return WsimGame(players, referee, ships, wind, direction, wsn, options=options,
                    seed=field(doc, "seed", int, "game", 0))


def _ship(e: Mapping[str, Any]) -> Ship:
    where = f"ship {e['id']}"
    bs = int_in(e, "battle_sail", 3, 4, where)
    crew = int_list(e, "crew", where, (3,))
    rigging = int_list(e, "rigging", where, (bs,))
    load = field(e, "load", dict, where, {"left": "R", "right": "R"})
    broadsides = []
    for side in ("left", "right"):
        ammo = field(load, side, str, f"{where} load", "")
        if ammo and ammo not in AMMO:
            raise SetupError(f"The setup's {where}: load {side} must be one of {', '.join(AMMO)} or empty.")
        broadsides.append(Broadside(side, load=ammo))
    return Ship(
        id=e["id"].strip(),
        player=e["player"],
        ship_class=int_in(e, "class", 1, 7, where),
        battle_sail=bs,
        full_sail=int_in(e, "full_sail", 5, 7, where),
        turning=int_in(e, "turning", 0, 6, where),
        quality=choice(e, "quality", QUALITIES, where),
        guns=int_in(e, "guns", 1, 14, where),
        hull=int_in(e, "hull", 1, 99, where),
        crew=crew,
        rigging=rigging,
        heading=int_in(e, "heading", 1, 6, where),
        carronades=int_in(e, "carronades", 0, 20, where, 0),
        eighty_gun=field(e, "eighty_gun", bool, where, False),
        rowed=field(e, "rowed", bool, where, False),
        nation=field(e, "nation", str, where, ""),
        leaders=str_list(e, "leaders", where, []),
        crew_lost=(0,) * len(crew),
        rigging_lost=(0,) * len(rigging),
        sails=choice(e, "sails", ("battle", "full"), where, "battle"),
        broadsides=tuple(broadsides),
    )
