"""Game data for one game system, read from TOML files and validated in one place.

Every figure the engine uses (die faces, range bands, movement tools, base sizes, ship classes,
initiative cards) comes from here, so a guild can replace a file without touching code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from game.errors import DataError
from game.schema import data as schema
from game.schema.common import read_toml, validate
from game.schema.data import DECKS, STATS

__all__ = ["DataError", "RulesData", "load_rules", "rules_from_texts"]

DATA_FILES = (
    "dice.toml",
    "ranges.toml",
    "tools.toml",
    "bases.toml",
    "ships.toml",
    "upgrades.toml",
    "initiative_cards.toml",
    "nation_cards.toml",
    "admirals.toml",
    "captains.toml",
    "upgrade_cards.toml",
    "factions.toml",
    "scenario_cards.toml",
    "terrain.toml",
    "keywords.toml",
)


@dataclass(frozen=True)
class Die:
    """One die: the face on each of its sides, and which faces succeed for each kind of roll."""

    sides: tuple[str, ...]
    success: Mapping[str, frozenset[str]]
    provisional: bool

    def successes(self, kind: str, faces: tuple[str, ...]) -> int:
        wanted = self.success[kind]
        return sum(1 for f in faces if f in wanted)


@dataclass(frozen=True)
class RangeBand:
    name: str
    label: str
    max: float


@dataclass(frozen=True)
class Tool:
    speed: int
    length: float
    max_turn: float


@dataclass(frozen=True)
class BaseSize:
    name: str
    beam: float
    length: float


@dataclass(frozen=True)
class ShipClass:
    name: str
    points: int
    base: str
    fortitude: int
    broadside: int
    crew: int
    windward: int
    large: int
    traits: tuple[str, ...]
    upgrades: Mapping[str, int]
    provisional: tuple[str, ...]


@dataclass(frozen=True)
class Upgrade:
    """A ship upgrade: what it adds to the stat line, and traits it grants."""

    name: str
    stats: Mapping[str, int]
    traits: tuple[str, ...]


@dataclass(frozen=True)
class CardDef:
    name: str
    value: int
    discard: bool
    text: str
    effects: tuple[Mapping[str, Any], ...]
    nation: str = ""

    def effects_require(self) -> bool:
        """Only squadrons with a given admiral keyword or ship rule may take this card."""
        return any("requires" in e for e in self.effects)


@dataclass(frozen=True)
class Admiral:
    name: str
    nation: str  # "" = any nation
    value: int
    keywords: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Captain:
    name: str
    nation: str
    points: int
    keywords: tuple[str, ...]


@dataclass(frozen=True)
class UpgradeCard:
    name: str
    points: int
    nations: tuple[str, ...]  # () = any nation
    restrictions: tuple[str, ...]  # not_ship_of_the_line | not_flagship | only_upgrade
    text: str = ""
    effects: tuple[Mapping[str, Any], ...] = ()  # act for the ship that carries the card
    stats: Mapping[str, int] = field(default_factory=dict)  # added to the ship's line when it is built


@dataclass(frozen=True)
class Keyword:
    """An admiral's or captain's keyword: its effects act for the ship the officer commands."""

    name: str
    text: str
    effects: tuple[Mapping[str, Any], ...] = ()
    stats: Mapping[str, int] = field(default_factory=dict)
    fortune: int = 0  # Fortune Points the squadron gains


@dataclass(frozen=True)
class Faction:
    name: str
    rule: str
    stout_discount: bool
    effects: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class ScenarioCard:
    """An objective, setting, deployment, advantage & condition, or event card."""

    name: str
    deck: str
    text: str
    effects: tuple[Mapping[str, Any], ...]
    duration: str = ""  # events: instant | turn
    details: Mapping[str, Any] = field(default_factory=dict)  # terrain pool, deployment zone …


@dataclass(frozen=True)
class TerrainShape:
    """The footprint of a terrain piece added at set-up: an ellipse before rotation."""

    kind: str
    width: float
    depth: float


@dataclass(frozen=True)
class RulesData:
    system: str
    die: Die
    ranges: tuple[RangeBand, ...]
    tools: Mapping[int, Tool]
    bases: Mapping[str, BaseSize]
    ships: Mapping[str, ShipClass]
    cards: Mapping[str, CardDef]
    upgrades: Mapping[str, Upgrade] = field(default_factory=dict)
    admirals: Mapping[str, Admiral] = field(default_factory=dict)
    captains: Mapping[str, Captain] = field(default_factory=dict)
    upgrade_cards: Mapping[str, UpgradeCard] = field(default_factory=dict)
    factions: Mapping[str, Faction] = field(default_factory=dict)
    scenario_cards: Mapping[str, Mapping[str, ScenarioCard]] = field(default_factory=dict)
    provisional_files: tuple[str, ...] = field(default=())
    terrain_shapes: Mapping[str, TerrainShape] = field(default_factory=dict)
    keywords: Mapping[str, Keyword] = field(default_factory=dict)

    def __reduce_ex__(self, protocol: Any) -> Any:
        # the built-in data travels to a worker process as its name (the worker has it loaded): its
        # pickle cost a millisecond each way, more than the decision it went with
        if _BUILT_IN.get(self.system) is self:
            return (_default_rules, (self.system,))
        return super().__reduce_ex__(protocol)

    def band(self, name: str) -> RangeBand:
        for b in self.ranges:
            if b.name == name:
                return b
        raise KeyError(name)

    def range_of(self, name: str) -> float:
        return self.band(name).max

    def band_for(self, distance: float) -> RangeBand | None:
        """The closest band that contains the distance, or None beyond the longest band."""
        for b in self.ranges:
            if distance <= b.max + 1e-9:
                return b
        return None

    def tool(self, speed: int) -> Tool:
        """The tool for a speed: a speed above the largest tool uses the largest tool."""
        top = max(self.tools)
        return self.tools[min(max(speed, 1), top)]

    @property
    def max_speed(self) -> int:
        return max(self.tools)

    def ship_class(self, name: str) -> ShipClass:
        return self.ships[name]

    def card(self, name: str) -> CardDef:
        return self.cards[name]

    @property
    def events(self) -> Mapping[str, ScenarioCard]:
        return self.scenario_cards.get("event", {})


# ---------------------------------------------------------------- reading the files

# Every roll kind whose success faces the engine looks up, and every band it measures by name
# (tests/game/test_data_bounds.py keeps these lists true to the engine's source).
REQUIRED_ROLLS = (
    "hit_yard_arm", "hit_pistol", "hit_musket", "hit_cannon", "fog_beyond_cannon", "rigging", "crew",
    "close_combat_side", "close_combat_bow_stern", "close_combat_landing", "collision_damage",
    "collision_entangle", "shoal", "sinking", "officer_hit", "critical_damage", "skill_test", "challenge_test",
)
REQUIRED_BANDS = ("yard_arm", "pistol", "musket", "cannon")


def rules_from_texts(system: str, texts: Mapping[str, str]) -> RulesData:
    """Build the rules data from the text of each data file (file name -> TOML text). Each file is
    read within the limits and checked against its schema (game/schema/data.py), then the files
    against each other; the first fault is raised as a DataError naming file, entry and field."""
    missing = [f for f in DATA_FILES if f not in texts]
    if missing:
        raise DataError(missing[0], "(file)", "(file)", "is missing")
    m: dict[str, Any] = {}
    for f in DATA_FILES:
        doc = read_toml(texts[f], f, schema.MAX_FILE_BYTES, DataError)
        m[f] = validate(schema.SCHEMAS[f], doc, f, "(file)", schema.label, DataError)
    die = _die(m["dice.toml"])
    ranges = _ranges(m["ranges.toml"])
    terrain_shapes = _unique("terrain.toml", [TerrainShape(e.kind, e.width, e.depth) for e in m["terrain.toml"].piece],
                             key=lambda t: t.kind, field_name="kind")
    fx = _EffectCheck({b.name for b in ranges}, set(die.sides), terrain_shapes)
    factions = _unique("factions.toml", [
        Faction(e.name, e.rule, e.stout_discount, fx("factions.toml", e.name, e.effects)) for e in m["factions.toml"].faction])
    keywords = _unique("keywords.toml", [
        Keyword(e.name, e.text, fx("keywords.toml", e.name, e.effects), dict(e.stats), e.fortune)
        for e in m["keywords.toml"].keyword])
    upgrades = _unique("upgrades.toml", [
        Upgrade(e.name, {k: getattr(e, k) for k in STATS if getattr(e, k) is not None}, tuple(e.traits))
        for e in m["upgrades.toml"].upgrade])
    bases = _bases(m["bases.toml"])
    return RulesData(
        system=system,
        die=die,
        ranges=ranges,
        tools=_tools(m["tools.toml"]),
        bases=bases,
        ships=_ships(m["ships.toml"], bases, upgrades),
        cards=_cards(m, factions, fx),
        upgrades=upgrades,
        admirals=_officers("admirals.toml", [
            Admiral(e.name, e.nation, e.value, tuple(e.keywords), e.points) for e in m["admirals.toml"].admiral],
            keywords, factions),
        captains=_officers("captains.toml", [
            Captain(e.name, e.nation, e.points, tuple(e.keywords)) for e in m["captains.toml"].captain],
            keywords, factions),
        upgrade_cards=_upgrade_cards(m["upgrade_cards.toml"], factions, fx),
        factions=factions,
        scenario_cards=_scenario_cards(m["scenario_cards.toml"], terrain_shapes, ranges, fx),
        provisional_files=tuple(f for f in DATA_FILES if m[f].provisional),
        terrain_shapes=terrain_shapes,
        keywords=keywords,
    )


N = TypeVar("N")


def _unique(file: str, items: list[N], key: Callable[[N], str] = lambda x: x.name,  # type: ignore[attr-defined]
            field_name: str = "name") -> dict[str, N]:
    out: dict[str, N] = {}
    for item in items:
        k = key(item)
        if k in out:
            raise DataError(file, k, field_name, "another entry of this file has the same name")
        out[k] = item
    return out


def _die(doc: schema.DiceFile) -> Die:
    file = "dice.toml"
    sides = [face for face, count in doc.faces.items() for _ in range(count)]
    if not 1 <= len(sides) <= schema.MAX_DIE_SIDES:
        raise DataError(file, "faces", "faces", f"the die must have 1 to {schema.MAX_DIE_SIDES} sides, "
                                                f"these counts give {len(sides)}")
    for roll, faces in doc.success.items():
        unknown = [f for f in faces if f not in doc.faces]
        if unknown:
            raise DataError(file, "success", roll, f"names faces the die does not have: {unknown}")
    for roll in REQUIRED_ROLLS:
        if roll not in doc.success:
            raise DataError(file, "success", roll, "is missing: the engine rolls it and needs its success faces")
    return Die(tuple(sides), {k: frozenset(v) for k, v in doc.success.items()}, doc.provisional)


def _ranges(doc: schema.RangesFile) -> tuple[RangeBand, ...]:
    file = "ranges.toml"
    bands = list(_unique(file, [RangeBand(e.name, e.label, e.max) for e in doc.band]).values())
    for a, b in zip(bands, bands[1:], strict=False):
        if b.max <= a.max:
            raise DataError(file, b.name, "max", "bands must be listed from shortest to longest")
    for name in REQUIRED_BANDS:
        if name not in [b.name for b in bands]:
            raise DataError(file, name, "name", f"is missing: the engine measures {name} "
                                                f"(bands needed: {', '.join(REQUIRED_BANDS)})")
    return tuple(bands)


def _tools(doc: schema.ToolsFile) -> dict[int, Tool]:
    file = "tools.toml"
    tools = _unique(file, [Tool(e.speed, e.length, e.max_turn) for e in doc.tool], key=lambda t: str(t.speed),
                    field_name="speed")
    if sorted(int(k) for k in tools) != list(range(1, len(tools) + 1)):
        raise DataError(file, "(file)", "speed", "tools must cover speeds 1, 2, 3 … without gaps")
    return {t.speed: t for t in tools.values()}


def _bases(doc: schema.BasesFile) -> dict[str, BaseSize]:
    bases = _unique("bases.toml", [BaseSize(e.name, e.beam, e.length) for e in doc.base])
    for b in bases.values():
        if b.length <= b.beam:
            raise DataError("bases.toml", b.name, "length", "a base must be longer than its beam")
    return bases


def _ships(doc: schema.ShipsFile, bases: Mapping[str, BaseSize], upgrades: Mapping[str, Upgrade]) -> dict[str, ShipClass]:
    file = "ships.toml"
    ships = _unique(file, [
        ShipClass(e.name, e.points, e.base, e.fortitude, e.broadside, e.crew, e.windward, e.large, tuple(e.traits),
                  dict(e.upgrades), tuple(e.provisional))
        for e in doc.ship])
    for s in ships.values():
        if s.base not in bases:
            raise DataError(file, s.name, "base", f"unknown base {s.base!r}; known: {sorted(bases)}")
        unknown = [u for u in s.upgrades if u not in upgrades]
        if unknown:
            raise DataError(file, s.name, "upgrades", f"{unknown[0]!r} is not an upgrade of upgrades.toml")
    return ships


def _nation(file: str, name: str, field_name: str, nation: str, factions: Mapping[str, Faction]) -> None:
    if nation and nation not in factions:
        raise DataError(file, name, field_name, f"unknown nation {nation!r}; factions: {', '.join(factions)}")


def _cards(m: Mapping[str, Any], factions: Mapping[str, Faction], fx: _EffectCheck) -> dict[str, CardDef]:
    out: dict[str, CardDef] = {}
    for file in ("initiative_cards.toml", "nation_cards.toml"):
        cards = _unique(file, [CardDef(e.name, e.value, e.discard, e.text, fx(file, e.name, e.effects), e.nation)
                               for e in m[file].card])
        for c in cards.values():
            if c.name in out:
                raise DataError(file, c.name, "name", "a card of that name is already in initiative_cards.toml")
            _nation(file, c.name, "nation", c.nation, factions)
        out.update(cards)
    return out


Officer = TypeVar("Officer", Admiral, Captain)


def _officers(file: str, officers: list[Officer], keywords: Mapping[str, Keyword], factions: Mapping[str, Faction]) -> dict[str, Officer]:
    found = _unique(file, officers)
    for o in found.values():
        unknown = [k for k in o.keywords if k not in keywords]
        if unknown:
            raise DataError(file, o.name, "keywords", f"{unknown[0]!r} is not a keyword of keywords.toml")
        _nation(file, o.name, "nation", o.nation, factions)
    return found


def _upgrade_cards(doc: schema.UpgradeCardsFile, factions: Mapping[str, Faction], fx: _EffectCheck) -> dict[str, UpgradeCard]:
    file = "upgrade_cards.toml"
    cards = _unique(file, [UpgradeCard(e.name, e.points, tuple(e.nations), tuple(e.restrictions), e.text,
                                       fx(file, e.name, e.effects), dict(e.stats)) for e in doc.upgrade_card])
    for c in cards.values():
        for nation in c.nations:
            _nation(file, c.name, "nations", nation, factions)
    return cards


def _scenario_cards(doc: schema.ScenarioCardsFile, shapes: Mapping[str, TerrainShape],
                    ranges: tuple[RangeBand, ...], fx: _EffectCheck) -> dict[str, dict[str, ScenarioCard]]:
    file = "scenario_cards.toml"
    decks: dict[str, dict[str, ScenarioCard]] = {}
    for deck in DECKS:
        cards = []
        for e in getattr(doc, deck):
            if deck == "event" and e.duration not in ("instant", "turn"):
                raise DataError(file, e.name, "duration", "an event lasts for the 'turn' or is 'instant'")
            details: dict[str, Any] = {}
            if e.terrain is not None:
                details["terrain"] = e.terrain.model_dump(exclude_unset=True)
                for kind in [*e.terrain.kinds, *e.terrain.require]:
                    if kind not in shapes:
                        raise DataError(file, e.name, "terrain", f"names terrain {kind!r}, which terrain.toml does not describe")
            if e.zone is not None:
                details["zone"] = e.zone.model_dump(exclude_unset=True)
                if e.zone.spacing is not None and e.zone.spacing not in [b.name for b in ranges]:
                    raise DataError(file, e.name, "zone", f"spacing names band {e.zone.spacing!r}, which ranges.toml does not have")
            cards.append(ScenarioCard(e.name, deck, e.text, fx(file, e.name, e.effects), e.duration, details))
        decks[deck] = _unique(file, cards)
    return decks


class _EffectCheck:
    """Turns an entry's validated effects into the engine's mappings, checking that every band, die
    face and terrain kind they name is in the other files (the engine looks them up when they act)."""

    def __init__(self, bands: set[str], faces: set[str], shapes: Mapping[str, TerrainShape]) -> None:
        self.bands, self.faces, self.shapes = bands, faces, shapes

    def __call__(self, file: str, name: str, effects: list[schema.Effect]) -> tuple[Mapping[str, Any], ...]:
        out = tuple(e.model_dump(exclude_unset=True) for e in effects)
        for i, e in enumerate(out):
            problem = self._problem(e)
            if problem:
                raise DataError(file, name, "effects", f"#{i + 1} {problem}")
        return out

    def _problem(self, e: Mapping[str, Any]) -> str:
        for key in schema.BAND_FIELDS:
            if key in e and e[key] not in self.bands:
                return f"{key}: names band {e[key]!r}, which ranges.toml does not have"
        for key in (*schema.FACE_FIELDS, "add"):
            value = e.get(key)
            named = value if isinstance(value, list) else [value] if isinstance(value, str) else []
            unknown = [f for f in named if f not in self.faces]
            if unknown:
                return f"{key}: names die face {unknown[0]!r}, which dice.toml does not have"
        if "terrain" in e and e["terrain"] not in self.shapes:
            return f"terrain: names {e['terrain']!r}, which terrain.toml does not describe"
        return ""


def default_texts(system: str = "oak_and_iron") -> dict[str, str]:
    pkg = resources.files("game.data").joinpath(system)
    return {f: pkg.joinpath(f).read_text(encoding="utf-8") for f in DATA_FILES}


def load_rules(system: str = "oak_and_iron", override_dir: Path | None = None) -> RulesData:
    """The system's data, with any file found in override_dir replacing the built-in one."""
    if override_dir is None:
        return _default_rules(system)
    texts = default_texts(system)
    for f in DATA_FILES:
        p = override_dir / f
        if p.exists():
            texts[f] = p.read_text(encoding="utf-8")
    return rules_from_texts(system, texts)


_BUILT_IN: dict[str, RulesData] = {}  # each system's built-in data, once loaded


@lru_cache(maxsize=8)
def _default_rules(system: str) -> RulesData:
    found = _BUILT_IN[system] = rules_from_texts(system, default_texts(system))
    return found
