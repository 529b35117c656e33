"""Movement plots: the log pad's move grammar, the movement allowance, and what a plot does to the
ship log when it is revealed.

    moves  := "0" | "D" | "B" | "BW" | "RW" | "W" | "W(" SHIP ")" | step {step}
    step   := DIGIT (1-9 hexes ahead) | "L" | "R" (60° turns) | "T" (turn back: the opposite of the
              last L/R, not counted against the turning ability)
    notes  := "A" | "AB" | "AS" (anchor) | "(A)" (weigh anchor, two turns) | "a" (cut the anchor)

The checks follow WS&IM IV.A: the allowance is fixed by the attitude at the start of the plot;
each 60° turn costs 1 and only one turn is made per hex; after a turn no more hexes may be moved
in the new attitude than its own allowance; turning into attitude D stops the ship; a ship with
allowance 0 may always turn 60° in place; each rigging section lost costs 1 in every attitude and
the Wind Effects modifier comes last, never below 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from game.errors import IllegalAction, ParseError
from game.systems.tables import Cell, PrintedEntry, ReadPrinted, TableSet
from game.systems.wsim.model import ANCHOR_NOTES, Ship, Wind

_TOKEN = re.compile(r"BW|RW|W\([^()]+\)|W|[LRTBD]|\d")
SOLE = ("0", "D", "B", "BW", "RW")
NOTES = (*ANCHOR_NOTES, "(A)", "a")
_ATTITUDE_BY_DIFF = {0: "B", 1: "A", 2: "C", 3: "D", 4: "C", 5: "A"}
DRIFT_ONLY = "can only drift in Gale or Storm"
NO_MOVE = "ships may not move"


def parse_moves(text: str) -> tuple[str, ...]:
    t = text.strip()
    upper = t.upper()
    pos = 0
    out: list[str] = []
    while pos < len(t):
        m = _TOKEN.match(upper, pos)
        if m is None:
            raise ParseError(
                f"{t!r} is not a move notation: {t[pos:]!r} is not understood.",
                "Moves: digits (hexes), L, R, T, or alone 0, D, B, BW, RW, W, W(SHIP).",
            )
        token = m.group(0)
        if token.startswith("W("):
            token = "W(" + t[pos + 2 : m.end() - 1].strip() + ")"  # keep the ship name as written
        out.append(token)
        pos = m.end()
    if not out:
        raise ParseError("The plot has no moves.", "Write 0 for a ship that does not move.")
    for a, b in zip(out, out[1:], strict=False):
        if a.isdigit() and b.isdigit():
            raise ParseError(f"{t!r} has two numbers in a row.", "Write the hexes of one leg as one digit (3, not 12).")
    if len(out) > 1 and any(e in SOLE or e.startswith("W") for e in out):
        sole = next(e for e in out if e in SOLE or e.startswith("W"))
        raise ParseError(f"{sole!r} must be the whole move.", "0, D, B, BW, RW and W are written alone.")
    return tuple(out)


def parse_notes(words: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    notes: list[str] = []
    for w in words:
        note = w if w in ("a", "(A)") else w.upper()
        if note not in NOTES:
            raise ParseError(
                f"{w!r} is not a note written in the Movement notation Phase.",
                "Notes: A, AB, AS (anchor), (A) (weigh anchor), a (cut the anchor); boarding parties come in phase G.",
            )
        notes.append(note)
    if len(notes) > 1:
        raise IllegalAction("A plot carries one anchoring note at most.")
    return tuple(notes)


def attitude(heading: int, wind: Wind) -> str:
    return _ATTITUDE_BY_DIFF[(heading - wind.direction) % 6]


def turned(heading: int, step: int) -> int:
    return (heading - 1 + step) % 6 + 1


def class_group(ship: Ship) -> str:
    if ship.rowed:
        return "rowed"
    return {1: "1", 2: "2", 3: "3&4", 4: "3&4", 5: "5&6", 6: "5&6"}.get(ship.ship_class, "")


def allowance(ship: Ship, att: str, wind: Wind, tables: TableSet, printed: tuple[PrintedEntry, ...]) -> int | str:
    """The movement allowance in one attitude, or why it cannot be worked out from the tables."""
    speed = ship.battle_sail if ship.sails == "battle" else ship.full_sail
    base = tables["movement_allowance"].lookup(speed, att, printed)
    if isinstance(base, ReadPrinted):
        return base.text()
    group = class_group(ship)
    if not group:
        return f"the Wind Effects Table has no column for class {ship.ship_class}"
    mod = tables["wind_effects"].lookup(wind.velocity, f"{group} {att}", printed)
    if isinstance(mod, ReadPrinted):
        return mod.text()
    if isinstance(mod.value, str):
        return 0
    assert isinstance(base.value, int)
    return max(0, base.value - ship.rigging_sections_lost + int(mod.value))


@dataclass(frozen=True)
class Outcome:
    heading: int
    hexes: int  # hexes ahead (backing: 1); 0 for W, whose length the log does not say
    moved: bool  # the bow left its hex (drift does not count)


def outcome(ship: Ship, moves: tuple[str, ...]) -> Outcome:
    heading = ship.heading
    last = 0
    hexes = 0
    for e in moves:
        if e in ("L", "R"):
            last = -1 if e == "L" else 1
            heading = turned(heading, last)
        elif e == "T":
            heading = turned(heading, -last)
        elif e.isdigit():
            hexes += int(e)
        elif e in ("B", "BW"):
            hexes += 1
    moved = hexes > 0 or moves[0] in ("RW",) or moves[0].startswith("W")
    return Outcome(heading, hexes, moved)


def check(
    ship: Ship, moves: tuple[str, ...], notes: tuple[str, ...], wind: Wind, tables: TableSet,
    printed: tuple[PrintedEntry, ...],
) -> tuple[str, ...]:
    """Refuse an illegal plot (IllegalAction says what is allowed); return remarks for the referee."""
    first = moves[0]
    name = ship.id
    _check_notes(ship, notes)
    if first in ("BW", "RW") and not ship.rowed:
        raise IllegalAction(f"{name} is not a rowed vessel.", "BW and RW are for rowed vessels only.")
    if ship.fouled or ship.grappled:
        if first not in ("0", "D"):
            raise IllegalAction(f"{name} is fouled or grappled: it can only drift.", "Plot 0 or D.")
        return ()
    if ship.anchored and first != "0":
        raise IllegalAction(f"{name} lies at anchor.", "Plot 0 (with (A) to weigh anchor over two turns, or a to cut it).")
    if ship.dismasted or all(left <= 0 for left in ship.crew_left):
        if first not in ("0", "D"):
            why = "has no rigging left" if ship.dismasted else "has no crew left"
            raise IllegalAction(f"{name} {why}: it can only drift.", "Plot 0 or D.")
        return ()
    if ship.rowed and wind.velocity in (5, 6) and first not in ("0", "D"):
        raise IllegalAction(f"{name} is a rowed vessel: in a Gale or Storm it can only drift.", "Plot 0 or D.")
    if wind.velocity == 0 and not ship.rowed and first not in ("0", "D"):
        raise IllegalAction("The wind is becalmed: ships may not move.", "Plot 0.")
    if first in SOLE or first.startswith("W"):
        return ()
    return _check_steps(ship, moves, wind, tables, printed)


def _check_notes(ship: Ship, notes: tuple[str, ...]) -> None:
    for n in notes:
        if n in ANCHOR_NOTES and ship.anchored:
            raise IllegalAction(f"{ship.id} is already at anchor.", "Write (A) to weigh anchor or a to cut it.")
        if n in ANCHOR_NOTES and ship.anchor_lost:
            raise IllegalAction(f"{ship.id}'s anchor cable is gone: it may not anchor again.")
        if n in ("(A)", "a") and not ship.anchored:
            raise IllegalAction(f"{ship.id} is not at anchor.", "A, AB or AS anchors it.")
        if n == "(A)" and ship.weighing:
            raise IllegalAction(f"{ship.id} is weighing anchor already ({ship.weighing} turn(s) left).")


def _check_steps(
    ship: Ship, moves: tuple[str, ...], wind: Wind, tables: TableSet, printed: tuple[PrintedEntry, ...]
) -> tuple[str, ...]:
    name = ship.id
    turns = [e for e in moves if e in ("L", "R")]
    for a, b in zip(moves, moves[1:], strict=False):
        if a in ("L", "R", "T") and b in ("L", "R", "T"):
            raise IllegalAction(f"{name}'s plot turns twice in one hex ({a}{b}).", "One 60° turn per hex: move a hex between turns.")
    if moves.count("T") and (not turns or moves.index("T") < moves.index(turns[0])):
        raise IllegalAction("T turns back after an L or R in the same plot.", "Write L or R before T.")
    if ship.repair and (turns or "T" in moves):
        raise IllegalAction(f"{name} is under repair: it may not turn.", "Stop the repair first (`repair SHIP stop`).")
    if len(turns) > ship.turning_left:
        raise IllegalAction(
            f"{name} turns {len(turns)} times; its turning ability is {ship.turning_left}.",
            "T (turn back) does not count against it.",
        )
    start = attitude(ship.heading, wind)
    ma = allowance(ship, start, wind, tables, printed)
    if isinstance(ma, str):
        return (f"{name}'s movement allowance was not checked: {ma}.",)
    hexes = sum(int(e) for e in moves if e.isdigit())
    cost = hexes + len(turns) + moves.count("T")
    if ma == 0:
        if hexes == 0 and len(moves) == 1 and moves[0] in ("L", "R"):
            return ()  # a ship with allowance 0 may always turn 60° in place
        raise IllegalAction(
            f"{name} has a movement allowance of 0 in attitude {start}.", "Plot 0, or one 60° turn in place (L or R)."
        )
    if cost > ma:
        raise IllegalAction(
            f"{name}'s plot costs {cost} ({hexes} hexes, {cost - hexes} turns); its allowance in attitude {start} is {ma}.",
            f"Plot at most {ma}, counting each turn as 1.",
        )
    heading, last, att, leg = ship.heading, 0, start, 0
    for i, e in enumerate(moves):
        if e in ("L", "R", "T"):
            step = (-1 if e == "L" else 1) if e != "T" else -last
            if e != "T":
                last = step
            heading = turned(heading, step)
            att, leg = attitude(heading, wind), 0
            if att == "D" and i + 1 < len(moves):
                raise IllegalAction(
                    f"{name} turns into attitude D (head to wind) and must stop there.", "End the plot at that turn."
                )
        elif e.isdigit():
            leg += int(e)
            if att != start:
                cap = allowance(ship, att, wind, tables, printed)
                if isinstance(cap, int) and leg > cap:
                    raise IllegalAction(
                        f"{name} moves {leg} hexes in attitude {att}, whose allowance is {cap}.",
                        f"After turning into attitude {att} move at most {cap}.",
                    )
    return ()


def acceleration_remark(ship: Ship, hexes: int, tables: TableSet, printed: tuple[PrintedEntry, ...]) -> str:
    """CB rule V's limits, as a remark: the rule text is not on the play aid, so nothing is refused."""
    if ship.hexes_moved < 0:
        return ""
    row = "80 gun" if ship.eighty_gun else ("class 6-7" if ship.ship_class >= 6 else f"class {ship.ship_class}")
    t = tables["acceleration"]
    acc, dec = t.lookup(row, "max accel.", printed), t.lookup(row, "max decel.", printed)
    if not isinstance(acc, Cell) or not isinstance(dec, Cell):
        return ""
    max_acc = int(str(acc.value).rstrip(" *"))
    if "*" in str(acc.value) and ship.rigging_sections_lost:
        max_acc -= 1
    max_dec = int(str(dec.value))
    change = hexes - ship.hexes_moved
    if change > max_acc:
        return f"{ship.id} speeds up by {change} hexes (max accel. {max_acc}): check CB rule V."
    if -change > max_dec:
        return f"{ship.id} slows down by {-change} hexes (max decel. {max_dec}): check CB rule V."
    return ""
