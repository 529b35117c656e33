"""A Captain's Sea ship as a sheet (game/systems/sheet.py): the ship mat's Crew Status track with
its marker, the morale, the hits taken (the mat's own capacities are printed, not kept here, so
the counts stand alone), the checks and rolls owed, and the turn's movement. The maneuver blocks
are orders, kept apart and never on the sheet, so every viewer reads the same rows."""

from __future__ import annotations

from game.systems.captains_sea.model import CSShip
from game.systems.sheet import Row, Section, Sheet, Track, listed, section


def _status(ship: CSShip) -> Row:
    if not ship.track:
        return Row("Crew Status", f"space {ship.crew_status}")
    label = ship.status_label
    return Row("Crew Status", f"{label} (space {ship.crew_status + 1} of {len(ship.track)}: {', '.join(ship.track)})",
               Track(len(ship.track), 0, ship.track, ship.crew_status), alert=ship.crew_status == 0)


def sheet(ship: CSShip, system_title: str) -> Sheet:
    summary = ", ".join(p for p in (f"Hull type {ship.hull_type or 'not entered'}",
                                    f"quality {ship.quality:+d}", f"morale {ship.morale}") if p)
    crew = Section("Crew", (Row("Morale", ship.morale), _status(ship)))
    damage = Section("Hits taken", (
        Row("Hull hits", str(ship.hull_hits)),
        Row("Rigging hits", str(ship.rigging_hits)),
        Row("Crew hits", str(ship.crew_hits)),
    ))
    owed = section("Owed", (
        Row("Fire checks", str(ship.fire_checks), alert=True) if ship.fire_checks else None,
        Row("Morale rolls", str(ship.morale_rolls), alert=True) if ship.morale_rolls else None,
    ))
    turn = section("This turn", (
        Row("Bearing", ship.bearing) if ship.bearing else None,
        Row("Movement points", str(ship.mp)) if ship.mp >= 0 else None,
        Row("Hull Type Bonus", f"{ship.bonus:+d}") if ship.mp >= 0 else None,
        Row("Impulses", listed([str(i) for i in ship.impulses])) if ship.marked else None,
    ))
    return Sheet(ship.id, ship.player, system_title, summary,
                 tuple(s for s in (crew, damage, owed, turn) if s.rows))
