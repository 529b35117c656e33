"""Games from squadron lists: the ships and squadron a list puts on the table, and a quick line
deployment along the long edges (tests, computer opponents). The drafted chapter-7 set-up lives in
`game.phases.preparation`."""

from __future__ import annotations

from collections.abc import Iterable

from game.model import Game, Sail, Ship, Squadron, Status, Table
from game.rules_data import RulesData
from game.squadron import ShipEntry, SquadronList

TABLES = {"patrol": (36.0, 36.0), "skirmish": (36.0, 36.0), "engagement": (48.0, 36.0)}


def build_squadron(player: str, sq: SquadronList, rules: RulesData, taken: Iterable[str] = (),
                   deployed: bool = True) -> tuple[Squadron, tuple[Ship, ...]]:
    """The squadron and its ships (at the origin; off the table until deployed unless `deployed`).
    A ship whose name another squadron already uses gets the player's letter added."""
    taken_ids = set(taken)
    ships: list[Ship] = []
    for entry in sq.ships:
        cls = rules.ships[entry.cls]
        base = rules.bases[cls.base]
        stats = {k: getattr(cls, k) for k in ("fortitude", "broadside", "crew", "windward", "large")}
        traits = list(cls.traits)
        for option in entry.options:
            up = rules.upgrades.get(option)
            if up is not None:
                for k, v in up.stats.items():
                    stats[k] += v
                traits += [t for t in up.traits if t not in traits]
        stats["skill"] = entry.skill
        for k, v in _stat_changes(entry, entry.name == sq.flagship, sq, rules).items():
            stats[k] = max(0 if k == "skill" else 1, stats[k] + v)
        ship_id = f"{entry.name}-{player}" if entry.name in taken_ids else entry.name
        ships.append(Ship(
            id=ship_id, cls=cls.name, owner=player, controller=player, x=0.0, y=0.0, heading=0.0,
            base=cls.base, beam=base.beam, length=base.length, traits=tuple(traits),
            upgrades=entry.options, sail=Sail.BATTLE, captain=entry.captain, cards=entry.cards,
            statuses=frozenset() if deployed else frozenset({Status.UNDEPLOYED}), **stats,
        ))
    admiral = rules.admirals[sq.admiral]
    flagship = next(s.id for s in ships if s.id in (sq.flagship, f"{sq.flagship}-{player}"))
    officers = [*admiral.keywords, *(k for e in sq.ships if e.captain in rules.captains
                                     for k in rules.captains[e.captain].keywords)]
    fortune = 3 + sum(rules.keywords[k].fortune for k in officers if k in rules.keywords)
    squadron = Squadron(player=player, name=sq.name, faction=sq.faction, flagship=flagship,
                        admiral=admiral.name, admiral_value=admiral.value, fortune=fortune, hand=sq.hand)
    return squadron, tuple(ships)


def _stat_changes(entry: ShipEntry, flagship: bool, sq: SquadronList, rules: RulesData) -> dict[str, int]:
    """What the ship's upgrade cards and its officers' keywords add to its stat line."""
    out: dict[str, int] = {}
    sources = [rules.upgrade_cards[c].stats for c in entry.cards if c in rules.upgrade_cards]
    keywords = list(rules.captains[entry.captain].keywords) if entry.captain in rules.captains else []
    if flagship and sq.admiral in rules.admirals:
        keywords += rules.admirals[sq.admiral].keywords
    sources += [rules.keywords[k].stats for k in keywords if k in rules.keywords]
    for stats in sources:
        for k, v in stats.items():
            out[k] = out.get(k, 0) + v
    return out


def game_from_squadrons(a: SquadronList, b: SquadronList, rules: RulesData, seed: int = 0) -> Game:
    """Player A deploys along the south edge heading north, B along the north edge heading south;
    ships line abreast, 3.5" apart, centred; the wind blows from the west (a short edge)."""
    from dataclasses import replace

    width, height = TABLES[a.size]
    ships: list[Ship] = []
    squadrons = []
    for player, sq, y, heading, other in (("A", a, 3.5, 0.0, b), ("B", b, height - 3.5, 180.0, a)):
        squadron, built = build_squadron(player, sq, rules, taken=(e.name for e in other.ships))
        n = len(built)
        spacing = min(3.5, (width - 4) / max(1, n))
        x0 = width / 2 - spacing * (n - 1) / 2
        ships += [replace(s, x=x0 + i * spacing, y=y, heading=heading) for i, s in enumerate(built)]
        squadrons.append(squadron)
    return Game(system="oak_and_iron", edition="squadrons", name=f"{a.name} against {b.name}",
                table=Table(width, height, "W"), squadrons=tuple(squadrons), ships=tuple(ships), seed=seed,
                defender="B")
