"""A Captain's Sea setup description -> the state before the first turn (docs/systems/captains_sea.md).

    system = "captains_sea"
    players = ["US", "British"]
    referee = "Umpire"
    offsets = { high = H, low = L }          # optional: the group's reading of rule 11's base rows (the setup's)
    [[ship]]
    id = "Constitution"; player = "US"; hull_type = "row 1"; quality = 1; morale = "handy"
    track = ["Broken", "Shaken", "Steady", "Handy"]; crew_status = 3
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.systems.captains_sea.model import MORALES, CSGame, CSShip
from game.systems.setup import SetupError, choice, entries, field, int_in, players_and_referee, str_list

HULL_ROWS = ("row 1", "row 2", "Slow")


def initial_state(doc: Mapping[str, Any]) -> CSGame:
    players, referee = players_and_referee(doc)
    ships = []
    for e in entries(doc, "ship", players, "ship"):
        where = f"ship {e['id']}"
        track = str_list(e, "track", where, [])
        status = int_in(e, "crew_status", 0, max(0, len(track) - 1) if track else 99, where, max(0, len(track) - 1))
        ships.append(CSShip(
            id=e["id"].strip(),
            player=e["player"],
            hull_type=choice(e, "hull_type", HULL_ROWS, where, "") if "hull_type" in e else "",
            quality=int_in(e, "quality", -6, 6, where, 0),
            morale=choice(e, "morale", MORALES, where, "normal"),
            track=track,
            crew_status=status,
        ))
    raw = field(doc, "offsets", dict, "game", {})
    if set(raw) - {"high", "low"}:
        raise SetupError("The setup's `offsets` takes high and low.")
    offsets = tuple((k, int_in(raw, k, -30, 30, "offsets")) for k in ("high", "low") if k in raw)
    sources = tuple((k, "setup") for k, _ in offsets)
    return CSGame(players, referee, tuple(ships), offsets=offsets, offset_sources=sources,
                  seed=field(doc, "seed", int, "game", 0))
