"""An Iron & Oak ship as a sheet (game/systems/sheet.py): the ship card's dice as the players entered
them, the hits taken against the card's Hits value, the WL Shield track, critical hits and the
status markers. Nothing of a ship is secret in this game (only the order cards, which are not on
the sheet), so every viewer reads the same rows."""

from __future__ import annotations

from game.systems.iron_and_oak.model import MAX_SHIELD, IOShip
from game.systems.sheet import Row, Section, Sheet, Track, listed, section

UNSET = "not entered"
LOCKOUTS = {"cross": "Cross the T", "ramspar": "Ram or Spar"}


def _dice(value: str) -> str:
    return value or UNSET


def _hits(ship: IOShip) -> Row:
    if ship.hits_value < 0:
        return Row("Hits taken", f"{ship.hits} (Hits value {UNSET})")
    # the damage track itself is on the printed card: the boxes show the hits against the value
    return Row("Hits taken", f"{ship.hits} of {ship.hits_value}",
               Track(ship.hits_value, min(ship.hits, ship.hits_value)), alert=ship.hits >= ship.hits_value)


def sheet(ship: IOShip, system_title: str) -> Sheet:
    summary = ", ".join((f"Maneuver {_dice(ship.maneuver)}", f"Ram {_dice(ship.ram)}", f"WL {_dice(ship.wl)}",
                         f"draft {ship.draft if ship.draft >= 0 else UNSET}"))
    card = Section("Ship card", (
        Row("Maneuver", _dice(ship.maneuver)),
        Row("Ram", _dice(ship.ram)),
        Row("WL defence", _dice(ship.wl)),
        Row("Bow-On", _dice(ship.bow_on)),
        Row("Draft", str(ship.draft) if ship.draft >= 0 else UNSET),
        Row("Hits value", str(ship.hits_value) if ship.hits_value >= 0 else UNSET),
    ))
    damage = Section("Damage", (
        _hits(ship),
        Row("WL Shield", f"-{ship.shield} of -{MAX_SHIELD}", Track(MAX_SHIELD, ship.shield)),
        Row("Critical hits", listed(ship.criticals), alert=bool(ship.criticals)),
    ))
    gunnery = section("Gunnery", (
        Row("Bow-On at", ship.bow_on_target) if ship.bow_on_target else None,
        Row("Point Blank at", ship.point_blank) if ship.point_blank else None,
        Row("Barred", "; ".join(f"{LOCKOUTS.get(k, k)} on {t} in turn {n}" for k, t, n in ship.lockouts))
        if ship.lockouts else None,
    ))
    status = section("Status", (
        Row("Engine", "un-powered" if ship.unpowered else "powered", alert=ship.unpowered),
        Row("Markers", listed(ship.markers), alert="Sunk" in ship.markers),
        Row("Fouled", f"with {listed(ship.fouled_with)}") if ship.fouled_with else None,
        Row("Grappled", f"with {listed(ship.grappled_with)}") if ship.grappled_with else None,
        Row("Towed by", ship.towed_by) if ship.towed_by else None,
        Row("Opposing Maneuver", f"marker placed by {ship.opposed_by}") if ship.opposed_by else None,
    ))
    return Sheet(ship.id, ship.player, system_title, summary,
                 tuple(s for s in (card, damage, gunnery, status) if s.rows))
