"""Squadron lists (docs/squadron-format.md): reading them, their points, and every building rule of
the rulebook's Creating a Squadron (p. 27), each broken rule reported with the entry and field to fix."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from game.errors import DataError, RulesError
from game.rules_data import RulesData
from game.schema import squadron as schema
from game.schema.common import problems, read_toml

SIZES = {
    # size: (points, fewest ships, most ships, Ships of the Line allowed)
    "patrol": (50, 2, 4, False),
    "skirmish": (100, 4, 8, True),
    "engagement": (200, 5, 10, True),
}
SKILL_COST = {0: 0, 1: 2, 2: 4}
BASE_HAND = 5
MAX_SHOWN = 8  # problems spelled out in a refusal's message (all are in SquadronError.problems)


@dataclass(frozen=True)
class ShipEntry:
    name: str
    cls: str
    skill: int = 0
    options: tuple[str, ...] = ()  # upgrade options printed on the ship card
    captain: str = ""
    cards: tuple[str, ...] = ()  # upgrade cards


@dataclass(frozen=True)
class SquadronList:
    name: str
    size: str
    faction: str
    admiral: str
    flagship: str
    ships: tuple[ShipEntry, ...]
    hand: tuple[str, ...]


@dataclass(frozen=True)
class Problem:
    entry: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.entry}, {self.field}: {self.message}"


class SquadronError(DataError):
    """A squadron list cannot be read: every problem found, each naming its entry and field."""

    code = "squadron"

    def __init__(self, problems: list[Problem], file: str = "squadron list") -> None:
        self.problems = problems
        first = problems[0]
        self.file, self.entry, self.field, self.problem = file, first.entry, first.field, first.message
        shown = "; ".join(str(p) for p in problems[:MAX_SHOWN])
        more = len(problems) - MAX_SHOWN
        RulesError.__init__(self, shown + (f"; and {more} more" if more > 0 else ""))


def _squadron_error(file: str, entry: str, field_name: str, problem: str) -> SquadronError:
    return SquadronError([Problem(entry, field_name, problem)], file)


def parse_squadron(text: str, partial: bool = False, file: str = "squadron list") -> SquadronList:
    """Read a list within the limits of its schema (game/schema/squadron.py); `partial` accepts one
    still being built (no ships yet)."""
    doc = read_toml(text, file, schema.MAX_FILE_BYTES, _squadron_error)
    try:
        sq = schema.SquadronDoc.model_validate(doc)
    except ValidationError as exc:
        found = problems(exc, doc, "(squadron)", schema.label)
        raise SquadronError([Problem(*p) for p in found], file) from None
    if not sq.ship and not partial:
        raise SquadronError([Problem("(squadron)", "ship", "a squadron lists its ships as [[ship]] tables")], file)
    return SquadronList(
        name=sq.name, size=sq.size, faction=sq.faction, admiral=sq.admiral, flagship=sq.flagship,
        ships=tuple(ShipEntry(s.name, s.cls, s.skill, tuple(s.options), s.captain, tuple(s.cards)) for s in sq.ship),
        hand=tuple(sq.hand),
    )


def ship_points(ship: ShipEntry, faction: str, rules: RulesData) -> int:
    cls = rules.ships.get(ship.cls)
    if cls is None:
        return 0
    points = cls.points + SKILL_COST.get(ship.skill, 0)
    discount = rules.factions.get(faction)
    for option in ship.options:
        cost = cls.upgrades.get(option, 0)
        if option == "Stout" and discount is not None and discount.stout_discount:
            cost = cost // 2
        points += cost
    if ship.captain in rules.captains:
        points += rules.captains[ship.captain].points
    points += sum(rules.upgrade_cards[c].points for c in ship.cards if c in rules.upgrade_cards)
    return points


def squadron_points(sq: SquadronList, rules: RulesData) -> int:
    admiral = rules.admirals.get(sq.admiral)
    return sum(ship_points(s, sq.faction, rules) for s in sq.ships) + (admiral.points if admiral else 0)


def _nation_ok(nation: str | tuple[str, ...], faction: str) -> bool:
    if isinstance(nation, tuple):
        return not nation or faction in nation
    return nation in ("", faction)


def validate(sq: SquadronList, rules: RulesData) -> list[Problem]:
    """Every building rule the list breaks (empty when it is legal)."""
    out: list[Problem] = []
    top = "(squadron)"
    if sq.size not in SIZES:
        out.append(Problem(top, "size", f"must be one of {', '.join(SIZES)}"))
        return out
    limit, fewest, most, sol_allowed = SIZES[sq.size]
    if sq.faction not in rules.factions:
        out.append(Problem(top, "faction", f"unknown faction {sq.faction!r}; factions: {', '.join(rules.factions)}"))
    if not fewest <= len(sq.ships) <= most:
        out.append(Problem(top, "ship", f"a {sq.size} squadron has {fewest} to {most} ships, this one has {len(sq.ships)}"))
    names = Counter(s.name for s in sq.ships)
    for name, n in names.items():
        if n > 1:
            out.append(Problem(name, "name", "ship names must be unique in a squadron"))
    if sq.flagship not in names:
        out.append(Problem(top, "flagship", f"{sq.flagship!r} is not one of the squadron's ships"))
    admiral = rules.admirals.get(sq.admiral)
    if admiral is None:
        out.append(Problem(top, "admiral", f"unknown admiral {sq.admiral!r}"))
    elif not _nation_ok(admiral.nation, sq.faction):
        out.append(Problem(top, "admiral", f"{admiral.name} is {admiral.nation}, not {sq.faction}"))
    for ship in sq.ships:
        out += _ship_problems(ship, sq, rules, sol_allowed)
    points = squadron_points(sq, rules)
    if points > limit:
        out.append(Problem(top, "points", f"{points} points is over the {sq.size} limit of {limit}"))
    out += _hand_problems(sq, rules, admiral.value if admiral else 0)
    return out


def _ship_problems(ship: ShipEntry, sq: SquadronList, rules: RulesData, sol_allowed: bool) -> list[Problem]:
    out: list[Problem] = []
    cls = rules.ships.get(ship.cls)
    if cls is None:
        return [Problem(ship.name, "class", f"unknown ship class {ship.cls!r}")]
    sol = "Ship of the Line" in cls.traits
    if sol and not sol_allowed:
        out.append(Problem(ship.name, "class", f"a {cls.name} is a Ship of the Line: not allowed in a {sq.size} game"))
    if ship.skill not in SKILL_COST:
        out.append(Problem(ship.name, "skill", "Skill is 0, 1 or 2"))
    for option in ship.options:
        if option not in cls.upgrades:
            out.append(Problem(ship.name, "options", f"a {cls.name} cannot take {option!r}; options: "
                                                     f"{', '.join(cls.upgrades)}"))
    if len(set(ship.options)) != len(ship.options):
        out.append(Problem(ship.name, "options", "each upgrade option is bought once"))
    flagship = ship.name == sq.flagship
    if ship.captain:
        captain = rules.captains.get(ship.captain)
        if captain is None:
            out.append(Problem(ship.name, "captain", f"unknown captain {ship.captain!r}"))
        elif flagship:
            out.append(Problem(ship.name, "captain", "the admiral is the Flagship's commander card: no captain there"))
        elif not _nation_ok(captain.nation, sq.faction):
            out.append(Problem(ship.name, "captain", f"{captain.name} is {captain.nation}, not {sq.faction}"))
    if len(ship.cards) > 2:
        out.append(Problem(ship.name, "cards", f"at most 2 upgrade cards per ship, this one has {len(ship.cards)}"))
    for name in ship.cards:
        card = rules.upgrade_cards.get(name)
        if card is None:
            out.append(Problem(ship.name, "cards", f"unknown upgrade card {name!r}"))
            continue
        if not _nation_ok(card.nations, sq.faction):
            out.append(Problem(ship.name, "cards", f"{name} is for {', '.join(card.nations)} squadrons only"))
        if "not_ship_of_the_line" in card.restrictions and sol:
            out.append(Problem(ship.name, "cards", f"{name} cannot go on a Ship of the Line"))
        if "not_flagship" in card.restrictions and flagship:
            out.append(Problem(ship.name, "cards", f"{name} cannot go on the Flagship"))
        if "only_upgrade" in card.restrictions and (len(ship.cards) > 1 or ship.options):
            out.append(Problem(ship.name, "cards", f"{name} must be the only upgrade on its ship"))
    return out


def _hand_problems(sq: SquadronList, rules: RulesData, admiral_value: int) -> list[Problem]:
    out: list[Problem] = []
    top = "(squadron)"
    size = BASE_HAND + admiral_value
    if len(sq.hand) != size:
        out.append(Problem(top, "hand", f"the hand is 5 + admiral value = {size} cards, this one has {len(sq.hand)}"))
    for title, n in Counter(sq.hand).items():
        if n > 1:
            out.append(Problem(top, "hand", f"{title!r} is in the hand {n} times: no duplicate titles"))
    known = [rules.cards[c] for c in sq.hand if c in rules.cards]
    for c in sq.hand:
        if c not in rules.cards:
            out.append(Problem(top, "hand", f"unknown initiative card {c!r}"))
    for card in known:
        if not _nation_ok(card.nation, sq.faction):
            out.append(Problem(top, "hand", f"{card.name} is a {card.nation} card, not {sq.faction}"))
    for value, n in Counter(c.value for c in known).items():
        if n > 2:
            out.append(Problem(top, "hand", f"{n} cards of initiative value {value}: at most 2 of one value"))
    returning = sum(1 for c in known if not c.discard)
    if returning < 3:
        out.append(Problem(top, "hand", f"only {returning} cards return to the hand after play: at least 3 must"))
    return out


# ---------------------------------------------------------------- random legal squadrons


def random_squadron(seed: int, size: str, rules: RulesData, faction: str | None = None) -> SquadronList:
    """A legal squadron of the size, built at random (for tests and computer opponents)."""
    import random

    rng = random.Random(f"squadron:{seed}:{size}:{faction}")
    limit, fewest, most, sol_allowed = SIZES[size]
    for _ in range(200):
        fac = faction or rng.choice(sorted(rules.factions))
        admirals = [a for a in rules.admirals.values() if _nation_ok(a.nation, fac) and a.points <= limit // 5]
        admiral = rng.choice(sorted(admirals, key=lambda a: a.name))
        classes = [c for c in rules.ships.values() if sol_allowed or "Ship of the Line" not in c.traits]
        n = rng.randint(fewest, most)
        ships = []
        budget = limit - admiral.points
        for i in range(n):
            affordable = [c for c in classes if c.points <= budget - 7 * (n - i - 1)]
            if not affordable:
                break
            cls = rng.choice(sorted(affordable, key=lambda c: c.name))
            skill = rng.choice([0, 0, 1, 2])
            options = tuple(o for o in sorted(cls.upgrades) if o != "Stout" and rng.random() < 0.2)
            ship = ShipEntry(f"{fac[:3]}-{i + 1}", cls.name, skill, options)
            cost = ship_points(ship, fac, rules)
            if cost > budget - 7 * (n - i - 1):
                ship = ShipEntry(ship.name, cls.name)
                cost = ship_points(ship, fac, rules)
            ships.append(ship)
            budget -= cost
        if len(ships) < fewest:
            continue
        hand = _random_hand(rng, fac, BASE_HAND + admiral.value, rules)
        sq = SquadronList(f"{fac} {size} {seed}", size, fac, admiral.name, ships[0].name, tuple(ships), hand)
        if not validate(sq, rules):
            return sq
    raise RuntimeError(f"no legal {size} squadron found for seed {seed}")


def _random_hand(rng: Any, faction: str, size: int, rules: RulesData) -> tuple[str, ...]:
    cards = [c for c in rules.cards.values() if _nation_ok(c.nation, faction) and not c.effects_require()]
    for _ in range(200):
        pick = rng.sample(sorted(cards, key=lambda c: c.name), size)
        values = Counter(c.value for c in pick)
        if max(values.values()) <= 2 and sum(1 for c in pick if not c.discard) >= 3:
            return tuple(c.name for c in pick)
    raise RuntimeError("no legal initiative hand")
