"""The Combat Phase under the CB Fire System: a broadside from MFN to FFN, Critical Number, hits
and critical roll; at the end of the phase all hits are marked, then the critical hits are applied
in random order with their sub-rolls; then ships whose hull is gone roll on the Destroyed Hull Table.
"""

from __future__ import annotations

from game.errors import IllegalAction, NotYourShip, WrongPhase
from game.model import evolve
from game.systems.common import Step, require_referee
from game.systems.tables import Cell, ReadPrinted, TableSet, load_tables
from game.systems.wsim import commands as c
from game.systems.wsim import events as ev
from game.systems.wsim.fire import Hits, calculate, max_range, needs, parse_hits
from game.systems.wsim.model import AMMO_NAMES, QUALITIES, SIDES, Fire, Ship, WsimGame

STRUCK = "struck"


def _frt(tables: TableSet, ffn: int, column: str, state: WsimGame) -> Cell | ReadPrinted:
    return tables["fire_results"].lookup(ffn, column, state.printed)


def critical_number(tables: TableSet, ffn: int, state: WsimGame) -> int:
    cell = _frt(tables, ffn, "critical", state)
    if isinstance(cell, ReadPrinted):
        raise needs(cell)
    return int(cell.value)


def hits_at(tables: TableSet, ffn: int, aim: str, state: WsimGame) -> str | None:
    cell = _frt(tables, ffn, aim, state)
    if isinstance(cell, ReadPrinted):
        return None
    return parse_hits(str(cell.value)).text() if cell.value != "" else "0"


def hits_source(tables: TableSet, ffn: int, aim: str, state: WsimGame) -> str:
    """Whose entry the hits are: the account never passes a referee's reading off as the play aid's."""
    cell = _frt(tables, ffn, aim, state)
    return cell.provenance if isinstance(cell, Cell) and cell.entered else ""


def next_number(state: WsimGame) -> int:
    return max((f.number for f in state.fires), default=0) + 1


def fire(step: Step[WsimGame], cmd: c.FireBroadside, tables: TableSet) -> None:
    state = step.state
    if state.phase != "H":
        raise WrongPhase("Broadsides are fired in the Combat Phase (H).")
    ship, target = state.ship(cmd.ship), state.ship(cmd.target)
    if cmd.player and cmd.player != ship.player:
        raise NotYourShip(f"{ship.id} belongs to {ship.player}.", "Each player fires only their own ships.")
    _check_fire(state, ship, target, cmd, tables)
    b = ship.broadside(cmd.side)
    aim = cmd.aim or ("rigging" if cmd.range >= 6 or b.load == "C" else "hull")
    if cmd.range >= 6 and aim == "hull":
        raise IllegalAction("At range 6 or more fire must be aimed at the rigging.", "Use `aim rigging` (the default there).")
    if aim == "rigging" and target.id in (*ship.fouled, *ship.grappled):
        raise IllegalAction(f"{ship.id} and {target.id} are fouled or grappled: they may not fire at each other's rigging.")
    calc = calculate(ship, cmd.side, target, cmd.range, cmd.half, cmd.rake, cmd.mod, state.wind, state.options, tables,
                     state.printed)
    number = next_number(state)
    mfn = calc.mfn
    if b.load == "G":
        cn = critical_number(tables, mfn, state)
        f = Fire(number, ship.id, cmd.side, target.id, cmd.range, "crew", "G", cmd.rake, mfn, mfn, cn, f"{cn}C")
        step.emit(ev.FireResolved(f, calc.text()))
        return
    r = step.roll("2d6", f"fire {number}: {ship.id} {cmd.side} broadside at {target.id}", by=ship.player)
    ffn = mfn + r.kept
    cn = critical_number(tables, ffn, state)
    hits = hits_at(tables, ffn, aim, state)
    d = step.roll("d6", f"fire {number}: critical hit", by=ship.player)
    crit_roll = d.kept + cn
    effect = tables["critical_hits"].lookup(crit_roll, aim, state.printed)
    if isinstance(effect, ReadPrinted):
        raise needs(effect)
    f = Fire(number, ship.id, cmd.side, target.id, cmd.range, aim, b.load, cmd.rake, mfn, ffn, cn, hits, crit_roll,
             str(effect.value), hits_source=hits_source(tables, ffn, aim, state))
    step.emit(ev.FireResolved(f, calc.text()))
    if hits is None:
        step.prompt(
            f"Referee: read the printed Fire Results Table, FFN {ffn}, {aim} column, and enter `hits {number} …` "
            "(e.g. 2H1C1R)."
        )


def _check_fire(state: WsimGame, ship: Ship, target: Ship, cmd: c.FireBroadside, tables: TableSet) -> None:
    if cmd.side not in SIDES:
        raise IllegalAction(f"{cmd.side!r} is not a broadside.", "left or right")
    if not ship.active:
        raise IllegalAction(f"{ship.id} has {ship.status}: it cannot fire.")
    if target.id == ship.id or target.player == ship.player:
        raise IllegalAction(f"{target.id} is not an enemy ship.", "A friendly ship in the field of fire blocks it.")
    if target.status in (STRUCK, "sunk", "exploded"):
        raise IllegalAction(f"{target.id} has {target.status}: no one may fire on it.")
    if all(left <= 0 for left in ship.crew_left):
        raise IllegalAction(f"{ship.id} has no crew left to work the guns.")
    away = {s for p in ship.parties for s in p.sections}
    if away and len(away) >= len(ship.crew):
        raise IllegalAction(f"All of {ship.id}'s crew sections are boarding parties: it may not fire.")
    live = {i for i, left in enumerate(ship.crew_left, start=1) if left > 0}
    if ship.pumps and live <= away | {ship.pumps}:
        raise IllegalAction(f"{ship.id}'s only crew section left to work the guns is at the pumps (Waterline Damage): "
                            "it may not fire.")
    if ship.repair:
        raise IllegalAction(f"{ship.id} is under repair: it may not fire.", "Stop the repair first (`repair SHIP stop`).")
    b = ship.broadside(cmd.side)
    if b.fired:
        raise IllegalAction(f"{ship.id}'s {cmd.side} broadside has fired this turn.")
    if not b.load:
        raise IllegalAction(f"{ship.id}'s {cmd.side} broadside is not loaded.", "Broadsides are loaded in the Load Phase (J).")
    if not 1 <= cmd.range <= 10:
        raise IllegalAction(f"Range {cmd.range} is out of reach.", "Guns fire at ranges 1 to 10.")
    limit = max_range(b.load, tables, state.printed)
    if limit is not None and cmd.range > limit:
        raise IllegalAction(f"{AMMO_NAMES[b.load].capitalize()} reaches {limit} hex(es); the range is {cmd.range}.")


def enter_hits(step: Step[WsimGame], cmd: c.EnterHits) -> None:
    state = step.state
    require_referee(state, cmd.player)
    f = state.fire(cmd.number)
    if f is None:
        known = ", ".join(str(x.number) for x in state.fires) or "none"
        raise IllegalAction(f"There is no fire {cmd.number} this phase.", f"Fires: {known}.")
    if f.blast and f.hits is not None:
        raise IllegalAction(f"The blast {cmd.number} has been marked already.", "Correct a log with `mark`.")
    hits = parse_hits(cmd.hits).text()
    step.emit(ev.HitsEntered(cmd.number, hits))
    if f.blast:
        mark(step, step.state.ship(f.target), parse_hits(hits), f"blast of {f.ship}")
        settle_hulls(step)


def mark_command(step: Step[WsimGame], cmd: c.Mark) -> None:
    require_referee(step.state, cmd.player)
    mark(step, step.state.ship(cmd.ship), parse_hits(cmd.hits), "the referee's correction")
    settle_hulls(step)


def _take(sizes: tuple[int, ...], lost: tuple[int, ...], n: int) -> tuple[int, ...]:
    """n squares off the sections in order: the first section until it is gone, then the next."""
    out = list(lost)
    for i, size in enumerate(sizes):
        take = min(n, size - out[i])
        out[i] += take
        n -= take
    return tuple(out)


def mark(step: Step[WsimGame], ship: Ship, hits: Hits, reason: str) -> None:
    before = ship.rigging_sections_lost
    hull_lost = min(ship.hull, ship.hull_lost + hits.hull)
    crew_lost = _take(ship.crew, ship.crew_lost, hits.crew)
    rigging_lost = _take(ship.rigging, ship.rigging_lost, hits.rigging)
    if (hull_lost, crew_lost, rigging_lost) == (ship.hull_lost, ship.crew_lost, ship.rigging_lost):
        return
    step.emit(ev.DamageMarked(ship.id, hull_lost, crew_lost, rigging_lost, reason))
    _after_rigging_loss(step, ship.id, before)


def lose_rigging_section(step: Step[WsimGame], ship_id: str, reason: str) -> None:
    ship = step.state.ship(ship_id)
    for size, lost in zip(ship.rigging, ship.rigging_lost, strict=True):
        if lost < size:
            mark(step, ship, Hits(rigging=size - lost), reason)
            return


def _after_rigging_loss(step: Step[WsimGame], ship_id: str, before: int) -> None:
    ship = step.state.ship(ship_id)
    gone = ship.rigging_sections_lost - before
    if gone and step.state.options.rigging_loss:
        for _ in range(gone):
            d = step.roll("d6", f"{ship_id}: fallen mast (optional rule VIII)")
            if d.kept == 1:
                side = "left" if step.roll("d6", f"{ship_id}: which side the mast hangs over").kept % 2 else "right"
                step.emit(ev.ShipChanged(evolve(step.state.ship(ship_id), mast_over=side), f"a mast hangs over the {side} side"))
            else:
                step.prompt(f"{ship_id}'s mast falls free.")
    if gone and step.state.ship(ship_id).dismasted:
        step.prompt(f"{ship_id} is dismasted: it cannot move (surrender by immobility may apply).")


def end_of_combat(step: Step[WsimGame], tables: TableSet) -> None:
    """Count down the Combat Phases of obscured broadsides and fires on board, mark every fire's hits,
    then apply the critical hits in random order, then destroyed hulls."""
    waiting = [f.number for f in step.state.fires if f.hits is None]
    if waiting:
        raise IllegalAction(
            f"Fire {', '.join(map(str, waiting))} still wait(s) for hits from the printed table.",
            "The referee enters them with `hits N 2H1C1R`.",
        )
    count_down(step)
    for f in step.state.fires:
        if f.blast:
            continue
        target = step.state.ship(f.target)
        hits = parse_hits(f.hits or "0")
        notes = []
        if f.ammo == "C" and hits.hull:
            hits = Hits(0, hits.crew, hits.rigging)
            notes.append("chain shot: hull hits do not count")
        if target.sails == "full" and hits.rigging:
            hits = Hits(hits.hull, hits.crew, 2 * hits.rigging)
            notes.append("full sails: rigging hits doubled")
        if target.parties:
            hits = Hits(hits.hull, hits.crew + 1, hits.rigging)
            notes.append("boarding party: one more crew square")
        reason = f"fire {f.number}" + (f" ({'; '.join(notes)})" if notes else "")
        mark(step, target, hits, reason)
    pending = [f for f in step.state.fires if f.critical and f.critical != "no effect" and not f.blast]
    while pending:
        i = 0
        if len(pending) > 1:
            i = step.roll(f"d{len(pending)}", "order of the critical hits").kept - 1
        apply_critical(step, pending.pop(i), tables)
    settle_hulls(step)


def count_down(step: Step[WsimGame]) -> None:
    """A Combat Phase has passed: one turn fewer of every obscured broadside and fire on board.

    Both are counted in Combat Phases, the only phase they change, and only after the one that caused
    them: a Broadside Obscured applied at the end of turn 5's Combat Phase gives -2 in turns 6, 7 and 8
    ("Apply modifier for the next 3 turns"), a fire of 1 turn costs the MFN in turn 6 ("the number of
    turns needed to put out the fire. MFN reduced by twice this number for duration of fire")."""
    for ship in step.state.ships:
        broadsides = tuple(evolve(b, obscured=max(0, b.obscured - 1)) for b in ship.broadsides)
        burning = ship.fire_turns > 0
        new = evolve(
            ship,
            broadsides=broadsides,
            fire_turns=max(0, ship.fire_turns - 1),
            fire_penalty=ship.fire_penalty if ship.fire_turns > 1 else 0,
        )
        if new == ship:
            continue
        what = [f"the {b.side} broadside is no longer obscured" for b, old in zip(broadsides, ship.broadsides, strict=True)
                if old.obscured == 1]
        if burning and new.fire_turns == 0:
            what.append("the fire is out")
        step.emit(ev.ShipChanged(new, "; ".join(what)))


def settle_hulls(step: Step[WsimGame]) -> None:
    tables_ = _tables()
    for ship in step.state.ships:
        if ship.active and ship.hull_left <= 0:
            d = step.roll("d6", f"{ship.id}: destroyed hull")
            result = str(_cell(tables_["destroyed_hull"].lookup(d.kept)).value)
            doom = "may sink" if "sink" in result else ("may explode" if "explode" in result else "")
            if doom == "may explode" and not step.state.options.exploding:
                doom = ""
            step.emit(ev.ShipChanged(evolve(ship, status=STRUCK, doom=doom), result))


def _tables() -> TableSet:
    return load_tables("wsim")


def _cell(x: Cell | ReadPrinted) -> Cell:
    if isinstance(x, ReadPrinted):
        raise needs(x)
    return x


def explode(step: Step[WsimGame], ship_id: str, why: str) -> None:
    ship = step.state.ship(ship_id)
    step.emit(ev.ShipChanged(evolve(ship, status="exploded"), why))
    if step.state.options.exploding:
        step.prompt(f"Referee: name the ships adjacent to {ship_id} with `blast {ship_id} SHIP…` (optional rule X).")


def apply_critical(step: Step[WsimGame], f: Fire, tables: TableSet) -> None:
    state = step.state
    target = state.ship(f.target)
    effect, rng = f.critical, f.range

    def say(outcome: str) -> None:
        step.emit(ev.CriticalApplied(target.id, effect, outcome))

    if not target.active and effect not in ("Anchor Cable",):
        say(f"no effect: {target.id} has {target.status}")
        return
    if effect in ("Rake Bonus", "Anchor & Rake Bonus"):
        if effect == "Anchor & Rake Bonus":
            _anchor_cable(step, target)
        if not f.rake:
            say("no effect: the fire was not a rake")
            return
        close_only = (f.aim == "hull" and f.critical_roll == 2) or (f.aim == "rigging" and f.critical_roll == 1)
        if close_only and rng > 3:
            say(f"no effect: the range is {rng}, more than 3")
            return
        if f.aim == "hull":
            hits = parse_hits(f.hits or "0")
            say("rake doubles all hull and crew hits")
            mark(step, target, Hits(hits.hull, hits.crew, 0), f"rake bonus of fire {f.number}")
        else:
            say("rake: one rigging section is lost")
            lose_rigging_section(step, target.id, f"rake bonus of fire {f.number}")
    elif effect == "Anchor Cable":
        _anchor_cable(step, target)
    elif effect == "Leader Casualty":
        mod = int(_cell(tables["leader_casualty_range"].lookup(rng, None, state.printed)).value)
        if not target.leaders:
            say("no captain or admiral on board")
        for leader in target.leaders:
            r = step.roll("2d6", f"leader casualty: {leader}", mod)
            if r.total >= 12:
                ship = step.state.ship(target.id)
                step.emit(ev.ShipChanged(evolve(ship, leaders=tuple(x for x in ship.leaders if x != leader)),
                                         f"{leader} is killed"))
            else:
                say(f"{leader} survives")
    elif effect == "Broadside Obscured":
        side = "left" if step.roll("d6", f"{target.id}: which broadside is obscured").kept % 2 else "right"
        ship = step.state.ship(target.id)
        step.emit(ev.ShipChanged(ship.with_broadside(evolve(ship.broadside(side), obscured=3)),
                                 f"{side} broadside obscured for the next 3 turns (-2)"))
        mark(step, step.state.ship(target.id), Hits(rigging=2), "fallen rigging")
    elif effect == "Crew Demoralized":
        strength = _strength(tables, target, state)
        r = step.roll("d6", f"{target.id}: crew demoralized")
        total = r.kept + strength - target.crew_sections_lost
        if total <= 6 and target.quality != QUALITIES[-1]:
            worse = QUALITIES[QUALITIES.index(target.quality) + 1]
            step.emit(ev.ShipChanged(evolve(step.state.ship(target.id), quality=worse),
                                     f"crew drops to {worse} ({r.kept} + {strength:g} - {target.crew_sections_lost} = {total:g})"))
        else:
            say(f"the crew holds ({r.kept} + {strength:g} - {target.crew_sections_lost} = {total:g})")
    elif effect == "Fire Breaks Out":
        fire_breaks_out(step, target.id)
    elif effect == "Magazine may Explode":
        r = step.roll("d6", f"{target.id}: magazine", rng)
        if r.total <= 4:
            explode(step, target.id, f"the magazine explodes ({r.kept} + range {rng} = {r.total})")
        else:
            say(f"the magazine holds ({r.kept} + range {rng} = {r.total})")
    elif effect == "Mast May Fall":
        r = step.roll("2d6", f"{target.id}: mast may fall", rng)
        if r.total <= 13:
            say(f"a mast falls ({r.kept} + range {rng} = {r.total})")
            lose_rigging_section(step, target.id, "a fallen mast")
        else:
            say(f"the mast stands ({r.kept} + range {rng} = {r.total})")
    elif effect == "Steering Damage":
        r = step.roll("d6", f"{target.id}: steering")
        if r.kept % 2:
            ship = step.state.ship(target.id)
            step.emit(ev.ShipChanged(evolve(ship, turning_lost=ship.turning_lost + 1), "turning ability permanently -1"))
        else:
            say("the steering holds")
    elif effect == "Waterline Damage":
        step.emit(ev.ShipChanged(evolve(step.state.ship(target.id), waterline=True),
                                 "one crew section is permanently at the pumps"))
    else:
        say("no effect")


def fire_breaks_out(step: Step[WsimGame], ship_id: str) -> None:
    r = step.roll("d6", f"{ship_id}: fire breaks out")
    if r.kept == 6:
        explode(step, ship_id, "the fire is out of control and the ship explodes")
        return
    ship = step.state.ship(ship_id)
    step.emit(ev.ShipChanged(
        evolve(ship, fire_turns=ship.fire_turns + r.kept, fire_penalty=ship.fire_penalty + 2 * r.kept),
        f"fire on board for the next {r.kept} turn(s): MFN -{2 * r.kept}",
    ))


def _anchor_cable(step: Step[WsimGame], target: Ship) -> None:
    ship = step.state.ship(target.id)
    what = "the anchor cable is severed: the ship may not anchor again"
    if ship.anchored:
        what = "the anchor cable is severed: the anchor is cut and the ship may not anchor again"
    step.emit(ev.ShipChanged(evolve(ship, anchored="", weighing=0, anchor_lost=True), what))


def _strength(tables: TableSet, ship: Ship, state: WsimGame) -> float:
    return float(str(_cell(tables["crew_melee_strength"].lookup(ship.quality, None, state.printed)).value))


def blast(step: Step[WsimGame], cmd: c.Blast, tables: TableSet) -> None:
    state = step.state
    require_referee(state, cmd.player)
    ship = state.ship(cmd.ship)
    if ship.status != "exploded":
        raise IllegalAction(f"{ship.id} has not exploded.")
    if not state.options.exploding:
        raise IllegalAction("Optional rule X (exploding ships) is not in play.")
    base = int(_cell(tables["fire_base"].lookup(ship.guns, 1, state.printed)).value)
    for name in cmd.targets:
        target = state.ship(name)
        if name == ship.id:
            raise IllegalAction("The exploding ship is not adjacent to itself.")
        number = next_number(step.state)
        mfn = 2 * base
        r = step.roll("2d6", f"blast {number}: {ship.id} on {name}")
        ffn = mfn + r.kept
        hits = hits_at(tables, ffn, "rigging", step.state)
        f = Fire(number, ship.id, "", name, 1, "rigging", "", "", mfn, ffn,
                 critical_number(tables, ffn, step.state), hits, 0, "Fire Breaks Out", blast=True,
                 hits_source=hits_source(tables, ffn, "rigging", step.state))
        step.emit(ev.FireResolved(f, f"blast: twice the Fire Base of {ship.guns} guns at range 1, no modifiers"))
        if hits is None:
            step.prompt(f"Referee: read the printed Fire Results Table, FFN {ffn}, rigging column, and enter `hits {number} …`.")
        else:
            mark(step, target, parse_hits(hits), f"blast of {ship.id}")
        if step.state.ship(name).active:
            fire_breaks_out(step, name)
    settle_hulls(step)
