"""The Casus Belli Fire System: from guns and range to the Modified Fire Number, line by line.

MFN = Fire Base (halved for a half broadside) + carronades + stable modifiers (crew, hull and crew
sections lost, captured, dismasted, anchored, fatigue) + other modifiers (obscured, initial
broadside, rake, ammunition, Storm/Gale, a fire on board, the referee's own). FFN = MFN + 2d6,
except grape shot (no roll: the Critical Number at the MFN is the number of crew hits).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from game.errors import IllegalAction, ParseError
from game.systems.tables import PrintedEntry, ReadPrinted, TableSet
from game.systems.wsim.model import AMMO_NAMES, Options, Ship, Wind

AMMO_ROW = {"G": "Grape Shot", "C": "Chain Shot", "DS": "Double Shot"}


class NeedsPrinted(IllegalAction):
    """A cell the calculation needs is unverified: the referee reads it and enters it first."""

    code = "read-printed"


def needs(cell: ReadPrinted) -> NeedsPrinted:
    col = f" {cell.column}" if cell.column != "value" else ""
    return NeedsPrinted(cell.text() + ".", f"The referee enters it with `printed {cell.table} {cell.row}{col} = N`.")


@dataclass(frozen=True)
class Calculation:
    parts: tuple[tuple[str, int], ...]  # every term of the MFN, in order

    @property
    def mfn(self) -> int:
        return sum(v for _, v in self.parts)

    def text(self) -> str:
        return ", ".join(f"{label} {v:+d}" if i else f"{label} {v}" for i, (label, v) in enumerate(self.parts))


def _int(tables: TableSet, name: str, row: object, column: object, printed: tuple[PrintedEntry, ...]) -> int:
    cell = tables[name].lookup(row, column, printed)  # type: ignore[arg-type]
    if isinstance(cell, ReadPrinted):
        raise needs(cell)
    return int(cell.value) if cell.value != "" else 0


def calculate(
    ship: Ship, side: str, target: Ship, rng: int, half: bool, rake: str, mod: int, wind: Wind, options: Options,
    tables: TableSet, printed: tuple[PrintedEntry, ...],
) -> Calculation:
    ammo = ship.broadside(side).load
    base_cell = tables["fire_base"].lookup(ship.guns, rng, printed)
    if isinstance(base_cell, ReadPrinted):
        raise needs(base_cell)
    if base_cell.value == "":
        raise IllegalAction(f"{ship.guns} gun(s) cannot fire at range {rng} (blank on the Fire Base table).")
    base = int(base_cell.value)
    parts: list[tuple[str, int]] = [("Fire Base", base // 2 if half else base)]
    if half:
        parts[0] = ("Fire Base (half broadside)", base // 2)
    if ship.carronades:
        if ship.carronades > 3:
            raise IllegalAction(
                f"{ship.id} has {ship.carronades} carronades: see the CB variant rules for 4+ carronades.",
                "Add their bonus with `mod N`.",
            )
        car_cell = tables["carronades"].lookup(ship.carronades, rng, printed)
        if isinstance(car_cell, ReadPrinted):
            raise needs(car_cell)
        if car_cell.value != "":
            shown = f" ({car_cell.provenance})" if car_cell.provenance else ""
            parts.append((f"{ship.carronades} carronade(s){shown}", int(car_cell.value)))
    parts.append((f"crew {ship.quality}", _int(tables, "crew_quality_fire", ship.quality, None, printed)))
    stable = tables["stable_modifiers"].rows.keys
    if ship.hull_lost >= 4:
        parts.append((f"{ship.hull_lost} hull lost", (ship.hull_lost // 4) * _int(tables, "stable_modifiers", stable[0].text, None, printed)))
    sections = sections_out_for_fire(ship)
    if sections:
        parts.append((f"{sections} crew section(s) lost", sections * _int(tables, "stable_modifiers", stable[1].text, None, printed)))
    if ship.pumps:
        parts.append(("crew section at the pumps (waterline)", _int(tables, "stable_modifiers", stable[1].text, None, printed)))
    if ship.captured:
        parts.append(("captured", _int(tables, "stable_modifiers", stable[2].text, None, printed)))
    if options.rigging_loss and ship.dismasted:
        parts.append(("dismasted", _int(tables, "stable_modifiers", stable[3].text, None, printed)))
    if ship.anchored:
        parts.append(("anchored", _int(tables, "stable_modifiers", stable[4].text, None, printed)))
    if options.fatigue and ship.broadsides_fired >= 5:
        parts.append(("fatigue", (ship.broadsides_fired // 5) * _int(tables, "stable_modifiers", stable[5].text, None, printed)))
    b = ship.broadside(side)
    if b.obscured:
        parts.append(("broadside obscured", _int(tables, "other_modifiers", "Broadside Obscured", None, printed)))
    if not b.initial_used:
        parts.append(("initial broadside", _int(tables, "initial_broadside", "Initial Broadside", rng, printed)))
    if rake:
        parts.append((f"rake ({rake})", _int(tables, "rake", rake.title(), rng, printed)))
    if ammo in ("C", "DS"):
        parts.append((AMMO_NAMES[ammo], _int(tables, "ammunition", AMMO_ROW[ammo], "modifier", printed)))
    if wind.velocity in (5, 6) and 1 <= ship.ship_class <= 6:
        w = _int(tables, "weather_fire", wind.velocity, ship.ship_class, printed)
        if w:
            parts.append(("storm" if wind.velocity == 6 else "gale", w))
    if ship.fire_turns:
        parts.append(("fire on board", -ship.fire_penalty))
    if mod:
        parts.append(("other (referee)", mod))
    return Calculation(tuple(parts))


def sections_out_for_fire(ship: Ship) -> int:
    """Crew sections wiped out, plus sections sent as offensive or transfer parties this turn."""
    away = {s for p in ship.parties if p.kind in ("OBP", "TBP") for s in p.sections}
    return sum(1 for i, left in enumerate(ship.crew_left, start=1) if left <= 0 or i in away)


def max_range(ammo: str, tables: TableSet, printed: tuple[PrintedEntry, ...]) -> int | None:
    if ammo not in AMMO_ROW:
        return None
    return _int(tables, "ammunition", AMMO_ROW[ammo], "max range", printed)


# ---------------------------------------------------------------- hits


_HITS = re.compile(r"(\d+)([HCRG])")


@dataclass(frozen=True)
class Hits:
    hull: int = 0
    crew: int = 0
    rigging: int = 0

    def text(self) -> str:
        parts = [f"{n}{k}" for n, k in ((self.hull, "H"), (self.crew, "C"), (self.rigging, "R")) if n]
        return "".join(parts) or "0"


def parse_hits(text: str) -> Hits:
    """`2H1C1R`, `3C`, `0` or `none` -> Hits. Letters in any order, each once."""
    t = text.strip().upper().replace(" ", "")
    if t in ("0", "NONE", "-", "–"):
        return Hits()
    found = _HITS.findall(t)
    if not found or "".join(n + k for n, k in found) != t:
        raise ParseError(f"{text!r} is not a hit count.", "Write hits as 2H1C1R (hull, crew, rigging), or 0.")
    kinds = [k for _, k in found]
    if "G" in kinds:
        raise ParseError("The Casus Belli Fire System has no gun hits.", "Write hull (H), crew (C) and rigging (R) hits.")
    if len(set(kinds)) != len(kinds):
        raise ParseError(f"{text!r} names a kind of hit twice.")
    n = {k: int(v) for v, k in found}
    return Hits(n.get("H", 0), n.get("C", 0), n.get("R", 0))
