"""Scenario files (TOML, docs/scenario-format.md) -> the starting state of a game."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from shapely.geometry import Polygon

from game.geometry import OVERLAP, Hull, Pose, off_table
from game.model import Game, Sail, Ship, ShipSide, Squadron, Status, Table, Terrain, TerrainKind
from game.notation import fold
from game.rules_data import DataError, RulesData, load_rules

DEFAULT_EDITION = "oak-and-iron-online-rules"


class ScenarioError(DataError):
    pass


def builtin_scenarios(system: str = "oak_and_iron") -> dict[str, str]:
    """Built-in scenario names -> TOML text."""
    pkg = resources.files("game.data").joinpath(system).joinpath("scenarios")
    return {
        p.name.removesuffix(".toml"): p.read_text(encoding="utf-8")
        for p in pkg.iterdir()
        if p.name.endswith(".toml")
    }


def quickstart(seed: int | None = None) -> Game:
    game = load_scenario_text(builtin_scenarios()["quickstart"], "quickstart.toml")
    if seed is not None:
        from dataclasses import replace

        game = replace(game, seed=seed)
    return game


def load_scenario_file(path: Path, rules: RulesData | None = None) -> Game:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(str(path), "(file)", "(file)", f"cannot be read: {exc.strerror}") from None
    return load_scenario_text(text, path.name, rules)


def load_scenario_text(text: str, file: str = "scenario.toml", rules: RulesData | None = None) -> Game:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(file, "(file)", "(syntax)", f"is not valid TOML: {exc}") from None
    return scenario_from_doc(doc, file, rules)


def _need(d: Mapping[str, Any], key: str, kind: type | tuple[type, ...], file: str, entry: str) -> Any:
    if key not in d:
        raise ScenarioError(file, entry, key, "is missing")
    return _typed(d[key], kind, file, entry, key)


def _opt(d: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any, file: str, entry: str) -> Any:
    return _typed(d[key], kind, file, entry, key) if key in d else default


def _typed(v: Any, kind: type | tuple[type, ...], file: str, entry: str, key: str) -> Any:
    numeric = kind is float
    if numeric:
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ScenarioError(file, entry, key, f"must be a number, got {v!r}")
        return float(v)
    if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
        raise ScenarioError(file, entry, key, f"must be a whole number, got {v!r}")
    if not isinstance(v, kind):
        name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise ScenarioError(file, entry, key, f"must be {name}, got {v!r}")
    return v


def scenario_from_doc(doc: Mapping[str, Any], file: str, rules: RulesData | None = None) -> Game:
    system = _opt(doc, "system", str, "oak_and_iron", file, "(scenario)")
    rules = rules or load_rules(system)
    table_doc = _need(doc, "table", dict, file, "(scenario)")
    width = _need(table_doc, "width", float, file, "table")
    height = _need(table_doc, "height", float, file, "table")
    if width <= 0 or height <= 0:
        raise ScenarioError(file, "table", "width", "the table must have a positive size")
    weather = _need(table_doc, "weather_edge", str, file, "table").upper()
    if weather not in ("N", "E", "S", "W"):
        raise ScenarioError(file, "table", "weather_edge", f"must be N, E, S or W, got {weather!r}")
    terrain = _terrain(table_doc.get("terrain", []), file)
    squad_docs = _need(doc, "squadron", list, file, "(scenario)")
    if not 2 <= len(squad_docs) <= 8:
        raise ScenarioError(file, "squadron", "squadron", f"a game has 2 to 8 squadrons, found {len(squad_docs)}")
    squadrons: list[Squadron] = []
    ships: list[Ship] = []
    for i, sd in enumerate(squad_docs):
        q, qs = _squadron(sd, i, file, rules)
        squadrons.append(q)
        ships.extend(qs)
    players = [q.player for q in squadrons]
    if len(set(players)) != len(players):
        raise ScenarioError(file, "squadron", "player", f"players must differ, got {players}")
    teams = list(dict.fromkeys(q.team or q.player for q in squadrons))
    if len(teams) != 2:
        raise ScenarioError(file, "squadron", "team", f"a battle has two sides; the squadrons form {len(teams)}: "
                                                      "give every squadron of a fleet battle a `team`")
    names = [fold(s.id) for s in ships]
    for s in ships:
        if names.count(fold(s.id)) > 1:
            raise ScenarioError(file, s.id, "name", "ship names must be unique in a game")
    ships = _entanglements(ships, file)
    _check_positions(ships, terrain, width, height, file)
    defender = _opt(doc, "defender", str, teams[1], file, "(scenario)")
    if defender not in teams:
        raise ScenarioError(file, "(scenario)", "defender", f"must be one of {teams}")
    objective = _opt(doc, "objective", str, "", file, "(scenario)") or None
    if objective is not None and objective not in rules.scenario_cards.get("objective", {}):
        known = ", ".join(rules.scenario_cards.get("objective", {}))
        raise ScenarioError(file, "(scenario)", "objective", f"unknown objective {objective!r}; objectives: {known}")
    events = _opt(doc, "events", list, [], file, "(scenario)")
    unknown = [e for e in events if e not in rules.events]
    if unknown:
        raise ScenarioError(file, "(scenario)", "events", f"unknown event card {unknown[0]!r}; events: "
                                                          f"{', '.join(rules.events)}")
    return Game(
        system=system,
        edition=_opt(doc, "edition", str, DEFAULT_EDITION, file, "(scenario)"),
        name=_opt(doc, "name", str, Path(file).stem, file, "(scenario)"),
        table=Table(width, height, weather, tuple(terrain)),
        squadrons=tuple(squadrons),
        ships=tuple(ships),
        seed=_opt(doc, "seed", int, 0, file, "(scenario)"),
        defender=defender,
        test_dice=_opt(doc, "test_dice", bool, False, file, "(scenario)"),
        last_turn=_opt(doc, "last_turn", int, 10, file, "(scenario)"),
        event_deck=tuple(str(e) for e in events),
        objective=objective,
        scrolling_sea=_opt(doc, "scrolling_sea", bool, False, file, "(scenario)"),
    )


def _entanglements(ships: list[Ship], file: str) -> list[Ship]:
    """`entangled_with` may be written on either ship; both sides end up knowing."""
    from dataclasses import replace

    ids = {s.id for s in ships}
    links = {s.id: set(s.entangled_with) for s in ships}
    for s in ships:
        for o in s.entangled_with:
            if o not in ids or o == s.id:
                raise ScenarioError(file, s.id, "entangled_with", f"{o!r} is not another ship of this game")
            links[o].add(s.id)
    return [replace(s, entangled_with=frozenset(links[s.id])) for s in ships]


def _terrain(docs: Any, file: str) -> list[Terrain]:
    if not isinstance(docs, list):
        raise ScenarioError(file, "table", "terrain", "must be a list of [[table.terrain]] tables")
    out = []
    for i, t in enumerate(docs):
        entry = f"terrain #{i + 1}"
        if not isinstance(t, dict):
            raise ScenarioError(file, entry, "terrain", "must be a table")
        kind_name = _need(t, "kind", str, file, entry)
        try:
            kind = TerrainKind(kind_name)
        except ValueError:
            kinds = ", ".join(k.value for k in TerrainKind)
            raise ScenarioError(file, entry, "kind", f"unknown kind {kind_name!r}; kinds: {kinds}") from None
        tid = _opt(t, "id", str, f"{kind.value}-{i + 1}", file, entry)
        pts = _need(t, "points", list, file, entry)
        try:
            points = tuple((float(p[0]), float(p[1])) for p in pts)
        except (TypeError, ValueError, IndexError):
            raise ScenarioError(file, tid, "points", "must be a list of [x, y] pairs") from None
        if len(points) < 3 or not Polygon(points).is_valid or Polygon(points).area <= 0:
            raise ScenarioError(file, tid, "points", "must outline a simple polygon of three or more corners")
        out.append(Terrain(tid, kind, points))
    return out


def _squadron(sd: Any, index: int, file: str, rules: RulesData) -> tuple[Squadron, list[Ship]]:
    entry = f"squadron #{index + 1}"
    if not isinstance(sd, dict):
        raise ScenarioError(file, entry, "squadron", "must be a table")
    player = _need(sd, "player", str, file, entry)
    entry = f"squadron {player}"
    hand = _opt(sd, "hand", list, [], file, entry)
    for card in hand:
        if card not in rules.cards:
            raise ScenarioError(file, entry, "hand", f"unknown initiative card {card!r}")
    if len(set(hand)) != len(hand):
        raise ScenarioError(file, entry, "hand", "a hand holds each card once")
    ship_docs = _need(sd, "ship", list, file, entry)
    ships = [_ship(d, player, j, file, rules) for j, d in enumerate(ship_docs)]
    if not ships:
        raise ScenarioError(file, entry, "ship", "a squadron needs at least one ship")
    flagship = _opt(sd, "flagship", str, ships[0].id, file, entry)
    if flagship not in [s.id for s in ships]:
        raise ScenarioError(file, entry, "flagship", f"{flagship!r} is not a ship of this squadron")
    q = Squadron(
        player=player,
        name=_opt(sd, "name", str, f"Player {player}", file, entry),
        faction=_opt(sd, "faction", str, "", file, entry),
        flagship=flagship,
        admiral=_opt(sd, "admiral", str, "Untested", file, entry),
        admiral_value=_opt(sd, "admiral_value", int, 0, file, entry),
        fortune=_opt(sd, "fortune", int, 3, file, entry),
        hand=tuple(hand),
        team=_opt(sd, "team", str, "", file, entry),
    )
    return q, ships


def _ship(d: Any, player: str, index: int, file: str, rules: RulesData) -> Ship:
    entry = f"squadron {player} ship #{index + 1}"
    if not isinstance(d, dict):
        raise ScenarioError(file, entry, "ship", "must be a table")
    name = _need(d, "name", str, file, entry)
    cls_name = _need(d, "class", str, file, name)
    if cls_name not in rules.ships:
        raise ScenarioError(file, name, "class", f"unknown ship class {cls_name!r}; known: {', '.join(rules.ships)}")
    cls = rules.ships[cls_name]
    base = rules.bases[cls.base]
    skill = _opt(d, "skill", int, 0, file, name)
    if not 0 <= skill <= 2:
        raise ScenarioError(file, name, "skill", f"must be 0, 1 or 2, got {skill}")
    sail_name = _opt(d, "sail", str, "battle", file, name)
    try:
        sail = Sail(sail_name)
    except ValueError:
        raise ScenarioError(file, name, "sail", "must be full, battle, minimal or anchored") from None
    upgrades = _opt(d, "upgrades", list, [], file, name)
    for u in upgrades:
        if u not in cls.upgrades:
            raise ScenarioError(file, name, "upgrades", f"{cls_name} cannot take {u!r}; options: {', '.join(cls.upgrades)}")
    fatigue = _opt(d, "fatigue", int, 0, file, name)
    damage = _opt(d, "damage", int, 0, file, name)
    for k, v in (("fatigue", fatigue), ("damage", damage)):
        if not 0 <= v <= 7:
            raise ScenarioError(file, name, k, f"must be between 0 and 7, got {v}")
    reload_sides = _opt(d, "reload", list, [], file, name)
    try:
        reload = frozenset(ShipSide(s) for s in reload_sides)
    except ValueError:
        raise ScenarioError(file, name, "reload", "lists sides: port, starboard") from None
    entangled = _opt(d, "entangled_with", list, [], file, name)
    statuses: set[Status] = set()
    if _opt(d, "aground", bool, False, file, name):
        statuses.add(Status.AGROUND)
    if damage >= 7:
        statuses.add(Status.CRIPPLED)
        if fatigue >= 7:
            statuses.add(Status.OUT_OF_ACTION)
    heading = _need(d, "heading", float, file, name)
    stats = {k: getattr(cls, k) for k in ("fortitude", "broadside", "crew", "windward", "large")}
    traits = list(cls.traits)
    for u in upgrades:
        up = rules.upgrades.get(u)
        if up is not None:
            for k, v in up.stats.items():
                stats[k] += v
            traits += [t for t in up.traits if t not in traits]
    cards = [str(x) for x in _opt(d, "cards", list, [], file, name)]
    captain = _opt(d, "captain", str, "", file, name)
    unknown = [x for x in cards if x not in rules.upgrade_cards]
    if unknown:
        raise ScenarioError(file, name, "cards", f"unknown upgrade card {unknown[0]!r}")
    changes = [rules.upgrade_cards[x].stats for x in cards]
    if captain in rules.captains:
        changes += [rules.keywords[k].stats for k in rules.captains[captain].keywords if k in rules.keywords]
    stats["skill"] = skill
    for change in changes:
        for k, v in change.items():
            stats[k] = max(0 if k == "skill" else 1, stats[k] + v)
    return Ship(
        id=name,
        cls=cls_name,
        owner=player,
        controller=player,
        x=_need(d, "x", float, file, name),
        y=_need(d, "y", float, file, name),
        heading=heading % 360.0,
        base=cls.base,
        beam=base.beam,
        length=base.length,
        traits=tuple(traits),
        **stats,
        upgrades=tuple(upgrades),
        sail=sail,
        damage=damage,
        fatigue=fatigue,
        statuses=frozenset(statuses),
        reload=reload,
        entangled_with=frozenset(str(x) for x in entangled),
        captain=captain,
        cards=tuple(cards),
    )


def _check_positions(ships: list[Ship], terrain: list[Terrain], width: float, height: float, file: str) -> None:
    polys = {s.id: Hull(Pose(s.x, s.y, s.heading), s.beam, s.length).polygon for s in ships}
    for s in ships:
        if off_table(polys[s.id], width, height):
            raise ScenarioError(file, s.id, "x", "the ship's base lies partly off the table")
        for o in ships:
            if o.id < s.id and polys[s.id].intersection(polys[o.id]).area > OVERLAP:
                raise ScenarioError(file, s.id, "x", f"the ship's base overlaps {o.id}")
        for t in terrain:
            if t.kind.is_obstacle and polys[s.id].intersection(Polygon(t.points)).area > OVERLAP:
                raise ScenarioError(file, s.id, "x", f"the ship's base overlaps {t.kind.value} {t.id}")
