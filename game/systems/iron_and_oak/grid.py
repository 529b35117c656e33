"""The Grid Boxes of an Iron & Oak map as a scenario gives them: box names (column letter, row number),
what lies in each box, and which boxes a Maneuver 1, a Maneuver 2 or a tow may reach
(docs/systems/iron_and_oak.md, "The map")."""

from __future__ import annotations

import re
from dataclasses import dataclass

OFF = "off"  # a destination: leave the map (Maneuver 1 a, a tow "off of the play area")
OBSTRUCTIONS = ("", "obstruction", "heavy")
_NAME = re.compile(r"([A-Za-z])([1-9][0-9]?)")


@dataclass(frozen=True)
class GridBox:
    """One Grid Box's water and markers. A depth of -1 is deep water: no shoal, nowhere to anchor."""

    id: str
    depth: int = -1
    hulks: int = 0
    obstruction: str = ""  # "", "obstruction" or "heavy" (a Heavy Obstruction)
    mines: int = 0  # Torpedo-Mine markers

    def hazards(self, draft: int) -> tuple[str, ...]:
        """The hazard kinds a ship of this draft meets here (003 lines 203-205): shoal, obstacles, mine."""
        kinds = []
        if 0 <= self.depth < draft:
            kinds.append("shoal")
        if self.hulks or self.obstruction:
            kinds.append("obstacles")
        if self.mines:
            kinds.append("mine")
        return tuple(kinds)

    def tokens(self, kind: str) -> tuple[str, ...]:
        """A hazard kind as the procedure's hazard words (run.py `_hazards`): `shoal:2`, `hulk`, `heavy`, `mine` …"""
        if kind == "shoal":
            return (f"shoal:{self.depth}",)
        if kind == "obstacles":
            return ("hulk",) * self.hulks + ((self.obstruction,) if self.obstruction else ())
        return ("mine",) * self.mines


@dataclass(frozen=True)
class Grid:
    """The map: `columns` × `rows` boxes (0 × 0: the game has no map, and the players say what is where)."""

    columns: int = 0
    rows: int = 0
    boxes: tuple[GridBox, ...] = ()  # the boxes the scenario says something about; the rest are deep and clear

    @property
    def on(self) -> bool:
        return self.columns > 0

    def name(self, text: str) -> str | None:
        """The box's canonical name (`c3` -> `C3`), or None if it is not on this map."""
        m = _NAME.fullmatch(text.strip())
        if m is None:
            return None
        col, row = ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1
        return m.group(0).upper() if col < self.columns and row < self.rows else None

    @property
    def extent(self) -> str:
        return f"A1 to {chr(ord('A') + self.columns - 1)}{self.rows}"

    def box(self, name: str) -> GridBox:
        return next((b for b in self.boxes if b.id == name), GridBox(name))

    def with_box(self, box: GridBox) -> Grid:
        rest = tuple(b for b in self.boxes if b.id != box.id)
        return Grid(self.columns, self.rows, (*rest, box) if box != GridBox(box.id) else rest)

    def neighbours(self, name: str) -> tuple[str, ...]:
        c, r = _xy(name)
        return tuple(_name(c + dc, r + dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if (dc or dr) and 0 <= c + dc < self.columns and 0 <= r + dr < self.rows)

    def on_edge(self, name: str) -> bool:
        c, r = _xy(name)
        return c in (0, self.columns - 1) or r in (0, self.rows - 1)


def _xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


def _name(c: int, r: int) -> str:
    return f"{chr(ord('A') + c)}{r + 1}"


def steps(a: str, b: str) -> tuple[int, int]:
    """The column and row distance from box a to box b."""
    (ac, ar), (bc, br) = _xy(a), _xy(b)
    return abs(bc - ac), abs(br - ar)


def adjacent(a: str, b: str) -> bool:
    """Next to each other, diagonals included (Maneuver 2 "can only move diagonally once" implies diagonal steps)."""
    return max(steps(a, b)) == 1


def two_away(a: str, b: str) -> bool:
    """A Maneuver 2 destination: two steps, at most one of them diagonal (003 lines 47-49)."""
    return sorted(steps(a, b)) in ([0, 2], [1, 2])


def diagonal_flanks(a: str, b: str) -> tuple[tuple[str, str], ...]:
    """For each route of a Maneuver 2 from a to b, the two boxes its diagonal step passes between
    (an empty pair: a straight route). A route is barred when both hold enemy ships."""
    (ac, ar), (bc, br) = _xy(a), _xy(b)
    dc, dr = bc - ac, br - ar
    if 0 in (dc, dr):
        return (("", ""),)
    sc, sr = (1 if dc > 0 else -1), (1 if dr > 0 else -1)
    routes = []
    # the diagonal first, then the straight step; or the straight step, then the diagonal
    straight = (sc, 0) if abs(dc) == 2 else (0, sr)
    for start in ((ac, ar), (ac + straight[0], ar + straight[1])):
        c, r = start
        routes.append((_name(c + sc, r), _name(c, r + sr)))
    return tuple(routes)
