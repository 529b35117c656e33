"""The sub-procedures Iron & Oak's orders share (procedures.py): maneuvering, hazards and drift, each a
step that asks or a step that rolls, never both."""

from __future__ import annotations

from collections.abc import Callable

from game.model import evolve
from game.systems.iron_and_oak import events as ev
from game.systems.iron_and_oak.model import (
    MAX_SHIELD,
    OBSTACLES,
    IOGame,
    IOShip,
)
from game.systems.iron_and_oak.notation import ORDER_NAMES
from game.systems.iron_and_oak.run import Run

# ---------------------------------------------------------------- shared sub-procedures


def _group(state: IOGame, ship_id: str) -> tuple[str, ...]:
    """The ships fouled or grappled together with this one, itself first."""
    seen = [ship_id]
    i = 0
    while i < len(seen):
        s = state.ship(seen[i])
        for o in (*s.fouled_with, *s.grappled_with):
            if o not in OBSTACLES and o not in seen:
                seen.append(o)
        i += 1
    return tuple(seen)


def immobile(s: IOShip) -> bool:
    return s.has("Anchored") or s.has("Grounded") or s.has("Sunk")


def tower(state: IOGame, ship: IOShip) -> IOShip | None:
    """The ship towing this one, while the two stay grappled (the tow ends with the grapple)."""
    if ship.towed_by and ship.towed_by in ship.grappled_with:
        return state.ship(ship.towed_by)
    return None


def towing(state: IOGame, ship: IOShip) -> IOShip | None:
    """The ship this one tows, while the two stay grappled."""
    return next((s for s in state.ships if s.towed_by == ship.id and ship.id in s.grappled_with
                 and s.id in ship.grappled_with), None)


def dice_ship(state: IOGame, ship: IOShip) -> IOShip:
    """003 lines 79 and 106: "A Towed or Towing ship uses the Towing ship's Maneuver dice"."""
    return tower(state, ship) or ship


def dice_question(ship: IOShip, roller: IOShip) -> str:
    towed = f" ({ship.id} is towed by it and uses its Maneuver dice)" if roller.id != ship.id else ""
    return f"{roller.id}'s Maneuver dice (from its ship card){towed}"


def maneuver_drm(run: Run, ship: IOShip, special: str = "") -> tuple[int, list[str]]:
    """DRMs the state knows for a ship's maneuver roll: an Opposing Maneuver marker, a Bow-On position."""
    drm, why = 0, []
    words = special.split()
    exempt = words[:1] in (["ram"], ["spar"], ["cross"]) and words[1:2] == [ship.opposed_by]
    if ship.opposed_by and not exempt:
        drm -= 1
        why.append(f"opposed by {ship.opposed_by} -1")
    across_bow = [p.ship for p in run.step.state.positions if p.of == ship.id and p.aspect == "bow"]
    if across_bow:
        if words[:1] in (["ram"], ["spar"]):
            drm += 1
            why.append(f"{across_bow[0]} across the bow: Ram/Spar +1")
        else:
            drm -= 1
            why.append(f"{across_bow[0]} across the bow -1")
    return drm, why


def s_maneuver_ask(run: Run) -> None:
    """Ask for the ship's Maneuver dice and rule 5.1's Response and DRMs."""
    ship = run.ship
    roller = dice_ship(run.step.state, ship)
    if not roller.maneuver:
        run.need("card_maneuver", "dice", dice_question(ship, roller), (roller.player,))
    run.need("response", "response", f"the Response to {ship.id}'s maneuver and its other DRMs from rule 5.1 "
             "(current, Action cards), e.g. `d10 drm -1`", run.opponents())
    state = run.step.state
    tow_master = tower(state, ship)
    towed, master = (_towed(run) or towing(state, ship), ship) if tow_master is None else (ship, tow_master)
    if towed is not None:
        diff = _hits_diff(master, towed)
        run.need("towing_drm", "int", f"the Towing Chart DRM for a Hits difference of {diff} (rule 5.3)", (ship.player,))
    run.goto("maneuver_roll")


def s_maneuver_roll(run: Run) -> None:
    ship = run.ship
    roller = dice_ship(run.step.state, ship)
    dice = roller.maneuver or (run.fact("card_maneuver") or "d10")
    base, r_drm = (run.fact("response") or "d10 0").split()
    drm, why = maneuver_drm(run, ship, run.proc.order)
    if roller.id != ship.id:
        why.insert(0, f"towed by {roller.id}: its Maneuver dice")
    drm += int(run.fact("towing_drm") or 0)
    response: str | int = int(base) if base.lstrip("+-").isdigit() else base
    label = f"{ship.id}: {ORDER_NAMES.get(run.proc.words[0], run.proc.words[0])}" + (f" ({', '.join(why)})" if why else "")
    out = run.step.opposed(label, dice, response, drm, int(r_drm), ship.player)
    run.remember("maneuver", "success" if out.success else "fail")
    if ship.opposed_by:
        run.change(evolve(run.ship, opposed_by=""), "the Opposing Maneuver marker is removed")
    run.back("maneuver")


def _towed(run: Run) -> IOShip | None:
    name = run.fact("tow")
    return run.other(name) if name else None


def _hits_diff(tower: IOShip, towed: IOShip) -> str:
    if tower.hits_value < 0 or towed.hits_value < 0:
        return "(tower's original Hits − towed ship's original Hits: enter them with `card SHIP hits=N`)"
    return str(tower.hits_value - towed.hits_value)


def move_group(run: Run, dest: str) -> None:
    """The ship and every ship fouled or grappled with it go to `dest` ("": off the map) together."""
    for name in _group(run.step.state, run.ship.id):
        s = run.other(name)
        run.change(evolve(s, box=dest), f"enters {dest}" if dest else "leaves the map")


def _hazards_from_map(run: Run) -> None:
    """The hazards of the ship's Grid Box, read from the map (003 lines 199-205); only their order, when
    there is more than one kind, is the opponent's to choose (line 209)."""
    ship = run.ship
    if not ship.box:
        run.remember("hazards", "none")
        return
    box = run.step.state.grid.box(ship.box)
    group = [run.other(n) for n in _group(run.step.state, ship.id)]
    if box.depth >= 0:
        for s in group:
            if s.draft < 0:
                run.need(f"draft:{s.id}", "int", f"{s.id}'s current Draft (from its ship card)", (s.player,))
    kinds = box.hazards(max(_draft(run, s) for s in group))
    if len(kinds) > 1:
        chosen = run.need("hazard_order", "order", f"the order in which {ship.id} meets the hazards of {box.id} "
                          f"({', '.join(kinds)}), e.g. `{' '.join(kinds)}`", run.opponents(), kinds)
        kinds = tuple(chosen.split())
    run.remember("hazards", " ".join(t for k in kinds for t in box.tokens(k)) or "none")


def s_hazards_ask(run: Run) -> None:
    if run.step.state.grid.on:
        _hazards_from_map(run)
        run.goto("hazards_roll")
        return
    run.need("hazards", "hazards", f"the hazards in {run.ship.id}'s Grid Box, in the order you choose to resolve "
             "them (shoal N, hulk, obstruction, heavy, mine), or none", run.opponents())
    shoals = [h for h in (run.fact("hazards") or "").split() if h.startswith("shoal:")]
    if shoals:
        for name in _group(run.step.state, run.ship.id):
            s = run.other(name)
            if s.draft < 0:
                run.need(f"draft:{name}", "int", f"{name}'s current Draft (from its ship card)", (s.player,))
    run.goto("hazards_roll")


def _draft(run: Run, s: IOShip) -> int:
    return s.draft if s.draft >= 0 else int(run.fact(f"draft:{s.id}") or 0)


def s_hazards_roll(run: Run) -> None:
    items = (run.fact("hazards") or "none").split()
    if items == ["none"]:
        run.back("hazards")
        return
    group = _group(run.step.state, run.ship.id)
    obstacles = [h for h in items if h in ("hulk", "obstruction", "heavy")]
    done_obstacles = False
    mine_failures = 0
    for h in items:
        if h in ("hulk", "obstruction", "heavy"):
            if done_obstacles:
                continue
            done_obstacles = True
        for name in group:
            s = run.other(name)
            if s.has("Sunk"):
                continue
            passed = _one_hazard(run, s, h, obstacles)
            if passed is None:
                continue
            if not passed and h == "mine":
                mine_failures += 1
                run.remember(f"mine:{mine_failures}", s.id)
            if not passed:
                break  # the others check a hazard only after the moving ship negotiates it safely
    run.remember("mines_failed", str(mine_failures))
    run.goto("hazards_mines")


def _one_hazard(run: Run, s: IOShip, h: str, obstacles: list[str]) -> bool | None:
    if h.startswith("shoal:"):
        depth = int(h.split(":")[1])
        over = _draft(run, s) - depth
        if over <= 0:
            run.say(f"{s.id} draws {_draft(run, s)}: the shoal of depth {depth} is no danger.")
            return None
        name = "Shoal, draft 1 over" if over == 1 else ("Shoal, draft 2 over" if over == 2 else "Shoal, draft 3 or more over")
        out = run.check(name, f"{s.id} and the shoal (depth {depth})", ship=s)
        if not out.success:
            run.change(run.other(s.id).with_marker("Grounded"), "runs aground: Grounded, its movement ends")
        return out.success
    if h in ("hulk", "obstruction", "heavy"):
        drm = (-2 if "heavy" in obstacles else 0) - max(0, obstacles.count("hulk") - 1)
        out = run.check("Hulks and obstructions", f"{s.id} and the {'heavy obstruction' if 'heavy' in obstacles else 'hulks and obstructions'}",
                        c_drm=drm, ship=s)
        if not out.success:
            what = "heavy obstruction" if "heavy" in obstacles else ("hulk" if "hulk" in obstacles else "obstruction")
            ship = run.other(s.id)
            run.change(evolve(ship.with_marker("Fouled"), fouled_with=(*ship.fouled_with, what)),
                       f"fouls the {what}: its movement ends")
        return out.success
    out = run.check("Torpedo-mine", f"{s.id} and a torpedo-mine", ship=s)
    return out.success


def s_hazards_mines(run: Run) -> None:
    n = int(run.fact("mines_failed") or 0)
    for i in range(1, n + 1):
        name = run.fact(f"mine:{i}") or run.ship.id
        roll_key = f"mine_roll:{i}"
        if run.fact(roll_key) is None:
            run.goto("hazards_mine_roll")
            return
        hits = run.printed("torpedo_damage", int(run.fact(roll_key) or 1), "Mine")
        if hits is None:
            hits = run.need(f"mine_hits:{i}", "int", f"the hits on the Mine column of your Torpedo Damage Table for d8 = "
                            f"{run.fact(roll_key)}", (run.other(name).player, *run.opponents(run.other(name))))
        ship = run.other(name)
        if run.fact(f"mine_done:{i}") is None:
            run.change(evolve(ship, hits=ship.hits + int(hits), shield=MAX_SHIELD),
                       f"a mine explodes: {hits} hit(s), WL Shield -4, its movement ends; remove the mine marker")
            box = run.step.state.grid.box(ship.box) if ship.box else None
            if box is not None and box.mines:
                # 003 line 251: "End its movement, and remove the Mine marker."
                run.step.emit(ev.BoxChanged(evolve(box, mines=box.mines - 1), "a Torpedo-Mine marker is removed"))
            run.remember(f"mine_done:{i}", "yes")
    run.back("hazards")


def s_hazards_mine_roll(run: Run) -> None:
    n = int(run.fact("mines_failed") or 0)
    for i in range(1, n + 1):
        if run.fact(f"mine_roll:{i}") is None:
            r = run.step.roll("d8", f"{run.fact(f'mine:{i}')}: Torpedo Damage Table, Mine column")
            run.remember(f"mine_roll:{i}", str(r.kept))
    run.goto("hazards_mines")


def s_drift_roll(run: Run) -> None:
    group = _group(run.step.state, run.ship.id)
    if any(g in run.step.state.drift_checked for g in group):
        run.say(f"{run.ship.id}'s group has checked for drift this turn already.")
        run.back("drift")
        return
    run.step.emit(ev.DriftChecked((*run.step.state.drift_checked, *group)))
    r = run.step.roll("d10", f"{run.ship.id}: Drifting Table", by=run.ship.player)
    run.remember("drift_roll", str(r.kept))
    run.goto("drift_read")


def s_drift_read(run: Run) -> None:
    roll = int(run.fact("drift_roll") or 1)
    result = run.printed("drifting", roll) or run.need(
        "drift_result", "text", f"the result on your Drifting Table for d10 = {roll}", (run.ship.player,))
    group = _group(run.step.state, run.ship.id)
    together = f" ({', '.join(group)} drift together)" if len(group) > 1 else ""
    if run.step.state.grid.on and run.ship.box:
        run.need("drift_to", "box", f"where {' and '.join(group)} drift to from {run.ship.box} on the Drifting "
                 f"Table's result ({result}): a Grid Box, stay, off (it leaves the map) or aground (on a marked bank)",
                 (run.ship.player,))
        run.goto("drift_move")
        return
    run.say(f"Drift{together}: {result}. A ship drifting off the board exits or runs aground on a marked bank "
            "(`marker SHIP +Grounded`).")
    run.call("hazards", "drift_done")


def s_drift_move(run: Run) -> None:
    """003 line 55: the group drifts together; off the board it exits, or runs aground on a marked bank
    "in the same Grid Box"; hazards only in a new Grid Box (line 201)."""
    to = run.fact("drift_to") or "stay"
    if to in ("stay", run.ship.box):
        run.say(f"{run.ship.id} drifts but stays in {run.ship.box}.")
        run.back("drift")
    elif to == "aground":
        for name in _group(run.step.state, run.ship.id):
            run.change(run.other(name).with_marker("Grounded"), f"drifts aground on the bank in {run.ship.box}: Grounded")
        run.back("drift")
    elif to == "off":
        move_group(run, "")
        run.back("drift")
    else:
        move_group(run, to)
        run.call("hazards", "drift_done")


def s_drift_done(run: Run) -> None:
    run.back("drift")


COMMON: dict[str, Callable[[Run], None]] = {
    "maneuver": s_maneuver_ask,
    "maneuver_roll": s_maneuver_roll,
    "hazards": s_hazards_ask,
    "hazards_roll": s_hazards_roll,
    "hazards_mines": s_hazards_mines,
    "hazards_mine_roll": s_hazards_mine_roll,
    "drift": s_drift_roll,
    "drift_read": s_drift_read,
    "drift_move": s_drift_move,
    "drift_done": s_drift_done,
}
