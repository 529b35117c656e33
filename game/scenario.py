"""Scenario files (TOML, docs/scenario-format.md) -> the starting state of a game."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from shapely.geometry import Polygon

from game.errors import DataError
from game.fleet import fleet_problem
from game.geometry import OVERLAP, Hull, Pose, off_table
from game.model import Game, Sail, Ship, ShipSide, Squadron, Status, Table, Terrain, TerrainKind
from game.notation import fold
from game.rules_data import RulesData, load_rules
from game.schema import scenario as schema
from game.schema.common import read_toml, validate
from game.squadron import ShipEntry, ship_points

DEFAULT_EDITION = "oak-and-iron-online-rules"


class ScenarioError(DataError):
    """A scenario file is refused: a rules error naming the file, the entry and the field."""

    code = "scenario"


class FleetError(ScenarioError):
    """A fleet battle's fleets break chapter 9's fleet building (game/fleet.py)."""

    code = "fleet"


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
    doc = read_toml(text, file, schema.MAX_FILE_BYTES, ScenarioError)
    return scenario_from_doc(doc, file, rules)


def scenario_from_doc(doc: Mapping[str, Any], file: str, rules: RulesData | None = None) -> Game:
    """A starting state from a parsed scenario: the schema (game/schema/scenario.py) bounds every
    field, then the game data and the table are checked here. A file with `drafted = SIZE` is a
    drafted game of that size, waiting for its squadron lists."""
    if "drafted" in doc:
        return _drafted(doc, file)
    sc = validate(schema.ScenarioDoc, doc, file, "(scenario)", schema.label, ScenarioError)
    if rules is None:
        try:
            rules = load_rules(sc.system)
        except (OSError, ValueError):
            raise ScenarioError(file, "(scenario)", "system", f"there is no game system {sc.system!r}") from None
    t = sc.table
    terrain = _terrain(t.terrain, t.width, t.height, file)
    squadrons: list[Squadron] = []
    ships: list[Ship] = []
    for sd in sc.squadron:
        q, qs = _squadron(sd, file, rules)
        squadrons.append(q)
        ships.extend(qs)
    if len(ships) > schema.MAX_SHIPS:
        raise ScenarioError(file, "squadron", "ship", f"a game has at most {schema.MAX_SHIPS} ships, found {len(ships)}")
    players = [q.player for q in squadrons]
    if len(set(players)) != len(players):
        raise ScenarioError(file, "squadron", "player", f"players must differ, got {players}")
    teams = list(dict.fromkeys(q.team or q.player for q in squadrons))
    if len(teams) != 2:
        raise ScenarioError(file, "squadron", "team", f"a battle has two sides; the squadrons form {len(teams)}: "
                                                      "give every squadron of a fleet battle a `team`")
    if len(teams) != len(squadrons):  # a fleet battle: the sides' fleets are assembled here
        _check_fleets(sc.squadron, file, rules)
    names = [fold(s.id) for s in ships]
    for s in ships:
        if names.count(fold(s.id)) > 1:
            raise ScenarioError(file, s.id, "name", "ship names must be unique in a game")
    ships = _entanglements(ships, file)
    _check_positions(ships, terrain, t.width, t.height, file)
    defender = sc.defender or teams[1]
    if defender not in teams:
        raise ScenarioError(file, "(scenario)", "defender", f"must be one of {teams}")
    objective = sc.objective or None
    if objective is not None and objective not in rules.scenario_cards.get("objective", {}):
        known = ", ".join(rules.scenario_cards.get("objective", {}))
        raise ScenarioError(file, "(scenario)", "objective", f"unknown objective {objective!r}; objectives: {known}")
    unknown = [e for e in sc.events if e not in rules.events]
    if unknown:
        raise ScenarioError(file, "(scenario)", "events", f"unknown event card {unknown[0]!r}; events: "
                                                          f"{', '.join(rules.events)}")
    return Game(
        system=sc.system,
        edition=sc.edition or DEFAULT_EDITION,
        name=sc.name or Path(file).stem,
        table=Table(t.width, t.height, t.weather_edge, tuple(terrain)),
        squadrons=tuple(squadrons),
        ships=tuple(ships),
        seed=sc.seed,
        defender=defender,
        test_dice=sc.test_dice,
        last_turn=sc.last_turn,
        event_deck=tuple(sc.events),
        objective=objective,
        scrolling_sea=sc.scrolling_sea,
        tutorial=sc.tutorial,
    )


def _drafted(doc: Mapping[str, Any], file: str) -> Game:
    from game.phases.preparation import drafted_game  # the set-up's module reads scenarios' neighbours

    sd = validate(schema.DraftedDoc, doc, file, "(scenario)", schema.label, ScenarioError)
    return drafted_game(sd.drafted, sd.seed, name=sd.name or f"Drafted {sd.drafted}")


def _check_fleets(docs: list[schema.SquadronDoc], file: str, rules: RulesData) -> None:
    sides: dict[str, list[int]] = {}
    for sd in docs:
        sides.setdefault(sd.team or sd.player, []).append(_squadron_points(sd, rules))
    problem = fleet_problem(sides)
    if problem is not None:
        raise FleetError(file, f"team {problem.side}" if problem.side else "(scenario)", "team", problem.message)


def _squadron_points(sd: schema.SquadronDoc, rules: RulesData) -> int:
    """A scenario squadron's points, counted as a squadron list's are (game/squadron.py)."""
    entries = [ShipEntry(d.name, d.cls, d.skill, tuple(d.upgrades), d.captain, tuple(d.cards)) for d in sd.ship]
    admiral = rules.admirals.get(sd.admiral)
    return sum(ship_points(e, sd.faction, rules) for e in entries) + (admiral.points if admiral else 0)


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


def _terrain(docs: list[schema.TerrainDoc], width: float, height: float, file: str) -> list[Terrain]:
    out = []
    for i, t in enumerate(docs):
        kind = TerrainKind(t.kind)
        tid = t.id or f"{kind.value}-{i + 1}"
        points = tuple((p[0], p[1]) for p in t.points)
        if any(x > width or y > height for x, y in points):
            raise ScenarioError(file, tid, "points", f"every corner must lie on the {width:g} x {height:g} table")
        if not Polygon(points).is_valid or Polygon(points).area <= 0:
            raise ScenarioError(file, tid, "points", "must outline a simple polygon of three or more corners")
        out.append(Terrain(tid, kind, points))
    return out


def _squadron(sd: schema.SquadronDoc, file: str, rules: RulesData) -> tuple[Squadron, list[Ship]]:
    player = sd.player
    entry = f"squadron {player}"
    for card in sd.hand:
        if card not in rules.cards:
            raise ScenarioError(file, entry, "hand", f"unknown initiative card {card!r}")
    if len(set(sd.hand)) != len(sd.hand):
        raise ScenarioError(file, entry, "hand", "a hand holds each card once")
    flagship = sd.flagship or sd.ship[0].name
    if flagship not in [d.name for d in sd.ship]:
        raise ScenarioError(file, entry, "flagship", f"{flagship!r} is not a ship of this squadron")
    # a named admiral is its card, as in a squadron list (game/setup.py): its value breaks ties unless
    # the file gives `admiral_value`, its keywords serve the Flagship, and the officers' keywords add
    # Fortune Points to the file's `fortune`
    admiral = rules.admirals.get(sd.admiral)
    keywords = list(admiral.keywords) if admiral is not None else []
    ships = [_ship(d, player, file, rules, keywords if d.name == flagship else []) for d in sd.ship]
    value = sd.admiral_value if "admiral_value" in sd.model_fields_set or admiral is None else admiral.value
    officers = [*keywords, *(k for d in sd.ship if d.captain in rules.captains for k in rules.captains[d.captain].keywords)]
    fortune = sd.fortune + sum(rules.keywords[k].fortune for k in officers if k in rules.keywords)
    q = Squadron(
        player=player,
        name=sd.name or f"Player {player}",
        faction=sd.faction,
        flagship=flagship,
        admiral=sd.admiral,
        admiral_value=value,
        fortune=fortune,
        hand=tuple(sd.hand),
        team=sd.team,
    )
    return q, ships


def _ship(d: schema.ShipDoc, player: str, file: str, rules: RulesData, admiral_keywords: list[str]) -> Ship:
    name, cls_name = d.name, d.cls
    if cls_name not in rules.ships:
        raise ScenarioError(file, name, "class", f"unknown ship class {cls_name!r}; known: {', '.join(rules.ships)}")
    cls = rules.ships[cls_name]
    base = rules.bases[cls.base]
    for u in d.upgrades:
        if u not in cls.upgrades:
            raise ScenarioError(file, name, "upgrades", f"{cls_name} cannot take {u!r}; options: {', '.join(cls.upgrades)}")
    statuses: set[Status] = set()
    if d.aground:
        statuses.add(Status.AGROUND)
    if d.damage >= 7:
        statuses.add(Status.CRIPPLED)
        if d.fatigue >= 7:
            statuses.add(Status.OUT_OF_ACTION)
    stats = {k: getattr(cls, k) for k in ("fortitude", "broadside", "crew", "windward", "large")}
    traits = list(cls.traits)
    for u in d.upgrades:
        up = rules.upgrades.get(u)
        if up is not None:
            for k, v in up.stats.items():
                stats[k] += v
            traits += [t for t in up.traits if t not in traits]
    unknown = [x for x in d.cards if x not in rules.upgrade_cards]
    if unknown:
        raise ScenarioError(file, name, "cards", f"unknown upgrade card {unknown[0]!r}")
    changes = [rules.upgrade_cards[x].stats for x in d.cards]
    if d.captain in rules.captains:
        changes += [rules.keywords[k].stats for k in rules.captains[d.captain].keywords if k in rules.keywords]
    changes += [rules.keywords[k].stats for k in admiral_keywords if k in rules.keywords]
    stats["skill"] = d.skill
    for change in changes:
        for k, v in change.items():
            stats[k] = max(0 if k == "skill" else 1, stats[k] + v)
    return Ship(
        id=name,
        cls=cls_name,
        owner=player,
        controller=player,
        x=d.x,
        y=d.y,
        heading=d.heading % 360.0,
        base=cls.base,
        beam=base.beam,
        length=base.length,
        traits=tuple(traits),
        **stats,
        upgrades=tuple(d.upgrades),
        sail=Sail(d.sail),
        damage=d.damage,
        fatigue=d.fatigue,
        statuses=frozenset(statuses),
        reload=frozenset(ShipSide(s) for s in d.reload),
        entangled_with=frozenset(d.entangled_with),
        captain=d.captain,
        cards=tuple(d.cards),
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
