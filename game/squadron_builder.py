"""Building a squadron list one choice at a time (the bot's /squadron commands): each step returns
a new list, written back as the squadron file format, with the building rules it still breaks."""

from __future__ import annotations

from dataclasses import replace

from game.names import prose
from game.names import text as named
from game.rules_data import RulesData
from game.squadron import (
    SIZES,
    ShipEntry,
    SquadronList,
    _nation_ok,
    parse_squadron,
    ship_points,
    squadron_points,
    validate,
)


def new_list(name: str, size: str, faction: str, admiral: str) -> SquadronList:
    return SquadronList(name=name, size=size, faction=faction, admiral=admiral, flagship="", ships=(), hand=())


def with_ship(sq: SquadronList, ship: ShipEntry, flagship: bool = False) -> SquadronList:
    """Add the ship, or replace the ship of that name; the first ship is the Flagship until another
    is named."""
    ships = [s for s in sq.ships if s.name != ship.name]
    at = next((i for i, s in enumerate(sq.ships) if s.name == ship.name), len(ships))
    ships.insert(at, ship)
    flag = ship.name if flagship or not sq.flagship else sq.flagship
    return replace(sq, ships=tuple(ships), flagship=flag)


def without_ship(sq: SquadronList, name: str) -> SquadronList:
    ships = tuple(s for s in sq.ships if s.name != name)
    flag = sq.flagship if sq.flagship != name else (ships[0].name if ships else "")
    return replace(sq, ships=ships, flagship=flag)


def with_hand_card(sq: SquadronList, card: str) -> SquadronList:
    return replace(sq, hand=(*sq.hand, card))


def without_hand_card(sq: SquadronList, card: str) -> SquadronList:
    hand = list(sq.hand)
    if card in hand:
        hand.remove(card)
    return replace(sq, hand=tuple(hand))


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_list(items: tuple[str, ...]) -> str:
    return "[" + ", ".join(_toml_str(i) for i in items) + "]"


def to_toml(sq: SquadronList) -> str:
    """The list in the squadron file format (docs/squadron-format.md). A list the format's limits
    would refuse (a name too long, too many ships …) is refused here, with a SquadronError naming
    the entry and field, rather than kept as a file that could not be read back."""
    lines = [f"name = {_toml_str(sq.name)}", f"size = {_toml_str(sq.size)}", f"faction = {_toml_str(sq.faction)}",
             f"admiral = {_toml_str(sq.admiral)}", f"flagship = {_toml_str(sq.flagship)}",
             f"hand = {_toml_list(sq.hand)}"]
    for ship in sq.ships:
        lines += ["", "[[ship]]", f"name = {_toml_str(ship.name)}", f"class = {_toml_str(ship.cls)}"]
        if ship.skill:
            lines.append(f"skill = {ship.skill}")
        if ship.options:
            lines.append(f"options = {_toml_list(ship.options)}")
        if ship.captain:
            lines.append(f"captain = {_toml_str(ship.captain)}")
        if ship.cards:
            lines.append(f"cards = {_toml_list(ship.cards)}")
    text = "\n".join(lines) + "\n"
    parse_squadron(text, partial=True)
    return text


def summary(sq: SquadronList, rules: RulesData) -> str:
    """Points, ships and hand at a glance, then what is still wrong (or that the list is legal)."""
    limit = SIZES.get(sq.size, (0, 0, 0, False))[0]
    admiral = rules.admirals.get(sq.admiral)
    hand_size = 5 + (admiral.value if admiral else 0)
    lines = [f"**{named(sq.name)}** — {named(sq.faction)} {sq.size}: {squadron_points(sq, rules)}/{limit} points, "
             f"admiral {named(sq.admiral)} ({admiral.points if admiral else '?'} pts)"]
    for s in sq.ships:
        extras = [f"Skill {s.skill}"] if s.skill else []
        extras += [named(x) for x in (*s.options, *([s.captain] if s.captain else []), *s.cards)]
        flag = " ⚑ Flagship" if s.name == sq.flagship else ""
        lines.append(f"• {named(s.name)}: {named(s.cls)}{' (' + ', '.join(extras) + ')' if extras else ''} — "
                     f"{ship_points(s, sq.faction, rules)} pts{flag}")
    lines.append(f"Hand ({len(sq.hand)}/{hand_size}): {', '.join(named(c) for c in sq.hand) or 'empty'}")
    problems = validate(sq, rules)
    if problems:
        lines.append("Still to fix: " + "; ".join(prose(str(p)) for p in problems))
    else:
        lines.append("✅ Legal: ready to bring to a drafted game.")
    return "\n".join(lines)


def cards_for(sq: SquadronList, rules: RulesData) -> list[str]:
    """Initiative cards this list's faction may take, not yet in the hand."""
    return [c.name for c in rules.cards.values() if _nation_ok(c.nation, sq.faction) and c.name not in sq.hand]
