"""A game from two squadron lists, deployed in lines along the long edges: the quick way to start a
game from squadrons (tests, computer opponents) until the full chapter-7 set-up runs in the bot."""

from __future__ import annotations

from game.model import Game, Sail, Ship, Squadron, Table
from game.rules_data import RulesData
from game.squadron import SquadronList

TABLES = {"patrol": (36.0, 36.0), "skirmish": (36.0, 36.0), "engagement": (48.0, 36.0)}


def game_from_squadrons(a: SquadronList, b: SquadronList, rules: RulesData, seed: int = 0) -> Game:
    """Player A deploys along the south edge heading north, B along the north edge heading south;
    ships line abreast, 3.5" apart, centred; the wind blows from the west (a short edge)."""
    width, height = TABLES[a.size]
    ships: list[Ship] = []
    squadrons = []
    for player, sq, y, heading in (("A", a, 3.5, 0.0), ("B", b, height - 3.5, 180.0)):
        n = len(sq.ships)
        spacing = min(3.5, (width - 4) / max(1, n))
        x0 = width / 2 - spacing * (n - 1) / 2
        for i, entry in enumerate(sq.ships):
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
            clash = any(s.name == entry.name for s in (b if player == "A" else a).ships)
            ships.append(Ship(
                id=f"{entry.name}-{player}" if clash else entry.name,
                cls=cls.name, owner=player, controller=player, x=x0 + i * spacing, y=y, heading=heading,
                base=cls.base, beam=base.beam, length=base.length, skill=entry.skill, traits=tuple(traits),
                upgrades=entry.options, sail=Sail.BATTLE, captain=entry.captain, **stats,
            ))
        admiral = rules.admirals[sq.admiral]
        flagship = next(s.id for s in ships if s.owner == player and s.id in (sq.flagship, f"{sq.flagship}-{player}"))
        fortune = 3 + (1 if "Lucky" in admiral.keywords else 0)
        squadrons.append(Squadron(player=player, name=sq.name, faction=sq.faction, flagship=flagship,
                                  admiral=admiral.name, admiral_value=admiral.value, fortune=fortune, hand=sq.hand))
    return Game(system="oak_and_iron", edition="squadrons", name=f"{a.name} against {b.name}",
                table=Table(width, height, "W"), squadrons=tuple(squadrons), ships=tuple(ships), seed=seed,
                defender="B")
