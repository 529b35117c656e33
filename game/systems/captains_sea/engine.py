"""decide(state, command, dice) -> events for Captain's Sea: the sequence of play, the movement
rates, the 12-impulse activation cycle with secret maneuver blocks, and fire combat after the hits
achieved: three dice, two of one colour and one of another, looked up on the Damage Effects and
Morale Effects tables at once."""

from __future__ import annotations

import re
from typing import Any

from game.dice import DiceSource
from game.errors import IllegalAction, NotYourShip, UnknownName, WrongPhase
from game.model import evolve
from game.systems import orders as od
from game.systems.captains_sea import commands as c
from game.systems.captains_sea import events as ev
from game.systems.captains_sea.apply import apply
from game.systems.captains_sea.model import IMPULSES, CSGame, CSShip, Volley
from game.systems.common import (
    NextPhase,
    PhaseEntered,
    Step,
    check_names,
    open_step,
    phase_spec,
    require_next_is,
    require_referee,
)
from game.systems.dice import coloured
from game.systems.tables import Cell, ReadPrinted, TableSet, load_tables

SYSTEM = "captains_sea"
PHASES = ("crew", "initiative", "movement", "activation", "melee", "bonus", "housekeeping")
DICE = (("white", 2, 6), ("red", 1, 6))


def tables() -> TableSet:
    return load_tables(SYSTEM)


def decide(state: CSGame, command: Any, dice: DiceSource) -> list[Any]:
    t = tables()
    step, done = open_step(state, command, dice, apply, t)
    if done:
        return step.events
    check_names((s.id for s in state.ships), command)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise IllegalAction(f"{type(command).__name__} is not a Captain's Sea command.")
    handler(step, command, t)
    return step.events


def _owner(state: CSGame, ship: CSShip, player: str, referee_too: bool = True) -> None:
    if player and player != ship.player and not (referee_too and player == state.referee):
        raise NotYourShip(f"{ship.id} belongs to {ship.player}.")


def _value(t: TableSet, name: str, row: Any, column: Any, state: CSGame) -> Cell | ReadPrinted:
    return t[name].lookup(row, column, state.printed)


def _base(state: CSGame, aim: str, t: TableSet) -> tuple[int, str]:
    """Rule 11's base row for an aim and whose value it is: the game's (`offset`, or its setup's), else an
    entry of the base_rows table (the game referee's, else the server's), never an invented one."""
    base = state.offset(aim)
    if base is not None:
        return base, f"{state.offset_source(aim)}'s base {base:+d}"
    cell = _value(t, "base_rows", aim, None, state)
    if isinstance(cell, Cell) and not cell.blank:
        return int(cell.value), f"base {int(cell.value):+d}, {cell.provenance}"
    raise IllegalAction(
        f"The base row for Firing {aim.title()} is not entered: it is in rule 11, which the PAC does not hold.",
        f"The referee enters the number added to the two dice with `offset {aim} N` (this game), or a GM for the "
        "server's games with `/ref table-entry` (table base_rows).",
    )


# ---------------------------------------------------------------- the sequence of play


def next_phase(step: Step[CSGame], cmd: NextPhase, t: TableSet) -> None:
    state = step.state
    require_referee(state, cmd.player)
    if state.phase == "activation":
        _require_blocks(state)
        if _next_impulse(step):
            if cmd.to:
                raise IllegalAction("Impulses are left in the Activation Cycle: `next` alone walks them.")
            return
    if state.phase == "initiative" and not state.initiative:
        raise IllegalAction("The initiative is not recorded yet.", "The referee records it: `initiative PLAYER`.")
    if state.phase == "movement":
        unmarked = [s.id for s in state.ships if not s.marked]
        if unmarked:
            raise IllegalAction(f"Impulses are not marked yet for {', '.join(unmarked)}.", "`impulses SHIP 1 4 7 10` (or none).")
    if state.phase in ("", "housekeeping"):
        key, turn = "crew", state.turn + 1
    else:
        key, turn = PHASES[PHASES.index(state.phase) + 1], state.turn
    require_next_is(SYSTEM, cmd.to, key)
    spec = phase_spec(SYSTEM, key)
    step.emit(PhaseEntered(turn, key, spec.name))
    step.prompt(spec.prompt)
    if key == "crew":
        _new_turn(step)
    elif key == "activation":
        _open_blocks(step)


def _open_blocks(step: Step[CSGame]) -> None:
    """The maneuver blocks of the Activation Cycle. The book stays open from one turn to the next: a
    block chosen after a ship's last impulse of a turn is the one its next turn starts with ("Select
    Maneuvers (if not already selected)"); only the ships revealed on the 12th impulse choose anew."""
    book = step.state.orders
    if not book.open:
        step.emit(od.OrdersOpened("maneuver", tuple((s.player, s.id) for s in step.state.ships), od.TOGETHER))
        return
    done = tuple(o.slot for o in book.orders if o.revealed)
    if done:
        step.emit(od.OrdersCleared(done))


def _require_blocks(state: CSGame) -> None:
    """Every ship has a block face down before an impulse is revealed or the cycle ends: the sequence
    of play selects them first, and again right after each ship's maneuver (except on the 12th
    impulse). A ship choosing later would choose knowing what the reveal showed."""
    missing = [s for _, s in state.orders.missing()]
    if not missing:
        return
    later = sorted({i for s in state.ships for i in s.impulses if i > state.impulse})
    what = f"Impulse {later[0]}" if later else "The end of the Activation Cycle"
    raise IllegalAction(f"{what} waits for the maneuvers of {', '.join(missing)}.", "`maneuver SHIP NAME`, in secret.")


def _new_turn(step: Step[CSGame]) -> None:
    if step.state.initiative:
        step.emit(ev.InitiativeSet(""))
    if step.state.impulse:
        step.emit(ev.ImpulseReached(0, ()))
    for s in step.state.ships:
        new = evolve(s, bearing="", mp=-1, bonus=0, impulses=(), marked=False)
        if new != s:
            step.emit(ev.ShipChanged(new, ""))


def _next_impulse(step: Step[CSGame]) -> bool:
    """Activate the next marked impulse; False when none is left (the cycle is over)."""
    state = step.state
    marked = sorted({i for s in state.ships for i in s.impulses if i > state.impulse})
    if not marked:
        return False
    i = marked[0]
    ships = tuple(s.id for s in state.ships if i in s.impulses)
    step.emit(ev.ImpulseReached(i, ships))
    step.emit(od.reveal_event(step.state.orders, ships))
    step.prompt(
        f"Impulse {i}: complete the maneuvers; reload, conduct fire combat (`fire …`) and grapple as they apply."
        + (" Then select the next maneuver in secret." if i < IMPULSES else "")
    )
    if i < IMPULSES:
        step.emit(od.OrdersCleared(ships))
    return True


def set_initiative(step: Step[CSGame], cmd: c.SetInitiative, t: TableSet) -> None:
    state = step.state
    require_referee(state, cmd.player)
    if state.phase != "initiative":
        raise WrongPhase("The initiative is determined in its own phase.")
    if cmd.winner not in state.players:
        raise UnknownName(f"There is no player {cmd.winner!r}.", f"Players: {', '.join(state.players)}.")
    step.emit(ev.InitiativeSet(cmd.winner))


# ---------------------------------------------------------------- movement rates


def set_bearing(step: Step[CSGame], cmd: c.SetBearing, t: TableSet) -> None:
    state = step.state
    if state.phase != "movement":
        raise WrongPhase("Bearings are taken in the Determine Movement Rates phase.")
    ship = state.ship(cmd.ship)
    _owner(state, ship, cmd.player)
    step.emit(ev.ShipChanged(evolve(ship, bearing=cmd.bearing), f"bears {cmd.bearing} to the wind"))
    ships = step.state.ships
    if len(ships) == 2 and all(s.bearing for s in ships) and state.initiative:
        init = next((s for s in ships if s.player == state.initiative), None)
        other = next((s for s in ships if s.player != state.initiative), None)
        if init is None or other is None:
            return
        cell = _value(t, "base_movement", other.bearing, init.bearing, step.state)
        if isinstance(cell, ReadPrinted):
            step.prompt(cell.text())
            return
        a, b = (int(x) for x in str(cell.value).split("/"))
        step.emit(ev.ShipChanged(evolve(init, mp=a), f"has {a} MP (initiative, bearing {init.bearing})"))
        step.emit(ev.ShipChanged(evolve(step.state.ship(other.id), mp=b), f"has {b} MP (bearing {other.bearing})"))
        step.prompt("Base Movement Point Table: rows read A-H top to bottom (inferred: the labels are lost in the PAC's text).")


def lookup_mp(step: Step[CSGame], cmd: c.LookupMP, t: TableSet) -> None:
    cell = _value(t, "base_movement", cmd.other_bearing, cmd.initiative_bearing, step.state)
    if isinstance(cell, ReadPrinted):
        step.prompt(cell.text())
        return
    step.prompt(f"Base Movement Points, initiative {cmd.initiative_bearing} / other {cmd.other_bearing}: {cell.value} "
                "(rows read A-H top to bottom: inferred).")


def hull_bonus(step: Step[CSGame], cmd: c.HullBonus, t: TableSet) -> None:
    state = step.state
    if state.phase != "movement":
        raise WrongPhase("The Hull Type Bonus is rolled in the Determine Movement Rates phase.")
    ship = state.ship(cmd.ship)
    _owner(state, ship, cmd.player)
    if not ship.hull_type:
        raise IllegalAction(f"{ship.id}'s hull type row is not set.", "Give `hull_type` (row 1, row 2 or Slow) in the setup.")
    r = step.roll("d6", f"{ship.id}: Hull Type Bonus", ship.quality, ship.player)
    cell = _value(t, "hull_type_bonus", ship.hull_type, r.total, state)
    if isinstance(cell, ReadPrinted):
        step.prompt(cell.text())
        return
    step.emit(ev.ShipChanged(evolve(ship, bonus=int(cell.value)), f"Hull Type Bonus {int(cell.value):+d} ({ship.hull_type})"))


def mark_impulses(step: Step[CSGame], cmd: c.MarkImpulses, t: TableSet) -> None:
    state = step.state
    if state.phase != "movement":
        raise WrongPhase("Impulses are marked in the Determine Movement Rates phase.")
    ship = state.ship(cmd.ship)
    _owner(state, ship, cmd.player)
    if any(not 1 <= i <= IMPULSES for i in cmd.impulses) or len(set(cmd.impulses)) != len(cmd.impulses):
        raise IllegalAction(f"Impulses run 1 to {IMPULSES}, each marked once.")
    marks = tuple(sorted(cmd.impulses))
    step.emit(ev.ShipChanged(evolve(ship, impulses=marks, marked=True),
                             "marks impulses " + (", ".join(map(str, marks)) or "none")))


# ---------------------------------------------------------------- activation


def choose_maneuver(step: Step[CSGame], cmd: c.ChooseManeuver, t: TableSet) -> None:
    state = step.state
    if state.phase != "activation":
        raise WrongPhase("Maneuver blocks are chosen in the Activation Cycle.",
                         "A block chosen in an earlier turn stands until its impulse.")
    owner = od.check_submit(state.orders, "maneuver", cmd.ship, cmd.player)
    step.emit(od.OrderSubmitted(owner, cmd.ship, cmd.maneuver))


def fire(step: Step[CSGame], cmd: c.FireAt, t: TableSet) -> None:
    state = step.state
    if state.phase != "activation" or not state.impulse:
        raise WrongPhase("Fire combat comes in an impulse of the Activation Cycle.")
    ship, target = state.ship(cmd.ship), state.ship(cmd.target)
    _owner(state, ship, cmd.player)
    if target.player == ship.player:
        raise IllegalAction(f"{target.id} is not an enemy ship.")
    if state.impulse not in ship.impulses:
        raise IllegalAction(f"{ship.id} is not marked on impulse {state.impulse}.", "A ship fires in its own impulses.")
    if cmd.hits <= 0:
        step.prompt(f"{ship.id} achieves no hits on {target.id}: no damage.")
        return
    base, whose = _base(state, cmd.aim, t)
    t["damage_effects"].locate(0, cmd.hits)  # the table stops at 12 hits achieved: refuse before rolling
    drms = t["damage_drms"].rows.keys
    parts = [whose]  # never the rulebook's: the PAC lacks rule 11
    total = base
    if cmd.wind:
        v = int(_value(t, "damage_drms", drms[0 if cmd.wind == "leeward" else 1].text, None, state).value)  # type: ignore[union-attr]
        total += v
        parts.append(f"{cmd.wind} {v:+d}")
    if ship.morale in ("handy", "unfit"):
        row = drms[(2 if cmd.aim == "high" else 4) + (0 if ship.morale == "handy" else 1)].text
        v = int(_value(t, "damage_drms", row, None, state).value)  # type: ignore[union-attr]
        total += v
        parts.append(f"crew {ship.morale} {v:+d}")
    if cmd.mod:
        total += cmd.mod
        parts.append(f"other {cmd.mod:+d}")
    r = step.roll_coloured(DICE, f"{ship.id} fires {cmd.aim} at {target.id} ({cmd.hits} hits achieved)", ship.player)
    white, red = coloured(r, "white"), coloured(r, "red")[0]
    damage_roll = sum(white) + total
    damage_cell = _value(t, "damage_effects", damage_roll, cmd.hits, state)
    checks = int(_value(t, "fire_checks", damage_roll, cmd.hits, state).value)  # type: ignore[union-attr]
    red_cell = _value(t, "fire_check_red", damage_roll, cmd.hits, state)
    red_column = str(red_cell.value) if isinstance(red_cell, Cell) else "?"
    morale_drm = {"handy": 1, "unfit": -1}.get(target.morale, 0)
    if morale_drm:
        row = "Defending crew Handy" if morale_drm > 0 else "Defending crew Unfit"
        morale_drm = int(_value(t, "morale_drms", row, None, state).value)  # type: ignore[union-attr]
    morale_roll = red + morale_drm
    morale_cell = _value(t, "morale_effects", morale_roll, cmd.hits, state)
    damage = str(damage_cell.value) if isinstance(damage_cell, Cell) else None
    morale_rolls = int(morale_cell.value) if isinstance(morale_cell, Cell) else None
    volley = Volley(ship.id, target.id, cmd.aim, cmd.hits, (white[0], white[1]), red, damage_roll, damage, checks,
                    red_column, morale_roll, morale_rolls, ", ".join(parts),
                    morale_cell.provenance if isinstance(morale_cell, Cell) else "")
    step.emit(ev.VolleyResolved(volley))
    for cell in (damage_cell, morale_cell):
        if isinstance(cell, ReadPrinted):
            step.prompt("Referee: " + cell.text() + ".")
    hull, rigging, crew = _letters(damage or "")
    owed_checks = checks if red_column == "yes" else 0
    new = evolve(target, hull_hits=target.hull_hits + hull, rigging_hits=target.rigging_hits + rigging,
                 crew_hits=target.crew_hits + crew, fire_checks=target.fire_checks + owed_checks,
                 morale_rolls=target.morale_rolls + (morale_rolls or 0))
    if new != target:
        step.emit(ev.ShipChanged(new, f"takes {damage or 'no counted damage'}"
                                 + (f"; {morale_rolls} Morale roll(s) to make" if morale_rolls else "")))


def _letters(damage: str) -> tuple[int, int, int]:
    found = {k: int(n) for n, k in re.findall(r"(\d+)([HRC])", damage)}
    return found.get("H", 0), found.get("R", 0), found.get("C", 0)


def set_offset(step: Step[CSGame], cmd: c.SetOffset, t: TableSet) -> None:
    require_referee(step.state, cmd.player)
    if not -30 <= cmd.value <= 30:
        raise IllegalAction("An offset beyond 30 rows misses the table entirely.")
    step.emit(ev.OffsetSet(cmd.aim, cmd.value))


def morale(step: Step[CSGame], cmd: c.MoraleOutcome, t: TableSet) -> None:
    state = step.state
    require_referee(state, cmd.player)
    ship = state.ship(cmd.ship)
    status = max(0, ship.crew_status - 1) if cmd.failed else ship.crew_status
    new = evolve(ship, morale_rolls=0, crew_status=status)
    what = "fails a Morale roll: its Crew Status moves one space left" if cmd.failed else "passes its Morale rolls"
    step.emit(ev.ShipChanged(new, what + (f" ({new.status_label})" if cmd.failed else "")))


def set_crew(step: Step[CSGame], cmd: c.SetCrew, t: TableSet) -> None:
    state = step.state
    require_referee(state, cmd.player)
    ship = state.ship(cmd.ship)
    if cmd.morale:
        step.emit(ev.ShipChanged(evolve(ship, morale=cmd.morale), f"crew morale is {cmd.morale}"))
        return
    top = max(0, len(ship.track) - 1) if ship.track else 99
    if not 0 <= cmd.status <= top:
        raise IllegalAction(f"Crew Status spaces run 0 to {top}.")
    step.emit(ev.ShipChanged(evolve(ship, crew_status=cmd.status), f"Crew Status {evolve(ship, crew_status=cmd.status).status_label}"))


_HANDLERS: dict[type, Any] = {
    NextPhase: next_phase,
    c.SetInitiative: set_initiative,
    c.SetBearing: set_bearing,
    c.HullBonus: hull_bonus,
    c.MarkImpulses: mark_impulses,
    c.ChooseManeuver: choose_maneuver,
    c.FireAt: fire,
    c.SetOffset: set_offset,
    c.MoraleOutcome: morale,
    c.SetCrew: set_crew,
    c.LookupMP: lookup_mp,
}


def deciders(state: CSGame) -> set[str]:
    """Owners of ships without a maneuver block in the Activation Cycle; otherwise the referee."""
    if state.result:
        return set()
    if state.phase == "activation" and state.orders.open and state.orders.missing():
        return state.orders.waiting_for()
    return {state.referee}
