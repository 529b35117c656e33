"""decide(state, command, dice) -> events for WS&IM under the Casus Belli rules: the turn sequence
A-K, the wind, secret plots and boarding parties, loading, repairs, sails, fouling and grappling.
Fire and criticals are in combat.py, melee in melee.py."""

from __future__ import annotations

from typing import Any

from game.dice import DiceSource
from game.errors import IllegalAction, NotYourShip, UnknownName, WrongPhase
from game.model import evolve
from game.systems import orders as od
from game.systems.common import (
    EnterPrinted,
    GameEnded,
    NextPhase,
    PhaseEntered,
    PhaseSkipped,
    Step,
    check_names,
    nothing_to_do,
    open_step,
    phase_named,
    phase_spec,
    require_referee,
)
from game.systems.tables import ReadPrinted, TableSet, load_tables
from game.systems.wsim import combat, melee
from game.systems.wsim import commands as c
from game.systems.wsim import events as ev
from game.systems.wsim.apply import apply
from game.systems.wsim.fire import needs, parse_hits
from game.systems.wsim.model import Ship, Wind, WsimGame
from game.systems.wsim.notation import format_parties, parse_parties
from game.systems.wsim.plot import acceleration_remark, check, outcome, parse_moves, parse_notes, turned
from game.systems.wsim.skips import PREDICATES, load_phase_done

SYSTEM = "wsim"


def tables() -> TableSet:
    return load_tables(SYSTEM)


def decide(state: WsimGame, command: Any, dice: DiceSource) -> list[Any]:
    t = tables()
    if isinstance(command, EnterPrinted):
        _check_printed_hits(command, t)
    step, done = open_step(state, command, dice, apply, t)
    if done:
        return step.events
    if isinstance(command, NextPhase):
        require_referee(state, command.player)
        advance(step, t, phase_named(SYSTEM, command.to) if command.to else "")
        return step.events
    check_names((s.id for s in state.ships), command)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise IllegalAction(f"{type(command).__name__} is not a WS&IM command.")
    handler(step, command, t)
    return step.events


def _check_printed_hits(cmd: EnterPrinted, t: TableSet) -> None:
    try:
        table = t.find(cmd.table)
    except UnknownName:
        return
    if table.name == "fire_results" and cmd.column.lower() in ("hull", "rigging"):
        parse_hits(cmd.value)


def _owner(state: WsimGame, ship: Ship, player: str, referee_too: bool = False) -> None:
    if player and player != ship.player and not (referee_too and player == state.referee):
        raise NotYourShip(f"{ship.id} belongs to {ship.player}.", "Each player gives orders only for their own ships.")


# ---------------------------------------------------------------- the turn sequence


def advance(step: Step[WsimGame], t: TableSet, to: str = "") -> None:
    """Leave the current phase (checking it is done) and go on to the next phase with something to do,
    or to `to` (the referee's `next PHASE`), whatever it has."""
    state = step.state
    if state.orders.open and not state.orders.complete:
        waiting = ", ".join(f"{s} ({o})" for o, s in state.orders.missing())
        raise IllegalAction(f"Secret {state.orders.kind} orders are still awaited: {waiting}.")
    waiting_hits = [f.number for f in state.fires if f.hits is None]
    if waiting_hits:
        raise IllegalAction(
            f"Fire {', '.join(map(str, waiting_hits))} still wait(s) for hits from the printed table.",
            "The referee enters them with `hits N 2H1C1R`.",
        )
    _leave(step, state.phase, t)
    while not step.state.result:
        phase, turn = _following(step.state.phase, step.state.turn)
        spec = phase_spec(SYSTEM, phase)
        label = f"Phase {phase} ({spec.name})"
        skipping = step.state.options.skip_empty and phase != to
        why = nothing_to_do(SYSTEM, phase, step.state, PREDICATES) if skipping else ""
        if why:
            step.emit(PhaseSkipped(turn, phase, label, why))
        else:
            enter(step, phase, turn, t)
            why = nothing_to_do(SYSTEM, phase, step.state, PREDICATES, after_entry=True) if skipping else ""
            if not why or step.state.result:
                return
            step.prompt(f"{label}: {why}.")
        _leave(step, phase, t)


def _leave(step: Step[WsimGame], phase: str, t: TableSet) -> None:
    """What the end of a phase does, whether it was played or skipped."""
    if phase == "H":
        combat.end_of_combat(step, t)
    if phase == "K":
        _end_of_turn(step)


def _phase_done(step: Step[WsimGame], t: TableSet) -> None:
    """Secret orders revealed, or the last load made: the phase has nothing left, and the game goes on
    (unless the setup keeps every phase for the referee's `next`)."""
    if step.state.options.skip_empty and not step.state.result:
        advance(step, t)


def _following(phase: str, turn: int) -> tuple[str, int]:
    keys = "ABCDEFGHIJK"
    if phase == "" or phase == "K":
        return "A", turn + 1
    return keys[keys.index(phase) + 1], turn


def enter(step: Step[WsimGame], phase: str, turn: int, t: TableSet) -> None:
    spec = phase_spec(SYSTEM, phase)
    step.emit(PhaseEntered(turn, phase, f"{spec.key}. {spec.name}"))
    step.prompt(spec.prompt)
    if phase == "A":
        wind_phase(step, t)
    elif phase == "C":
        _unfouling_phase(step)
    elif phase == "D":
        _open(step, "plot", [s for s in step.state.ships if s.active])
    elif phase == "G":
        ships = [s for s in step.state.ships if s.active and (s.fouled or s.grappled)]
        if ships:
            _open(step, "board", ships)
        else:
            step.prompt("No ship is fouled or grappled: no boarding parties this turn.")
    elif phase == "H":
        if step.state.fires:
            step.emit(ev.FiresCleared())
    elif phase == "I":
        for m in step.state.melees:
            step.emit(ev.MeleeChanged(m.attacker, m.defender, evolve(m, rounds=0)))
            step.prompt(f"The melee between {m.attacker} and {m.defender} carries on (`melee {m.attacker} {m.defender}`).")
    elif phase == "J":
        _load_phase(step)
    elif phase == "K" and step.state.options.hidden_sails:
        _open(step, "sails", [s for s in step.state.ships if s.active])


def _open(step: Step[WsimGame], kind: str, ships: list[Ship]) -> None:
    if ships:
        step.emit(od.OrdersOpened(kind, tuple((s.player, s.id) for s in ships), od.TOGETHER))


def _end_of_turn(step: Step[WsimGame]) -> None:
    for ship in step.state.ships:
        broadsides = tuple(evolve(b, fired=False) for b in ship.broadsides)
        weighing = max(0, ship.weighing - 1)
        new = evolve(
            ship,
            broadsides=broadsides,
            weighing=weighing,
            anchored="" if ship.weighing == 1 else ship.anchored,
            parties=(),
            loaded_this_turn=False,
        )
        if new != ship:
            step.emit(ev.ShipChanged(new, "the anchor is up" if ship.weighing == 1 else ""))
    if step.state.orders.open:
        step.emit(od.OrdersClosed(step.state.orders.kind))


# ---------------------------------------------------------------- A: wind


def wind_phase(step: Step[WsimGame], t: TableSet) -> None:
    state = step.state
    if state.wind_next is not None:
        step.emit(ev.WindChanged(state.wind_next))
        if state.wind_next.velocity >= 7:
            step.emit(GameEnded("a hurricane: the scenario is ended"))
            return
        _weather_notes(step, t)
    r = step.roll("2d6", f"wind change (WSN {state.wind_shift_number})")
    rolls = {int(x) for x in str(_value(t, "wind_change", state.wind_shift_number, state)).split(",")}
    if r.kept not in rolls:
        step.emit(ev.WindForecast(None))
        return
    d = step.roll("d6", "wind direction change")
    shift = _value(t, "wind_direction_change", d.kept, state)
    direction = state.initial_direction if shift == "initial" else turned(state.wind.direction, int(shift))
    v = step.roll("d6", "wind velocity change")
    velocity = max(0, state.wind.velocity + int(_value(t, "wind_velocity_change", v.kept, state)))
    step.emit(ev.WindForecast(Wind(direction, velocity)))
    if velocity >= 7:
        step.prompt("A hurricane is coming: the scenario ends at the start of next turn.")


def _value(t: TableSet, name: str, row: Any, state: WsimGame, column: Any = None) -> Any:
    cell = t[name].lookup(row, column, state.printed)
    if isinstance(cell, ReadPrinted):
        raise needs(cell)
    return cell.value


def _weather_notes(step: Step[WsimGame], t: TableSet) -> None:
    v = step.state.wind.velocity
    if v in (5, 6):
        name = _value(t, "wind_names", v, step.state)
        no_fs = [str(k) for k in range(1, 7) if _value(t, "weather_full_sails", v, step.state, k) == "not allowed"]
        fire = [f"class {k} {_value(t, 'weather_fire', v, step.state, k)}" for k in range(1, 7)
                if _value(t, "weather_fire", v, step.state, k) != ""]
        step.prompt(f"{name}: no full sails for class {', '.join(no_fs)}; fire: {', '.join(fire)}.")
        for ship in step.state.ships:
            if ship.sails == "full" and str(ship.ship_class) in no_fs:
                step.emit(ev.SailsSet(ship.id, "battle"))


# ---------------------------------------------------------------- C: unfouling, sinking


def _unfouling_phase(step: Step[WsimGame]) -> None:
    for ship in step.state.ships:
        if ship.doom:
            r = step.roll("d6", f"{ship.id}: {ship.doom}")
            if r.kept == 6:
                if ship.doom == "may sink":
                    step.emit(ev.ShipChanged(evolve(ship, status="sunk", doom=""), "it sinks"))
                else:
                    combat.explode(step, ship.id, "it explodes")
    pairs = sorted({tuple(sorted((s.id, o))) for s in step.state.ships for o in s.fouled})
    for a, b in pairs:
        step.prompt(f"{a} and {b} are fouled: `unfoul {a} {b}` tries to free them.")


def unfoul(step: Step[WsimGame], cmd: c.Unfoul, t: TableSet) -> None:
    state = step.state
    if state.phase != "C":
        raise WrongPhase("Ships try to unfoul in the Unfouling Phase (C).")
    ship = state.ship(cmd.ship)
    _owner(state, ship, cmd.player, referee_too=True)
    if cmd.other not in ship.fouled:
        raise IllegalAction(f"{ship.id} is not fouled with {cmd.other}.")
    r = step.roll("d6", f"unfouling {ship.id} from {cmd.other}", by=ship.player)
    result = _value(t, "unfouling", r.kept, state)
    step.prompt(f"{result}.")
    if "unfouled" in str(result):
        step.emit(ev.FoulingChanged(ship.id, cmd.other, False))


# ---------------------------------------------------------------- D/E: plots


def plot(step: Step[WsimGame], cmd: c.Plot, t: TableSet) -> None:
    state = step.state
    ship = state.ship(cmd.ship)
    owner = od.check_submit(state.orders, "plot", ship.id, cmd.player)
    moves = parse_moves(cmd.moves)
    notes = parse_notes(cmd.notes)
    for e in moves:
        if e.startswith("W("):
            leader = e[2:-1]
            if leader not in {s.id for s in state.ships}:
                raise UnknownName(f"W({leader}): there is no ship called {leader!r}.")
    check(ship, moves, notes, state.wind, t, state.printed)
    text = " ".join(["".join(moves), *notes])
    step.emit(od.OrderSubmitted(owner, ship.id, text))
    if step.state.orders.complete:
        _reveal_plots(step, t)


def _reveal_plots(step: Step[WsimGame], t: TableSet) -> None:
    step.emit(od.reveal_event(step.state.orders))
    for order in step.state.orders.orders:
        words = (order.text or "0").split()
        moves, notes = parse_moves(words[0]), tuple(words[1:])
        ship = step.state.ship(order.slot)
        out = outcome(ship, moves)
        anchored, weighing, lost = ship.anchored, ship.weighing, ship.anchor_lost
        for n in notes:
            if n in ("A", "AB", "AS"):
                anchored = n
            elif n == "(A)":
                weighing = 2
            elif n == "a":
                anchored, weighing, lost = "", 0, True
        still = 0 if out.moved else ship.still + 1
        remarks: list[str] = []
        again = check(ship, moves, notes, step.state.wind, t, step.state.printed)
        remarks.extend(again)
        if moves[0].isdigit() or moves[0] in ("L", "R"):
            remark = acceleration_remark(ship, out.hexes, t, step.state.printed)
            if remark:
                remarks.append(remark)
        if still >= 2:
            remarks.append(
                f"{ship.id}'s bow has not left its hex for {still} movement phases: it drifts one hex downwind "
                "(ships of the line every other turn)."
            )
        if moves[0].startswith("W"):
            remarks.append(f"{ship.id} follows in the wake: set its heading if it changed (`heading {ship.id} N`).")
        step.emit(ev.PlotExecuted(ship.id, "".join(moves), notes, out.heading, anchored, weighing, lost,
                                  out.hexes, still, tuple(remarks)))
    step.emit(od.OrdersClosed("plot"))
    enter(step, "E", step.state.turn, t)


def heading(step: Step[WsimGame], cmd: c.SetHeading, t: TableSet) -> None:
    ship = step.state.ship(cmd.ship)
    _owner(step.state, ship, cmd.player, referee_too=True)
    if not 1 <= cmd.heading <= 6:
        raise IllegalAction(f"Heading {cmd.heading} is not a hex side.", "Headings run 1 to 6, clockwise.")
    step.emit(ev.HeadingSet(ship.id, cmd.heading))


def collide(step: Step[WsimGame], cmd: c.Collide, t: TableSet) -> None:
    state = step.state
    if state.phase != "E":
        raise WrongPhase("Collisions are retraced in the Movement execution Phase (E).")
    ship = state.ship(cmd.ship)
    _owner(state, ship, cmd.player, referee_too=True)
    if cmd.other == ship.id:
        raise IllegalAction("A ship cannot collide with itself.")
    if cmd.other in ship.fouled:
        raise IllegalAction(f"{ship.id} and {cmd.other} are fouled already.")
    r = step.roll("d6", f"fouling after {ship.id} collides with {cmd.other}")
    result = _value(t, "fouling", r.kept, state)
    step.prompt(f"{result}; both ships stop where the collision left them.")
    if "not" not in str(result):
        step.emit(ev.FoulingChanged(ship.id, cmd.other, True))


# ---------------------------------------------------------------- F: grappling


def grapple(step: Step[WsimGame], cmd: c.Grapple, t: TableSet) -> None:
    state = step.state
    if state.phase != "F":
        raise WrongPhase("Grappling is tried in the Grappling/ungrappling Phase (F).")
    ship, other = state.ship(cmd.ship), state.ship(cmd.other)
    _owner(state, ship, cmd.player, referee_too=True)
    if other.id == ship.id or other.id in ship.grappled:
        raise IllegalAction(f"{ship.id} cannot grapple {other.id} (itself, or grappled already).")
    if not 0 <= cmd.motionless <= 2:
        raise IllegalAction("At most the two ships involved can have been motionless.")
    if other.player == ship.player:
        step.prompt("Friendly ships grapple without a roll.")
        step.emit(ev.GrapplingChanged(ship.id, other.id, True))
        return
    r = step.roll("d6", f"{ship.id} grapples {other.id}", -cmd.motionless, ship.player)
    result = _value(t, "grappling", min(6, max(1, r.total)), state)
    step.prompt(f"{result}.")
    if "succeeds" in str(result):
        step.emit(ev.GrapplingChanged(ship.id, other.id, True))


def ungrapple(step: Step[WsimGame], cmd: c.Ungrapple, t: TableSet) -> None:
    state = step.state
    if state.phase != "F":
        raise WrongPhase("Ungrappling is tried in the Grappling/ungrappling Phase (F).")
    ship = state.ship(cmd.ship)
    _owner(state, ship, cmd.player, referee_too=True)
    if cmd.other not in ship.grappled:
        raise IllegalAction(f"{ship.id} is not grappled with {cmd.other}.")
    if state.ship(cmd.other).player == ship.player:
        step.emit(ev.GrapplingChanged(ship.id, cmd.other, False))
        return
    r = step.roll("d6", f"{ship.id} ungrapples from {cmd.other}", by=ship.player)
    result = _value(t, "ungrappling", r.kept, state)
    step.prompt(f"{result}.")
    if "succeeds" in str(result):
        step.emit(ev.GrapplingChanged(ship.id, cmd.other, False))


# ---------------------------------------------------------------- G: boarding parties


def board(step: Step[WsimGame], cmd: c.Board, t: TableSet) -> None:
    state = step.state
    ship = state.ship(cmd.ship)
    owner = od.check_submit(state.orders, "board", ship.id, cmd.player)
    used: list[int] = []
    for p in cmd.parties:
        for s in p.sections:
            if not 1 <= s <= len(ship.crew) or ship.crew_left[s - 1] <= 0:
                raise IllegalAction(f"{ship.id} has no crew section {s} with crew left.")
            if s == ship.pumps:
                raise IllegalAction(f"{ship.id}'s crew section {s} is at the pumps for the rest of the game (Waterline "
                                    "Damage): it forms no boarding party.")
            used.append(s)
        if p.kind in ("OBP", "TBP"):
            target = state.ship(p.target) if p.target in {x.id for x in state.ships} else None
            if target is None:
                raise UnknownName(f"There is no ship called {p.target!r}.")
            if p.kind == "OBP" and target.id not in (*ship.fouled, *ship.grappled):
                raise IllegalAction(f"{ship.id} is neither fouled nor grappled with {target.id}.")
            if p.kind == "TBP" and target.player != ship.player:
                raise IllegalAction("A transfer boarding party goes to a friendly ship.")
    if len(set(used)) != len(used):
        raise IllegalAction("A crew section can be in one boarding party only.")
    live = [i for i, left in enumerate(ship.crew_left, start=1) if left > 0]
    if used and sorted(used) != live[: len(used)]:
        raise IllegalAction(
            "Boarding parties take the lowest crew sections first, in order.", f"Use sections {live[: len(used)]}."
        )
    step.emit(od.OrderSubmitted(owner, ship.id, format_parties(cmd.parties)))
    if step.state.orders.complete:
        step.emit(od.reveal_event(step.state.orders))
        for order in step.state.orders.orders:
            step.emit(ev.PartiesSet(order.slot, parse_parties((order.text or "NBP").split(), step.state)))
        step.emit(od.OrdersClosed("board"))
        _phase_done(step, t)


# ---------------------------------------------------------------- J: loading and repairs


def _load_phase(step: Step[WsimGame]) -> None:
    for ship in step.state.ships:
        for b in ship.broadsides:
            if b.ds_loading:
                step.emit(ev.LoadChanged(ship.id, b.side, "DS", False, ship.player, initial_used=True))
        if ship.repair:
            turns = ship.repair_turns + 1
            if turns >= 3:
                _finish_repair(step, ship)
            else:
                step.emit(ev.RepairChanged(ship.id, ship.repair, turns))


def _finish_repair(step: Step[WsimGame], ship: Ship) -> None:
    rigging_lost = list(ship.rigging_lost)
    hull_lost = ship.hull_lost
    if ship.repair == "hull":
        hull_lost = max(0, ship.hull_lost - 2)
    else:
        left = 2
        for i in reversed(range(len(rigging_lost))):
            back = min(left, rigging_lost[i])
            rigging_lost[i] -= back
            left -= back
    step.emit(ev.DamageMarked(ship.id, hull_lost, ship.crew_lost, tuple(rigging_lost), f"{ship.repair} repairs completed"))
    step.emit(ev.RepairChanged(ship.id, "", 0))


def load(step: Step[WsimGame], cmd: c.Load, t: TableSet) -> None:
    state = step.state
    if state.phase != "J":
        raise WrongPhase("Broadsides are loaded in the Load Phase (J).")
    ship = state.ship(cmd.ship)
    _owner(state, ship, cmd.player)
    if not ship.active or all(left <= 0 for left in ship.crew_left):
        raise IllegalAction(f"{ship.id} cannot load (out of the fight, or no crew).")
    if ship.repair:
        raise IllegalAction(f"{ship.id} is under repair: it may not load.")
    if ship.loaded_this_turn:
        raise IllegalAction(f"{ship.id} has loaded a broadside this turn.", "One broadside per ship per Load Phase.")
    b = ship.broadside(cmd.side)
    other = next(x for x in ship.broadsides if x.side != cmd.side)
    if other.ds_loading:
        raise IllegalAction(f"{ship.id} is loading double shot on the {other.side}: it may not load the other broadside.")
    if b.load:
        raise IllegalAction(f"{ship.id}'s {cmd.side} broadside is loaded already.")
    if cmd.ammo == "C" and ship.nation.lower() == "british":
        raise IllegalAction("British ships may not use chain shot (WS&IM).")
    # WS&IM: broadsides are loaded "in the beginning of the scenario", and the first fire of each is the initial
    # broadside, "the most carefully loaded and aimed"; a load made in play is not one (docs/systems/wsim.md)
    if cmd.ammo == "DS":
        step.emit(ev.LoadChanged(ship.id, cmd.side, "", True, ship.player, initial_used=True))
    else:
        step.emit(ev.LoadChanged(ship.id, cmd.side, cmd.ammo, False, ship.player, initial_used=True))
    _end_load_phase_if_done(step, t)


def _end_load_phase_if_done(step: Step[WsimGame], t: TableSet) -> None:
    if step.state.options.skip_empty and load_phase_done(step.state):
        step.prompt("No ship may load or begin a repair any more: the Load Phase is over.")
        _phase_done(step, t)


def repair(step: Step[WsimGame], cmd: c.Repair, t: TableSet) -> None:
    state = step.state
    ship = state.ship(cmd.ship)
    _owner(state, ship, cmd.player)
    if cmd.kind == "stop":
        if not ship.repair:
            raise IllegalAction(f"{ship.id} is not under repair.")
        step.emit(ev.RepairChanged(ship.id, "", 0))
        return
    if state.phase != "J":
        raise WrongPhase("Repairs are marked in the Load Phase (J).")
    if ship.loaded_this_turn:
        # a ship under repair may not load, and the repair counts from this Load Phase: its crew is at the guns
        raise IllegalAction(f"{ship.id} has loaded a broadside in this Load Phase: a repair is begun instead of a load.")
    if ship.repair:
        raise IllegalAction(f"{ship.id} is repairing its {ship.repair} already.", "`repair SHIP stop` ends it.")
    if sum(1 for left in ship.crew_left if left > 0) - (1 if ship.pumps else 0) < 2:
        raise IllegalAction(f"{ship.id} needs two crew sections to repair"
                            + (" besides the one at the pumps." if ship.pumps else "."))
    damaged = ship.hull_lost > 0 if cmd.kind == "hull" else any(ship.rigging_lost)
    if not damaged:
        raise IllegalAction(f"{ship.id}'s {cmd.kind} has no squares lost.")
    step.emit(ev.RepairChanged(ship.id, cmd.kind, 1))
    _end_load_phase_if_done(step, t)


# ---------------------------------------------------------------- K: sails


def sails(step: Step[WsimGame], cmd: c.Sails, t: TableSet) -> None:
    state = step.state
    ship = state.ship(cmd.ship)
    if state.phase != "K" and (state.options.hidden_sails or state.phase != "J"):
        raise WrongPhase("Sails are set in the Load Phase (J) or the Full Sails Phase (K)"
                         + (", and plotted in secret in K." if state.options.hidden_sails else "."))
    if cmd.setting == "full":
        v = state.wind.velocity
        if v in (5, 6) and 1 <= ship.ship_class <= 6 and _value(t, "weather_full_sails", v, state, ship.ship_class) == "not allowed":
            raise IllegalAction(f"Full sails are not allowed for class {ship.ship_class} in this wind.")
        if ship.dismasted:
            raise IllegalAction(f"{ship.id} has no rigging left.")
    if state.options.hidden_sails:
        owner = od.check_submit(state.orders, "sails", ship.id, cmd.player)
        step.emit(od.OrderSubmitted(owner, ship.id, cmd.setting))
        if step.state.orders.complete:
            step.emit(od.reveal_event(step.state.orders))
            for order in step.state.orders.orders:
                if order.text != step.state.ship(order.slot).sails:
                    step.emit(ev.SailsSet(order.slot, order.text or "battle"))
            step.emit(od.OrdersClosed("sails"))
            _phase_done(step, t)
        return
    _owner(state, ship, cmd.player)
    if cmd.setting == ship.sails:
        raise IllegalAction(f"{ship.id} is under {ship.sails} sails already.")
    step.emit(ev.SailsSet(ship.id, cmd.setting))


# ---------------------------------------------------------------- dispatch


_HANDLERS: dict[type, Any] = {
    c.Plot: plot,
    c.Board: board,
    c.Load: load,
    c.Repair: repair,
    c.Sails: sails,
    c.FireBroadside: combat.fire,
    c.EnterHits: lambda step, cmd, t: combat.enter_hits(step, cmd),
    c.Mark: lambda step, cmd, t: combat.mark_command(step, cmd),
    c.Collide: collide,
    c.Unfoul: unfoul,
    c.Grapple: grapple,
    c.Ungrapple: ungrapple,
    c.MeleeAttack: melee.melee,
    c.SetHeading: heading,
    c.Blast: combat.blast,
}
