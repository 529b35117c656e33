"""The Melee Phase: Total Melee Strength, up to three rounds a turn, the 3:1 rule, carrying on.

Each side rolls a die on the Melee Resolution Table against its own strength; the result is the
number of enemy crew squares lost, off the lowest section of the enemy party. DRMs: +1 OBP vs DBP,
-2 DBP vs OBP, and the class modifiers. A modified roll outside 1-6 reads as 1 or 6 (the play aid does
not say: inferred). After each round, a side with three times the other's strength wins: the
beaten party's ship surrenders.
"""

from __future__ import annotations

import math
from fractions import Fraction

from game.errors import IllegalAction, NotYourShip, WrongPhase
from game.model import evolve
from game.systems.common import Step
from game.systems.tables import ReadPrinted, TableSet
from game.systems.wsim import commands as c
from game.systems.wsim import events as ev
from game.systems.wsim.fire import needs
from game.systems.wsim.model import Melee, Ship, WsimGame

ROUNDS = 3


def class_drm(mine: int, theirs: int) -> int:
    if mine == 1 and theirs >= 2:
        return -1
    if mine == 2 and theirs >= 3:
        return -1
    if mine == 2 and theirs == 1:
        return 1
    if mine >= 3 and theirs == 2:
        return 1
    if mine >= 3 and theirs == 1:
        return 2
    return 0


def squares(ship: Ship, sections: tuple[int, ...]) -> int:
    """The crew squares of a party; a section at the pumps (Waterline Damage) does not fight."""
    return sum(max(0, ship.crew_left[s - 1]) for s in sections if s != ship.pumps)


def strength(ship: Ship, sections: tuple[int, ...], tables: TableSet, state: WsimGame) -> int:
    cell = tables["crew_melee_strength"].lookup(ship.quality, None, state.printed)
    if isinstance(cell, ReadPrinted):
        raise needs(cell)
    return math.ceil(squares(ship, sections) * Fraction(str(cell.value)))


def _take(ship: Ship, sections: tuple[int, ...], n: int) -> tuple[int, ...]:
    lost = list(ship.crew_lost)
    for s in sorted(sections):
        take = min(n, ship.crew[s - 1] - lost[s - 1])
        lost[s - 1] += take
        n -= take
    return tuple(lost)


def melee(step: Step[WsimGame], cmd: c.MeleeAttack, tables: TableSet) -> None:
    state = step.state
    if state.phase != "I":
        raise WrongPhase("Melee is fought in the Melee Phase (I).")
    a, d = state.ship(cmd.ship), state.ship(cmd.target)
    if cmd.player and cmd.player not in (a.player, state.referee):
        raise NotYourShip(f"{a.id} belongs to {a.player}.")
    if d.id not in (*a.fouled, *a.grappled):
        raise IllegalAction(f"{a.id} and {d.id} are neither fouled nor grappled.")
    if not a.active or d.status in ("sunk", "exploded", "captured"):
        raise IllegalAction(f"{a.id} or {d.id} is out of the fight.")
    m = state.melee(a.id, d.id)
    if m is None:
        m = _new_melee(a, d)
    elif m.rounds >= ROUNDS:
        raise IllegalAction(f"{a.id} and {d.id} have fought three rounds this turn.", "The melee carries on next turn.")
    attacker, defender = state.ship(m.attacker), state.ship(m.defender)
    defender_dbp = not any(p.kind == "OBP" and p.target == attacker.id for p in defender.parties)
    rounds = m.rounds
    while rounds < ROUNDS:
        rounds += 1
        attacker, defender = step.state.ship(m.attacker), step.state.ship(m.defender)
        sa = strength(attacker, m.attacker_sections, tables, step.state)
        sd = strength(defender, m.defender_sections, tables, step.state)
        ra = _roll(step, attacker, defender, (1 if defender_dbp else 0), sa, f"melee round {rounds}: {attacker.id}")
        rd = _roll(step, defender, attacker, (-2 if defender_dbp else 0), sd, f"melee round {rounds}: {defender.id}")
        loss_d, loss_a = _result(tables, step.state, ra, sa), _result(tables, step.state, rd, sd)
        step.emit(ev.MeleeRound(attacker.id, defender.id, rounds, sa, sd, loss_a, loss_d))
        for ship, sections, n in ((attacker, m.attacker_sections, loss_a), (defender, m.defender_sections, loss_d)):
            if n:
                ship = step.state.ship(ship.id)
                step.emit(ev.DamageMarked(ship.id, ship.hull_lost, _take(ship, sections, n), ship.rigging_lost,
                                          f"melee round {rounds}"))
        attacker, defender = step.state.ship(m.attacker), step.state.ship(m.defender)
        sa = strength(attacker, m.attacker_sections, tables, step.state)
        sd = strength(defender, m.defender_sections, tables, step.state)
        if sa >= 3 * sd or sd >= 3 * sa:
            winner, loser = (attacker, defender) if sa >= 3 * sd else (defender, attacker)
            step.emit(ev.MeleeChanged(m.attacker, m.defender, None))
            step.emit(ev.ShipChanged(evolve(loser, status="captured", captured=True),
                                     f"its boarding party is beaten {max(sa, sd)}:{min(sa, sd)}: it surrenders to {winner.id}"))
            return
    step.emit(ev.MeleeChanged(m.attacker, m.defender, evolve(m, rounds=rounds)))
    step.prompt(f"The melee between {m.attacker} and {m.defender} carries on next turn.")


def _new_melee(a: Ship, d: Ship) -> Melee:
    obp = tuple(s for p in a.parties if p.kind == "OBP" and p.target == d.id for s in p.sections)
    if not obp:
        raise IllegalAction(f"{a.id} has no offensive boarding party for {d.id}.", "Boarding parties are written in phase G.")
    back = tuple(s for p in d.parties if p.kind == "OBP" and p.target == a.id for s in p.sections)
    dbp = tuple(s for p in d.parties if p.kind == "DBP" for s in p.sections)
    sections = back or dbp
    if not sections:
        # CB phase I: the first crew section of an attacked ship becomes a DBP if it is not a party already
        taken = {s for p in d.parties for s in p.sections}
        free = [i for i, left in enumerate(d.crew_left, start=1) if left > 0 and i not in taken and i != d.pumps]
        if not free:
            raise IllegalAction(f"{d.id} has no crew section left to defend with.", "The referee rules on the capture.")
        sections = (free[0],)
    return Melee(a.id, d.id, obp, sections)


def _roll(step: Step[WsimGame], me: Ship, them: Ship, party_drm: int, tms: int, purpose: str) -> int:
    drm = party_drm + class_drm(me.ship_class, them.ship_class)
    r = step.roll("d6", purpose, drm, me.player)
    return min(6, max(1, r.total))


def _result(tables: TableSet, state: WsimGame, roll: int, tms: int) -> int:
    if tms <= 0:
        return 0
    cell = tables["melee_resolution"].lookup(roll, tms, state.printed)
    if isinstance(cell, ReadPrinted):
        raise needs(cell)
    return int(cell.value)
