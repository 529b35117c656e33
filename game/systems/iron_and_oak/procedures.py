"""Iron & Oak's order procedures as guided sequences (from a condensed player aid): each step asks for what it needs,
rolls, states the outcome and goes on to the next.

A procedure is data in the state (`Procedure`: its order, its step, the facts gathered). A step
that asks never rolls and a step that rolls never asks, so answering a question re-runs only the
asking step and no die is ever rolled twice. Where the player aid names a table it does not hold
(Drifting, Torpedo, Towing, Cross-the-T modifiers, the maneuver procedure of rule 5.1) the step
asks the players for the number from their printed material instead of inventing one.
"""

from __future__ import annotations

from collections.abc import Callable

from game.model import evolve
from game.systems.common import Step
from game.systems.iron_and_oak import events as ev
from game.systems.iron_and_oak.grid import OFF
from game.systems.iron_and_oak.model import (
    HELPER_BARRED,
    MAX_SHIELD,
    OBSTACLES,
    IOGame,
    IOShip,
    Position,
)
from game.systems.iron_and_oak.run import Pause, Run
from game.systems.iron_and_oak.subprocedures import (
    COMMON,
    dice_question,
    dice_ship,
    immobile,
    maneuver_drm,
    move_group,
)
from game.systems.iron_and_oak.whereabouts import refusal
from game.systems.tables import TableSet

# ---------------------------------------------------------------- the orders


def must_drift(run: Run) -> bool:
    s = run.ship
    fouled_mobile_enemy = any(
        o not in OBSTACLES and run.other(o).player != s.player and not immobile(run.other(o)) for o in s.fouled_with
    )
    return s.unpowered or fouled_mobile_enemy


def o_anchor(run: Run) -> None:
    if run.proc.step == "start":
        grid, box = run.step.state.grid, run.ship.box
        if grid.on and not box:
            run.say(f"{run.ship.id} is off the map: the order has no effect.")
            run.goto("end")
            return
        depth = grid.box(box).depth if grid.on else int(
            run.need("depth", "int", f"the Shoal Depth of {run.ship.id}'s Grid Box", (run.ship.player,)))
        if depth < 0:
            run.say(f"{box} is deep water (no Shoal Depth on the map): a ship anchors only where the depth is 4 or "
                    "less; the order has no effect.")
        elif depth > 4:
            run.say(f"Shoal depth {depth}: a ship anchors only where the depth is 4 or less; the order has no effect.")
        else:
            run.change(run.ship.with_marker("Anchored"), "drops anchor: no movement, no drift check")
        run.goto("end")


def o_weigh(run: Run) -> None:
    if run.ship.has("Anchored"):
        run.change(run.ship.with_marker("Anchored", False), "weighs anchor")
    else:
        run.say(f"{run.ship.id} is not anchored: nothing to weigh.")
    run.goto("end")


def o_unfoul(run: Run) -> None:
    step = run.proc.step
    if step == "start":
        s = run.ship
        if not s.fouled_with:
            run.say(f"{s.id} is not fouled: nothing to do.")
            run.goto("end")
            return
        heavy = "heavy obstruction" in s.fouled_with
        out = run.check("Unfoul", f"{s.id} unfouls", c_drm=-2 if heavy else 0)
        if out.success:
            for o in s.fouled_with:
                if o not in OBSTACLES:
                    other = run.other(o)
                    rest = tuple(x for x in other.fouled_with if x != s.id)
                    run.change(evolve(other, fouled_with=rest).with_marker("Fouled", bool(rest)), f"is no longer fouled with {s.id}")
            run.change(evolve(run.ship, fouled_with=()).with_marker("Fouled", False), "is unfouled: remove the Fouled marker")
            run.goto("end")
        elif not immobile(s):
            run.call("drift", "end")
        else:
            run.goto("end")


def o_oppose(run: Run) -> None:
    s, target = run.ship, run.other(run.proc.words[1])
    barred = [m for m in ("Anchored", "Fouled", "Grounded") if s.has(m)]
    if s.grappled_with:
        barred.append("towing or under tow")
    if any(p.ship == s.id for p in run.step.state.positions):
        barred.append("across the bow or stern of a ship")
    apart = refusal(run.step.state, s, run.proc.words, revealed=True)
    if apart:
        run.say(f"{s.id} cannot oppose {target.id}'s maneuver: {apart}.")
    elif barred:
        run.say(f"{s.id} cannot oppose a maneuver: it is {', '.join(barred)}.")
    else:
        run.change(evolve(target, opposed_by=s.id),
                   f"is opposed by {s.id}: -1 DRM on its next maneuver unless it rams, spars or crosses {s.id}'s T")
    run.goto("end")


def _move_blocked(run: Run) -> str:
    s = run.ship
    for m in ("Anchored", "Grounded"):
        if s.has(m):
            return f"{s.id} is {m}: it cannot maneuver ({'Weigh Anchor' if m == 'Anchored' else 'Refloat'} first)."
    return ""


def _begins(run: Run, if_blocked: str) -> bool:
    """The common start of a movement order: an anchored or grounded ship cannot maneuver, an
    un-powered one (or one fouled with a mobile enemy) drifts instead. True if the order goes on."""
    blocked = _move_blocked(run)
    if blocked:
        run.say(blocked)
        run.goto(if_blocked)
        return False
    if must_drift(run):
        run.say(f"{run.ship.id} is un-powered or fouled with a mobile enemy: it drifts instead of maneuvering.")
        run.call("drift", "end")
        return False
    return True


def o_maneuver(run: Run) -> None:
    """Maneuver 1 and 2 (and 0 to escape a Bow-On or Stern-On position)."""
    step, kind = run.proc.step, run.proc.words
    if step == "start":
        if not _begins(run, "end"):
            return
        out_of_reach = refusal(run.step.state, run.ship, kind, revealed=True)
        if kind[0] == "m2" and run.ship.grappled_with:
            run.say(f"{run.ship.id} is grappled: it may not be given a Maneuver 2; the order has no effect.")
            run.goto("end")
        elif out_of_reach:
            run.say(f"{run.ship.id}'s order cannot be carried out from where it is now: {out_of_reach}; it has no effect.")
            run.goto("end")
        elif kind[0] == "m0" and kind[1] != "escape":
            why = "plays a Screen Action card" if kind[1] == "screen" else "holds its position"
            run.say(f"{run.ship.id} {why}: no maneuver roll, but hazards are negotiated.")
            run.call("hazards", "end")
        else:
            run.call("maneuver", "moved")
    elif step == "moved":
        if run.fact("maneuver") == "success":
            positions = tuple(p for p in run.step.state.positions if run.ship.id not in (p.ship, p.of))
            if positions != run.step.state.positions:
                run.step.emit(ev.PositionsChanged(positions, f"{run.ship.id} escapes its Bow-On/Stern-On position"))
            if kind[0] in ("m1", "m2") and run.ship.has("Smoke"):
                # 003 lines 43 and 49: Maneuver 1 and 2 "If successful, remove Smoke"; Maneuver 0 stays in its Grid Box
                run.change(run.ship.with_marker("Smoke", False), "leaves its Smoke behind")
            if kind[0] in ("m1", "m2") and len(kind) > 1:
                move_group(run, "" if kind[1] == OFF else kind[1])
                if kind[1] == OFF:
                    run.goto("end")
                else:
                    run.call("hazards", "end")
                return
            where = {"m1": "into an adjacent Grid Box (or on or off the map)",
                     "m2": "two Grid Boxes away (one diagonal step at most, not diagonally between two enemy ships)",
                     "m0": "within its Grid Box"}[kind[0]]
            run.say(f"{run.ship.id} moves {where}: move its counter on your table.")
            run.call("hazards", "end")
        elif kind[0] == "m0":
            run.say(f"{run.ship.id} fails to escape and stays where it is; hazards are still negotiated.")
            run.call("hazards", "end")
        else:
            run.say(f"{run.ship.id} fails to maneuver and stays where it is.")
            run.goto("end")


def o_drift(run: Run) -> None:
    if run.proc.step == "start":
        if run.ship.has("Anchored"):
            run.say(f"{run.ship.id} is anchored: no drift check.")
            run.goto("end")
        else:
            run.call("drift", "end")


def o_tow(run: Run) -> None:
    step = run.proc.step
    towed = run.other(run.proc.words[1])
    if step == "start":
        s = run.ship
        if s.unpowered or immobile(s) or towed.player != s.player or immobile(towed):
            run.say(f"{s.id} cannot tow {towed.id}: the tower must be friendly, powered and not immobile, the tow friendly and not immobile.")
            run.goto("end")
            return
        apart = refusal(run.step.state, s, run.proc.words, revealed=True)
        if apart:
            run.say(f"{s.id} cannot tow {towed.id}: {apart}; the order has no effect.")
            run.goto("end")
            return
        run.remember("tow", towed.id)
        if towed.id not in s.grappled_with:
            run.change(evolve(run.ship, grappled_with=(*s.grappled_with, towed.id)).with_marker("Grappled"),
                       f"butts against {towed.id} and grapples it for towing")
            t2 = run.other(towed.id)
            run.change(evolve(t2, grappled_with=(*t2.grappled_with, s.id), towed_by=s.id).with_marker("Grappled"),
                       f"is grappled by {s.id} and under tow")
        elif towed.towed_by != s.id:
            run.change(evolve(towed, towed_by=s.id), f"is under tow by {s.id}")
        run.call("maneuver", "moved")
    elif step == "moved":
        if run.fact("maneuver") == "success":
            dest = run.proc.words[2] if len(run.proc.words) > 2 else None
            if dest is None:
                run.say(f"{run.ship.id} and {towed.id} move together into an adjacent Grid Box (or off the play area).")
            else:
                move_group(run, "" if dest == OFF else dest)
            if dest == OFF:
                run.goto("end")
            else:
                run.call("hazards", "end")
        else:
            run.say(f"{run.ship.id} fails to tow {towed.id}: both stay.")
            run.goto("end")


def _contact_ask(run: Run) -> None:
    """Cross the T / Spar / Ram step b: Quick or Slow Maneuver cards, and the towing DRM."""
    s, target = run.ship, run.other(run.proc.words[1])
    state = run.step.state
    roller, target_roller = dice_ship(state, s), dice_ship(state, target)
    if not roller.maneuver:
        run.need("card_maneuver", "dice", dice_question(s, roller), (roller.player,))
    if not _target_immobile(target) and not target_roller.maneuver:
        run.need("target_maneuver", "dice", dice_question(target, target_roller), (target_roller.player,))
    able = [x for x in (s, target) if not x.unpowered and not _target_immobile(x)]
    if able:
        run.need("cards", "cards", "the DRMs from Quick/Slow Maneuver Action cards played on the mover and the target "
                 "(e.g. `0 0`)", run.step.state.players)
    if s.grappled_with:
        run.need("towing_drm", "int", "the Towing Chart DRM for this towed or towing ship (rule 5.3)", (s.player,))
    run.goto("contact_roll")


def _target_immobile(s: IOShip) -> bool:
    return s.has("Anchored") or s.has("Grounded") or s.has("Fouled")


def _contact_roll(run: Run) -> None:
    s, target = run.ship, run.other(run.proc.words[1])
    mover_card, target_card = (int(x) for x in (run.fact("cards") or "0 0").split())
    drm, why = maneuver_drm(run, s, run.proc.order)
    drm += -1 + mover_card + int(run.fact("towing_drm") or 0)
    why.insert(0, "moving ship -1")
    roller, target_roller = dice_ship(run.step.state, s), dice_ship(run.step.state, target)
    if roller.id != s.id:
        why.insert(0, f"towed by {roller.id}: its Maneuver dice")
    dice = roller.maneuver or run.fact("card_maneuver") or "d10"
    if _target_immobile(target):
        response: str | int = "d10"
        r_drm = -5
        why.append(f"{target.id} anchored, aground or fouled: d10 -5")
    else:
        response = target_roller.maneuver or run.fact("target_maneuver") or "d10"
        r_drm = target_card
        if target_roller.id != target.id:
            why.append(f"{target.id} towed by {target_roller.id}: its Maneuver dice")
        if target.opposed_by:
            r_drm -= 1
            why.append(f"{target.id} under an Opposing Maneuver marker -1")
            run.change(evolve(target, opposed_by=""), "the Opposing Maneuver marker is removed")
    out = run.step.opposed(f"{s.id} against {target.id}: contact ({', '.join(why)})", dice, response, drm, r_drm,
                           s.player, target.player)
    if s.opposed_by:
        run.change(evolve(run.ship, opposed_by=""), "the Opposing Maneuver marker is removed")
    run.remember("contact", "success" if out.success else "fail")
    run.goto("resolve")


def o_cross(run: Run) -> None:
    step = run.proc.step
    target_id, aspect = run.proc.words[1], run.proc.words[2]
    if step == "start":
        if _begins(run, "end"):
            run.call("hazards", "contact")
    elif step == "resolve":
        s = run.ship
        if run.fact("contact") == "success":
            positions = tuple(p for p in run.step.state.positions if p.ship != s.id) + (Position(s.id, target_id, aspect),)
            run.step.emit(ev.PositionsChanged(positions, f"{s.id} crosses {target_id}'s T at the {aspect}: butt the counters together"))
            effect = ("it adds +1 to a Ram or Spar Torpedo attempt and -1 to any other maneuver" if aspect == "bow"
                      else f"it cannot Cross the T, Spar or Ram {s.id} across its stern")
            run.say(f"{target_id} fires at {s.id} with the Cross-the-T modifier from your printed table (an X: it may "
                    f"not fire at all); {effect}.")
        else:
            run.change(evolve(s, lockouts=(*s.lockouts, ("cross", target_id, run.step.state.turn + 1))),
                       f"fails to cross {target_id}'s T: it cannot try that maneuver on {target_id} next round")
        run.goto("end")


def o_attack(run: Run) -> None:
    """Maneuver 0: Spar and/or Ram attack."""
    step = run.proc.step
    kind, target_id = run.proc.words[0], run.proc.words[1]
    if step == "start":
        if _begins(run, "consequences"):
            run.call("hazards", "contact")
    elif step == "resolve":
        if run.fact("contact") != "success":
            run.say(f"{run.ship.id} makes no contact with {target_id}.")
            run.goto("consequences")
        elif kind == "spar":
            _spar_roll(run, target_id)
        else:
            _ram_ask(run, target_id)
    elif step == "spar_hits":
        _spar_hits(run, target_id)
    elif step == "ram_roll":
        _ram_roll(run, target_id)
    elif step == "sunk":
        answer = run.need("sunk", "sunk", f"did {run.ship.id} or {target_id} sink? (none, or the ship's name)",
                          run.step.state.players)
        for name in answer.split() if answer != "none" else ():
            run.change(run.other(name).with_marker("Sunk"), "sinks")
        run.goto("fouling" if answer == "none" else "consequences")
    elif step == "fouling":
        rammed = kind == "ram"
        out = run.check("Fouling after a ram" if rammed else "Fouling after a spar torpedo",
                        f"{run.ship.id} and {target_id}: fouling check")
        if not out.success:
            a, b = run.ship, run.other(target_id)
            run.change(evolve(a, fouled_with=(*a.fouled_with, b.id)).with_marker("Fouled"),
                       f"is fouled with {b.id}: butt the counters parallel; they drift together")
            b = run.other(target_id)
            run.change(evolve(b, fouled_with=(*b.fouled_with, a.id)).with_marker("Fouled"), f"is fouled with {a.id}")
        run.goto("consequences")
    elif step == "consequences":
        s = run.ship
        run.change(evolve(s, lockouts=(*s.lockouts, ("ramspar", target_id, run.step.state.turn + 1)),
                          bow_on_target=target_id),
                   f"may not Ram or Spar {target_id} next turn; it fires at {target_id} with its Bow-On Combat dice "
                   "in its next Gunnery Segment")
        run.say(f"If {target_id} has a Maneuver 0 order, it fires at {s.id} at Point Blank range in its next Gunnery Segment.")
        run.goto("end")


def _spar_roll(run: Run, target_id: str) -> None:
    out = run.check("Spar torpedo explodes", f"{run.ship.id}'s spar torpedo")
    if not out.success:
        run.say("The spar torpedo fails to explode.")
        run.remember("exploded", "no")
        run.goto("fouling")
        return
    run.remember("exploded", "yes")
    run.remember("spar_d8", str(run.step.roll("d8", "Torpedo table, Spar Torp column (hits to the target)").kept))
    run.remember("ship_d8", str(run.step.roll("d8", "Torpedo table, Ship Spar column (hits to the attacker)").kept))
    run.goto("spar_hits")


def _spar_hits(run: Run, target_id: str) -> None:
    d1, d2 = int(run.fact("spar_d8") or 1), int(run.fact("ship_d8") or 1)
    who = run.step.state.players
    h1 = run.printed("torpedo_damage", d1, "Spar Torp") or run.need(
        "spar_hits", "int", f"the hits on the Spar Torp column of your Torpedo table for d8 = {d1}", who)
    h2 = run.printed("torpedo_damage", d2, "Ship Spar") or run.need(
        "ship_hits", "int", f"the hits on the Ship Spar column of your Torpedo table for d8 = {d2}", who)
    target = run.other(target_id)
    run.change(evolve(target, hits=target.hits + int(h1), shield=MAX_SHIELD),
               f"takes {h1} hit(s) from the spar torpedo; WL Shield -4")
    s = run.ship
    run.change(evolve(s, hits=s.hits + int(h2), shield=min(MAX_SHIELD, s.shield + int(h2))).with_critical("Spar"),
               f"takes {h2} hit(s) from its own spar; WL Shield -{min(MAX_SHIELD, s.shield + int(h2))}; Spar CH marker "
               "(no hits for it)")
    run.goto("sunk")


def _ram_ask(run: Run, target_id: str) -> None:
    s, target = run.ship, run.other(target_id)
    if not s.ram:
        run.need("ram_dice", "dice", f"{s.id}'s Ram dice (from its ship card)", (s.player,))
    if not target.wl:
        run.need("wl_dice", "dice", f"{target.id}'s WL defence dice (from its ship card)", (target.player,))
    run.goto("ram_roll")


def _ram_roll(run: Run, target_id: str) -> None:
    s, target = run.ship, run.other(target_id)
    a = run.step.roll(s.ram or run.fact("ram_dice") or "d6", f"{s.id} rams: Ram dice", by=s.player).total
    d = run.step.roll(target.wl or run.fact("wl_dice") or "d6", f"{target.id}: WL defence dice", by=target.player).total
    diff = a - d
    if diff > 0:
        _ram_damage(run, target.id, diff)
    elif diff < 0:
        _ram_damage(run, s.id, -diff)
    else:
        both = max(1, a // 2)
        _ram_damage(run, target.id, both)
        _ram_damage(run, s.id, both)
    out = run.check("Ram damaged", f"{s.id}'s ram: damage check")
    if not out.success:
        run.change(run.ship.with_critical("Ram"), "its ram is damaged: Ram CH marker (no hits for it)")
    run.goto("sunk")


def _ram_damage(run: Run, name: str, hits: int) -> None:
    ship = run.other(name)
    shield = min(MAX_SHIELD, ship.shield + hits)
    run.change(evolve(ship, hits=ship.hits + hits, shield=shield), f"takes {hits} hit(s) from the ram; WL Shield -{shield}")


def o_refloat(run: Run) -> None:
    s = run.ship
    helper = next((run.other(o) for o in s.grappled_with
                   if run.other(o).player == s.player and not run.other(o).unpowered
                   and not any(c in run.other(o).criticals for c in HELPER_BARRED) and not immobile(run.other(o))), None)
    bonus = 2 if helper else 0
    note = f" (+2: {helper.id} grappled alongside)" if helper else ""
    if not s.has("Grounded"):
        run.say(f"{s.id} is not aground: nothing to refloat.")
    elif s.unpowered:
        out = run.check("Refloat, un-powered", f"{s.id} refloats (un-powered)")
        if out.success:
            run.change(run.ship.with_marker("Grounded", False), "floats free: remove the Grounded marker")
        else:
            _stays(run, out.response_triple)
    elif "Engine-Damaged" in s.criticals:
        out = run.check("Refloat, engine damaged", f"{s.id} refloats (engine damaged){note}", c_drm=bonus)
        if out.success:
            run.change(run.ship.with_marker("Grounded", False), "floats free: remove the Grounded marker")
        else:
            ship = run.ship.with_critical("Engine-Damaged", False).with_critical("Engine-Stopped")
            run.change(ship, "stays aground: the Engine-Damaged Critical Hit becomes Engine-Stopped")
            # the player aid says "If Roll is triple or more" without saying whose: read as the Response (inferred)
            _stays(run, out.response_triple, said=True)
    else:
        out = run.check("Refloat, powered", f"{s.id} refloats{note}", c_drm=bonus)
        if not out.success:
            _stays(run, False)
        else:
            run.change(run.ship.with_marker("Grounded", False), "floats free: remove the Grounded marker")
            check = run.check("Refloat, engine damage check", f"{s.id}: engine damage check")
            if not check.success:
                run.change(run.ship.with_critical("Engine-Damaged"), "Engine-Damaged Critical Hit (no hits for it)")
                if check.response_triple:
                    run.change(run.ship.with_critical("WL"), "the Response was triple or more: a WL Critical Hit [6.3] (no hits for it)")
    run.goto("end")


def _stays(run: Run, triple: bool, said: bool = False) -> None:
    if not said:
        run.say(f"{run.ship.id} remains aground.")
    if triple:
        run.change(run.ship.with_critical("WL"), "the Response was triple or more: a WL Critical Hit [6.3] (no hits for it)")


COMMON["contact"] = _contact_ask
COMMON["contact_roll"] = _contact_roll

ORDERS: dict[str, Callable[[Run], None]] = {
    "anchor": o_anchor,
    "weigh": o_weigh,
    "unfoul": o_unfoul,
    "oppose": o_oppose,
    "m0": o_maneuver,
    "m1": o_maneuver,
    "m2": o_maneuver,
    "drift": o_drift,
    "tow": o_tow,
    "cross": o_cross,
    "spar": o_attack,
    "ram": o_attack,
    "refloat": o_refloat,
}


def run_procedure(step: Step[IOGame], tables: TableSet) -> None:
    """Carry the procedure forward until it ends or waits for an answer."""
    run = Run(step, tables)
    guard = 0
    while step.state.procedure is not None:
        guard += 1
        if guard > 200:
            raise RuntimeError(f"the procedure {run.proc.order} does not end (step {run.proc.step})")
        p = run.proc
        if p.question is not None:
            return
        if p.step == "end":
            if run.ship.opposed_by:
                # 003 line 37: the -1 is for "its next Movement Segment", this one, whatever the order was
                run.change(evolve(run.ship, opposed_by=""),
                           "has ended its Movement Segment: the Opposing Maneuver marker is removed")
            ship = run.ship
            step.emit(ev.ProcedureChanged(None))
            notes = []
            if ship.bow_on_target:
                notes.append(f"Bow-On Combat dice against {ship.bow_on_target}")
            step.prompt(f"{ship.id}'s Gunnery Segment: resolve its fire with your rulebook (6.x)"
                        + (f"; {'; '.join(notes)}" if notes else "") + ". Record hits with `hits SHIP N`.")
            return
        handler = COMMON.get(p.step) or ORDERS[p.words[0]]
        try:
            handler(run)
        except Pause:
            return
