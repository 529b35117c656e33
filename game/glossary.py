"""`rules NAME` and `hand`: what a card, trait or term means and how it is played, answered from the
game's data (the cards' texts and effects, keywords, upgrades, ship classes, range bands, and
`terms.toml` for the traits and terms) so that every front end reads the same words.

How a card is played is read from its effects' kinds (docs/effects.md), never from its name: a new
card written in the same vocabulary is explained without a line of code.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from game.errors import DataError, UnknownName
from game.notation import fold
from game.rules_data import CardDef, RulesData
from game.schema.common import read_toml

TERMS_FILE = "terms.toml"
_MAX_TERMS_BYTES = 200_000


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str  # initiative card, trait, term, upgrade, keyword, ship class, range band, scenario card …
    text: str
    play: tuple[str, ...] = ()  # how it is played: sentences that quote their orders in `backticks`

    def lines(self) -> list[str]:
        """The answer to `rules NAME`: what it is, then one line per way to play it."""
        return [f"{self.name} ({self.kind}): {self.text}", *(f"  - {p}" for p in self.play)]


# What a player types for each kind of effect (docs/effects.md); an effect with no line here needs no order.
_NOTHING = "Nothing to type: it is in force while the card is face up (the turn it is revealed)."
_ON_REVEAL = "Nothing to type: it acts by itself once both players have chosen next turn's card."
_CREW_ATTACK = {"broadside": "`move SHIP crew fire port TARGET`", "partial": "`move SHIP crew partial TARGET`",
                "close": "`move SHIP crew melee TARGET`"}
_FREE_ATTACK = {"broadside": "`free fire SHIP port TARGET`", "partial": "`free partial SHIP TARGET`",
                "close": "`free melee SHIP TARGET`"}
_REVEAL: Mapping[str, str] = {
    "free_turn": "When it is revealed, for each ship offered: `freeturn SHIP port 30` (up to the speed-1 turn) "
                 "or `freeturn SHIP skip`",
    "borrow_effect": "When it is revealed, name the card whose effect it lends: `borrow CARD`",
    "place_terrain": "When it is revealed, place the piece: `shoal X Y [rot DEG]` or `shoal skip`",
}


def _effect_lines(e: Mapping[str, Any]) -> tuple[str, ...]:
    kind = e.get("kind")
    if kind == "crew_action" and e.get("action") == "boat_assault":
        return ("A ship at speed 2 or less spends its Crew Action: `move SHIP crew boat TARGET`",
                "then in the Attack Phase `melee SHIP TARGET boat`")
    if kind == "crew_action":
        orders = " or ".join(_CREW_ATTACK[a] for a in e.get("attacks", ["broadside"]) if a in _CREW_ATTACK)
        return (f"In the Movement Phase, after the move, the Crew Action may be the attack: {orders} "
                "(`crew SHIP …` once the ship has moved)",)
    if kind == "free_move" and e.get("move") == "sideways":
        return ("With the move, a sideways shift at its start or end, up to the speed-1 length: "
                "`move SHIP shift start port 0.5` (or `shift end starboard …`)",)
    if kind == "free_attack" and e.get("trigger") == "before_boarding":
        return ("Nothing more to type: the volley is fired by itself before a Boarding (`move SHIP crew board TARGET`)",)
    if kind == "free_attack":
        return (f"When the game offers the free attack: {_FREE_ATTACK.get(str(e.get('attack')), '`free …`')}, "
                "or `decline`",)
    if kind == "on_reveal":
        return (_REVEAL.get(str(e.get("action")), _ON_REVEAL),)
    return ()


# the effects a player must remember to use while moving: nothing else asks for them
_MOVING = ("crew_action", "free_move")


def while_moving(card: CardDef, kinds: tuple[str, ...] = _MOVING) -> tuple[str, ...]:
    """The lines a face-up card offers in the Movement Phase (a Crew Action that attacks, a sideways
    shift; or only the `kinds` asked for), for the options to remind the player of them."""
    return tuple(line for e in card.effects if e.get("kind") in kinds and "requires" not in e
                 for line in _effect_lines(e))


def how_to_play(card: CardDef, player: str = "PLAYER") -> tuple[str, ...]:
    """The lines a card needs, from its effects' kinds: `pick` first, then what its effect asks for."""
    lines = [f"Play it as your initiative card: `pick {player} {card.name}`"]
    for e in card.effects:
        lines += [line for line in _effect_lines(e) if line not in lines]
    if len(lines) == 1:
        lines.append(_NOTHING)
    return tuple(lines)


def card_entry(card: CardDef, player: str = "PLAYER") -> Entry:
    nation = f", {card.nation}" if card.nation else ""
    discard = ", discarded after play" if card.discard else ""
    return Entry(card.name, f"initiative card, value {card.value}{nation}{discard}", card.text,
                 how_to_play(card, player))


def entries(rules: RulesData) -> dict[str, Entry]:
    """Every name `rules NAME` answers, by its folded name (no accent, any case). A card wins over a
    term of the same name: the card is what the player holds."""
    found: dict[str, Entry] = {}

    def add(entry: Entry) -> None:
        found.setdefault(fold(entry.name), entry)

    for card in rules.cards.values():
        add(card_entry(card))
    for t in _terms(rules.system):
        add(t)
    for k in rules.keywords.values():
        add(Entry(k.name, "admiral or captain keyword", k.text))
    for u in rules.upgrades.values():
        bonus = ", ".join(f"{v:+d} {s.title()}" for s, v in u.stats.items())
        grants = ", ".join(u.traits)
        add(Entry(u.name, "ship upgrade", "; ".join(x for x in (bonus, f"gives the trait {grants}" if grants else "") if x)))
    for c in rules.upgrade_cards.values():
        add(Entry(c.name, f"upgrade card, {c.points} points", c.text))
    for s in rules.ships.values():
        traits = f"; traits: {', '.join(s.traits)}" if s.traits else ""
        add(Entry(s.name, f"ship class, {s.points} points", f"{s.base} base, Fortitude {s.fortitude}, Broadside "
                  f"{s.broadside}, Crew {s.crew}, speed Windward {s.windward} / Large {s.large}{traits}."))
    for b in rules.ranges:
        add(Entry(b.label, "range band", f"within {b.max:g}\" (measured between the nearest points of the bases)."))
    for deck, cards in rules.scenario_cards.items():
        for sc in cards.values():
            add(Entry(sc.name, f"{deck.replace('_', ' ')} card", sc.text))
    return found


def look_up(rules: RulesData, query: str) -> Entry:
    """The entry a player means: the exact name in any case or without accents, a unique prefix, or
    the nearest spelling; otherwise UnknownName naming the nearest names."""
    table = entries(rules)
    key = fold(" ".join(query.split()))
    if not key:
        raise UnknownName("`rules` needs a name: a card, a trait or a term.", "For example `rules Effective Fire`, "
                                                                           "`rules Small`, `rules Shaken`.")
    if key in table:
        return table[key]
    starts = [k for k in table if k.startswith(key)]
    if len(starts) == 1:
        return table[starts[0]]
    near = difflib.get_close_matches(key, list(table), n=3, cutoff=0.6)
    if near and difflib.SequenceMatcher(None, key, near[0]).ratio() >= 0.8:
        return table[near[0]]  # one misspelling away: answer it (the answer names what it is)
    nearest = [table[k].name for k in (near or starts[:3])]
    raise UnknownName(f"No card, trait or term is called {query.strip()[:60]!r}.",
                      f"Nearest: {', '.join(nearest)}." if nearest else
                      "Try a card of your hand, a trait such as Small, or a term such as Shaken or Formation.")


@lru_cache(maxsize=8)
def _terms(system: str) -> tuple[Entry, ...]:
    """The traits and terms of a system's terms.toml (none when the system has no such file)."""
    path = resources.files("game.data").joinpath(system).joinpath(TERMS_FILE)
    if not path.is_file():
        return ()
    doc = read_toml(path.read_text(encoding="utf-8"), TERMS_FILE, _MAX_TERMS_BYTES, DataError)
    out = []
    for kind, label in (("trait", "ship trait"), ("term", "term")):
        for i, item in enumerate(doc.get(kind, [])):
            name, text, play = item.get("name"), item.get("text"), item.get("play", [])
            if not isinstance(name, str) or not isinstance(text, str) or not isinstance(play, list):
                raise DataError(TERMS_FILE, str(name or f"#{i + 1}"), "name/text/play",
                                "a trait or term has a name and a text (strings) and may list `play` lines")
            out.append(Entry(name, label, text, tuple(f"`{p}`" for p in play)))  # the file holds bare orders
    return tuple(out)
