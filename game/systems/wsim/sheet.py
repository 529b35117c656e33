"""A WS&IM ship log as a sheet (game/systems/sheet.py): the log pad's hull, rigging and crew
squares, the two broadsides with their loads, the sails, and the ship's state.

Built from a viewed ship: another player's loads arrive as "?" (views.py) and then the whole
broadside says only "?" and what everyone saw (fired this turn, obscured), never whether a double
shot is half loaded or the initial broadside still stands, which would tell what is in it."""

from __future__ import annotations

from game.systems.sheet import HIDDEN, SECRET, Row, Section, Sheet, boxes, listed, section
from game.systems.wsim.model import AMMO_NAMES, Broadside, Ship
from game.systems.wsim.notation import format_parties

ANCHOR_WORDS = {"A": "at anchor", "AB": "anchored by the bow", "AS": "anchored by the stern"}


def is_masked(ship: Ship) -> bool:
    """The view hid this ship's loads: the viewer is not its owner (nor a referee who sees all)."""
    return any(b.load == HIDDEN for b in ship.broadsides)


def _load(b: Broadside) -> str:
    if b.ds_loading:
        return "double shot half loaded (done next Load Phase)"
    if not b.load:
        return "empty"
    words = AMMO_NAMES.get(b.load, b.load)
    return words if b.initial_used else f"{words}, initial broadside"


def _broadside(b: Broadside, masked: bool) -> Row:
    seen = [] if masked else [_load(b)]
    if b.fired:
        seen.append("fired this turn")
    if b.obscured:
        seen.append(f"obscured {b.obscured} more Combat Phase{'s' if b.obscured != 1 else ''}")
    value = SECRET if masked else ""
    value = ", ".join(([value] if value else []) + seen)
    return Row(f"{b.side.title()} broadside", value, hidden=masked)


def _guns(ship: Ship) -> str:
    carr = f" + {ship.carronades} carronades" if ship.carronades else ""
    return f"{ship.guns} guns{carr} a side"


def sheet(ship: Ship, system_title: str) -> Sheet:
    masked = is_masked(ship)
    summary = ", ".join(p for p in (
        f"Class {ship.ship_class}" + (" (80 gun)" if ship.eighty_gun else ""), f"quality {ship.quality}",
        _guns(ship), ship.nation, "rowed" if ship.rowed else "",
        f"leaders {', '.join(ship.leaders)}" if ship.leaders else "") if p)
    hull = Section("Hull and rigging", (
        boxes("Hull", ship.hull, ship.hull_lost),
        *(boxes(f"Rigging {i}", size, lost)
          for i, (size, lost) in enumerate(zip(ship.rigging, ship.rigging_lost or (0,) * len(ship.rigging),
                                               strict=True), start=1)),
    ))
    crew_lost = ship.crew_lost or (0,) * len(ship.crew)
    crew = Section("Crew", tuple(
        boxes(f"Crew {i}", size, lost) for i, (size, lost) in enumerate(zip(ship.crew, crew_lost, strict=True), start=1)))
    guns = section("Guns", (
        Row("Guns", _guns(ship)),
        *(_broadside(b, masked) for b in ship.broadsides),
        Row("Loaded this turn", "yes") if ship.loaded_this_turn and not masked else None,
    ))
    sailing = section("Sailing", (
        Row("Sails", f"{ship.sails} (battle {ship.battle_sail}, full {ship.full_sail})"),
        Row("Heading", str(ship.heading)),
        Row("Turning", f"{ship.turning_left} of {ship.turning}"),
        Row("Anchor", ANCHOR_WORDS.get(ship.anchored, ship.anchored)
            + (f", weighing ({ship.weighing} turn{'s' if ship.weighing != 1 else ''} left)" if ship.weighing else ""))
        if ship.anchored else None,
        Row("Anchor cable", "lost") if ship.anchor_lost else None,
    ))
    return Sheet(ship.id, ship.player, system_title, summary, (hull, crew, guns, sailing, _status(ship)))


def _status(ship: Ship) -> Section:
    fire = f"{ship.fire_turns} more Combat Phase{'s' if ship.fire_turns != 1 else ''}" if ship.fire_turns else ""
    if fire and ship.fire_penalty:
        fire += f", MFN -{ship.fire_penalty}"
    rows = section("Status", (
        Row("Condition", ship.status, alert=True) if ship.status else None,
        Row("Doom", ship.doom, alert=True) if ship.doom else None,
        Row("On fire", fire, alert=True) if fire else None,
        Row("Captured", "sailed by a prize crew", alert=True) if ship.captured else None,
        Row("Fouled", f"with {listed(ship.fouled)}") if ship.fouled else None,
        Row("Grappled", f"with {listed(ship.grappled)}") if ship.grappled else None,
        Row("Boarding", format_parties(ship.parties)) if ship.parties else None,
        Row("Dismasted", "all rigging sections lost", alert=True) if ship.dismasted else None,
        Row("Mast over", f"the {ship.mast_over} side") if ship.mast_over else None,
        Row("Waterline", f"crew section {ship.pumps} at the pumps" if ship.pumps else "damaged") if ship.waterline else None,
        Row("Repair", f"{ship.repair}, turn {ship.repair_turns} of 3") if ship.repair else None,
        Row("Broadsides fired", str(ship.broadsides_fired)) if ship.broadsides_fired else None,
    )).rows
    return Section("Status", rows or (Row("Condition", "sailing and fighting"),))
