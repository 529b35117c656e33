"""Iron & Oak command lines <-> commands (docs/systems/iron_and_oak.md).

    order Monitor m1 | order Monitor m1 C3 | order Monitor m1 off | order Monitor cross Virginia bow
    order Monitor ram Virginia | order Monitor m0 hold | order Minnesota tow Monitor B2
    reveal Monitor          answer 3 | answer yes | answer d10 drm -1 | answer shoal 2 mine | answer none
    card Monitor maneuver=d10d8 ram=d8 wl=d10d6 bowon=d10 draft=3 hits=8 powered=yes
    marker Monitor +Smoke | marker Monitor -Fouled Virginia | marker Monitor +Engine-Damaged
    hits Monitor 2 [shield 1]                         place Monitor C3 | place Monitor off
    box C3 depth=2 hulks=1 obstruction=heavy mines=0 | box C3 depth=deep obstruction=none
    roll d10d8 vs d10d4 [drm -2] [rdrm 1] [for …]     printed drifting 7 = "1 GB downstream"    next    end
"""

from __future__ import annotations

from typing import Any

from game.errors import ParseError
from game.systems.common import fold_choice, format_line, read_line, resolve_name
from game.systems.dice import parse_spec
from game.systems.iron_and_oak import commands as c
from game.systems.iron_and_oak.grid import OFF
from game.systems.iron_and_oak.model import CRITICALS, MARKERS, OBSTACLES, IOGame
from game.tokens import quote

VERBS = ("order", "reveal", "answer", "card", "marker", "hits", "place", "box", "roll", "printed", "next", "end")
BOX_FIELDS = ("depth", "hulks", "obstruction", "mines")
SIMPLE_ORDERS = ("anchor", "weigh", "unfoul", "drift", "refloat")
MOVES = ("m1", "m2")  # with a map they name the Grid Box they go to
TARGET_ORDERS = ("oppose", "spar", "ram", "tow", "cross")
M0_KINDS = ("escape", "screen", "hold")
CARD_FIELDS = ("maneuver", "ram", "wl", "bowon", "draft", "hits", "powered")
ORDER_NAMES = {
    "anchor": "Anchor", "weigh": "Weigh Anchor", "unfoul": "Unfoul", "drift": "Drift", "refloat": "Refloat",
    "m0": "Maneuver 0", "m1": "Maneuver 1", "m2": "Maneuver 2", "oppose": "Opposing Maneuver",
    "cross": "Maneuver 0: Cross the T", "spar": "Maneuver 0: Spar Torpedo attack", "ram": "Maneuver 0: Ram attack",
    "tow": "Towing",
}


def parse_order(words: list[str], state: IOGame | None, ship: str = "") -> str:
    """An order's words -> its canonical text."""
    if not words:
        raise ParseError("The order is missing.", f"Orders: {', '.join(ORDER_NAMES)}.")
    kind = words[0].lower()
    aliases = {"weigh-anchor": "weigh", "maneuver0": "m0", "maneuver1": "m1", "maneuver2": "m2", "t": "cross"}
    kind = aliases.get(kind, kind)
    rest = words[1:]
    if kind in SIMPLE_ORDERS:
        if rest:
            raise ParseError(f"{ORDER_NAMES[kind]} takes nothing more, got {' '.join(rest)!r}.")
        return kind
    if kind in MOVES:
        if len(rest) > 1:
            raise ParseError(f"{ORDER_NAMES[kind]} is written `{kind}` or, on a map, `{kind} BOX` (or `{kind} off`).")
        return " ".join((kind, *(destination(w, state) for w in rest)))
    if kind == "m0":
        if len(rest) != 1 or rest[0].lower() not in M0_KINDS:
            raise ParseError("Maneuver 0 says why: escape (a Bow-On or Stern-On position), screen or hold.")
        return f"m0 {rest[0].lower()}"
    if kind in TARGET_ORDERS:
        want = (2,) if kind == "cross" else ((1, 2) if kind == "tow" else (1,))
        if len(rest) not in want:
            hint = {"cross": "cross TARGET bow|stern", "tow": "tow SHIP [BOX]"}.get(kind, f"{kind} TARGET")
            raise ParseError(f"{ORDER_NAMES[kind]} is written `{hint}`.")
        target = rest[0]
        if state is not None:
            target = resolve_name(target, tuple(s.id for s in state.ships), "ship")
        if target == ship:
            raise ParseError(f"{ship} cannot be its own target.")
        out = f"{kind} {quote(target)}"
        if kind == "cross":
            out += " " + fold_choice(rest[1], ("bow", "stern"), "the aspect")
        elif kind == "tow" and len(rest) == 2:
            out += " " + destination(rest[1], state)
        return out
    raise ParseError(f"{words[0]!r} is not an order.", f"Orders: {', '.join(ORDER_NAMES)}.")


def destination(word: str, state: IOGame | None) -> str:
    """A Grid Box an order goes to (`C3`), or `off` the map; checked against the map when the state is known."""
    if word.lower() == OFF:
        return OFF
    if state is None:
        return word.upper()
    if not state.grid.on:
        raise ParseError(f"This game has no map: {word!r} cannot be a Grid Box.",
                         "Give the order without a box; the players move the counters on their table.")
    name = state.grid.name(word)
    if name is None:
        raise ParseError(f"{word!r} is not a Grid Box of this map ({state.grid.extent}).")
    return name


def parse(line: str, state: IOGame | None = None) -> Any:
    t, verb, shared = read_line(line, VERBS)
    if shared is not None:
        return shared
    p = t.player

    ids = tuple(s.id for s in state.ships) if state is not None else None

    def ship() -> str:
        return t.name(ids)

    if verb == "order":
        name = ship()
        return c.GiveOrder(name, parse_order(t.rest(), state, name), p)
    if verb == "reveal":
        name = ship()
        t.end()
        return c.Reveal(name, p)
    if verb == "answer":
        text = " ".join(t.rest())
        if not text:
            raise ParseError("answer needs the answer.")
        return c.Answer(text, p)
    if verb == "card":
        name = ship()
        fields = []
        for key, value in t.options(CARD_FIELDS).items():
            fields.append((key, _card_value(key, value)))
        if not fields:
            raise ParseError("card needs at least one field.", f"Fields: {', '.join(f'{f}=…' for f in CARD_FIELDS)}.")
        return c.Card(name, tuple(fields), p)
    if verb == "marker":
        name = ship()
        word = t.take("+NAME or -NAME")
        if word[:1] not in "+-" or len(word) < 2:
            raise ParseError("marker is written `marker SHIP +NAME [OTHER]` or `-NAME`.")
        known = (*MARKERS, *CRITICALS)
        marker = fold_choice(word[1:], known, "a marker or critical hit")
        other = ""
        if not t.done():
            other = t.take("the other ship or obstacle")
            if fold(other) in OBSTACLES:
                other = fold(other)
            elif state is not None:
                other = resolve_name(other, tuple(s.id for s in state.ships), "ship")
        t.end()
        return c.SetMarker(name, marker, word[0] == "+", other, p)
    if verb == "hits":
        name = ship()
        n = t.take_int("the number of hits")
        shield = 0
        if not t.done():
            t.take_choice("`shield`", ("shield",))
            shield = t.take_int("the WL Shield damage")
        t.end()
        return c.TakeHits(name, n, shield, p)
    if verb == "place":
        name = ship()
        where = destination(t.take("the Grid Box (or `off`)"), state)
        t.end()
        return c.Place(name, "" if where == OFF else where, p)
    if verb == "box":
        where = destination(t.take("the Grid Box"), state)
        if where == OFF:
            raise ParseError("`box` names a Grid Box of the map.")
        changes = tuple((k, v.lower()) for k, v in t.options(BOX_FIELDS).items())
        if not changes:
            raise ParseError("box needs at least one field.", f"Fields: {', '.join(f'{f}=…' for f in BOX_FIELDS)}.")
        return c.SetBox(where, changes, p)
    raise ParseError(f"Unknown command {verb!r}.", f"Commands: {', '.join(VERBS)}.")


def fold(word: str) -> str:
    return " ".join(word.lower().replace("_", " ").split())


def _card_value(key: str, value: str) -> str:
    if key in ("maneuver", "ram", "wl", "bowon"):
        parse_spec(value)
        return value.lower()
    if key in ("draft", "hits"):
        if not value.isdigit():
            raise ParseError(f"{key} must be a whole number, got {value!r}.")
        return value
    v = value.lower()
    if v not in ("yes", "no"):
        raise ParseError(f"powered must be yes or no, got {value!r}.")
    return v


def format_command(cmd: Any) -> str:
    return format_line(cmd, _format)


def _format(cmd: Any) -> str:
    match cmd:
        case c.GiveOrder():
            return f"order {quote(cmd.ship)} {cmd.order}"
        case c.Reveal():
            return f"reveal {quote(cmd.ship)}"
        case c.Answer():
            return f"answer {cmd.text}"
        case c.Card():
            return f"card {quote(cmd.ship)} " + " ".join(f"{k}={v}" for k, v in cmd.fields)
        case c.SetMarker():
            other = f" {quote(cmd.other)}" if cmd.other else ""
            return f"marker {quote(cmd.ship)} {'+' if cmd.present else '-'}{cmd.name}{other}"
        case c.TakeHits():
            return f"hits {quote(cmd.ship)} {cmd.hits}" + (f" shield {cmd.shield}" if cmd.shield else "")
        case c.SetBox():
            return f"box {cmd.box} " + " ".join(f"{k}={v}" for k, v in cmd.fields)
        case c.Place():
            return f"place {quote(cmd.ship)} {cmd.box or OFF}"
    raise TypeError(f"not an Iron & Oak command: {cmd!r}")
