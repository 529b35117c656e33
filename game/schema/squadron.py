"""The schema of a squadron list (docs/squadron-format.md). The building rules (points, sizes, who
may take what) are checked against the game data by game/squadron.py's `validate`."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from game.schema.common import Name, OptName, Schema, entry_name, names

MAX_FILE_BYTES = 50_000
MAX_SHIPS = 16  # an Engagement has at most 10
MAX_HAND = 20


class ShipLine(Schema):
    name: Name
    cls: Name = Field(alias="class")
    skill: Annotated[int, Field(ge=0, le=2)] = 0
    options: names(8) = []  # type: ignore[valid-type]
    captain: OptName = ""
    cards: names(4) = []  # type: ignore[valid-type]


class SquadronDoc(Schema):
    name: Name = "Squadron"
    size: OptName = ""
    faction: OptName = ""
    admiral: OptName = ""
    flagship: OptName = ""
    hand: names(MAX_HAND) = []  # type: ignore[valid-type]
    ship: Annotated[list[ShipLine], Field(max_length=MAX_SHIPS)] = []


def label(keys: tuple[str, ...], step: str | int, child: Any, parent: str) -> str | None:
    """A ship line is named by its name, or `ship #2` when it has none."""
    if keys == ("ship",) and isinstance(step, int) and isinstance(child, dict):
        return entry_name(child.get("name"), f"ship #{step + 1}")
    return None
