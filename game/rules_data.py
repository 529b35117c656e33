"""Game data for one game system, read from TOML files and validated in one place.

Every figure the engine uses (die faces, range bands, movement tools, base sizes, ship classes,
initiative cards) comes from here, so a guild can replace a file without touching code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

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
TERRAIN_KINDS = ("island", "rock", "landmass", "shoal", "fog_bank")
DECKS = ("objective", "setting", "deployment", "advantage", "event")
STATS = ("fortitude", "broadside", "crew", "windward", "large")


class DataError(ValueError):
    """A data file is malformed. Names the file, the entry and the field so it can be fixed."""

    def __init__(self, file: str, entry: str, field_name: str, problem: str) -> None:
        self.file = file
        self.entry = entry
        self.field = field_name
        self.problem = problem
        super().__init__(f"{file}: entry {entry!r}, field {field_name!r}: {problem}")


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


# ---------------------------------------------------------------- validation helpers


def _get(entry: Mapping[str, Any], key: str, kind: type | tuple[type, ...], file: str, name: str) -> Any:
    if key not in entry:
        raise DataError(file, name, key, "is missing")
    value = entry[key]
    if kind is float or kind == (int, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        expected = kind.__name__ if isinstance(kind, type) else "number"
        raise DataError(file, name, key, f"must be {expected}, got {value!r}")
    return value


def _positive(value: float, file: str, name: str, key: str) -> float:
    if value <= 0:
        raise DataError(file, name, key, f"must be greater than 0, got {value!r}")
    return float(value)


def _entries(doc: Mapping[str, Any], key: str, file: str) -> list[Mapping[str, Any]]:
    entries = doc.get(key)
    if not isinstance(entries, list) or not entries:
        raise DataError(file, "(file)", key, f"must be a non-empty list of [[{key}]] tables")
    for i, e in enumerate(entries):
        if not isinstance(e, dict):
            raise DataError(file, f"#{i + 1}", key, "must be a table")
    return entries


def _entry_name(entry: Mapping[str, Any], index: int) -> str:
    n = entry.get("name", entry.get("speed"))
    return str(n) if n is not None else f"#{index + 1}"


def _parse_die(doc: Mapping[str, Any], file: str) -> Die:
    faces = doc.get("faces")
    if not isinstance(faces, dict) or not faces:
        raise DataError(file, "faces", "faces", "must be a table of face = count")
    sides: list[str] = []
    for face, count in faces.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise DataError(file, "faces", face, f"count must be a whole number >= 0, got {count!r}")
        sides.extend([face] * count)
    if not sides:
        raise DataError(file, "faces", "faces", "the die has no sides")
    success_doc = doc.get("success")
    if not isinstance(success_doc, dict):
        raise DataError(file, "success", "success", "must be a table of roll = [faces]")
    success: dict[str, frozenset[str]] = {}
    for roll, fs in success_doc.items():
        if not isinstance(fs, list) or not all(isinstance(f, str) for f in fs):
            raise DataError(file, "success", roll, "must be a list of face names")
        unknown = [f for f in fs if f not in faces]
        if unknown:
            raise DataError(file, "success", roll, f"names faces the die does not have: {unknown}")
        success[roll] = frozenset(fs)
    return Die(tuple(sides), success, bool(doc.get("provisional", False)))


def _parse_ranges(doc: Mapping[str, Any], file: str) -> tuple[RangeBand, ...]:
    bands = []
    for i, e in enumerate(_entries(doc, "band", file)):
        name = _entry_name(e, i)
        bands.append(
            RangeBand(
                _get(e, "name", str, file, name),
                _get(e, "label", str, file, name),
                _positive(_get(e, "max", float, file, name), file, name, "max"),
            )
        )
    for a, b in zip(bands, bands[1:], strict=False):
        if b.max <= a.max:
            raise DataError(file, b.name, "max", "bands must be listed from shortest to longest")
    return tuple(bands)


def _parse_tools(doc: Mapping[str, Any], file: str) -> dict[int, Tool]:
    tools: dict[int, Tool] = {}
    for i, e in enumerate(_entries(doc, "tool", file)):
        name = _entry_name(e, i)
        speed = _get(e, "speed", int, file, name)
        turn = float(_get(e, "max_turn", float, file, name))
        if not 0 < turn <= 90:
            raise DataError(file, name, "max_turn", f"must be between 0 and 90 degrees, got {turn}")
        tools[speed] = Tool(speed, _positive(_get(e, "length", float, file, name), file, name, "length"), turn)
    if sorted(tools) != list(range(1, len(tools) + 1)):
        raise DataError(file, "(file)", "speed", "tools must cover speeds 1, 2, 3 … without gaps")
    return tools


def _parse_bases(doc: Mapping[str, Any], file: str) -> dict[str, BaseSize]:
    bases = {}
    for i, e in enumerate(_entries(doc, "base", file)):
        name = _entry_name(e, i)
        beam = _positive(_get(e, "beam", float, file, name), file, name, "beam")
        length = _positive(_get(e, "length", float, file, name), file, name, "length")
        if length <= beam:
            raise DataError(file, name, "length", "a base must be longer than its beam")
        bases[name] = BaseSize(_get(e, "name", str, file, name), beam, length)
    return bases


def _parse_ships(doc: Mapping[str, Any], file: str, bases: Mapping[str, BaseSize]) -> dict[str, ShipClass]:
    ships = {}
    stat_keys = ("fortitude", "broadside", "crew", "windward", "large")
    for i, e in enumerate(_entries(doc, "ship", file)):
        name = _entry_name(e, i)
        base = _get(e, "base", str, file, name)
        if base not in bases:
            raise DataError(file, name, "base", f"unknown base {base!r}; known: {sorted(bases)}")
        stats = {}
        for k in stat_keys:
            v = _get(e, k, int, file, name)
            if v < 0:
                raise DataError(file, name, k, f"must be 0 or more, got {v}")
            stats[k] = v
        traits = e.get("traits", [])
        if not isinstance(traits, list) or not all(isinstance(t, str) for t in traits):
            raise DataError(file, name, "traits", "must be a list of strings")
        upgrades = e.get("upgrades", {})
        if not isinstance(upgrades, dict) or not all(isinstance(v, int) for v in upgrades.values()):
            raise DataError(file, name, "upgrades", "must be a table of upgrade = points")
        prov = e.get("provisional", [])
        if not isinstance(prov, list) or any(p not in stat_keys for p in prov):
            raise DataError(file, name, "provisional", f"must list stat names among {list(stat_keys)}")
        ships[name] = ShipClass(
            name=_get(e, "name", str, file, name),
            points=_get(e, "points", int, file, name),
            base=base,
            traits=tuple(traits),
            upgrades=dict(upgrades),
            provisional=tuple(prov),
            **stats,
        )
    return ships


def _parse_upgrades(doc: Mapping[str, Any], file: str) -> dict[str, Upgrade]:
    out = {}
    for i, e in enumerate(_entries(doc, "upgrade", file)):
        name = _entry_name(e, i)
        stats = {}
        for k in STATS:
            if k in e:
                stats[k] = _get(e, k, int, file, name)
        traits = e.get("traits", [])
        if not isinstance(traits, list) or not all(isinstance(t, str) for t in traits):
            raise DataError(file, name, "traits", "must be a list of strings")
        unknown = set(e) - set(STATS) - {"name", "traits"}
        if unknown:
            raise DataError(file, name, sorted(unknown)[0], f"unknown field; an upgrade may set {list(STATS)} or traits")
        out[name] = Upgrade(_get(e, "name", str, file, name), stats, tuple(traits))
    return out


def _parse_cards(doc: Mapping[str, Any], file: str) -> dict[str, CardDef]:
    cards = {}
    for i, e in enumerate(_entries(doc, "card", file)):
        name = _entry_name(e, i)
        effects = e.get("effects", [])
        if not isinstance(effects, list) or not all(isinstance(x, dict) and "kind" in x for x in effects):
            raise DataError(file, name, "effects", "must be a list of tables, each with a 'kind'")
        value = _get(e, "value", int, file, name)
        if value < 0:
            raise DataError(file, name, "value", f"must be 0 or more, got {value}")
        cards[name] = CardDef(
            name=_get(e, "name", str, file, name),
            value=value,
            discard=_get(e, "discard", bool, file, name),
            text=_get(e, "text", str, file, name),
            effects=tuple(dict(x) for x in effects),
            nation=str(e.get("nation", "")),
        )
    return cards


def _strings(e: Mapping[str, Any], key: str, file: str, name: str) -> tuple[str, ...]:
    value = e.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DataError(file, name, key, "must be a list of strings")
    return tuple(value)


def _parse_admirals(doc: Mapping[str, Any], file: str) -> dict[str, Admiral]:
    out = {}
    for i, e in enumerate(_entries(doc, "admiral", file)):
        name = _entry_name(e, i)
        out[name] = Admiral(_get(e, "name", str, file, name), str(e.get("nation", "")),
                            _get(e, "value", int, file, name), _strings(e, "keywords", file, name),
                            _get(e, "points", int, file, name))
    return out


def _parse_captains(doc: Mapping[str, Any], file: str) -> dict[str, Captain]:
    out = {}
    for i, e in enumerate(_entries(doc, "captain", file)):
        name = _entry_name(e, i)
        out[name] = Captain(_get(e, "name", str, file, name), str(e.get("nation", "")),
                            _get(e, "points", int, file, name), _strings(e, "keywords", file, name))
    return out


RESTRICTIONS = ("not_ship_of_the_line", "not_flagship", "only_upgrade")


def _parse_upgrade_cards(doc: Mapping[str, Any], file: str) -> dict[str, UpgradeCard]:
    out = {}
    for i, e in enumerate(_entries(doc, "upgrade_card", file)):
        name = _entry_name(e, i)
        restrictions = _strings(e, "restrictions", file, name)
        bad = [r for r in restrictions if r not in RESTRICTIONS]
        if bad:
            raise DataError(file, name, "restrictions", f"unknown {bad}; known: {list(RESTRICTIONS)}")
        out[name] = UpgradeCard(_get(e, "name", str, file, name), _get(e, "points", int, file, name),
                                _strings(e, "nations", file, name), restrictions, str(e.get("text", "")),
                                _effects(e, file, name), _stats(e, file, name))
    return out


def _effects(e: Mapping[str, Any], file: str, name: str) -> tuple[Mapping[str, Any], ...]:
    effects = e.get("effects", [])
    if not isinstance(effects, list) or not all(isinstance(x, dict) and "kind" in x for x in effects):
        raise DataError(file, name, "effects", "must be a list of tables, each with a 'kind'")
    return tuple(dict(x) for x in effects)


SHIP_STATS = ("fortitude", "broadside", "crew", "windward", "large", "skill")


def _stats(e: Mapping[str, Any], file: str, name: str) -> dict[str, int]:
    stats = e.get("stats", {})
    if not isinstance(stats, dict):
        raise DataError(file, name, "stats", "must be a table of stat = change")
    for k, v in stats.items():
        if k not in SHIP_STATS:
            raise DataError(file, name, "stats", f"unknown stat {k!r}; stats: {', '.join(SHIP_STATS)}")
        if not isinstance(v, int) or isinstance(v, bool):
            raise DataError(file, name, "stats", f"{k} must be a whole number, got {v!r}")
    return dict(stats)


def _parse_keywords(doc: Mapping[str, Any], file: str) -> dict[str, Keyword]:
    out = {}
    for i, e in enumerate(_entries(doc, "keyword", file)):
        name = _entry_name(e, i)
        out[name] = Keyword(_get(e, "name", str, file, name), _get(e, "text", str, file, name),
                            _effects(e, file, name), _stats(e, file, name), int(e.get("fortune", 0)))
    return out


def _parse_factions(doc: Mapping[str, Any], file: str) -> dict[str, Faction]:
    out = {}
    for i, e in enumerate(_entries(doc, "faction", file)):
        name = _entry_name(e, i)
        out[name] = Faction(_get(e, "name", str, file, name), _get(e, "rule", str, file, name),
                            bool(e.get("stout_discount", False)), _effects(e, file, name))
    return out


def _parse_scenario_cards(doc: Mapping[str, Any], file: str) -> dict[str, dict[str, ScenarioCard]]:
    decks: dict[str, dict[str, ScenarioCard]] = {}
    for deck in DECKS:
        cards = {}
        for i, e in enumerate(_entries(doc, deck, file)):
            name = _entry_name(e, i)
            effects = e.get("effects", [])
            if not isinstance(effects, list) or not all(isinstance(x, dict) and "kind" in x for x in effects):
                raise DataError(file, name, "effects", "must be a list of tables, each with a 'kind'")
            duration = str(e.get("duration", ""))
            if deck == "event" and duration not in ("instant", "turn"):
                raise DataError(file, name, "duration", "an event lasts for the 'turn' or is 'instant'")
            details = {k: v for k, v in e.items() if k not in ("name", "text", "effects", "duration")}
            cards[name] = ScenarioCard(_get(e, "name", str, file, name), deck, _get(e, "text", str, file, name),
                                       tuple(dict(x) for x in effects), duration, details)
        decks[deck] = cards
    return decks


def _parse_terrain(doc: Mapping[str, Any], file: str) -> dict[str, TerrainShape]:
    out = {}
    for i, e in enumerate(_entries(doc, "piece", file)):
        name = str(e.get("kind", f"piece #{i + 1}"))
        kind = _get(e, "kind", str, file, name)
        if kind not in TERRAIN_KINDS:
            raise DataError(file, name, "kind", f"must be one of {', '.join(TERRAIN_KINDS)}")
        out[kind] = TerrainShape(kind, _positive(_get(e, "width", (int, float), file, name), file, name, "width"),
                                 _positive(_get(e, "depth", (int, float), file, name), file, name, "depth"))
    return out


def _check_settings(decks: Mapping[str, Mapping[str, ScenarioCard]], shapes: Mapping[str, TerrainShape]) -> None:
    """A setting may only ask for terrain the terrain file describes."""
    for card in decks.get("setting", {}).values():
        pool = card.details.get("terrain", {})
        for kind in [*pool.get("kinds", []), *pool.get("require", [])]:
            if kind not in shapes:
                raise DataError("scenario_cards.toml", card.name, "terrain",
                                f"names terrain {kind!r}, which terrain.toml does not describe")


def _parse_toml(text: str, file: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(file, "(file)", "(syntax)", f"is not valid TOML: {exc}") from exc


def rules_from_texts(system: str, texts: Mapping[str, str]) -> RulesData:
    """Build the rules data from the text of each data file (file name -> TOML text)."""
    missing = [f for f in DATA_FILES if f not in texts]
    if missing:
        raise DataError(missing[0], "(file)", "(file)", "is missing")
    docs = {f: _parse_toml(texts[f], f) for f in DATA_FILES}
    bases = _parse_bases(docs["bases.toml"], "bases.toml")
    scenario_cards = _parse_scenario_cards(docs["scenario_cards.toml"], "scenario_cards.toml")
    terrain_shapes = _parse_terrain(docs["terrain.toml"], "terrain.toml")
    _check_settings(scenario_cards, terrain_shapes)
    return RulesData(
        system=system,
        die=_parse_die(docs["dice.toml"], "dice.toml"),
        ranges=_parse_ranges(docs["ranges.toml"], "ranges.toml"),
        tools=_parse_tools(docs["tools.toml"], "tools.toml"),
        bases=bases,
        ships=_parse_ships(docs["ships.toml"], "ships.toml", bases),
        cards=_merge_cards(docs),
        upgrades=_parse_upgrades(docs["upgrades.toml"], "upgrades.toml"),
        admirals=_parse_admirals(docs["admirals.toml"], "admirals.toml"),
        captains=_parse_captains(docs["captains.toml"], "captains.toml"),
        upgrade_cards=_parse_upgrade_cards(docs["upgrade_cards.toml"], "upgrade_cards.toml"),
        factions=_parse_factions(docs["factions.toml"], "factions.toml"),
        scenario_cards=scenario_cards,
        provisional_files=tuple(f for f in DATA_FILES if docs[f].get("provisional")),
        terrain_shapes=terrain_shapes,
        keywords=_parse_keywords(docs["keywords.toml"], "keywords.toml"),
    )


def _merge_cards(docs: Mapping[str, Mapping[str, Any]]) -> dict[str, CardDef]:
    generic = _parse_cards(docs["initiative_cards.toml"], "initiative_cards.toml")
    nation = _parse_cards(docs["nation_cards.toml"], "nation_cards.toml")
    twice = sorted(set(generic) & set(nation))
    if twice:
        raise DataError("nation_cards.toml", twice[0], "name", "a card of that name is already in initiative_cards.toml")
    return {**generic, **nation}


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


@lru_cache(maxsize=8)
def _default_rules(system: str) -> RulesData:
    return rules_from_texts(system, default_texts(system))
