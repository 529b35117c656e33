"""Iron & Oak's order procedures as guided sequences (from a condensed player aid): each step asks for what it needs,
rolls, states the outcome and goes on to the next.

A procedure is data in the state (`Procedure`: its order, its step, the facts gathered). A step
that asks never rolls and a step that rolls never asks, so answering a question re-runs only the
asking step and no die is ever rolled twice. Where the player aid names a table it does not hold
(Drifting, Torpedo, Towing, Cross-the-T modifiers, the maneuver procedure of rule 5.1) the step
asks the players for the number from their printed material instead of inventing one.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from game.errors import IllegalAction
from game.model import evolve
from game.systems.common import Step
from game.systems.dice import Opposed, parse_spec
from game.systems.iron_and_oak import events as ev
from game.systems.iron_and_oak.model import (
    HELPER_BARRED,
    MAX_SHIELD,
    OBSTACLES,
    IOGame,
    IOShip,
    Position,
    Procedure,
    Question,
)
from game.systems.iron_and_oak.notation import ORDER_NAMES
from game.systems.tables import Cell, TableSet


class Pause(Exception):  # noqa: N818 - control flow: the procedure waits for an answer
    pass


class Run:
    """One pass over the procedure under way."""

    def __init__(self, step: Step[IOGame], tables: TableSet) -> None:
        self.step = step
        self.tables = tables

    # -- state --------------------------------------------------------------------

    @property
    def proc(self) -> Procedure:
        p = self.step.state.procedure
        assert p is not None
        return p

    @property
    def ship(self) -> IOShip:
        return self.step.state.ship(self.proc.ship)

    def other(self, name: str) -> IOShip:
        return self.step.state.ship(name)

    def opponents(self, ship: IOShip | None = None) -> tuple[str, ...]:
        owner = (ship or self.ship).player
        return tuple(p for p in self.step.state.players if p != owner)

    def fact(self, key: str) -> str | None:
        return self.proc.fact(key)

    def remember(self, key: str, value: str) -> None:
        facts = tuple((k, v) for k, v in self.proc.facts if k != key) + ((key, value),)
        self.step.emit(ev.ProcedureChanged(evolve(self.proc, facts=facts)))

    def need(self, key: str, kind: str, ask: str, who: tuple[str, ...]) -> str:
        value = self.fact(key)
        if value is not None:
            return value
        self.step.emit(ev.ProcedureChanged(evolve(self.proc, question=Question(key, kind, ask, who))))
        raise Pause

    def goto(self, name: str) -> None:
        self.step.emit(ev.ProcedureChanged(evolve(self.proc, step=name)))

    def call(self, sub: str, then: str) -> None:
        self.remember(f"return:{sub}", then)
        self.goto(sub)

    def back(self, sub: str) -> None:
        self.goto(self.fact(f"return:{sub}") or "end")

    def say(self, text: str) -> None:
        self.step.prompt(text)

    def change(self, ship: IOShip, what: str) -> None:
        self.step.emit(ev.ShipChanged(ship, what))

    # -- rolls --------------------------------------------------------------------

    def check(self, name: str, purpose: str, c_drm: int = 0, r_drm: int = 0, ship: IOShip | None = None) -> Opposed:
        t = self.tables["opposed_checks"]
        challenge = str(t.lookup(name, "challenge").value)  # type: ignore[union-attr]
        response = str(t.lookup(name, "response").value)  # type: ignore[union-attr]
        s = ship or self.ship
        opp = self.opponents(s)
        return self.step.opposed(purpose, challenge, response, c_drm, r_drm, s.player, opp[0] if opp else "")

    def printed(self, table: str, row: int, column: str | None = None) -> str | None:
        cell = self.tables[table].lookup(row, column, self.step.state.printed)
        return str(cell.value) if isinstance(cell, Cell) else None


# ---------------------------------------------------------------- answers


def normalise(q: Question, text: str, state: IOGame) -> str:
    """The answer in canonical form, or IllegalAction saying what the question takes."""
    t = text.strip()
    words = shlex.split(t)
    low = t.lower()
    if q.kind == "int":
        try:
            return str(int(t))
        except ValueError:
            raise IllegalAction(f"{q.ask} takes a whole number, got {t!r}.") from None
    if q.kind == "yesno":
        if low in ("yes", "y", "no", "n"):
            return "yes" if low.startswith("y") else "no"
        raise IllegalAction(f"{q.ask} takes yes or no.")
    if q.kind == "dice":
        return parse_spec(t).text
    if q.kind == "response":
        if len(words) not in (1, 3) or (len(words) == 3 and words[1].lower() != "drm"):
            raise IllegalAction("The response is written `DICE [drm N]` (or a fixed number instead of dice).")
        base = words[0]
        base = str(int(base)) if base.lstrip("+-").isdigit() else parse_spec(base).text
        drm = int(words[2]) if len(words) == 3 else 0
        return f"{base} {drm}"
    if q.kind == "cards":
        try:
            a, b = (int(w) for w in words)
        except ValueError:
            raise IllegalAction("Write the two DRMs from played Quick/Slow Maneuver cards: mover then target (e.g. `0 -1`).") from None
        return f"{a} {b}"
    if q.kind == "hazards":
        return _hazards(words)
    if q.kind == "sunk":
        if low == "none":
            return "none"
        ids = {s.id.lower(): s.id for s in state.ships}
        names = [ids.get(w.lower()) for w in words]
        if not names or None in names:
            raise IllegalAction("Answer `none`, or the name(s) of the ship(s) that sank.")
        return " ".join(n for n in names if n)
    if not t:
        raise IllegalAction("The answer is empty.")
    return t


def _hazards(words: list[str]) -> str:
    """`none`, or the hazards in the order the opponent chooses: shoal N, hulk, obstruction, heavy, mine."""
    if [w.lower() for w in words] == ["none"]:
        return "none"
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i].lower()
        if w == "shoal":
            if i + 1 >= len(words) or not words[i + 1].isdigit():
                raise IllegalAction("`shoal` is followed by the Shoal Depth, e.g. `shoal 2`.")
            out.append(f"shoal:{int(words[i + 1])}")
            i += 2
            continue
        if w not in ("hulk", "obstruction", "heavy", "mine"):
            raise IllegalAction(f"{words[i]!r} is not a hazard.", "Hazards: shoal N, hulk, obstruction, heavy (obstruction), mine; or none.")
        out.append(w)
        i += 1
    if not out:
        raise IllegalAction("Name the hazards, or answer none.")
    return " ".join(out)


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


def _immobile(s: IOShip) -> bool:
    return s.has("Anchored") or s.has("Grounded") or s.has("Sunk")


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
    if not ship.maneuver:
        run.need("card_maneuver", "dice", f"{ship.id}'s Maneuver dice (from its ship card)", (ship.player,))
    run.need("response", "response", f"the Response to {ship.id}'s maneuver and its other DRMs from rule 5.1 "
             "(current, Action cards), e.g. `d10 drm -1`", run.opponents())
    towed = _towed(run)
    if towed is not None:
        diff = _hits_diff(ship, towed)
        run.need("towing_drm", "int", f"the Towing Chart DRM for a Hits difference of {diff} (rule 5.3)", (ship.player,))
    run.goto("maneuver_roll")


def s_maneuver_roll(run: Run) -> None:
    ship = run.ship
    dice = ship.maneuver or (run.fact("card_maneuver") or "d10")
    base, r_drm = (run.fact("response") or "d10 0").split()
    drm, why = maneuver_drm(run, ship, run.proc.order)
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


def s_hazards_ask(run: Run) -> None:
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
    run.say(f"Drift{together}: {result}. A ship drifting off the board exits or runs aground on a marked bank "
            "(`marker SHIP +Grounded`).")
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
    "drift_done": s_drift_done,
}


# ---------------------------------------------------------------- the orders


def must_drift(run: Run) -> bool:
    s = run.ship
    fouled_mobile_enemy = any(
        o not in OBSTACLES and run.other(o).player != s.player and not _immobile(run.other(o)) for o in s.fouled_with
    )
    return s.unpowered or fouled_mobile_enemy


def o_anchor(run: Run) -> None:
    if run.proc.step == "start":
        depth = int(run.need("depth", "int", f"the Shoal Depth of {run.ship.id}'s Grid Box", (run.ship.player,)))
        if depth > 4:
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
        elif not _immobile(s):
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
    if barred:
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
        if kind[0] == "m2" and run.ship.grappled_with:
            run.say(f"{run.ship.id} is grappled: it may not be given a Maneuver 2; the order has no effect.")
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
            if run.ship.has("Smoke"):
                run.change(run.ship.with_marker("Smoke", False), "leaves its Smoke behind")
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
        if s.unpowered or _immobile(s) or towed.player != s.player or _immobile(towed):
            run.say(f"{s.id} cannot tow {towed.id}: the tower must be friendly, powered and not immobile, the tow friendly and not immobile.")
            run.goto("end")
            return
        run.remember("tow", towed.id)
        if towed.id not in s.grappled_with:
            run.change(evolve(run.ship, grappled_with=(*s.grappled_with, towed.id)).with_marker("Grappled"),
                       f"butts against {towed.id} and grapples it for towing")
            t2 = run.other(towed.id)
            run.change(evolve(t2, grappled_with=(*t2.grappled_with, s.id)).with_marker("Grappled"), f"is grappled by {s.id}")
        run.call("maneuver", "moved")
    elif step == "moved":
        if run.fact("maneuver") == "success":
            run.say(f"{run.ship.id} and {towed.id} move together into an adjacent Grid Box (or off the play area).")
            run.call("hazards", "end")
        else:
            run.say(f"{run.ship.id} fails to tow {towed.id}: both stay.")
            run.goto("end")


def _contact_ask(run: Run) -> None:
    """Cross the T / Spar / Ram step b: Quick or Slow Maneuver cards, and the towing DRM."""
    s, target = run.ship, run.other(run.proc.words[1])
    if not s.maneuver:
        run.need("card_maneuver", "dice", f"{s.id}'s Maneuver dice (from its ship card)", (s.player,))
    if not _target_immobile(target) and not target.maneuver:
        run.need("target_maneuver", "dice", f"{target.id}'s Maneuver dice (from its ship card)", (target.player,))
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
    dice = s.maneuver or run.fact("card_maneuver") or "d10"
    if _target_immobile(target):
        response: str | int = "d10"
        r_drm = -5
        why.append(f"{target.id} anchored, aground or fouled: d10 -5")
    else:
        response = target.maneuver or run.fact("target_maneuver") or "d10"
        r_drm = target_card
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
                   and not any(c in run.other(o).criticals for c in HELPER_BARRED) and not _immobile(run.other(o))), None)
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
