"""The schema of each game-data file (docs/data.md): what a guild may write in it, with bounds.

Relations between entries and between files (a ship's base exists, bands are in order, every roll
the engine makes has its success faces) are checked by the loader, game/rules_data.py.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator

from game.schema.common import MAX_TABLE_INCHES, ClosedSchema, Name, OptName, Schema, Text, entry_name, names

# Every effect `kind` the engine reads (docs/effects.md); tests/game/test_data_bounds.py checks
# this list against the engine's source.
EFFECT_KINDS = (
    "admiral_value", "after_move", "auto_pass", "crew_action", "damage_taken", "dice", "event_choice",
    "exploding_dice", "fatigue_given", "fatigue_taken", "formation_rule", "fortune", "free_attack", "free_move",
    "free_reroll", "hit_faces", "ignore_fatigue", "ignore_terrain", "on_rally", "on_reveal", "on_start", "rally",
    "range_shift", "reload_all", "repair", "reroll", "restriction", "speed", "strike_points", "test_dice",
)
# Effect fields that name a range band, die faces or a terrain kind: checked against the other files.
BAND_FIELDS = ("band", "clear", "range", "within", "attacks_against_at")
FACE_FIELDS = ("face", "faces", "only")
TERRAIN_KINDS = ("island", "rock", "landmass", "shoal", "fog_bank")
STATS = ("fortitude", "broadside", "crew", "windward", "large")
SHIP_STATS = (*STATS, "skill")
RESTRICTIONS = ("not_ship_of_the_line", "not_flagship", "only_upgrade")
DECKS = ("objective", "setting", "deployment", "advantage", "event")

MAX_ENTRIES = 200  # entries of one kind in one file
MAX_EFFECTS = 16  # effects on one card
MAX_DIE_SIDES = 64
MAX_FACE_COUNT = 12

Points = Annotated[int, Field(ge=-100, le=1000)]
Stat = Annotated[int, Field(ge=0, le=20)]
StatChange = Annotated[int, Field(ge=-20, le=20)]
EffectNumber = Annotated[int, Field(ge=-20, le=20)]
Length = Annotated[float, Field(gt=0, le=MAX_TABLE_INCHES)]


def _add(value: Any) -> int | list[str]:
    """`add` is a number (dice, speed, Fatigue, points) or, for `hit_faces`, a list of die faces."""
    if isinstance(value, list):
        if len(value) > MAX_DIE_SIDES or not all(isinstance(f, str) and 0 < len(f) <= 64 for f in value):
            raise ValueError("must be a number or a list of die faces")
        return value
    if isinstance(value, int) and not isinstance(value, bool) and -20 <= value <= 20:
        return value
    raise ValueError("must be a whole number from -20 to 20, or a list of die faces")


class Effect(ClosedSchema):
    """One card effect: a known kind and the fields the engine reads, each of its type and bounded."""

    kind: Literal[EFFECT_KINDS]  # type: ignore[valid-type]
    add: Annotated[int | list[str], PlainValidator(_add)] | None = None
    action: Name | None = None
    attack: Name | None = None
    attacks: names(8) | None = None  # type: ignore[valid-type]
    attacks_against_at: Name | None = None
    band: Name | None = None
    clear: Name | None = None
    condition: Name | None = None
    edge: Name | None = None
    face: Name | None = None
    faces: names(MAX_DIE_SIDES) | None = None  # type: ignore[valid-type]
    forbid: Name | None = None
    harmless: bool | None = None
    move: Name | None = None
    only: names(MAX_DIE_SIDES) | None = None  # type: ignore[valid-type]
    range: Name | None = None
    requires: Annotated[str, Field(pattern=r"^(admiral|ship):[^\x00-\x1f\x7f]{1,64}$")] | None = None
    roll: Name | None = None
    scope: Name | None = None
    side: Name | None = None
    source: Name | None = None
    target_sail: names(8) | None = None  # type: ignore[valid-type]
    terrain: Literal[TERRAIN_KINDS] | None = None  # type: ignore[valid-type]
    test: Name | None = None
    trigger: Name | None = None
    turns: Annotated[list[Annotated[int, Field(ge=1, le=100)]], Field(max_length=100)] | None = None
    unless: Name | None = None
    within: Name | None = None
    amount: EffectNumber | None = None
    bands: EffectNumber | None = None
    dice: EffectNumber | None = None
    fail_fatigue: EffectNumber | None = None
    fatigue: EffectNumber | None = None
    max_speed: EffectNumber | None = None
    minimum: EffectNumber | None = None
    per_turn: EffectNumber | None = None
    remove_fatigue: EffectNumber | None = None
    steps: EffectNumber | None = None
    tool: Annotated[int, Field(ge=1, le=12)] | None = None
    uses: EffectNumber | None = None


Effects = Annotated[list[Effect], Field(max_length=MAX_EFFECTS)]
StatChanges = Annotated[dict[Literal[SHIP_STATS], StatChange], Field(max_length=len(SHIP_STATS))]  # type: ignore[valid-type]


def entries(model: Any) -> Any:
    """A file's [[entry]] tables: one or more, at most MAX_ENTRIES."""
    return Annotated[list[model], Field(min_length=1, max_length=MAX_ENTRIES)]


class DataFile(Schema):
    provisional: bool = False
    source: Text = ""


# ---------------------------------------------------------------- one schema per file


class DiceFile(DataFile):
    faces: Annotated[dict[Name, Annotated[int, Field(ge=0, le=MAX_FACE_COUNT)]], Field(min_length=1, max_length=16)]
    success: Annotated[dict[Name, names(MAX_DIE_SIDES)], Field(max_length=64)]  # type: ignore[valid-type]


class Band(Schema):
    name: Name
    label: Name
    max: Length


class RangesFile(DataFile):
    band: entries(Band)  # type: ignore[valid-type]


class ToolEntry(Schema):
    speed: Annotated[int, Field(ge=1, le=12)]
    length: Annotated[float, Field(gt=0, le=24)]
    max_turn: Annotated[float, Field(gt=0, le=90)]


class ToolsFile(DataFile):
    tool: Annotated[list[ToolEntry], Field(min_length=1, max_length=12)]


class BaseEntry(Schema):
    name: Name
    beam: Annotated[float, Field(gt=0, le=12)]
    length: Annotated[float, Field(gt=0, le=12)]


class BasesFile(DataFile):
    base: entries(BaseEntry)  # type: ignore[valid-type]


class ShipEntry(Schema):
    name: Name
    points: Annotated[int, Field(ge=0, le=1000)]
    base: Name
    fortitude: Stat
    broadside: Stat
    crew: Stat
    windward: Stat
    large: Stat
    traits: names(16) = []  # type: ignore[valid-type]
    upgrades: Annotated[dict[Name, Points], Field(max_length=32)] = {}
    provisional: Annotated[list[Literal[STATS]], Field(max_length=len(STATS))] = []  # type: ignore[valid-type]


class ShipsFile(DataFile):
    ship: entries(ShipEntry)  # type: ignore[valid-type]


class UpgradeEntry(ClosedSchema):
    name: Name
    traits: names(16) = []  # type: ignore[valid-type]
    fortitude: StatChange | None = None
    broadside: StatChange | None = None
    crew: StatChange | None = None
    windward: StatChange | None = None
    large: StatChange | None = None


class UpgradesFile(DataFile):
    upgrade: entries(UpgradeEntry)  # type: ignore[valid-type]


class CardEntry(Schema):
    name: Name
    value: Annotated[int, Field(ge=0, le=20)]
    discard: bool
    text: Text
    effects: Effects = []
    nation: OptName = ""


class CardsFile(DataFile):
    card: entries(CardEntry)  # type: ignore[valid-type]


class AdmiralEntry(Schema):
    name: Name
    nation: OptName = ""
    value: Annotated[int, Field(ge=0, le=10)]
    keywords: names(8) = []  # type: ignore[valid-type]
    points: Points


class AdmiralsFile(DataFile):
    admiral: entries(AdmiralEntry)  # type: ignore[valid-type]


class CaptainEntry(Schema):
    name: Name
    nation: OptName = ""
    points: Points
    keywords: names(8) = []  # type: ignore[valid-type]


class CaptainsFile(DataFile):
    captain: entries(CaptainEntry)  # type: ignore[valid-type]


class UpgradeCardEntry(Schema):
    name: Name
    points: Points
    nations: names(16) = []  # type: ignore[valid-type]
    restrictions: Annotated[list[Literal[RESTRICTIONS]], Field(max_length=len(RESTRICTIONS))] = []  # type: ignore[valid-type]
    text: Text = ""
    effects: Effects = []
    stats: StatChanges = {}


class UpgradeCardsFile(DataFile):
    upgrade_card: entries(UpgradeCardEntry)  # type: ignore[valid-type]


class KeywordEntry(Schema):
    name: Name
    text: Text
    effects: Effects = []
    stats: StatChanges = {}
    fortune: Annotated[int, Field(ge=0, le=10)] = 0


class KeywordsFile(DataFile):
    keyword: entries(KeywordEntry)  # type: ignore[valid-type]


class FactionEntry(Schema):
    name: Name
    rule: Text
    stout_discount: bool = False
    effects: Effects = []


class FactionsFile(DataFile):
    faction: entries(FactionEntry)  # type: ignore[valid-type]


class TerrainPool(ClosedSchema):
    """A setting's terrain: how many pieces each player adds, of which kinds."""

    count: Annotated[int, Field(ge=0, le=10)]
    kinds: Annotated[list[Literal[TERRAIN_KINDS]], Field(max_length=len(TERRAIN_KINDS))] = []  # type: ignore[valid-type]
    require: Annotated[list[Literal[TERRAIN_KINDS]], Field(max_length=len(TERRAIN_KINDS))] = []  # type: ignore[valid-type]


class Zone(ClosedSchema):
    """A deployment card's zone: depth from the edge, an inset from the short edges, a corner
    square, the attacker's half, or a spacing band between the player's ships (inches)."""

    depth: Annotated[float, Field(gt=0, le=60)] | None = None
    inset: Annotated[float, Field(ge=0, le=60)] | None = None
    corner: Annotated[float, Field(gt=0, le=60)] | None = None
    attacker_half: Literal["weather"] | None = None
    spacing: Name | None = None


class ScenarioCardEntry(Schema):
    name: Name
    text: Text
    effects: Effects = []
    duration: Literal["", "instant", "turn"] = ""
    terrain: TerrainPool | None = None
    zone: Zone | None = None


class ScenarioCardsFile(DataFile):
    objective: entries(ScenarioCardEntry)  # type: ignore[valid-type]
    setting: entries(ScenarioCardEntry)  # type: ignore[valid-type]
    deployment: entries(ScenarioCardEntry)  # type: ignore[valid-type]
    advantage: entries(ScenarioCardEntry)  # type: ignore[valid-type]
    event: entries(ScenarioCardEntry)  # type: ignore[valid-type]


class TerrainPiece(Schema):
    kind: Literal[TERRAIN_KINDS]  # type: ignore[valid-type]
    width: Annotated[float, Field(gt=0, le=48)]
    depth: Annotated[float, Field(gt=0, le=48)]


class TerrainFile(DataFile):
    piece: Annotated[list[TerrainPiece], Field(min_length=1, max_length=len(TERRAIN_KINDS))]


SCHEMAS: dict[str, type[DataFile]] = {
    "dice.toml": DiceFile,
    "ranges.toml": RangesFile,
    "tools.toml": ToolsFile,
    "bases.toml": BasesFile,
    "ships.toml": ShipsFile,
    "upgrades.toml": UpgradesFile,
    "initiative_cards.toml": CardsFile,
    "nation_cards.toml": CardsFile,
    "admirals.toml": AdmiralsFile,
    "captains.toml": CaptainsFile,
    "upgrade_cards.toml": UpgradeCardsFile,
    "factions.toml": FactionsFile,
    "scenario_cards.toml": ScenarioCardsFile,
    "terrain.toml": TerrainFile,
    "keywords.toml": KeywordsFile,
}
MAX_FILE_BYTES = 100_000


def label(keys: tuple[str, ...], step: str | int, child: Any, parent: str) -> str | None:
    """How a data file's entries are named in errors: an [[entry]] by its name (a tool by its
    speed, a terrain piece by its kind), a top-level table (`[faces]`, `[success]`) by its key."""
    if isinstance(step, int) and len(keys) == 1 and isinstance(child, dict):
        return _entry_label(child, step)
    if isinstance(step, str) and len(keys) == 1 and isinstance(child, dict):
        return step
    return None


def _entry_label(entry: dict[str, Any], index: int) -> str:
    for key in ("name", "speed", "kind"):
        if key in entry:
            return entry_name(entry[key], f"#{index + 1}")
    return f"#{index + 1}"
