"""The schema of a scenario file (docs/scenario-format.md): every field, its type and its bounds.

What needs the game data or the whole table (a ship's class exists, its base lies on the table, the
terrain lies inside it) is checked by the loader, game/scenario.py.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from game.schema.common import (
    MAX_TABLE_INCHES,
    Inches,
    Name,
    OptName,
    OptSide,
    Schema,
    Side,
    entry_name,
    names,
)

MAX_FILE_BYTES = 100_000
MAX_SQUADRONS = 8
MAX_SHIPS_PER_SQUADRON = 16
MAX_SHIPS = 64  # in the whole game
MAX_TERRAIN = 32
MAX_POLYGON_POINTS = 64
MAX_HAND = 20
MAX_SEED = 2**31 - 1  # the games table stores the seed as a 32-bit integer


def _edge(value: str) -> str:
    if value.upper() not in ("N", "E", "S", "W"):
        raise ValueError("must be N, E, S or W")
    return value.upper()


class TerrainDoc(Schema):
    kind: Literal["island", "rock", "landmass", "shoal", "fog_bank"]
    id: Name | None = None
    points: Annotated[list[Annotated[list[Inches], Field(min_length=2, max_length=2)]],
                      Field(min_length=3, max_length=MAX_POLYGON_POINTS)]


class TableDoc(Schema):
    width: Annotated[float, Field(gt=0, le=MAX_TABLE_INCHES)]
    height: Annotated[float, Field(gt=0, le=MAX_TABLE_INCHES)]
    weather_edge: Annotated[str, AfterValidator(_edge)]
    terrain: Annotated[list[TerrainDoc], Field(max_length=MAX_TERRAIN)] = []


class ShipDoc(Schema):
    name: Name
    cls: Name = Field(alias="class")
    x: Inches
    y: Inches
    heading: Annotated[float, Field(ge=-360, le=360)]
    skill: Annotated[int, Field(ge=0, le=2)] = 0
    sail: Literal["full", "battle", "minimal", "anchored"] = "battle"
    upgrades: names(8) = []  # type: ignore[valid-type]
    fatigue: Annotated[int, Field(ge=0, le=7)] = 0
    damage: Annotated[int, Field(ge=0, le=7)] = 0
    reload: Annotated[list[Literal["port", "starboard"]], Field(max_length=2)] = []
    entangled_with: names(MAX_SHIPS) = []  # type: ignore[valid-type]
    aground: bool = False
    cards: names(4) = []  # type: ignore[valid-type]
    captain: OptName = ""


class SquadronDoc(Schema):
    player: Side
    name: Name | None = None
    faction: OptName = ""
    flagship: Name | None = None
    admiral: Name = "Untested"
    admiral_value: Annotated[int, Field(ge=0, le=10)] = 0
    fortune: Annotated[int, Field(ge=0, le=20)] = 3
    hand: Annotated[list[Name], Field(min_length=1, max_length=MAX_HAND)]
    team: OptSide = ""
    ship: Annotated[list[ShipDoc], Field(min_length=1, max_length=MAX_SHIPS_PER_SQUADRON)]


class ScenarioDoc(Schema):
    system: Annotated[str, Field(pattern=r"^[a-z0-9_]{1,64}$")] = "oak_and_iron"
    edition: Name | None = None
    name: Name | None = None
    table: TableDoc
    squadron: Annotated[list[SquadronDoc], Field(min_length=2, max_length=MAX_SQUADRONS)]
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] = 0
    defender: Name | None = None
    test_dice: bool = False
    last_turn: Annotated[int, Field(ge=1, le=100)] = 10
    events: names(64) = []  # type: ignore[valid-type]
    objective: OptName = ""
    scrolling_sea: bool = False
    tutorial: bool = False


class DraftedDoc(Schema):
    """A built-in or uploaded drafted game: no table or squadrons, only the size the chapter-7 set-up
    (docs/setup.md) builds from the squadron lists the sides bring."""

    system: Literal["oak_and_iron"] = "oak_and_iron"
    name: Name | None = None
    drafted: Literal["patrol", "skirmish", "engagement"]
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] = 0


def label(keys: tuple[str, ...], step: str | int, child: Any, parent: str) -> str | None:
    """Entries as the loader names them: `table`, `squadron A`, a ship by its name, a terrain piece
    by its id (or `terrain #2`)."""
    if keys == ("table",) and step == "table" and isinstance(child, dict):
        return "table"
    if not isinstance(step, int) or not isinstance(child, dict):
        return None
    if keys == ("squadron",):
        player = entry_name(child.get("player"), "")
        return f"squadron {player}" if player else f"squadron #{step + 1}"
    if keys == ("squadron", "ship"):
        return entry_name(child.get("name"), f"{parent} ship #{step + 1}")
    if keys == ("table", "terrain"):
        return entry_name(child.get("id"), f"terrain #{step + 1}")
    return None
