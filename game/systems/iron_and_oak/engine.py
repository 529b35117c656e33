"""decide(state, command, dice) -> events for Iron & Oak: the sequence of play (rule 3.0), hidden
order cards revealed one at a time in the owner's order, the guided order procedures
(procedures.py), ship cards, markers and hits."""

from __future__ import annotations

import shlex
from typing import Any

from game.dice import DiceSource
from game.errors import IllegalAction, NotYourShip, ParseError, UnknownName, WrongPhase
from game.model import evolve
from game.systems import orders as od
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
from game.systems.iron_and_oak import commands as c
from game.systems.iron_and_oak import events as ev
from game.systems.iron_and_oak.apply import apply
from game.systems.iron_and_oak.grid import OBSTRUCTIONS
from game.systems.iron_and_oak.model import CRITICALS, MAX_SHIELD, OBSTACLES, IOGame, Procedure
from game.systems.iron_and_oak.notation import parse_order
from game.systems.iron_and_oak.procedures import run_procedure
from game.systems.iron_and_oak.run import normalise
from game.systems.iron_and_oak.whereabouts import check_order
from game.systems.tables import TableSet, load_tables

SYSTEM = "iron_and_oak"
PHASES = ("status", "order", "action", "replace", "victory")


def tables() -> TableSet:
    return load_tables(SYSTEM)


def decide(state: IOGame, command: Any, dice: DiceSource) -> list[Any]:
    t = tables()
    step, done = open_step(state, command, dice, apply, t)
    if done:
        return step.events
    check_names((s.id for s in state.ships), command, ("ship",))
    if isinstance(command, NextPhase):
        require_referee(state, command.player)
        advance(step, command.to)
    elif isinstance(command, c.GiveOrder):
        give_order(step, command)
    elif isinstance(command, c.Reveal):
        reveal(step, command, t)
    elif isinstance(command, c.Answer):
        answer(step, command, t)
    elif isinstance(command, c.Card):
        card(step, command)
    elif isinstance(command, c.SetMarker):
        set_marker(step, command)
    elif isinstance(command, c.TakeHits):
        take_hits(step, command)
    elif isinstance(command, c.Place):
        place(step, command)
    elif isinstance(command, c.SetBox):
        set_box(step, command)
    else:
        raise IllegalAction(f"{type(command).__name__} is not an Iron & Oak command.")
    return step.events


# ---------------------------------------------------------------- the sequence of play


def advance(step: Step[IOGame], to: str = "") -> None:
    state = step.state
    if state.procedure is not None:
        raise IllegalAction(f"{state.procedure.ship}'s {state.procedure.order} is still under way.",
                            "Answer its question first.")
    if state.phase == "order" and not state.orders.complete:
        raise IllegalAction("Not every ship has its order yet.", f"Waiting for: {', '.join(s for _, s in state.orders.missing())}.")
    if state.phase == "action" and state.orders.unrevealed():
        waiting = ", ".join(o.slot for o in state.orders.unrevealed())
        raise IllegalAction(f"Orders still to reveal: {waiting}.", "Each owner reveals them with `reveal SHIP`.")
    if state.phase in ("", "victory"):
        key, turn = "status", state.turn + 1
    else:
        key, turn = PHASES[PHASES.index(state.phase) + 1], state.turn
    require_next_is(SYSTEM, to, key)
    spec = phase_spec(SYSTEM, key)
    if state.orders.open and key != "action":
        step.emit(od.OrdersClosed(state.orders.kind))
    step.emit(PhaseEntered(turn, key, f"{spec.name}"))
    step.prompt(spec.prompt)
    if key == "status":
        _new_turn(step)
    elif key == "order":
        afloat = [s for s in step.state.ships if not s.has("Sunk")]
        step.emit(od.OrdersOpened("order", tuple((s.player, s.id) for s in afloat), od.ONE_BY_ONE))
    elif key == "action" and state.orders.open:
        # rule 3.0: cards are given in the Order Phase and turned over one by one in this one, so a
        # card still face down stands from here: a swap could answer the cards already turned
        step.emit(od.RevealBegun(state.orders.kind))


def _new_turn(step: Step[IOGame]) -> None:
    turn = step.state.turn
    if step.state.drift_checked:
        step.emit(ev.DriftChecked(()))
    for s in step.state.ships:
        lockouts = tuple(x for x in s.lockouts if x[2] >= turn)
        new = evolve(s, bow_on_target="", point_blank="", lockouts=lockouts)
        if new != s:
            step.emit(ev.ShipChanged(new, ""))


# ---------------------------------------------------------------- orders


def give_order(step: Step[IOGame], cmd: c.GiveOrder) -> None:
    state = step.state
    owner = od.check_submit(state.orders, "order", cmd.ship, cmd.player)
    text = parse_order(_words(cmd.order), state, cmd.ship)
    words = _words(text)
    ship = state.ship(cmd.ship)
    if len(words) > 1 and words[0] in ("oppose", "spar", "ram", "tow", "cross"):
        target = state.ship(words[1])
        if target.has("Sunk"):
            raise IllegalAction(f"{target.id} has sunk.")
        friendly = target.player == ship.player
        if words[0] == "tow" and not friendly:
            raise IllegalAction("A ship tows only a friendly ship or barge.")
        if words[0] != "tow" and friendly:
            raise IllegalAction(f"{target.id} is a friendly ship.", "Target an enemy ship.")
        kind = "cross" if words[0] == "cross" else ("ramspar" if words[0] in ("spar", "ram") else "")
        if kind and any(k == kind and t == target.id and turn == state.turn for k, t, turn in ship.lockouts):
            what = "Cross the T on" if kind == "cross" else "Ram or Spar"
            raise IllegalAction(f"{ship.id} may not {what} {target.id} this turn (its attempt last turn).")
        if kind and any(p.ship == target.id and p.of == ship.id and p.aspect == "stern" for p in state.positions):
            raise IllegalAction(f"{target.id} lies across {ship.id}'s stern: {ship.id} cannot T, Spar or Ram it.")
    check_order(state, ship, tuple(words))
    step.emit(od.OrderSubmitted(owner, cmd.ship, text))


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        raise ParseError(f"Unbalanced quotes in the order {text!r}.") from None


def reveal(step: Step[IOGame], cmd: c.Reveal, t: TableSet) -> None:
    state = step.state
    if state.phase != "action":
        raise WrongPhase("Orders are revealed in the Action Phase.")
    if state.procedure is not None:
        raise IllegalAction(f"{state.procedure.ship}'s order is still being carried out.", "Answer its question first.")
    order = od.check_reveal_one(state.orders, cmd.ship, cmd.player)
    step.emit(od.reveal_event(state.orders, (cmd.ship,)))
    step.emit(ev.ProcedureChanged(Procedure(order.text or "m0 hold", cmd.ship)))
    run_procedure(step, t)


def answer(step: Step[IOGame], cmd: c.Answer, t: TableSet) -> None:
    state = step.state
    p = state.procedure
    if p is None or p.question is None:
        raise IllegalAction("No question is waiting for an answer.")
    q = p.question
    if cmd.player and cmd.player not in q.who and cmd.player != state.referee:
        raise NotYourShip(f"This question is for {', '.join(q.who)}.", f"It asks for {q.ask}.")
    value = normalise(q, cmd.text, state)
    facts = tuple((k, v) for k, v in p.facts if k != q.key) + ((q.key, value),)
    step.emit(ev.ProcedureChanged(evolve(p, facts=facts, question=None)))
    run_procedure(step, t)


# ---------------------------------------------------------------- ship cards, markers, hits


def card(step: Step[IOGame], cmd: c.Card) -> None:
    state = step.state
    ship = state.ship(cmd.ship)
    if cmd.player and cmd.player not in (ship.player, state.referee):
        raise NotYourShip(f"{ship.id} belongs to {ship.player}.")
    changes: dict[str, Any] = {}
    for key, value in cmd.fields:
        if key in ("maneuver", "ram", "wl"):
            changes[key] = value
        elif key == "bowon":
            changes["bow_on"] = value
        elif key == "draft":
            changes["draft"] = int(value)
        elif key == "hits":
            changes["hits_value"] = int(value)
        elif key == "powered":
            changes["powered"] = value == "yes"
    step.emit(ev.ShipChanged(evolve(ship, **changes), "ship card: " + ", ".join(f"{k} {v}" for k, v in cmd.fields)))


def set_marker(step: Step[IOGame], cmd: c.SetMarker) -> None:
    state = step.state
    require_referee(state, cmd.player)
    ship = state.ship(cmd.ship)
    paired = cmd.name in ("Fouled", "Grappled")
    if paired and cmd.present and not cmd.other:
        raise IllegalAction(f"{cmd.name} needs the ship (or obstacle) it is {cmd.name.lower()} with.")
    if cmd.other and not paired:
        raise IllegalAction(f"{cmd.name} is not placed with another ship.")
    if cmd.other and cmd.other not in OBSTACLES and cmd.other not in {s.id for s in state.ships}:
        raise UnknownName(f"There is no ship called {cmd.other!r}.")
    verb = "gains" if cmd.present else "loses"
    if not paired:
        new = ship.with_critical(cmd.name, cmd.present) if cmd.name in CRITICALS else ship.with_marker(cmd.name, cmd.present)
        step.emit(ev.ShipChanged(new, f"{verb} {cmd.name}"))
        return
    field = "fouled_with" if cmd.name == "Fouled" else "grappled_with"
    for a, b in ((ship.id, cmd.other), (cmd.other, ship.id)):
        if a in OBSTACLES:
            continue
        s = step.state.ship(a)
        others: tuple[str, ...] = getattr(s, field)
        now = tuple(x for x in others if x != b) if b else ()
        if cmd.present:
            now = (*now, b)
        changes: dict[str, Any] = {field: now}
        if field == "grappled_with" and s.towed_by and s.towed_by not in now:
            changes["towed_by"] = ""  # the tow ends with the grapple
        step.emit(ev.ShipChanged(evolve(s, **changes).with_marker(cmd.name, bool(now)),
                                 f"{verb} {cmd.name}" + (f" with {b}" if b else "")))


def take_hits(step: Step[IOGame], cmd: c.TakeHits) -> None:
    state = step.state
    require_referee(state, cmd.player)
    if cmd.hits < 0 or cmd.shield < 0:
        raise IllegalAction("Hits and Shield damage are counted up, never below 0.")
    ship = state.ship(cmd.ship)
    shield = min(MAX_SHIELD, ship.shield + cmd.shield)
    step.emit(ev.ShipChanged(evolve(ship, hits=ship.hits + cmd.hits, shield=shield),
                             f"takes {cmd.hits} hit(s)" + (f"; WL Shield -{shield}" if cmd.shield else "")))


def place(step: Step[IOGame], cmd: c.Place) -> None:
    """The referee corrects the map: a ship's Grid Box, or off the map."""
    state = step.state
    require_referee(state, cmd.player)
    if not state.grid.on:
        raise IllegalAction("This game has no map: the ships' Grid Boxes are kept on your table.",
                            "A setup with a `[grid]` keeps them (docs/systems/iron_and_oak.md).")
    if cmd.box and state.grid.name(cmd.box) != cmd.box:
        raise IllegalAction(f"{cmd.box[:20]!r} is not a Grid Box of this map ({state.grid.extent}).")
    ship = state.ship(cmd.ship)
    if ship.box == cmd.box:
        raise IllegalAction(f"{ship.id} is already {'in ' + cmd.box if cmd.box else 'off the map'}.")
    step.emit(ev.ShipChanged(evolve(ship, box=cmd.box), f"is placed in {cmd.box}" if cmd.box else "is taken off the map"))


def set_box(step: Step[IOGame], cmd: c.SetBox) -> None:
    """The referee corrects what lies in a Grid Box (a ship sunk into a hulk, a marker the scenario adds)."""
    state = step.state
    require_referee(state, cmd.player)
    if not state.grid.on:
        raise IllegalAction("This game has no map: the Grid Boxes' hazards are listed when a ship meets them.")
    if state.grid.name(cmd.box) != cmd.box:
        raise IllegalAction(f"{cmd.box[:20]!r} is not a Grid Box of this map ({state.grid.extent}).")
    box = state.grid.box(cmd.box)
    for key, value in cmd.fields:
        if key == "obstruction":
            if value not in ("none", *OBSTRUCTIONS[1:]):
                raise IllegalAction(f"obstruction is none, obstruction or heavy, not {value[:20]!r}.")
            box = evolve(box, obstruction="" if value == "none" else value)
        elif key == "depth" and value == "deep":
            box = evolve(box, depth=-1)
        elif key in ("depth", "hulks", "mines"):
            top = 20 if key == "depth" else 9
            if not value.isdigit() or int(value) > top:
                raise IllegalAction(f"{key} is a whole number from 0 to {top}" + (" or `deep`" if key == "depth" else "")
                                    + f", not {value[:20]!r}.")
            box = evolve(box, **{key: int(value)})
        else:
            raise IllegalAction(f"{key[:20]!r} is not a field of a Grid Box.", "Fields: depth, hulks, obstruction, mines.")
    step.emit(ev.BoxChanged(box, "the referee sets " + ", ".join(f"{k} {v}" for k, v in cmd.fields)))


def deciders(state: IOGame) -> set[str]:
    if state.result:
        return set()
    if state.procedure is not None and state.procedure.question is not None:
        return set(state.procedure.question.who)
    if state.orders.open and not state.orders.complete:
        return state.orders.waiting_for()
    if state.phase == "action" and state.orders.unrevealed():
        return {o.owner for o in state.orders.unrevealed()}
    return {state.referee}

